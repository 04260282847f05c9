/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-guest tests of an events shape (SHAPE_DEV: its module's name):
 * the device counts the invalidation events over an armed address, as
 * ummunotify counts them for user space. A converted shape_events must
 * count what shape_events_native counts: one event per change of the
 * page table, on every kernel. A table that kept invalidate_page as the
 * secondary-TLB hook beside its range start counts a change twice on
 * 3.19-6.5 (the range start, then the hook).
 *
 *  - one_event_per_dontneed: MADV_DONTNEED of the armed page;
 *  - one_event_per_mprotect: mprotect(PROT_READ) of it;
 *  - one_event_per_munmap: munmap of it.
 */
#ifndef _EVENTS_TESTS_H
#define _EVENTS_TESTS_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "shape_uapi.h"

/* The device's event count, or -1 (errno set). */
static long long events_now(int fd)
{
	struct shape_stats st;

	if (ioctl(fd, SHAPE_IOC_STATS, &st))
		return -1;
	return (long long)st.events;
}

/* A written, armed page of a fresh mapping; NULL on failure. */
static void *armed_page(int fd)
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t addr;

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5a, 2 * page);
	addr = (uintptr_t)p;
	if (ioctl(fd, SHAPE_IOC_ARM, &addr))
		return NULL;
	return p;
}

FIXTURE(events) {
	int fd;
	char *p;
	long long before;
};

FIXTURE_SETUP(events)
{
	self->fd = open("/dev/" SHAPE_DEV, O_RDWR);
	ASSERT_GE(self->fd, 0) TH_LOG("open /dev/%s: %s", SHAPE_DEV, strerror(errno));
	self->p = armed_page(self->fd);
	ASSERT_NE(self->p, NULL) TH_LOG("mmap/ARM: %s", strerror(errno));
	self->before = events_now(self->fd);
	ASSERT_GE(self->before, 0) TH_LOG("STATS: %s", strerror(errno));
}

FIXTURE_TEARDOWN(events)
{
	close(self->fd);
}

TEST_F(events, one_event_per_dontneed)
{
	ASSERT_EQ(madvise(self->p, sysconf(_SC_PAGESIZE), MADV_DONTNEED), 0);
	EXPECT_EQ(events_now(self->fd) - self->before, 1)
		TH_LOG("events counted for one MADV_DONTNEED");
}

TEST_F(events, one_event_per_mprotect)
{
	ASSERT_EQ(mprotect(self->p, sysconf(_SC_PAGESIZE), PROT_READ), 0);
	EXPECT_EQ(events_now(self->fd) - self->before, 1)
		TH_LOG("events counted for one mprotect");
}

TEST_F(events, one_event_per_munmap)
{
	ASSERT_EQ(munmap(self->p, sysconf(_SC_PAGESIZE)), 0);
	EXPECT_EQ(events_now(self->fd) - self->before, 1)
		TH_LOG("events counted for one munmap");
}

TEST_HARNESS_MAIN

#endif /* _EVENTS_TESTS_H */
