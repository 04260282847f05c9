// SPDX-License-Identifier: GPL-2.0
/*
 * Coherence tests of the shadow device, on both of its nodes (one per ops
 * table of the converted legacy glue): after munmap (of one page, and of
 * 64 at once), MADV_DONTNEED or a move_pages() migration, the device must
 * not read the old page. Each
 * fails on a device that ignores invalidations (SHADOW_SKIP_INVALIDATION=1,
 * ci/tests/fixtures/expectations-shadow-broken).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "shadow_uapi.h"

#define MPOL_MF_MOVE	(1 << 1)
#define OLD_VALUE	0x0123456789abcdefULL
#define NEW_VALUE	0xfedcba9876543210ULL

/* 0 and *value set, or -errno. */
static int dev_word(int fd, unsigned long cmd, void *addr, uint64_t *value)
{
	struct devpt_word w = { .addr = (uintptr_t)addr };

	if (ioctl(fd, cmd, &w))
		return -errno;
	if (value)
		*value = w.value;
	return 0;
}

static struct shadow_stats dev_stats(int fd)
{
	struct shadow_stats s;

	memset(&s, 0, sizeof(s));
	if (ioctl(fd, SHADOW_IOC_STATS, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

/* After an event the device reads the new value or nothing: never old. */
static int coherent_after_event(int fd, uint64_t *p)
{
	uint64_t seen = 0;
	int ret;

	*p = NEW_VALUE;
	ret = dev_word(fd, SHADOW_IOC_READ, p, &seen);
	if (ret == -ENOENT)
		return 1;
	return ret == 0 && seen == NEW_VALUE;
}

FIXTURE(shadow) {
	int fd;
	uint64_t *p;
	size_t page;
};

FIXTURE_VARIANT(shadow) {
	const char *dev;
	int track;
};

FIXTURE_VARIANT_ADD(shadow, page) {
	.dev = "/dev/" SHADOW_DEV_PAGE,
	.track = 0,
};

FIXTURE_VARIANT_ADD(shadow, track) {
	.dev = "/dev/" SHADOW_DEV_TRACK,
	.track = 1,
};

FIXTURE_SETUP(shadow)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open(variant->dev, O_RDWR);
	ASSERT_GE(self->fd, 0) TH_LOG("open %s: %s", variant->dev,
				      strerror(errno));
	self->p = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(self->p, MAP_FAILED);
	*self->p = OLD_VALUE;
	ASSERT_EQ(0, dev_word(self->fd, SHADOW_IOC_SNAP, self->p, NULL));
}

FIXTURE_TEARDOWN(shadow)
{
	if (self->p && self->p != MAP_FAILED)
		munmap(self->p, self->page);
	close(self->fd);
}

/*
 * Not a coherence test (no event, nothing to invalidate): SNAP takes a
 * reference to the CPU's own page, so the device sees the CPU's writes.
 */
TEST_F(shadow, snap_shares_cpu_page)
{
	uint64_t seen = 0;

	ASSERT_EQ(0, dev_word(self->fd, SHADOW_IOC_READ, self->p, &seen));
	ASSERT_EQ(OLD_VALUE, seen);
	*self->p = NEW_VALUE;
	ASSERT_EQ(0, dev_word(self->fd, SHADOW_IOC_READ, self->p, &seen));
	ASSERT_EQ(NEW_VALUE, seen);
}

TEST_F(shadow, munmap)
{
	struct shadow_stats s;

	ASSERT_EQ(0, munmap(self->p, self->page));
	ASSERT_EQ(-ENOENT, dev_word(self->fd, SHADOW_IOC_READ, self->p, NULL));
	self->p = NULL;
	s = dev_stats(self->fd);
	ASSERT_EQ(1, s.snapped);
	ASSERT_EQ(1, s.dropped);
	/* Which callbacks ran tells the ops table the device registered. */
	ASSERT_GE(variant->track ? s.range_ends : s.page_calls, 1);
}

/*
 * Over 33 pages at once: since Linux 6.6, x86 flushes the whole TLB for
 * such a munmap and hands the secondary-TLB hook [0, ULONG_MAX). A page
 * callback run for every page of that range does not return (the guest
 * times out); the device must drop the page all the same.
 */
TEST_F(shadow, munmap_wide)
{
	size_t pages = 64, words = self->page / sizeof(uint64_t), i;
	uint64_t *wide, *mid;

	wide = mmap(NULL, pages * self->page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(wide, MAP_FAILED);
	for (i = 0; i < pages; i++)
		wide[i * words] = OLD_VALUE;
	mid = wide + pages / 2 * words;
	ASSERT_EQ(0, dev_word(self->fd, SHADOW_IOC_SNAP, mid, NULL));
	ASSERT_EQ(0, munmap(wide, pages * self->page));
	ASSERT_EQ(-ENOENT, dev_word(self->fd, SHADOW_IOC_READ, mid, NULL));
}

TEST_F(shadow, madv_dontneed)
{
	ASSERT_EQ(0, madvise(self->p, self->page, MADV_DONTNEED));
	ASSERT_TRUE(coherent_after_event(self->fd, self->p));
	/* A new SNAP sees the page the CPU uses now. */
	ASSERT_EQ(0, dev_word(self->fd, SHADOW_IOC_SNAP, self->p, NULL));
	ASSERT_TRUE(coherent_after_event(self->fd, self->p));
}

TEST_F(shadow, migrate_to_other_node)
{
	void *pages[1] = { self->p };
	int status[1] = { -1 }, nodes[1];

	if (syscall(SYS_move_pages, 0, 1, pages, NULL, status, 0))
		SKIP(return, "move_pages: %s", strerror(errno));
	ASSERT_GE(status[0], 0);
	nodes[0] = !status[0];
	if (syscall(SYS_move_pages, 0, 1, pages, nodes, status,
		    MPOL_MF_MOVE) && errno == ENODEV)
		SKIP(return, "one NUMA node only");
	/* The device's page reference must not keep the page in place. */
	ASSERT_EQ(nodes[0], status[0]);
	ASSERT_EQ(OLD_VALUE, *self->p);
	ASSERT_TRUE(coherent_after_event(self->fd, self->p));
}

TEST_HARNESS_MAIN
