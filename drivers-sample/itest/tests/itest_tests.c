// SPDX-License-Identifier: GPL-2.0
/*
 * mmu_interval_notifier, the kernel's and compat's emulation side by side
 * (the itest module): which events reach ops->invalidate, the sequence
 * protocol of read_begin/read_retry, and the mm's exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "itest_uapi.h"

#define NR_PAGES	16
#define MPOL_MF_MOVE	(1 << 1)

static struct itest_state state(int fd)
{
	struct itest_state st;

	memset(&st, 0, sizeof(st));
	ioctl(fd, ITEST_IOC_STATE, &st);
	return st;
}

static uint64_t begin(int fd)
{
	struct itest_state st;

	memset(&st, 0, sizeof(st));
	return ioctl(fd, ITEST_IOC_BEGIN, &st) ? ~0ULL : st.seq;
}

static int retry(int fd, uint64_t seq)
{
	struct itest_state st = { .seq = seq };

	return ioctl(fd, ITEST_IOC_RETRY, &st) ? -errno : (int)st.retry;
}

static int insert(int fd, void *addr, size_t len)
{
	struct itest_state st = {
		.last_start = (uintptr_t)addr,
		.last_end = (uintptr_t)addr + len,
	};

	return ioctl(fd, ITEST_IOC_INSERT, &st) ? -errno : 0;
}

FIXTURE(itest)
{
	int fd;
	size_t page, len;
	char *buf;
};

FIXTURE_VARIANT(itest)
{
	const char *dev;
};

FIXTURE_VARIANT_ADD(itest, kernel)
{
	.dev = "/dev/mncompat_itest_kernel",
};

FIXTURE_VARIANT_ADD(itest, emul)
{
	.dev = "/dev/mncompat_itest_emul",
};

FIXTURE_SETUP(itest)
{
	self->page = sysconf(_SC_PAGESIZE);
	self->len = NR_PAGES * self->page;
	self->fd = open(variant->dev, O_RDWR);
	ASSERT_GE(self->fd, 0);
	self->buf = mmap(NULL, self->len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(self->buf, MAP_FAILED);
	memset(self->buf, 1, self->len);
	ASSERT_EQ(insert(self->fd, self->buf, self->len), 0);
}

FIXTURE_TEARDOWN(itest)
{
	munmap(self->buf, self->len);
	close(self->fd);
}

TEST_F(itest, dontneed_invalidates_and_retries)
{
	uint64_t seq = begin(self->fd), seq2;
	struct itest_state st;

	ASSERT_EQ(retry(self->fd, seq), 0);
	ASSERT_EQ(madvise(self->buf + self->page, self->page, MADV_DONTNEED),
		  0);
	st = state(self->fd);
	EXPECT_GE(st.invalidations, 1);
	EXPECT_EQ(st.last_cur_seq & 1, 1);
	EXPECT_LE(st.last_start, (uintptr_t)self->buf + self->page);
	EXPECT_GE(st.last_end, (uintptr_t)self->buf + 2 * self->page);
	/* The reader that began before the invalidation must retry. */
	EXPECT_EQ(retry(self->fd, seq), 1);
	seq2 = begin(self->fd);
	EXPECT_EQ(retry(self->fd, seq2), 0);
}

TEST_F(itest, outside_the_interval_is_not_delivered)
{
	char *other = mmap(NULL, self->len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t seq = begin(self->fd);
	struct itest_state before = state(self->fd);

	ASSERT_NE(other, MAP_FAILED);
	memset(other, 2, self->len);
	ASSERT_EQ(madvise(other, self->len, MADV_DONTNEED), 0);
	EXPECT_EQ(state(self->fd).invalidations, before.invalidations);
	EXPECT_EQ(retry(self->fd, seq), 0);
	munmap(other, self->len);
}

TEST_F(itest, migration_invalidates)
{
	void *pages[NR_PAGES];
	int nodes[NR_PAGES], status[NR_PAGES];
	uint64_t seq = begin(self->fd);
	struct itest_state before = state(self->fd);

	for (int i = 0; i < NR_PAGES; i++)
		pages[i] = self->buf + i * self->page;
	if (syscall(SYS_move_pages, 0, NR_PAGES, pages, NULL, status, 0) ||
	    access("/sys/devices/system/node/node1", F_OK))
		SKIP(return, "one NUMA node only");
	for (int i = 0; i < NR_PAGES; i++)
		nodes[i] = status[0] == 0 ? 1 : 0;
	ASSERT_EQ(syscall(SYS_move_pages, 0, NR_PAGES, pages, nodes, status,
			  MPOL_MF_MOVE), 0);
	EXPECT_GE(state(self->fd).invalidations,
		  before.invalidations + NR_PAGES);
	EXPECT_EQ(retry(self->fd, seq), 1);
}

TEST_F(itest, mm_exit_invalidates_everything)
{
	/* The child watches its own mm through a file the parent shares. */
	int status, fd = open(variant->dev, O_RDWR);
	struct itest_state st;
	pid_t pid;

	ASSERT_GE(fd, 0);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		char *p = mmap(NULL, self->len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED || insert(fd, p, self->len))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid);
	ASSERT_EQ(WEXITSTATUS(status), 0);
	st = state(fd);
	EXPECT_GE(st.invalidations, 1);
	EXPECT_EQ(st.last_start, 0);
	EXPECT_EQ(st.last_end, UINT64_MAX);
	/* remove() after the mm is gone. */
	EXPECT_EQ(close(fd), 0);
}

TEST_HARNESS_MAIN
