/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mm knobs and OOM helpers the samples' in-guest tests share (mirror's
 * and the shapes'): sysctl and proc files, vmstat counters, a memory eater
 * for the OOM killer. ci/run/build-guest-test.sh puts this directory on every
 * test's include path. Include it after kselftest_harness.h.
 */
#ifndef _GUEST_MM_H
#define _GUEST_MM_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static inline void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, val, strlen(val)) < 0)
			fprintf(stderr, "# %s: %s\n", path, strerror(errno));
		close(fd);
	}
}

static inline long read_long(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* A counter of /proc/vmstat (e.g. "oom_kill"), or -1 if there is none. */
static inline long vmstat_counter(const char *name)
{
	char key[64];
	long value, found = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &value) == 2)
		if (!strcmp(key, name))
			found = value;
	fclose(f);
	return found;
}

/*
 * Allocate and touch memory until the OOM killer ends the process; with
 * oom_score_adj (-1000..1000) the caller says how eager a victim it is.
 * The caller sets vm.overcommit_memory to 1 first (set_overcommit()): under
 * the default heuristic a MAP_POPULATE of more than the machine can give
 * fails instead of faulting, and the OOM killer never comes. If memory
 * cannot be had for about 10 s all the same, exit 3 instead of hanging.
 */
static inline void eat_memory_until_killed(const char *oom_score_adj)
{
	write_file("/proc/self/oom_score_adj", oom_score_adj);
	for (int failures = 0; failures < 10000;) {
		char *p = mmap(NULL, 32 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
			       -1, 0);

		if (p == MAP_FAILED) {
			failures++;
			usleep(1000);
		}
	}
	fprintf(stderr, "# no memory to eat and no OOM kill: %s\n",
		strerror(errno));
	_exit(3);
}

/*
 * Set vm.overcommit_memory to mode; returns the previous mode (to restore
 * with the same call), or -1 if the sysctl cannot be read or written.
 */
static inline long set_overcommit(long mode)
{
	const char *path = "/proc/sys/vm/overcommit_memory";
	long old = read_long(path);
	char val[24];

	snprintf(val, sizeof(val), "%ld", mode);
	write_file(path, val);
	return old >= 0 && read_long(path) == mode ? old : -1;
}

/*
 * An OOM kill of a victim held in the kernel: a child (oom_score_adj 1000,
 * so the OOM killer chooses it) runs setup(), which returns a device file
 * descriptor (or -1: the child exits 2), and then sleeps in
 * ioctl(fd, hold_cmd, 5000 ms), where no signal ends it, so that the OOM
 * reaper reaches its mm while it still exists; meanwhile a memory eater
 * (oom_score_adj 0) runs, with vm.overcommit_memory 1 and the caller at
 * -1000, until the victim has ended. Returns the victim's wait status
 * (killed: SIGKILL), or -1 if the stage could not be set.
 */
static inline int oom_kill_victim(int (*setup)(void), unsigned long hold_cmd)
{
	long overcommit = set_overcommit(1);
	pid_t victim_pid, eater_pid;
	int ready[2], status = -1;
	char c;

	write_file("/proc/self/oom_score_adj", "-1000");
	if (overcommit < 0 || pipe(ready))
		return -1;
	victim_pid = fork();
	if (!victim_pid) {
		unsigned int hold_ms = 5000;
		int fd;

		close(ready[0]);
		write_file("/proc/self/oom_score_adj", "1000");
		fd = setup();
		if (fd < 0 || write(ready[1], "r", 1) != 1)
			_exit(2);
		ioctl(fd, hold_cmd, &hold_ms);
		_exit(5);	/* only without a kill */
	}
	close(ready[1]);
	if (victim_pid > 0 && read(ready[0], &c, 1) == 1) {
		eater_pid = fork();
		if (!eater_pid)
			eat_memory_until_killed("0");
		if (waitpid(victim_pid, &status, 0) != victim_pid)
			status = -1;
		if (eater_pid > 0) {
			kill(eater_pid, SIGKILL);
			waitpid(eater_pid, NULL, 0);
		}
	} else if (victim_pid > 0) {
		waitpid(victim_pid, NULL, 0);
	}
	close(ready[0]);
	set_overcommit(overcommit);
	return status;
}

#endif /* _GUEST_MM_H */
