/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * User-space ABI shared by the sample devices that map and read single
 * words of their opener's memory (shadow, the shape fixtures).
 */
#ifndef _DEVPT_UAPI_H
#define _DEVPT_UAPI_H

#include <linux/types.h>

/* addr: 8-byte aligned user address; value: what READ found there. */
struct devpt_word {
	__u64 addr;
	__u64 value;
};

#endif /* _DEVPT_UAPI_H */
