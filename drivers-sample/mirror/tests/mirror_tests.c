// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest tests of the mirror sample device: what the MMU notifier tells
 * the device when the CPU page tables change.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mirror_uapi.h"

#define NR_PAGES 16

/* True when the recorded ranges, taken together, cover [start, end). */
static bool ranges_cover(const struct mirror_stats *st, uint64_t start,
			 uint64_t end)
{
	bool progress = true;

	while (start < end && progress) {
		progress = false;
		for (unsigned int i = 0; i < st->nr_ranges; i++) {
			const struct mirror_range *r = &st->ranges[i];

			if (r->start <= start && r->end > start) {
				start = r->end;
				progress = true;
			}
		}
	}
	return start >= end;
}

FIXTURE(mirror)
{
	int fd;
	size_t page;
};

FIXTURE_SETUP(mirror)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(mirror)
{
	close(self->fd);
}

TEST_F(mirror, munmap_is_covered)
{
	size_t len = NR_PAGES * self->page;
	struct mirror_stats st;
	char *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(buf, MAP_FAILED);
	memset(buf, 0x5a, len);

	ASSERT_EQ(ioctl(self->fd, MIRROR_IOC_RESET), 0);
	ASSERT_EQ(munmap(buf, len), 0);
	ASSERT_EQ(ioctl(self->fd, MIRROR_IOC_STATS, &st), 0);

	ASSERT_GT(st.calls[MIRROR_CB_RANGE_START], 0);
	ASSERT_EQ(st.calls[MIRROR_CB_RANGE_START],
		  st.calls[MIRROR_CB_RANGE_END]);
	ASSERT_GE(st.bytes[MIRROR_CB_RANGE_START], len);
	ASSERT_TRUE(ranges_cover(&st, (uintptr_t)buf, (uintptr_t)buf + len));
	ASSERT_EQ(st.calls[MIRROR_CB_RELEASE], 0);
}

TEST_F(mirror, untouched_range_is_quiet)
{
	size_t len = NR_PAGES * self->page;
	struct mirror_stats st;
	char *buf;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(buf, MAP_FAILED);
	memset(buf, 0x5a, len);

	ASSERT_EQ(ioctl(self->fd, MIRROR_IOC_RESET), 0);
	buf[0] = 1;
	ASSERT_EQ(ioctl(self->fd, MIRROR_IOC_STATS, &st), 0);
	ASSERT_EQ(st.calls[MIRROR_CB_RANGE_START], 0);
	ASSERT_EQ(munmap(buf, len), 0);
}

TEST_HARNESS_MAIN
