// SPDX-License-Identifier: GPL-2.0
/*
 * B4: the OOM reaper and a device that mirrors the victim's memory.
 *
 * The reaper unmaps an OOM victim's memory while the victim is still on
 * its way out. Until 4.14 it did so without MMU notifiers, so a device
 * went on holding pages the process no longer mapped; Hocko's fix (seed
 * 001) made it skip mms with notifiers, and later kernels reap with
 * non-blocking invalidate_range_start(). The victim here maps pages into
 * the device and then waits in MIRROR_IOC_HOLD, unkillable for a while,
 * so the reaper (2 s after the kill on 6.1) gets to its mm first; the
 * device then counts its pages that no CPU page table maps any more.
 *
 * The same test runs mirror built with the may-sleep glue
 * (MIRROR_MAY_SLEEP=1, b4-may-sleep.suite): its range_start refuses the
 * reaper's non-blockable range, and its range_end lowers the count of
 * active invalidations that the device's faults wait on. The victim's
 * count at the end of its hold must be 0 (-1 is a range_end the kernel
 * called after the failed range_start: 5.12+ without compat's pairing),
 * and the device must still fault pages in afterwards.
 */
#include "kselftest_harness.h"
#include "mirror_test_lib.h"

/* The victim's device, with its memory mapped in (oom_kill_victim()). */
static int victim_setup(void)
{
	size_t len = NR_PAGES * sysconf(_SC_PAGESIZE);
	int fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	char *p = map_anon(len);

	if (fd < 0 || !p)
		return -1;
	fill(p, len, 7);
	return dev_io(fd, MIRROR_IOC_MAP, p, len, NULL) ? -1 : fd;
}

FIXTURE(oom)
{
	int fd;
};

FIXTURE_SETUP(oom)
{
	self->fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(oom)
{
	close(self->fd);
}

TEST_F_TIMEOUT(oom, reaper_tells_the_device, 240)
{
	struct mirror_stats before = stats(self->fd), after;
	long oom_kills = vmstat_counter("oom_kill");
	size_t len = NR_PAGES * sysconf(_SC_PAGESIZE);
	int status;
	char *p;

	status = oom_kill_victim(victim_setup, MIRROR_IOC_HOLD);
	ASSERT_NE(status, -1);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* The kill was the OOM killer's (where vmstat counts OOM kills). */
	if (oom_kills >= 0)
		EXPECT_GT(vmstat_counter("oom_kill"), oom_kills);
	after = stats(self->fd);
	printf("# device pages the victim no longer mapped: %llu\n",
	       after.global_orphaned_pages - before.global_orphaned_pages);
	EXPECT_EQ(after.global_orphaned_pages, before.global_orphaned_pages);
	EXPECT_EQ(after.global_open_files, before.global_open_files);
	printf("# invalidations the victim's device had open after its hold: %lld\n",
	       (long long)(after.global_hold_active -
			   before.global_hold_active));
	EXPECT_EQ(after.global_hold_active, before.global_hold_active);
	/* Faults still work: this file's pages go into the device. */
	EXPECT_EQ(after.active, 0);
	p = map_anon(len);
	ASSERT_NE(p, NULL);
	fill(p, len, 9);
	EXPECT_EQ(dev_io(self->fd, MIRROR_IOC_MAP, p, len, NULL), 0);
	EXPECT_EQ(device_reads(self->fd, p, len, 9), COHERENT);
	munmap(p, len);
}

TEST_HARNESS_MAIN
