/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of the mirror sample device, shared by the module and its
 * in-guest tests.
 */
#ifndef _MIRROR_UAPI_H
#define _MIRROR_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define MIRROR_DEVICE_NAME	"mncompat_mirror"

/* Which notifier callback a counter belongs to. */
enum mirror_callback {
	MIRROR_CB_RANGE_START,
	MIRROR_CB_RANGE_END,
	MIRROR_CB_RELEASE,
	MIRROR_CB_MAX,
};

#define MIRROR_RANGE_LOG	64

struct mirror_range {
	__u64 start;
	__u64 end;
};

/*
 * Per-callback invalidation counts and total bytes, plus the last
 * MIRROR_RANGE_LOG ranges invalidate_range_start saw (oldest first).
 */
struct mirror_stats {
	__u64 calls[MIRROR_CB_MAX];
	__u64 bytes[MIRROR_CB_MAX];
	__u32 nr_ranges;
	__u32 pad;
	struct mirror_range ranges[MIRROR_RANGE_LOG];
};

#define MIRROR_IOC_MAGIC	'M'
#define MIRROR_IOC_STATS	_IOR(MIRROR_IOC_MAGIC, 1, struct mirror_stats)
#define MIRROR_IOC_RESET	_IO(MIRROR_IOC_MAGIC, 2)

#endif /* _MIRROR_UAPI_H */
