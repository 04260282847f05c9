/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-guest tests of a shape fixture device (SHAPE_DEV: its module's
 * name), after its notifier glue went through semantic-patches/convert.sh:
 * the device must not keep a page the CPU page table no longer maps, also
 * when it faults the page in again between an invalidation's start and the
 * page-table change (ARM/WAIT/RESUME put that fault exactly there).
 *
 *  - refault_then_munmap: map a page into the device, unmap it; during the
 *    invalidation's start a second thread makes the device fault it in
 *    again. The device must then hold nothing (READ: ENOENT), not the old
 *    page.
 *  - refault_then_migrate: the same with move_pages() to the other NUMA node; the page
 *    must move, and the device must read what the CPU wrote after it
 *    moved.
 *
 * A device whose invalidation start is never called there (no such
 * callback, or a kernel whose rmap paths call only invalidate_page) has
 * no window: the second thread's WAIT times out and it does nothing.
 */
#ifndef _SHAPE_TESTS_H
#define _SHAPE_TESTS_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "shape_io.h"

#define MPOL_MF_MOVE	(1 << 1)

struct refault {
	int fd;
	void *addr;
	int waited;	/* WAIT: 0 (the start waited), else -errno */
	int mapped;	/* MAP in the window: 0, else -errno */
};

/*
 * The second thread: fault the page in inside every window (migration
 * tries again when a page is busy), until none comes for a second.
 */
static void *refault_thread(void *arg)
{
	struct refault *r = arg;
	int ret;

	r->waited = -ETIMEDOUT;
	r->mapped = -ENODATA;
	while (!ioctl(r->fd, SHAPE_IOC_WAIT)) {
		r->waited = 0;
		ret = shape_io(r->fd, SHAPE_IOC_MAP, r->addr, NULL);
		if (r->mapped)
			r->mapped = ret;
		ioctl(r->fd, SHAPE_IOC_RESUME);
	}
	return NULL;
}

static int start_refault(struct refault *r, pthread_t *t)
{
	uint64_t armed = (uintptr_t)r->addr;

	if (ioctl(r->fd, SHAPE_IOC_ARM, &armed))
		return -errno;
	return -pthread_create(t, NULL, refault_thread, r);
}

static void stop_refault(struct refault *r, pthread_t t)
{
	uint64_t none = 0;

	ioctl(r->fd, SHAPE_IOC_ARM, &none);
	pthread_join(t, NULL);
	printf("# window: %s; fault in the window: %s\n",
	       r->waited ? "no invalidation start waited" : "the start waited",
	       r->waited ? "none" : r->mapped ? strerror(-r->mapped) : "mapped");
}

static void *map_page(void)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, page, MADV_NOHUGEPAGE);
	return p;
}

static int page_node(void *addr)
{
	int status = -1;

	if (syscall(SYS_move_pages, 0, 1UL, &addr, NULL, &status, 0))
		return -errno;
	return status;
}

TEST(refault_then_munmap)
{
	size_t page = sysconf(_SC_PAGESIZE);
	struct refault r = { .fd = open("/dev/" SHAPE_DEV, O_RDWR) };
	uint64_t v = 0;
	pthread_t t;
	int ret;

	ASSERT_GE(r.fd, 0) TH_LOG("open /dev/%s: %s", SHAPE_DEV, strerror(errno));
	r.addr = map_page();
	ASSERT_NE(r.addr, NULL);
	*(uint64_t *)r.addr = 0x1111;
	ASSERT_EQ(shape_io(r.fd, SHAPE_IOC_MAP, r.addr, NULL), 0);
	ASSERT_EQ(shape_io(r.fd, SHAPE_IOC_READ, r.addr, &v), 0);
	ASSERT_EQ(v, 0x1111);
	ASSERT_EQ(start_refault(&r, &t), 0);
	ASSERT_EQ(munmap(r.addr, page), 0);
	stop_refault(&r, t);
	/* The page is gone from the process: the device must not hold it. */
	ret = shape_io(r.fd, SHAPE_IOC_READ, r.addr, &v);
	EXPECT_EQ(ret, -ENOENT) TH_LOG("the device still reads %#llx through a page the process unmapped",
				       (unsigned long long)v);
	close(r.fd);
}

TEST(refault_then_migrate)
{
	struct refault r = { .fd = open("/dev/" SHAPE_DEV, O_RDWR) };
	int from, target, status = -1, ret;
	uint64_t v = 0;
	pthread_t t;

	ASSERT_GE(r.fd, 0) TH_LOG("open /dev/%s: %s", SHAPE_DEV, strerror(errno));
	r.addr = map_page();
	ASSERT_NE(r.addr, NULL);
	*(uint64_t *)r.addr = 0x2222;
	from = page_node(r.addr);
	ASSERT_GE(from, 0);
	if (access("/sys/devices/system/node/node1", F_OK))
		SKIP(return, "one NUMA node only");
	target = !from;
	ASSERT_EQ(shape_io(r.fd, SHAPE_IOC_MAP, r.addr, NULL), 0);
	ASSERT_EQ(start_refault(&r, &t), 0);
	ret = syscall(SYS_move_pages, 0, 1UL, &r.addr, &target, &status,
		      MPOL_MF_MOVE);
	stop_refault(&r, t);
	/* A page the device still holds cannot move. */
	EXPECT_EQ(ret, 0);
	EXPECT_EQ(status, target) TH_LOG("move_pages: status %d", status);
	/* What the CPU writes now, the device must read (after a fault). */
	*(uint64_t *)r.addr = 0x3333;
	ret = shape_io(r.fd, SHAPE_IOC_READ, r.addr, &v);
	if (ret == -ENOENT) {
		ASSERT_EQ(shape_io(r.fd, SHAPE_IOC_MAP, r.addr, NULL), 0);
		ret = shape_io(r.fd, SHAPE_IOC_READ, r.addr, &v);
	}
	ASSERT_EQ(ret, 0);
	EXPECT_EQ(v, 0x3333) TH_LOG("the device reads %#llx: the page it held before the migration",
				   (unsigned long long)v);
	munmap(r.addr, sysconf(_SC_PAGESIZE));
	close(r.fd);
}

TEST_HARNESS_MAIN

#endif /* _SHAPE_TESTS_H */
