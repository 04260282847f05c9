// SPDX-License-Identifier: GPL-2.0
/*
 * Coherence tests of the mirror device: after every event that changes the
 * CPU page tables, the CPU writes a fresh pattern and the device must read
 * that pattern or fault, never the old data; where the event leaves the
 * CPU with the same page (mprotect, a THP split, a swap-out that brings
 * the page back), the device must still have dropped what it was told to.
 * Each of them fails on a device that ignores invalidations
 * (MIRROR_SKIP_INVALIDATION=1, mirror-broken.suite). What happens to the
 * device when its opener exits or is OOM-killed, and module unload, are in
 * mirror_lifecycle_tests.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mirror_test_lib.h"

FIXTURE(mirror)
{
	int fd;
	size_t page;
	size_t len;
	char *buf;
};

FIXTURE_SETUP(mirror)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->len = NR_PAGES * self->page;
	map_into_device(self, 1);
	/* The device works before any event: it reads what the CPU wrote. */
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 1), COHERENT);
	ASSERT_EQ(ioctl(self->fd, MIRROR_IOC_RESET), 0);
}

FIXTURE_TEARDOWN(mirror)
{
	munmap(self->buf, self->len);
	close(self->fd);
}

TEST_F(mirror, munmap)
{
	struct mirror_stats st;
	char *again;

	ASSERT_EQ(munmap(self->buf, self->len), 0);
	st = stats(self->fd);
	/* Whichever hook the device uses, it heard of the whole range. */
	EXPECT_GE(st.bytes[MIRROR_CB_RANGE_START] +
		  st.bytes[MIRROR_CB_SECONDARY_TLBS] +
		  st.bytes[MIRROR_CB_INVALIDATE_PAGE], self->len);
	EXPECT_EQ(st.mapped_pages, 0);
	again = mmap(self->buf, self->len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	ASSERT_EQ(again, self->buf);
	fill(self->buf, self->len, 2);
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
}

TEST_F(mirror, mprotect_read_only_then_write)
{
	struct mirror_stats st;

	/*
	 * The page stays the same, so the data cannot tell: a device that
	 * may map pages writable must drop them when the CPU write-protects.
	 */
	ASSERT_EQ(mprotect(self->buf, self->len, PROT_READ), 0);
	st = stats(self->fd);
	EXPECT_EQ(st.mapped_pages, 0);
	ASSERT_EQ(mprotect(self->buf, self->len, PROT_READ | PROT_WRITE), 0);
	fill(self->buf, self->len, 2);
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
}

TEST_F(mirror, madv_dontneed)
{
	ASSERT_EQ(madvise(self->buf, self->len, MADV_DONTNEED), 0);
	fill(self->buf, self->len, 2);
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
}

TEST_F(mirror, fork_copy_on_write)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/* The child's copy changes; the parent's device must not. */
		fill(self->buf, self->len, 3);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 1), COHERENT);
	fill(self->buf, self->len, 2);
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
}

TEST_F(mirror, fork_copy_on_write_child_keeps_page)
{
	int status, pipefd[2];
	enum verdict verdict;
	pid_t pid;
	char c;

	/* Here the child holds the old page while the parent writes. */
	ASSERT_EQ(pipe(pipefd), 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		if (read(pipefd[0], &c, 1) != 1)
			_exit(2);
		_exit(holds(self->buf, self->buf, self->len, 1) ? 0 : 1);
	}
	fill(self->buf, self->len, 2);
	verdict = device_reads(self->fd, self->buf, self->len, 2);
	/* Release the child before any assertion can end the test. */
	ASSERT_EQ(write(pipefd[1], "x", 1), 1);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_EQ(verdict, COHERENT);
	EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(mirror, mremap)
{
	char *moved, *dst = map_anon(self->len);

	ASSERT_NE(dst, NULL);
	moved = mremap(self->buf, self->len, self->len,
		       MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	ASSERT_EQ(moved, dst);
	/* Old addresses are gone for the device; new ones map afresh. */
	ASSERT_EQ(dev_io(self->fd, MIRROR_IOC_READ, self->buf, self->page,
			 dst), -ENXIO);
	self->buf = moved;
	fill(self->buf, self->len, 2);
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
}

TEST_F(mirror, thp_split_by_partial_mprotect)
{
	struct mirror_stats st;
	bool saw_huge;
	char *raw, *huge;
	__u64 mapped;

	raw = map_anon(2 * THP_SIZE);
	ASSERT_NE(raw, NULL);
	huge = huge_page_in(raw, 1, munmap(raw, 2 * THP_SIZE); return);
	ASSERT_EQ(dev_io(self->fd, MIRROR_IOC_MAP, huge, THP_SIZE, NULL), 0);
	ASSERT_EQ(ioctl(self->fd, MIRROR_IOC_RESET), 0);
	mapped = stats(self->fd).mapped_pages;

	/* Splitting the PMD must invalidate the whole 2 MiB. */
	ASSERT_EQ(mprotect(huge + 4 * self->page, self->page, PROT_READ), 0);
	st = stats(self->fd);
	saw_huge = told_range(&st, huge, THP_SIZE);
	/*
	 * A TLB-only device need not hear of the split (the pages stay); a
	 * device with range callbacks must see the whole huge page go, and
	 * drop it: the pages stay the same, so only the count can tell.
	 */
	if (!(st.device_flags & MIRROR_DEVICE_TLB_ONLY)) {
		EXPECT_TRUE(saw_huge);
		EXPECT_LE(st.mapped_pages, mapped - THP_SIZE / self->page);
	}
	ASSERT_EQ(mprotect(huge + 4 * self->page, self->page,
			   PROT_READ | PROT_WRITE), 0);
	fill(huge, THP_SIZE, 2);
	EXPECT_EQ(device_reads(self->fd, huge, THP_SIZE, 2), COHERENT);
	munmap(raw, 2 * THP_SIZE);
}

TEST_F(mirror, migrate_to_other_node)
{
	void *pages[NR_PAGES];
	int nodes[NR_PAGES], status[NR_PAGES], target;

	for (int i = 0; i < NR_PAGES; i++)
		pages[i] = self->buf + i * self->page;
	if (syscall(SYS_move_pages, 0, NR_PAGES, pages, NULL, status, 0))
		SKIP(return, "move_pages: %s", strerror(errno));
	if (read_long("/sys/devices/system/node/node1/cpu1/online") < 0 &&
	    access("/sys/devices/system/node/node1", F_OK))
		SKIP(return, "one NUMA node only");
	target = status[0] == 0 ? 1 : 0;
	for (int i = 0; i < NR_PAGES; i++)
		nodes[i] = target;
	ASSERT_EQ(syscall(SYS_move_pages, 0, NR_PAGES, pages, nodes, status,
			  MPOL_MF_MOVE), 0);
	/* A page the device still holds cannot move: that is staleness. */
	for (int i = 0; i < NR_PAGES; i++)
		EXPECT_EQ(status[i], target);
	fill(self->buf, self->len, 2);
	ASSERT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
}

/* Full scans of ksmd after which ksm_merge's verdict stands. */
#define KSM_SETTLED_SCANS 10

TEST_F_TIMEOUT(mirror, ksm_merge, 60)
{
	char *twin = map_anon(self->len);
	long sharing = 0, scans;

	ASSERT_NE(twin, NULL);
	if (access("/sys/kernel/mm/ksm/run", W_OK))
		SKIP(return, "no KSM");
	memset(self->buf, 0x77, self->len);
	memset(twin, 0x77, self->len);
	ASSERT_EQ(dev_io(self->fd, MIRROR_IOC_MAP, self->buf, self->len, NULL),
		  0);
	ASSERT_EQ(madvise(self->buf, self->len, MADV_MERGEABLE), 0);
	ASSERT_EQ(madvise(twin, self->len, MADV_MERGEABLE), 0);
	write_file("/sys/kernel/mm/ksm/pages_to_scan", "1000");
	write_file("/sys/kernel/mm/ksm/sleep_millisecs", "10");
	write_file("/sys/kernel/mm/ksm/run", "1");
	/*
	 * ksmd merges a page on a scan that finds it unchanged since the one
	 * before, if nothing else holds a reference to it. A page that
	 * KSM_SETTLED_SCANS more full scans did not merge (6.7+'s smart scan
	 * retries one that failed 3 scans after 1, 2, then 4 skipped scans)
	 * is held: the verdict is final and the wait ends there, not at the
	 * 20 s bound, which stays for a ksmd too slow to finish its scans.
	 * scans < 0 (no full_scans): the bound alone.
	 */
	scans = read_long("/sys/kernel/mm/ksm/full_scans");
	for (int i = 0; i < 400 && sharing < NR_PAGES; i++) {
		long done;

		usleep(50000);
		done = read_long("/sys/kernel/mm/ksm/full_scans") - scans;
		sharing = read_long("/sys/kernel/mm/ksm/pages_sharing");
		if (scans >= 0 && done >= KSM_SETTLED_SCANS)
			break;
	}
	/* A page the device still holds cannot be merged. */
	EXPECT_GE(sharing, NR_PAGES);
	fill(self->buf, self->len, 2);
	EXPECT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
	write_file("/sys/kernel/mm/ksm/run", "2");
	munmap(twin, self->len);
}

TEST_F(mirror, swap_out)
{
	long resident, swap_kb;
	int ret;

	if (!swap_on())
		SKIP(return, "no swap device (zram) in this guest");
	ret = madvise(self->buf, self->len, MADV_PAGEOUT);
	if (ret && errno == EINVAL) {
		swap_off();
		SKIP(return, "madvise(MADV_PAGEOUT): EINVAL: no MADV_PAGEOUT (5.4+) in this kernel");
	}
	EXPECT_EQ(ret, 0);
	/*
	 * The pages went to swap and left memory: a device that kept its
	 * reference keeps them in the swap cache, where the CPU finds the
	 * same page again and the data cannot tell.
	 */
	resident = resident_pages(self->buf, self->len);
	swap_kb = smaps_kb(self->buf, "Swap:");
	EXPECT_EQ(resident, 0);
	EXPECT_EQ(swap_kb, (long)(self->len >> 10));
	fill(self->buf, self->len, 2);
	EXPECT_EQ(device_reads(self->fd, self->buf, self->len, 2), COHERENT);
	swap_off();
}

TEST_HARNESS_MAIN
