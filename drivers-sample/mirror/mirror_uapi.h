/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of the mirror sample device, shared by the module and its
 * in-guest tests. The device mirrors pages of the opener's address space in
 * its own page table; reads go through that table, never through the CPU's.
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
	MIRROR_CB_SECONDARY_TLBS,
	MIRROR_CB_INVALIDATE_PAGE,
	MIRROR_CB_RELEASE,
	MIRROR_CB_MAX,
};

#define MIRROR_RANGE_LOG	64

/* The device listens to the secondary-TLB hook only (no range_start/end). */
#define MIRROR_DEVICE_TLB_ONLY	0x1

struct mirror_range {
	__u64 start;
	__u64 end;
};

/* MAP and READ: [addr, addr + len) of the opener's address space. */
struct mirror_io {
	__u64 addr;
	__u64 len;
	__u64 buf;		/* READ: user buffer of len bytes */
};

/*
 * Per-callback counts and total bytes, the last MIRROR_RANGE_LOG ranges the
 * device dropped (oldest first), the largest of them, and the number of
 * pages the device maps now. The global_* fields count over all open files.
 */
struct mirror_stats {
	__u64 calls[MIRROR_CB_MAX];
	__u64 bytes[MIRROR_CB_MAX];
	__u64 device_flags;	/* MIRROR_DEVICE_* */
	__u64 max_range;
	__u64 mapped_pages;
	__u64 global_mapped_pages;
	__u64 global_releases;
	__u64 global_orphaned_pages;	/* see MIRROR_IOC_HOLD */
	__u32 global_open_files;
	__u32 nr_ranges;
	struct mirror_range ranges[MIRROR_RANGE_LOG];
	/*
	 * Invalidations between range_start and range_end now (faults wait
	 * for 0), and the sum of that count over the files at the end of
	 * their MIRROR_IOC_HOLD: -1 is a range_end without its range_start.
	 */
	__s64 active;
	__s64 global_hold_active;
};

#define MIRROR_IOC_MAGIC	'M'
#define MIRROR_IOC_STATS	_IOR(MIRROR_IOC_MAGIC, 1, struct mirror_stats)
#define MIRROR_IOC_RESET	_IO(MIRROR_IOC_MAGIC, 2)
/* Fault [addr, addr + len) into the device page table. */
#define MIRROR_IOC_MAP		_IOW(MIRROR_IOC_MAGIC, 3, struct mirror_io)
/*
 * Copy [addr, addr + len) to buf through the device page table. Fails with
 * ENXIO when a page is not mapped in the device (a device fault).
 */
#define MIRROR_IOC_READ		_IOW(MIRROR_IOC_MAGIC, 4, struct mirror_io)
/*
 * Stay in the kernel, unkillable, until a fatal signal (e.g. the OOM
 * killer's) arrives, then for *arg more milliseconds (at most 10000): the
 * OOM reaper gets to the mm while its owner cannot exit. Then count the
 * device's pages that no CPU page table maps any more (an unmap the device
 * was never told of) into global_orphaned_pages, and the file's active
 * invalidations into global_hold_active. Fails with ESTALE when there are
 * orphaned pages, ETIMEDOUT when no fatal signal came within 60 s.
 */
#define MIRROR_IOC_HOLD		_IOW(MIRROR_IOC_MAGIC, 5, __u32)

#endif /* _MIRROR_UAPI_H */
