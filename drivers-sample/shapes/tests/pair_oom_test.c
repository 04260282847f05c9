// SPDX-License-Identifier: GPL-2.0
/*
 * Issue 33 on the legacy shape: shape_pair (KVM's count + sequence pair,
 * written before 4.13), converted with --compat, open in an OOM victim.
 *
 * The converted range_start may sleep, so it refuses the OOM reaper's
 * non-blockable range with -EAGAIN. compat's registration keeps the
 * driver's range_end away from a range whose start failed on every
 * kernel: 5.12+ does not WARN (the console splat check fails the run if
 * it does) and does not lower the count the device's faults wait on.
 * The victim is held in the kernel (SHAPE_IOC_HOLD), so the reaper gets
 * to its mm first. The control, built without the pairing
 * (shape-pair-oom-no-pairing.suite), WARNs on 5.12+.
 */
#include <stdint.h>
#include <sys/ioctl.h>

#include "kselftest_harness.h"
#include "guest_mm.h"
#include "shape_io.h"

#ifndef DEV
#define DEV		"/dev/shape_pair"
#endif
#define VICTIM_BYTES	(16UL << 20)

/* The device faults the page of p in and reads its word: 0 and *seen. */
static int device_word(int fd, uint64_t *p, uint64_t *seen)
{
	return shape_io(fd, SHAPE_IOC_MAP, p, NULL) ?:
	       shape_io(fd, SHAPE_IOC_READ, p, seen);
}

/* The victim's device, with one of its pages mapped in. */
static int victim_setup(void)
{
	uint64_t *p = mmap(NULL, VICTIM_BYTES, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	int fd = open(DEV, O_RDWR);
	uint64_t seen = 0;

	if (fd < 0 || p == MAP_FAILED)
		return -1;
	*p = 0x1111;
	return device_word(fd, p, &seen) || seen != 0x1111 ? -1 : fd;
}

/* A device and a page of the test's own, for after the kill. */
FIXTURE(after)
{
	int fd;
	uint64_t *page;
};

FIXTURE_SETUP(after)
{
	self->page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(self->page, MAP_FAILED);
	self->fd = -1;
}

FIXTURE_TEARDOWN(after)
{
	munmap(self->page, sysconf(_SC_PAGESIZE));
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F_TIMEOUT(after, reaper_meets_a_failing_start, 240)
{
	long oom_kills = vmstat_counter("oom_kill");
	uint64_t seen = 0;
	int status;

	status = oom_kill_victim(victim_setup, SHAPE_IOC_HOLD);
	ASSERT_NE(status, -1);
	/* The hold gives up after 60 s without a kill: exit status 5. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 5)
		SKIP(return, "no OOM kill within 60 s (a slow kernel with much memory to fill, e.g. KASAN under TCG)");
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("victim status %#x", status);
	/* The kill was the OOM killer's (where vmstat counts OOM kills). */
	if (oom_kills >= 0)
		EXPECT_GT(vmstat_counter("oom_kill"), oom_kills);
	/* A device opened now faults pages in and reads what the CPU wrote. */
	self->fd = open(DEV, O_RDWR);
	ASSERT_GE(self->fd, 0);
	*self->page = 0x2222;
	EXPECT_EQ(device_word(self->fd, self->page, &seen), 0);
	EXPECT_EQ(seen, 0x2222);
}

TEST_HARNESS_MAIN
