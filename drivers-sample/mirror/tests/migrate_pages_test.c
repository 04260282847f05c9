// SPDX-License-Identifier: GPL-2.0
/*
 * B1 and B2: migrate pages the device mirrors to the other NUMA node.
 *
 * try_to_migrate_one() unmaps them. On the re-created pre-4.13 kernels it
 * tells secondary MMUs with ->invalidate_page() only, since 4.13 with
 * invalidate_range_start()/end(). A device that is not told keeps its page
 * references: the pages cannot move and the device goes on reading the old
 * copies (B2, a range-only driver without compat on a pre-4.13 kernel). A
 * device whose invalidate_page() sleeps is told, but from under the
 * page-table lock on 4.11-4.12: "sleeping function called from invalid
 * context" on the console (B1).
 */
#include "kselftest_harness.h"
#include "mirror_test_lib.h"

TEST(migrate_mirrored_pages)
{
	size_t page = sysconf(_SC_PAGESIZE), len = NR_PAGES * page;
	int fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	int status[NR_PAGES], from, target;
	char *buf = map_anon(len);
	void *addrs[NR_PAGES];
	struct mirror_stats st;

	ASSERT_GE(fd, 0);
	ASSERT_NE(buf, NULL);
	if (!two_nodes())
		SKIP(return, "one NUMA node only");
	fill(buf, len, 1);
	ASSERT_EQ(dev_io(fd, MIRROR_IOC_MAP, buf, len, NULL), 0);
	ASSERT_EQ(ioctl(fd, MIRROR_IOC_RESET), 0);
	from = page_node(buf);
	ASSERT_GE(from, 0);
	target = !from;
	for (int i = 0; i < NR_PAGES; i++)
		addrs[i] = buf + i * page;

	/* A page the device still holds cannot move: that is staleness. */
	EXPECT_EQ(move_to_node(addrs, NR_PAGES, target, status), 0);
	for (int i = 0; i < NR_PAGES; i++)
		EXPECT_EQ(status[i], target);
	st = stats(fd);
	printf("# device told: invalidate_page %llu, range_start %llu, secondary_tlbs %llu\n",
	       st.calls[MIRROR_CB_INVALIDATE_PAGE],
	       st.calls[MIRROR_CB_RANGE_START],
	       st.calls[MIRROR_CB_SECONDARY_TLBS]);
	fill(buf, len, 2);
	EXPECT_EQ(device_reads(fd, buf, len, 2), COHERENT);
	munmap(buf, len);
	close(fd);
}

TEST_HARNESS_MAIN
