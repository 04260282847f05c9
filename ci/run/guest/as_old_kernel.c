// SPDX-License-Identifier: GPL-2.0
/*
 * as_old_kernel COMMAND [ARG...]: run COMMAND as a kernel before 5.3 would,
 * for the syscalls the guest tests touch: clone3() (5.3) fails as a
 * syscall the kernel does not have, and madvise() with MADV_COLD or
 * MADV_PAGEOUT (5.4) fails with EINVAL, through a seccomp filter that
 * COMMAND and its children inherit. A suite runs its tests through it
 * with a "wrapper" line (ci/run/stage-suite.sh). The filter is tried before the
 * exec: a wrapper that filters nothing must not pass for one that does.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest.h"

#ifndef __NR_clone3
#define __NR_clone3	435
#endif
#ifndef MADV_COLD
#define MADV_COLD	20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

#define LOAD(field)	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,		\
				 offsetof(struct seccomp_data, field))
#define IF_EQ(k, jt, jf)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (jt), (jf))
#define RETURN(v)	BPF_STMT(BPF_RET | BPF_K, (v))

static struct sock_filter old_kernel_filter[] = {
	/* 0 */ LOAD(arch),
	/* 1 */ IF_EQ(AUDIT_ARCH_X86_64, 1, 0),
	/* 2 */ RETURN(SECCOMP_RET_ALLOW),
	/* 3 */ LOAD(nr),
	/* 4 */ IF_EQ(__NR_clone3, 0, 1),
	/* 5 */ RETURN(SECCOMP_RET_ERRNO),	/* | no_such_syscall() */
	/* 6 */ IF_EQ(__NR_madvise, 0, 4),
	/* 7 */ LOAD(args[2]),	/* the low half of advice (little endian) */
	/* 8 */ IF_EQ(MADV_COLD, 1, 0),
	/* 9 */ IF_EQ(MADV_PAGEOUT, 0, 1),
	/* 10 */ RETURN(SECCOMP_RET_ERRNO | EINVAL),
	/* 11 */ RETURN(SECCOMP_RET_ALLOW),
};

#define CLONE3_RETURN	5

/* What the running kernel answers for a syscall number it does not have. */
static int no_such_syscall(void)
{
	errno = 0;
	syscall(-1L);
	return errno;
}

static int install_filter(void)
{
	struct sock_fprog prog = {
		.len = ARRAY_SIZE(old_kernel_filter),
		.filter = old_kernel_filter,
	};

	old_kernel_filter[CLONE3_RETURN].k |= no_such_syscall();

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* Does the filter answer as an old kernel would? */
static int filter_works(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int clone3_errno, pageout_errno;

	if (p == MAP_FAILED)
		return 0;
	p[0] = 1;
	errno = 0;
	syscall(__NR_clone3, NULL, 0);
	clone3_errno = errno;
	errno = 0;
	madvise(p, page, MADV_PAGEOUT);
	pageout_errno = errno;
	munmap(p, page);
	return clone3_errno == no_such_syscall() && pageout_errno == EINVAL;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: as_old_kernel COMMAND [ARG...]\n");
		return 2;
	}
	if (install_filter()) {
		printf("# as_old_kernel: seccomp filter refused: %s\n",
		       strerror(errno));
		return 1;
	}
	if (!filter_works()) {
		printf("# as_old_kernel: the filter does not answer as a pre-5.3 kernel\n");
		return 1;
	}
	printf("# as_old_kernel: clone3: %s; madvise(MADV_COLD/MADV_PAGEOUT): %s\n",
	       strerror(no_such_syscall()), strerror(EINVAL));
	fflush(stdout);
	execv(argv[1], argv + 1);
	printf("# as_old_kernel: exec %s: %s\n", argv[1], strerror(errno));
	return 1;
}
