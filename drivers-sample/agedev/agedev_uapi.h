/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of the agedev sample device. Like a secondary MMU with
 * accessed bits (KVM's EPT A bit), the device keeps its own references to
 * pages of the opener (one per SNAP) with an accessed bit each: set when
 * the device maps or reads the page, tested and cleared when the kernel
 * ages the page through the young callbacks of the device's MMU notifier.
 */
#ifndef _AGEDEV_UAPI_H
#define _AGEDEV_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#include "devpt_uapi.h"

#define AGEDEV_DEV		"agedev"

struct agedev_stats {
	__u64 snapped;		/* pages the device took a reference to */
	__u64 dropped;		/* device mappings dropped by invalidations */
	__u64 flush_young_calls;	/* calls of clear_flush_young */
	__u64 clear_young_calls;	/* calls of clear_young */
	__u64 test_young_calls;	/* calls of test_young */
	__u64 young;		/* of those, the calls that answered "young" */
};

/* Map the page holding addr in the device (its accessed bit set). */
#define AGEDEV_IOC_SNAP		_IOW('a', 0x50, struct devpt_word)
/*
 * Read the 8 bytes at addr through the device mapping, setting its
 * accessed bit; ENOENT if the device does not map it.
 */
#define AGEDEV_IOC_READ		_IOWR('a', 0x51, struct devpt_word)
/* value: the accessed bit of the device's mapping of addr; ENOENT if none. */
#define AGEDEV_IOC_YOUNG	_IOWR('a', 0x52, struct devpt_word)
#define AGEDEV_IOC_STATS	_IOR('a', 0x53, struct agedev_stats)

#endif /* _AGEDEV_UAPI_H */
