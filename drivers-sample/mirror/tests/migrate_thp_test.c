// SPDX-License-Identifier: GPL-2.0
/*
 * B3: migrate a transparent huge page the device mirrors.
 *
 * The re-created 4.11-4.12 kernel reports a PMD-mapped THP with one
 * ->invalidate_page(address) call, as 4.x did for huge pmds. A callback
 * that assumes 4 KiB drops one page and keeps the other 511: the THP
 * cannot move and the device holds stale pages. A driver converted to
 * range callbacks gets [start, start + 2 MiB) on 4.13+ (seed 006's
 * THP-correct ends), and compat/ widens a PMD-aligned invalidate_page()
 * to the whole PMD on pre-4.13 kernels.
 */
#include "kselftest_harness.h"
#include "mirror_test_lib.h"

#define THP_PAGES	512

TEST(migrate_mirrored_thp)
{
	size_t page = sysconf(_SC_PAGESIZE);
	int fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	int status[THP_PAGES], from, target, moved = 0;
	char *raw = map_anon(2 * THP_SIZE), *huge;
	void *addrs[THP_PAGES];
	struct mirror_stats st;
	bool told;

	ASSERT_GE(fd, 0);
	ASSERT_NE(raw, NULL);
	ASSERT_EQ(THP_SIZE / page, THP_PAGES);
	if (!two_nodes())
		SKIP(return, "one NUMA node only");
	huge = huge_page_in(raw, 1, return);
	ASSERT_EQ(dev_io(fd, MIRROR_IOC_MAP, huge, THP_SIZE, NULL), 0);
	ASSERT_EQ(ioctl(fd, MIRROR_IOC_RESET), 0);
	from = page_node(huge);
	ASSERT_GE(from, 0);
	target = !from;

	/* Moving the head moves the whole THP. */
	addrs[0] = huge;
	EXPECT_EQ(move_to_node(addrs, 1, target, status), 0);
	st = stats(fd);
	told = told_range(&st, huge, THP_SIZE);
	printf("# device told: invalidate_page %llu, range_start %llu, largest range %llu KiB\n",
	       st.calls[MIRROR_CB_INVALIDATE_PAGE],
	       st.calls[MIRROR_CB_RANGE_START], st.max_range >> 10);
	EXPECT_TRUE(told);

	for (int i = 0; i < THP_PAGES; i++)
		addrs[i] = huge + i * page;
	ASSERT_EQ(syscall(SYS_move_pages, 0, THP_PAGES, addrs, NULL, status,
			  0), 0);
	for (int i = 0; i < THP_PAGES; i++)
		moved += status[i] == target;
	printf("# %d of %d pages on node %d\n", moved, THP_PAGES, target);
	EXPECT_EQ(moved, THP_PAGES);
	fill(huge, THP_SIZE, 2);
	EXPECT_EQ(device_reads(fd, huge, THP_SIZE, 2), COHERENT);
	munmap(raw, 2 * THP_SIZE);
	close(fd);
}

TEST_HARNESS_MAIN
