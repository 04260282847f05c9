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
#include <signal.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "mirror_test_lib.h"

static void victim(int ready)
{
	size_t len = NR_PAGES * sysconf(_SC_PAGESIZE);
	int fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	uint32_t hold_ms = 5000;
	char *p = map_anon(len);

	write_file("/proc/self/oom_score_adj", "1000");
	if (fd < 0 || !p)
		_exit(2);
	fill(p, len, 7);
	if (dev_io(fd, MIRROR_IOC_MAP, p, len, NULL))
		_exit(3);
	if (write(ready, "r", 1) != 1)
		_exit(4);
	ioctl(fd, MIRROR_IOC_HOLD, &hold_ms);
	_exit(5);	/* only without a kill */
}

FIXTURE(oom)
{
	int fd;
};

FIXTURE_SETUP(oom)
{
	write_file("/proc/self/oom_score_adj", "-1000");
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
	long overcommit, oom_kills = vmstat_counter("oom_kill");
	int ready[2], status;
	pid_t victim_pid, eater_pid;
	size_t len = NR_PAGES * sysconf(_SC_PAGESIZE);
	char c, *p;

	/* Allocations must fault, not fail, for the OOM killer to come. */
	overcommit = set_overcommit(1);
	ASSERT_GE(overcommit, 0);
	ASSERT_EQ(pipe(ready), 0);
	victim_pid = fork();
	if (!victim_pid) {
		close(ready[0]);
		victim(ready[1]);
	}
	ASSERT_GT(victim_pid, 0);
	close(ready[1]);
	ASSERT_EQ(read(ready[0], &c, 1), 1);
	eater_pid = fork();
	if (!eater_pid)
		eat_memory_until_killed("0");
	ASSERT_GT(eater_pid, 0);

	ASSERT_EQ(waitpid(victim_pid, &status, 0), victim_pid);
	kill(eater_pid, SIGKILL);
	waitpid(eater_pid, NULL, 0);
	set_overcommit(overcommit);
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
