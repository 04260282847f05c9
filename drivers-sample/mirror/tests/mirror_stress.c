// SPDX-License-Identifier: GPL-2.0
/*
 * Stress: reader threads fault pages into the mirror device and read them
 * through it while a writer thread zaps, remaps, moves and migrates the same
 * pages and writes new generations of data. Every word a reader gets from
 * the device is checked: it must not be older than the generation the CPU
 * had published before the read started.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mirror_uapi.h"

#define NR_PAGES	32
#define NR_READERS	2
#define MAGIC		0x6d6972ULL
#define MPOL_MF_MOVE	(1 << 1)

struct stress {
	int fd;
	size_t page;
	char *base;
	char *spare;			/* where mremap moves a page to */
	atomic_uint gen[NR_PAGES];	/* published generation per page */
	atomic_bool stop;
	atomic_ulong reads, words, stale, events;
};

static uint64_t stamp(unsigned int idx, uint32_t gen)
{
	return MAGIC << 40 | (uint64_t)idx << 32 | gen;
}

static void write_gen(struct stress *s, unsigned int idx, uint32_t gen)
{
	uint64_t *w = (uint64_t *)(s->base + idx * s->page);

	for (size_t i = 0; i < s->page / sizeof(*w); i++)
		w[i] = stamp(idx, gen);
	atomic_store(&s->gen[idx], gen);
}

static int dev_io(int fd, unsigned long cmd, void *addr, size_t len,
		  void *buf)
{
	struct mirror_io io = {
		.addr = (uintptr_t)addr, .len = len, .buf = (uintptr_t)buf,
	};

	return ioctl(fd, cmd, &io) ? -errno : 0;
}

static void *reader(void *arg)
{
	struct stress *s = arg;
	uint64_t *buf = malloc(s->page);
	unsigned int seed = (uintptr_t)&buf;

	while (buf && !atomic_load(&s->stop)) {
		unsigned int idx = rand_r(&seed) % NR_PAGES;
		char *addr = s->base + idx * s->page;
		uint32_t published = atomic_load(&s->gen[idx]);
		int ret;

		ret = dev_io(s->fd, MIRROR_IOC_READ, addr, s->page, buf);
		if (ret == -ENXIO) {
			if (dev_io(s->fd, MIRROR_IOC_MAP, addr, s->page, NULL))
				continue;	/* unmapped right now */
			ret = dev_io(s->fd, MIRROR_IOC_READ, addr, s->page,
				     buf);
		}
		/* Let the writer in: it needs mmap_lock for writing. */
		sched_yield();
		if (ret)
			continue;
		atomic_fetch_add(&s->reads, 1);
		for (size_t i = 0; i < s->page / sizeof(*buf); i++) {
			uint64_t w = buf[i];

			atomic_fetch_add(&s->words, 1);
			/* Zero: a fresh page the writer has not filled yet. */
			if (w && (w >> 40 != MAGIC || ((w >> 32) & 0xff) != idx ||
				  (uint32_t)w < published)) {
				atomic_fetch_add(&s->stale, 1);
				break;
			}
		}
	}
	free(buf);
	return NULL;
}

/* One event on page idx that changes or replaces it in the CPU tables. */
static void event(struct stress *s, unsigned int idx, unsigned int kind)
{
	char *addr = s->base + idx * s->page;
	int node, status;
	void *p = addr;

	switch (kind % 4) {
	case 0:
		madvise(addr, s->page, MADV_DONTNEED);
		break;
	case 1:
		munmap(addr, s->page);
		mmap(addr, s->page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		break;
	case 2:
		mremap(addr, s->page, s->page, MREMAP_MAYMOVE | MREMAP_FIXED,
		       s->spare);
		mremap(s->spare, s->page, s->page,
		       MREMAP_MAYMOVE | MREMAP_FIXED, addr);
		break;
	case 3:
		if (!syscall(SYS_move_pages, 0, 1, &p, NULL, &status, 0) &&
		    status >= 0) {
			node = !status;
			syscall(SYS_move_pages, 0, 1, &p, &node, &status,
				MPOL_MF_MOVE);
		}
		break;
	}
	atomic_fetch_add(&s->events, 1);
}

TEST(readers_race_invalidations)
{
	static struct stress s;
	pthread_t readers[NR_READERS];
	unsigned int seed = 1, round = 0;
	time_t end;

	s.page = sysconf(_SC_PAGESIZE);
	s.fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	ASSERT_GE(s.fd, 0);
	s.base = mmap(NULL, NR_PAGES * s.page, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	s.spare = mmap(NULL, s.page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(s.base, MAP_FAILED);
	ASSERT_NE(s.spare, MAP_FAILED);
	for (unsigned int i = 0; i < NR_PAGES; i++)
		write_gen(&s, i, 1);

	for (int i = 0; i < NR_READERS; i++)
		ASSERT_EQ(pthread_create(&readers[i], NULL, reader, &s), 0);
	end = time(NULL) + (getenv("STRESS_SECONDS") ?
			    atoi(getenv("STRESS_SECONDS")) : 10);
	while (time(NULL) < end) {
		unsigned int idx = rand_r(&seed) % NR_PAGES;
		uint32_t next = atomic_load(&s.gen[idx]) + 1;

		event(&s, idx, round++);
		write_gen(&s, idx, next);
	}
	atomic_store(&s.stop, true);
	for (int i = 0; i < NR_READERS; i++)
		pthread_join(readers[i], NULL);

	printf("# %lu events, %lu device reads, %lu words checked, %lu stale\n",
	       atomic_load(&s.events), atomic_load(&s.reads),
	       atomic_load(&s.words), atomic_load(&s.stale));
	EXPECT_GT(atomic_load(&s.reads), 0);
	EXPECT_EQ(atomic_load(&s.stale), 0);
	close(s.fd);
}

TEST_HARNESS_MAIN
