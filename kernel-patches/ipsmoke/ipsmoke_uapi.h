/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI of the ipsmoke device, shared by the module and its
 * in-guest tests.
 */
#ifndef _IPSMOKE_UAPI_H
#define _IPSMOKE_UAPI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define IPSMOKE_DEVICE_NAME	"mncompat_ipsmoke"

/* How often each callback ran since the last reset. */
struct ipsmoke_stats {
	__u64 invalidate_page;
	__u64 range_start;
	__u64 range_end;
	__u64 last_page_address;
};

#define IPSMOKE_IOC_MAGIC	'I'
#define IPSMOKE_IOC_STATS	_IOR(IPSMOKE_IOC_MAGIC, 1, struct ipsmoke_stats)
#define IPSMOKE_IOC_RESET	_IO(IPSMOKE_IOC_MAGIC, 2)
/* Argument 1: invalidate_page sleeps (usleep_range()) from now on; 0: not. */
#define IPSMOKE_IOC_SLEEP	_IO(IPSMOKE_IOC_MAGIC, 3)

#endif /* _IPSMOKE_UAPI_H */
