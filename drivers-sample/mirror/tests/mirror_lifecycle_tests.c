// SPDX-License-Identifier: GPL-2.0
/*
 * What becomes of the mirror device around its opener's life, not
 * coherence: when a process that mapped pages into the device exits or is
 * OOM-killed, its file is released and its pages leave every device table;
 * while a file is open, the module cannot be unloaded. A device that
 * ignores invalidations passes these too (release is not an invalidation),
 * so they are not in mirror-broken.suite.
 */
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "mirror_test_lib.h"

FIXTURE(lifecycle)
{
	int fd;
	size_t len;
	char *buf;
};

FIXTURE_SETUP(lifecycle)
{
	self->len = NR_PAGES * sysconf(_SC_PAGESIZE);
	map_into_device(self, 1);
}

FIXTURE_TEARDOWN(lifecycle)
{
	munmap(self->buf, self->len);
	close(self->fd);
}

/* A child opens the device, maps pages, and dies in fate(). */
static pid_t child_with_device(size_t len, void (*fate)(void))
{
	pid_t pid = fork();

	if (!pid) {
		int fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
		char *p = map_anon(len);

		if (fd < 0 || !p)
			_exit(2);
		fill(p, len, 5);
		if (dev_io(fd, MIRROR_IOC_MAP, p, len, NULL))
			_exit(3);
		fate();
		_exit(0);
	}
	return pid;
}

static void exit_while_mapped(void)
{
	_exit(0);
}

static void be_the_oom_victim(void)
{
	eat_memory_until_killed("1000");
}

TEST_F(lifecycle, process_exit_releases_device)
{
	struct mirror_stats before = stats(self->fd), after;
	int status;
	pid_t pid = child_with_device(self->len, exit_while_mapped);

	ASSERT_GE(pid, 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_EQ(WEXITSTATUS(status), 0);
	/* The child's pages are gone from every device table. */
	after = stats(self->fd);
	EXPECT_EQ(after.global_releases, before.global_releases + 1);
	EXPECT_EQ(after.global_mapped_pages, after.mapped_pages);
	EXPECT_EQ(after.global_open_files, before.global_open_files);
}

TEST_F_TIMEOUT(lifecycle, oom_kill_releases_device, 120)
{
	struct mirror_stats before = stats(self->fd), after;
	long overcommit, oom_kills = vmstat_counter("oom_kill");
	int status;
	pid_t pid;

	/* Allocations must fault, not fail, for the OOM killer to come. */
	overcommit = set_overcommit(1);
	ASSERT_GE(overcommit, 0);
	write_file("/proc/self/oom_score_adj", "-1000");
	pid = child_with_device(self->len, be_the_oom_victim);
	ASSERT_GE(pid, 0);
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	set_overcommit(overcommit);
	ASSERT_TRUE(WIFSIGNALED(status)) TH_LOG("child exited %d",
						 WEXITSTATUS(status));
	ASSERT_EQ(WTERMSIG(status), SIGKILL);
	/* The SIGKILL was the OOM killer's (where vmstat counts OOM kills). */
	if (oom_kills >= 0)
		EXPECT_GT(vmstat_counter("oom_kill"), oom_kills);
	after = stats(self->fd);
	EXPECT_EQ(after.global_mapped_pages, after.mapped_pages);
	EXPECT_EQ(after.global_open_files, before.global_open_files);
	/* The parent's own mirror is untouched by the child's death. */
	EXPECT_EQ(device_reads(self->fd, self->buf, self->len, 1), COHERENT);
}

TEST_F(lifecycle, unload_refused_while_open)
{
	/* What rmmod does: delete_module, O_NONBLOCK. */
	long ret = syscall(SYS_delete_module, "mirror", O_NONBLOCK);

	/* In use: EWOULDBLOCK, not "no such module" or "not permitted". */
	ASSERT_EQ(-1, ret);
	EXPECT_EQ(EWOULDBLOCK, errno) TH_LOG("delete_module: %s",
					      strerror(errno));
	EXPECT_EQ(0, access("/sys/module/mirror", F_OK));
}

TEST_HARNESS_MAIN
