/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the mirror device's in-guest tests: patterns the CPU writes and
 * the device must read back, device I/O, stats, and the mm knobs the tests
 * turn. Each test program includes this once, after kselftest_harness.h.
 */
#ifndef _MIRROR_TEST_LIB_H
#define _MIRROR_TEST_LIB_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest_mm.h"
#include "mirror_uapi.h"

#define NR_PAGES	16
#define THP_SIZE	(2UL << 20)
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif
#define MPOL_MF_MOVE	(1 << 1)

enum verdict { COHERENT, STALE, DEVICE_ERROR };

static inline void fill(void *p, size_t len, uint64_t seed)
{
	uint64_t *w = p;

	for (size_t i = 0; i < len / sizeof(*w); i++)
		w[i] = seed ^ ((uintptr_t)&w[i] * 0x9e3779b97f4a7c15ULL);
}

static inline bool holds(const void *buf, const void *addr, size_t len,
			 uint64_t seed)
{
	const uint64_t *w = buf;

	for (size_t i = 0; i < len / sizeof(*w); i++) {
		uintptr_t va = (uintptr_t)addr + i * sizeof(*w);

		if (w[i] != (seed ^ (va * 0x9e3779b97f4a7c15ULL)))
			return false;
	}
	return true;
}

static inline int dev_io(int fd, unsigned long cmd, void *addr, size_t len,
			 void *buf)
{
	struct mirror_io io = {
		.addr = (uintptr_t)addr, .len = len, .buf = (uintptr_t)buf,
	};

	return ioctl(fd, cmd, &io) ? -errno : 0;
}

/*
 * What the device reads of [addr, addr + len) now: the pattern of seed,
 * after device faults where the device dropped the pages, or stale data.
 */
static inline enum verdict device_reads(int fd, void *addr, size_t len,
					uint64_t seed)
{
	void *buf = malloc(len);
	enum verdict v = DEVICE_ERROR;
	int ret;

	if (!buf)
		return DEVICE_ERROR;
	ret = dev_io(fd, MIRROR_IOC_READ, addr, len, buf);
	/*
	 * A device fault. The kernel may invalidate again between MAP and
	 * READ (khugepaged collapsing the range, a deferred THP split): the
	 * device then faults again, as a real one would, a few times at most.
	 */
	for (int tries = 0; ret == -ENXIO && tries < 8; tries++) {
		ret = dev_io(fd, MIRROR_IOC_MAP, addr, len, NULL);
		if (!ret)
			ret = dev_io(fd, MIRROR_IOC_READ, addr, len, buf);
	}
	if (!ret)
		v = holds(buf, addr, len, seed) ? COHERENT : STALE;
	else
		fprintf(stderr, "# device read failed: %s\n", strerror(-ret));
	free(buf);
	return v;
}

/* The device's stats: 0, or -errno when the STATS ioctl failed. */
static inline int read_stats(int fd, struct mirror_stats *st)
{
	memset(st, 0, sizeof(*st));
	return ioctl(fd, MIRROR_IOC_STATS, st) ? -errno : 0;
}

/*
 * The device's stats, in a test body: a failed STATS ioctl fails the test
 * (zeros would compare equal to zeros and hide it).
 */
#define stats(fd)							\
	({								\
		struct mirror_stats __st;				\
		int __ret = read_stats(fd, &__st);			\
									\
		ASSERT_EQ(0, __ret) TH_LOG("STATS: %s", strerror(-__ret)); \
		__st;							\
	})

static inline char *map_anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * In a FIXTURE_SETUP whose fixture has fd, len and buf: open the device,
 * map self->len bytes at self->buf, write seed's pattern there and map
 * them into the device.
 */
#define map_into_device(self, seed)					\
	do {								\
		self->fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);	\
		ASSERT_GE(self->fd, 0);					\
		self->buf = map_anon(self->len);			\
		ASSERT_NE(self->buf, NULL);				\
		fill(self->buf, self->len, seed);			\
		ASSERT_EQ(dev_io(self->fd, MIRROR_IOC_MAP, self->buf,	\
				 self->len, NULL), 0);			\
	} while (0)

/*
 * A field of /proc/self/smaps ("AnonHugePages:", "Swap:") for the mapping
 * that holds addr, in kB, or -1.
 */
static inline long smaps_kb(const void *addr, const char *field)
{
	unsigned long start, end;
	char line[256];
	bool inside = false;
	long kb = -1;
	size_t n = strlen(field);
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			inside = start <= (uintptr_t)addr && (uintptr_t)addr < end;
		else if (inside && !strncmp(line, field, n) &&
			 sscanf(line + n, "%ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

static inline long anon_huge_kb(const void *addr)
{
	return smaps_kb(addr, "AnonHugePages:");
}

/*
 * In a test body: the THP_SIZE-aligned half of raw (2 * THP_SIZE bytes
 * from map_anon()), backed by a huge page and written with seed's pattern;
 * where the kernel gives none, the test is skipped, then statement runs
 * (as with SKIP(), it ends in return).
 */
#define huge_page_in(raw, seed, statement)				\
	({								\
		char *__huge = (char *)(((uintptr_t)(raw) + THP_SIZE - 1) & \
					~(THP_SIZE - 1));		\
									\
		if (madvise(__huge, THP_SIZE, MADV_HUGEPAGE))		\
			SKIP(statement,				\
			     "no THP: madvise(MADV_HUGEPAGE): %s",	\
			     strerror(errno));				\
		fill(__huge, THP_SIZE, seed);				\
		if (anon_huge_kb(__huge) < (long)(THP_SIZE >> 10))	\
			SKIP(statement,				\
			     "the kernel gave no huge page here");	\
		__huge;							\
	})

/* Whether the device was told of a range that covers [addr, addr + len). */
static inline bool told_range(const struct mirror_stats *st, const void *addr,
			      size_t len)
{
	for (unsigned int i = 0; i < st->nr_ranges; i++)
		if (st->ranges[i].start <= (uintptr_t)addr &&
		    st->ranges[i].end >= (uintptr_t)addr + len)
			return true;
	return false;
}

/* How many pages of [addr, addr + len) are in memory (mincore), or -1. */
static inline long resident_pages(void *addr, size_t len)
{
	size_t page = sysconf(_SC_PAGESIZE), n = (len + page - 1) / page;
	unsigned char vec[n];
	long resident = 0;

	if (mincore(addr, len, vec))
		return -1;
	for (size_t i = 0; i < n; i++)
		resident += vec[i] & 1;
	return resident;
}

static inline bool swap_on(void)
{
	char line[256];
	bool on = false;
	FILE *f;

	if (access("/sys/block/zram0/disksize", W_OK) == 0 &&
	    read_long("/sys/block/zram0/disksize") == 0) {
		write_file("/sys/block/zram0/disksize", "64M");
		if (system("mkswap /dev/zram0 >/dev/null && swapon /dev/zram0"))
			return false;
	}
	f = fopen("/proc/swaps", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		on |= line[0] == '/';
	fclose(f);
	return on;
}

static inline void swap_off(void)
{
	if (system("swapoff /dev/zram0"))
		fprintf(stderr, "# swapoff failed\n");
}

/* The NUMA node that holds the page at addr, or -1. */
static inline int page_node(void *addr)
{
	int status = -1;

	if (syscall(SYS_move_pages, 0, 1, &addr, NULL, &status, 0))
		return -1;
	return status;
}

/* Whether the guest has a second NUMA node to migrate to. */
static inline bool two_nodes(void)
{
	return access("/sys/devices/system/node/node1", F_OK) == 0;
}

/*
 * Move the pages at addrs[0..n) to node and fill status: the number of
 * pages the kernel could not move, or -errno.
 */
static inline long move_to_node(void **addrs, int n, int node, int *status)
{
	int nodes[n];
	long ret;

	for (int i = 0; i < n; i++)
		nodes[i] = node;
	ret = syscall(SYS_move_pages, 0, n, addrs, nodes, status,
		      MPOL_MF_MOVE);
	return ret < 0 ? -errno : ret;
}

#endif /* _MIRROR_TEST_LIB_H */
