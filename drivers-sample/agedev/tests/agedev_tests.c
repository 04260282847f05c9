// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the agedev device, built from notifier glue written for 4.x
 * with KVM's young callbacks and converted by semantic-patches/convert.sh:
 * its invalidations (munmap, MADV_DONTNEED) and, above all, that the
 * converted driver still has its young callbacks and that the kernel uses
 * them: MGLRU's aging (clear_young) and reclaim (clear_flush_young) must
 * ask the device and clear its accessed bits. (Idle page tracking asks too,
 * but Debian's kernels are built without it.) Built with
 * AGEDEV_NO_YOUNG=1 (young callbacks that answer "old" and clear nothing, a
 * port that lost them) every ageing test that runs fails. test_young is
 * called by khugepaged only: not exercised here.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "agedev_uapi.h"

#define OLD_VALUE	0x0123456789abcdefULL
#define NEW_VALUE	0xfedcba9876543210ULL
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define CGROUP_DIR	CGROUP_ROOT "/agedev"
#define RECLAIM_PAGES	64
#define BALLAST_PAGES	256
#define LRU_GEN		"/sys/kernel/debug/lru_gen"
#define LRU_GEN_ENABLED	"/sys/kernel/mm/lru_gen/enabled"
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

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

static struct agedev_stats dev_stats(int fd)
{
	struct agedev_stats s;

	memset(&s, 0, sizeof(s));
	if (ioctl(fd, AGEDEV_IOC_STATS, &s))
		memset(&s, 0xff, sizeof(s));
	return s;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

/* A swap device: zram, as the mirror tests set it up. */
static int swap_ready(void)
{
	char line[256];
	int on = 0;
	FILE *f;

	if (access("/sys/block/zram0/disksize", W_OK) == 0) {
		f = fopen("/sys/block/zram0/disksize", "r");
		if (f && fgets(line, sizeof(line), f) && atol(line) == 0 &&
		    write_str("/sys/block/zram0/disksize", "64M") == 0 &&
		    system("mkswap /dev/zram0 >/dev/null && swapon /dev/zram0"))
			fprintf(stderr, "# swapon /dev/zram0 failed\n");
		if (f)
			fclose(f);
	}
	f = fopen("/proc/swaps", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		on |= line[0] == '/';
	fclose(f);
	return on;
}

FIXTURE(agedev) {
	int fd;
	uint64_t *p;
	size_t page;
};

FIXTURE_SETUP(agedev)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open("/dev/" AGEDEV_DEV, O_RDWR);
	ASSERT_GE(self->fd, 0) TH_LOG("open /dev/%s: %s", AGEDEV_DEV,
				      strerror(errno));
	self->p = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(self->p, MAP_FAILED);
	*self->p = OLD_VALUE;
	ASSERT_EQ(0, dev_word(self->fd, AGEDEV_IOC_SNAP, self->p, NULL));
}

FIXTURE_TEARDOWN(agedev)
{
	if (self->p && self->p != MAP_FAILED)
		munmap(self->p, self->page);
	close(self->fd);
}

TEST_F(agedev, munmap)
{
	struct agedev_stats s;

	ASSERT_EQ(0, munmap(self->p, self->page));
	ASSERT_EQ(-ENOENT, dev_word(self->fd, AGEDEV_IOC_READ, self->p, NULL));
	self->p = NULL;
	s = dev_stats(self->fd);
	ASSERT_EQ(1, s.snapped);
	ASSERT_EQ(1, s.dropped);
}

TEST_F(agedev, madv_dontneed)
{
	uint64_t seen = 0;
	int ret;

	ASSERT_EQ(0, madvise(self->p, self->page, MADV_DONTNEED));
	*self->p = NEW_VALUE;
	ret = dev_word(self->fd, AGEDEV_IOC_READ, self->p, &seen);
	ASSERT_TRUE(ret == -ENOENT || (ret == 0 && seen == NEW_VALUE));
}

/*
 * MGLRU's aging command for every node of the root memory cgroup, each at
 * its newest generation, into cmd: "+ ID NODE SEQ 1 1;..." (swappiness 1:
 * anonymous pages too; force_scan). 0, or -errno.
 */
static int lru_gen_aging_cmd(char *cmd, size_t size)
{
	unsigned long seq, max_seq = 0;
	int node = -1, in_root = 0, found = 0, len = 0;
	char line[256], path[200];
	unsigned int id = 0, m;
	FILE *f;

	f = fopen(LRU_GEN, "r");
	if (!f)
		return -errno;
	cmd[0] = 0;
	/* a line past the last one ends the last node */
	while (1) {
		int more = fgets(line, sizeof(line), f) != NULL;
		int n;

		path[0] = 0;
		if (more && sscanf(line, " %lu", &seq) == 1) {
			if (in_root && node >= 0 && seq > max_seq)
				max_seq = seq;
			continue;
		}
		if (in_root && node >= 0) {
			n = snprintf(cmd + len, size - len, "%s+ %u %d %lu 1 1",
				     len ? ";" : "", id, node, max_seq);
			if (n < 0 || (size_t)n >= size - len)
				break;
			len += n;
		}
		node = -1;
		max_seq = 0;
		if (!more)
			break;
		if (sscanf(line, "memcg %u %199s", &m, path) >= 1) {
			/* the root's (path "/", or none without memcg) */
			in_root = !found && (!path[0] || !strcmp(path, "/"));
			if (in_root) {
				id = m;
				found = 1;
			}
		} else if (sscanf(line, " node %d", &node) != 1) {
			node = -1;
		}
	}
	fclose(f);
	return len ? 0 : -ENOENT;
}

/*
 * MGLRU's aging (its debugfs command "+ memcg node seq swappiness
 * force_scan", 6.1+, on every node) walks the page tables of the memory
 * cgroup's tasks and,
 * since 6.12 (1d4832becdc2), asks the secondary MMUs about every page it
 * finds (clear_young): the device's answer "young" clears its accessed bit.
 */
TEST_F(agedev, mglru_aging)
{
	struct agedev_stats before, after;
	char cmd[256], enabled[32] = "";
	unsigned int tries;
	uint64_t young = 0, *ballast;
	size_t i, words = self->page / sizeof(uint64_t);
	FILE *f;

	if (access(LRU_GEN, F_OK) &&
	    mount("none", "/sys/kernel/debug", "debugfs", 0, NULL) && errno != EBUSY)
		SKIP(return, "no debugfs: %s", strerror(errno));
	f = fopen(LRU_GEN_ENABLED, "r");
	if (access(LRU_GEN, W_OK) || !f || !fgets(enabled, sizeof(enabled), f)) {
		if (f)
			fclose(f);
		SKIP(return, "no MGLRU-secondary-MMU-aging (6.12+) in this kernel: no %s (CONFIG_LRU_GEN)", LRU_GEN);
	}
	fclose(f);
	/* Off (its default on 6.1): on for this test. */
	if (strtoul(enabled, NULL, 0) == 0)
		ASSERT_EQ(0, write_str(LRU_GEN_ENABLED, "y"));
	ASSERT_EQ(0, dev_word(self->fd, AGEDEV_IOC_YOUNG, self->p, &young));
	ASSERT_EQ(1, young);
	/* The walk skips an mm of fewer than 64 pages (6.1's MIN_LRU_BATCH). */
	ballast = mmap(NULL, BALLAST_PAGES * self->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(ballast, MAP_FAILED);
	for (i = 0; i < BALLAST_PAGES; i++)
		ballast[i * words] = i;

	before = dev_stats(self->fd);
	after = before;
	for (tries = 0; tries < 3 && young; tries++) {
		/* The CPU's access: the walk does not skip p's page table. */
		*self->p = OLD_VALUE;
		ASSERT_EQ(0, lru_gen_aging_cmd(cmd, sizeof(cmd)));
		ASSERT_EQ(0, write_str(LRU_GEN, cmd)) TH_LOG("%s: %s", cmd, strerror(errno));
		after = dev_stats(self->fd);
		ASSERT_EQ(0, dev_word(self->fd, AGEDEV_IOC_YOUNG, self->p, &young));
	}
	if (strtoul(enabled, NULL, 0) == 0)
		write_str(LRU_GEN_ENABLED, "n");
	munmap(ballast, BALLAST_PAGES * self->page);
	if (after.clear_young_calls == before.clear_young_calls)
		SKIP(return, "no MGLRU-secondary-MMU-aging (6.12+) in this kernel: its walk does not call the notifier (1d4832becdc2)");
	/* The device answered "young" and cleared its bit. */
	EXPECT_GT(after.young, before.young);
	EXPECT_EQ(0, young);
}

/*
 * Reclaim asks the secondary MMUs whether a page it is about to evict was
 * used (clear_flush_young): MADV_PAGEOUT did so until it began to ignore
 * references; after that, the classic LRU's reclaim through memory.reclaim
 * (5.19+) of a memory cgroup, which needs swap (zram, built into the source
 * kernels; a driver's run loads no zram module on the packaged ones). The
 * device's answer "young" keeps the page and clears its accessed bit.
 */
TEST_F(agedev, reclaim)
{
	struct agedev_stats before, s;
	uint64_t young = 1, *pages, *mid;
	size_t i, words = self->page / sizeof(uint64_t);
	char pid[32], enabled[32] = "";
	FILE *f;

	before = dev_stats(self->fd);
	if (madvise(self->p, self->page, MADV_PAGEOUT) && errno == EINVAL)
		SKIP(return, "no MADV_PAGEOUT (5.4+) in this kernel");
	s = dev_stats(self->fd);
	if (s.flush_young_calls > before.flush_young_calls) {
		EXPECT_GT(s.young, before.young);
		EXPECT_EQ(0, dev_word(self->fd, AGEDEV_IOC_YOUNG, self->p, &young));
		EXPECT_EQ(0, young);
		return;
	}

	/* This kernel's MADV_PAGEOUT does not ask: memory.reclaim. */
	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK) &&
	    mount("none", CGROUP_ROOT, "cgroup2", 0, NULL))
		SKIP(return, "MADV_PAGEOUT ignores references here, and no cgroup2: %s",
		     strerror(errno));
	if (write_str(CGROUP_ROOT "/cgroup.subtree_control", "+memory") ||
	    (mkdir(CGROUP_DIR, 0755) && errno != EEXIST))
		SKIP(return, "MADV_PAGEOUT ignores references here, and no memory cgroup");
	if (access(CGROUP_DIR "/memory.reclaim", W_OK) || !swap_ready()) {
		rmdir(CGROUP_DIR);
		SKIP(return, "MADV_PAGEOUT ignores references here, and memory.reclaim (5.19+) or swap (zram) is missing");
	}
	/*
	 * MGLRU's reclaim asks clear_young (its look-around), not
	 * clear_flush_young: the classic LRU for this test.
	 */
	f = fopen(LRU_GEN_ENABLED, "r");
	if (f) {
		if (!fgets(enabled, sizeof(enabled), f))
			enabled[0] = 0;
		fclose(f);
	}
	if (strtoul(enabled, NULL, 0))
		ASSERT_EQ(0, write_str(LRU_GEN_ENABLED, "n"));
	snprintf(pid, sizeof(pid), "%d", getpid());
	ASSERT_EQ(0, write_str(CGROUP_DIR "/cgroup.procs", pid));
	/* Charged to the new cgroup: allocated after the move. */
	pages = mmap(NULL, RECLAIM_PAGES * self->page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(pages, MAP_FAILED);
	for (i = 0; i < RECLAIM_PAGES; i++)
		pages[i * words] = OLD_VALUE;
	mid = pages + RECLAIM_PAGES / 2 * words;
	ASSERT_EQ(0, dev_word(self->fd, AGEDEV_IOC_SNAP, mid, NULL));
	before = dev_stats(self->fd);
	s = before;
	for (i = 0; i < 10 && s.flush_young_calls == before.flush_young_calls; i++) {
		/* It fails (EAGAIN) when it reclaimed less: fine. */
		write_str(CGROUP_DIR "/memory.reclaim", "1M");
		s = dev_stats(self->fd);
	}
	write_str(CGROUP_ROOT "/cgroup.procs", pid);
	if (strtoul(enabled, NULL, 0))
		write_str(LRU_GEN_ENABLED, "y");
	ASSERT_GT(s.flush_young_calls, before.flush_young_calls)
		TH_LOG("reclaim never asked the device");
	EXPECT_GT(s.young, before.young);
	EXPECT_EQ(0, dev_word(self->fd, AGEDEV_IOC_YOUNG, mid, &young));
	EXPECT_EQ(0, young);
	munmap(pages, RECLAIM_PAGES * self->page);
	rmdir(CGROUP_DIR);
	if (system("swapoff /dev/zram0"))
		fprintf(stderr, "# swapoff failed\n");
}

TEST_HARNESS_MAIN
