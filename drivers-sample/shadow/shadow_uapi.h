/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of the shadow sample device. The device keeps its own
 * references to pages of the opener ("shadow mappings", one per SNAP) and
 * READ goes through them, never through the CPU's page table.
 */
#ifndef _SHADOW_UAPI_H
#define _SHADOW_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#include "devpt_uapi.h"

/* Two nodes, one per MMU-notifier ops table (see shadow_notifier.c). */
#define SHADOW_DEV_PAGE		"shadow"	/* invalidate_page only */
#define SHADOW_DEV_TRACK	"shadow-track"	/* plus the range callbacks */

struct shadow_stats {
	__u64 snapped;		/* pages the device took a reference to */
	__u64 dropped;		/* shadow mappings dropped by invalidations */
	__u64 page_calls;	/* calls of the (old) invalidate_page callback */
	__u64 range_ends;	/* calls of the range end callback */
};

/* Shadow-map the page holding addr (replaces an older shadow mapping). */
#define SHADOW_IOC_SNAP		_IOW('h', 0x40, struct devpt_word)
/* Read the 8 bytes at addr through the shadow mapping; ENOENT if none. */
#define SHADOW_IOC_READ		_IOWR('h', 0x41, struct devpt_word)
#define SHADOW_IOC_STATS	_IOR('h', 0x42, struct shadow_stats)

#endif /* _SHADOW_UAPI_H */
