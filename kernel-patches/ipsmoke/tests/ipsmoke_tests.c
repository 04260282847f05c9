// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest smoke test of the re-created ->invalidate_page(): migrating
 * pages with move_pages(2) must report each page with invalidate_page and,
 * as in 4.x, not with the range callbacks. The second test makes the
 * callback sleep: on the 4.11-4.12 flavour that gives "BUG: sleeping
 * function called from invalid context" on the console (expected there),
 * on the pre-4.11 flavour it must not.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "ipsmoke_uapi.h"

#define NR_PAGES 16
#define MPOL_MF_MOVE (1 << 1)

FIXTURE(ipsmoke)
{
	int fd;
	size_t page;
	char *buf;
};

FIXTURE_SETUP(ipsmoke)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open("/dev/" IPSMOKE_DEVICE_NAME, O_RDWR);
	ASSERT_GE(self->fd, 0);
	self->buf = mmap(NULL, NR_PAGES * self->page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(self->buf, MAP_FAILED);
	memset(self->buf, 0x5a, NR_PAGES * self->page);
}

FIXTURE_TEARDOWN(ipsmoke)
{
	munmap(self->buf, NR_PAGES * self->page);
	close(self->fd);
}

/* Move the buffer to the other of nodes 0 and 1; return pages moved. */
static int migrate_buffer(char *buf, size_t page)
{
	void *pages[NR_PAGES];
	int nodes[NR_PAGES], status[NR_PAGES], moved = 0;

	for (int i = 0; i < NR_PAGES; i++)
		pages[i] = buf + i * page;
	if (syscall(SYS_move_pages, 0, NR_PAGES, pages, NULL, status, 0))
		return -1;
	for (int i = 0; i < NR_PAGES; i++)
		nodes[i] = status[i] == 0 ? 1 : 0;
	if (syscall(SYS_move_pages, 0, NR_PAGES, pages, nodes, status,
		    MPOL_MF_MOVE))
		return -1;
	for (int i = 0; i < NR_PAGES; i++)
		moved += status[i] == nodes[i];
	return moved;
}

TEST_F(ipsmoke, migration_reports_invalidate_page)
{
	struct ipsmoke_stats st;

	ASSERT_EQ(ioctl(self->fd, IPSMOKE_IOC_RESET), 0);
	ASSERT_EQ(migrate_buffer(self->buf, self->page), NR_PAGES);
	ASSERT_EQ(ioctl(self->fd, IPSMOKE_IOC_STATS, &st), 0);
	TH_LOG("invalidate_page %llu, range_start %llu, range_end %llu",
	       st.invalidate_page, st.range_start, st.range_end);
	ASSERT_GE(st.invalidate_page, NR_PAGES);
	ASSERT_EQ(st.range_start, 0);
	ASSERT_GE(st.last_page_address, (uintptr_t)self->buf);
	ASSERT_LT(st.last_page_address,
		  (uintptr_t)self->buf + NR_PAGES * self->page);
}

TEST_F(ipsmoke, sleeping_invalidate_page)
{
	struct ipsmoke_stats st;

	ASSERT_EQ(ioctl(self->fd, IPSMOKE_IOC_SLEEP, 1), 0);
	ASSERT_EQ(ioctl(self->fd, IPSMOKE_IOC_RESET), 0);
	ASSERT_EQ(migrate_buffer(self->buf, self->page), NR_PAGES);
	ASSERT_EQ(ioctl(self->fd, IPSMOKE_IOC_STATS, &st), 0);
	ASSERT_GE(st.invalidate_page, NR_PAGES);
	ASSERT_EQ(ioctl(self->fd, IPSMOKE_IOC_SLEEP, 0), 0);
}

TEST_HARNESS_MAIN
