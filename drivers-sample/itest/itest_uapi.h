/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * itest: a device per mmu_interval_notifier implementation (the kernel's,
 * /dev/mncompat_itest_kernel, and compat's emulation,
 * /dev/mncompat_itest_emul) that watches one interval of the opener's
 * address space, for the in-guest tests of <mncompat/mmu_interval_notifier.h>.
 */
#ifndef _ITEST_UAPI_H
#define _ITEST_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

struct itest_state {
	__u64 invalidations;	/* ops->invalidate calls */
	__u64 last_cur_seq;	/* the cur_seq of the last one */
	__u64 last_start, last_end;
	__u64 seq;		/* BEGIN: read_begin(); RETRY: in, retry out */
	__u64 retry;
};

#define ITEST_IOC_MAGIC		'I'
/* Watch [start, start + length) (the first two fields of a mirror-like io). */
#define ITEST_IOC_INSERT	_IOW(ITEST_IOC_MAGIC, 1, struct itest_state)
#define ITEST_IOC_STATE		_IOR(ITEST_IOC_MAGIC, 2, struct itest_state)
#define ITEST_IOC_BEGIN		_IOR(ITEST_IOC_MAGIC, 3, struct itest_state)
#define ITEST_IOC_RETRY		_IOWR(ITEST_IOC_MAGIC, 4, struct itest_state)

#endif /* _ITEST_UAPI_H */
