/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of the shape fixture devices (/dev/shape_refault,
 * /dev/shape_sleep, /dev/shape_endonly, /dev/shape_pair, /dev/shape_guarded,
 * /dev/shape_events, /dev/shape_events_native: one module each, same
 * device; the events shapes count invalidation events instead of mapping
 * pages). The device keeps its own reference to the page holding a
 * word (MAP, through get_user_pages) and READ goes through it, never
 * through the CPU's page table.
 */
#ifndef _SHAPE_UAPI_H
#define _SHAPE_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#include "devpt_uapi.h"

struct shape_stats {
	__u64 mapped;		/* pages the device took a reference to */
	__u64 dropped;		/* device mappings dropped by invalidations */
	__u64 paused;		/* invalidation starts that waited for PAUSE */
	__u64 events;		/* invalidation events over the armed address */
};

/*
 * Map the page holding addr into the device (replaces an older mapping):
 * EBUSY while the device keeps new mappings out (an invalidation runs),
 * EAGAIN if one ran meanwhile.
 */
#define SHAPE_IOC_MAP		_IOW('s', 0x50, struct devpt_word)
/* Read the 8 bytes at addr through the device mapping; ENOENT if none. */
#define SHAPE_IOC_READ		_IOWR('s', 0x51, struct devpt_word)
#define SHAPE_IOC_STATS		_IOR('s', 0x52, struct shape_stats)
/*
 * The device's window between invalidate_range_start and the page-table
 * change, made wide enough to hit: after ARM(addr), every range
 * invalidation start that covers addr waits (at most 5 s) after dropping
 * its pages until RESUME. WAIT waits (at most 1 s) for such a start:
 * 0, or ETIMEDOUT when none came. ARM(0) disarms.
 */
#define SHAPE_IOC_ARM		_IOW('s', 0x53, __u64)
#define SHAPE_IOC_WAIT		_IO('s', 0x54)
#define SHAPE_IOC_RESUME	_IO('s', 0x55)
/*
 * Stay in the kernel, unkillable, until a fatal signal (e.g. the OOM
 * killer's) arrives, then for *arg more milliseconds (at most 10000): the
 * OOM reaper gets to the mm while its owner cannot exit. ETIMEDOUT when
 * no fatal signal came within 60 s.
 */
#define SHAPE_IOC_HOLD		_IOW('s', 0x56, __u32)

#endif /* _SHAPE_UAPI_H */
