// SPDX-License-Identifier: GPL-2.0
/*
 * An OOM victim with two notifiers on its mm: the kernel's interval
 * notifier (the itest device, over the victim's buffer) and mirror's
 * may-sleep table (MIRROR_MAY_SLEEP=1, through compat's pairing), whose
 * range_start refuses the OOM reaper's non-blockable range. The reaper's
 * start runs the interval tree first (the itest callback agrees), then the
 * hlist, where mirror's start fails.
 *
 * Where the kernel ends the interval invalidation it began when a later
 * hlist start fails (itree-unwind=full, ci/kernels/behaviours.md: Debian's
 * 6.12.118), the victim exits as any OOM victim does. Where it leaves it
 * open (itree-unwind=self: 5.5 to 7.3.4, 6.1.192, 6.12.117), the interval
 * tree's sequence stays odd for good, and the victim's exit blocks in
 * mmu_interval_notifier_remove() (the itest file's release), waiting for
 * an end that never comes: it stays in D state, its files open (the exit
 * releases the last opened first, itest's, and never gets to mirror's).
 * ci/report/expectations says so for those kernels. The test waits for
 * the exit, or for the victim to sleep in mmu_interval_notifier_remove()
 * STUCK_SECONDS on end (its /proc stack; a debug kernel under a loaded
 * host may take half a minute to print the OOM report and end the hold),
 * and prints where it sleeps.
 */
#include "kselftest_harness.h"
#include "guest_mm.h"
#include "itest_uapi.h"
#include "../mirror/mirror_uapi.h"

#define NR_PAGES	16
/*
 * Seconds the victim may take to be killed and exit (it holds 5 of them
 * in the kernel), and to sleep in mmu_interval_notifier_remove() before
 * it counts as stuck there.
 */
#define EXIT_SECONDS	180
#define STUCK_SECONDS	10

static int mirror_map(int fd, void *addr, size_t len)
{
	struct mirror_io io = {
		.addr = (uintptr_t)addr,
		.len = len,
	};

	return ioctl(fd, MIRROR_IOC_MAP, &io);
}

/*
 * In the victim: mirror's device (its buffer mapped in), then the itest
 * device watching the same buffer. The mirror file descriptor is the one
 * the victim holds in.
 */
static int victim_setup(void)
{
	size_t len = NR_PAGES * sysconf(_SC_PAGESIZE);
	int mfd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	int ifd = open("/dev/mncompat_itest_kernel", O_RDWR);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct itest_state st = { 0 };

	if (mfd < 0 || ifd < 0 || p == MAP_FAILED)
		return -1;
	memset(p, 7, len);
	st.last_start = (uintptr_t)p;
	st.last_end = (uintptr_t)p + len;
	if (mirror_map(mfd, p, len) || ioctl(ifd, ITEST_IOC_INSERT, &st))
		return -1;
	return mfd;
}

/*
 * The kernel stack of a task into buf, one line ("" where /proc has
 * none).
 */
static const char *stack_of(pid_t pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stack", pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, size - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
	return buf;
}

/*
 * As oom_kill_victim() (guest_mm.h), but the victim's exit is waited for
 * until it has slept in mmu_interval_notifier_remove() STUCK_SECONDS on
 * end, EXIT_SECONDS at most: 0 when it exited killed, 1 when it is still
 * there (its stack in stack), -1 when the stage could not be set.
 */
static int oom_kill_and_wait(pid_t *victim, char *stack, size_t size)
{
	long overcommit = set_overcommit(1);
	int ready[2], status, ret = -1;
	pid_t eater = -1;
	char c;

	write_file("/proc/self/oom_score_adj", "-1000");
	if (overcommit < 0 || pipe(ready))
		return -1;
	*victim = fork();
	if (!*victim) {
		unsigned int hold_ms = 5000;
		int fd;

		close(ready[0]);
		write_file("/proc/self/oom_score_adj", "1000");
		fd = victim_setup();
		if (fd < 0 || write(ready[1], "r", 1) != 1)
			_exit(2);
		ioctl(fd, MIRROR_IOC_HOLD, &hold_ms);
		_exit(5);	/* only without a kill */
	}
	close(ready[1]);
	if (*victim > 0 && read(ready[0], &c, 1) == 1) {
		eater = fork();
		if (!eater)
			eat_memory_until_killed("0");
		/* Tenths of a second: since the start, stuck in removal. */
		for (int t = 0, stuck = 0; t < 10 * EXIT_SECONDS &&
		     stuck < 10 * STUCK_SECONDS; t++) {
			pid_t got = waitpid(*victim, &status, WNOHANG);

			if (got == *victim) {
				ret = WIFSIGNALED(status) &&
				      WTERMSIG(status) == SIGKILL ? 0 : -1;
				break;
			}
			if (got < 0)
				break;
			if (strstr(stack_of(*victim, stack, size),
				   "mmu_interval_notifier_remove"))
				stuck++;
			else
				stuck = 0;
			usleep(100000);
			ret = 1;
		}
		if (eater > 0) {
			kill(eater, SIGKILL);
			waitpid(eater, NULL, 0);
		}
	}
	close(ready[0]);
	set_overcommit(overcommit);
	return ret;
}

FIXTURE(oom)
{
};

FIXTURE_SETUP(oom)
{
}

FIXTURE_TEARDOWN(oom)
{
}

TEST_F_TIMEOUT(oom, reaper_fails_a_later_start_the_victim_still_exits, 240)
{
	long oom_kills = vmstat_counter("oom_kill");
	char stack[512] = "";
	pid_t victim = -1;
	int ret = oom_kill_and_wait(&victim, stack, sizeof(stack));

	ASSERT_NE(ret, -1);
	if (oom_kills >= 0)
		EXPECT_GT(vmstat_counter("oom_kill"), oom_kills);
	if (ret == 1) {
		printf("# the OOM victim has not exited: the interval invalidation the reaper began is still open\n");
		printf("# the victim sleeps in: %s\n", stack);
	}
	EXPECT_EQ(ret, 0);
}

TEST_HARNESS_MAIN
