/* SPDX-License-Identifier: GPL-2.0 */
/* itest: the two devices itest_main.c registers. */
#ifndef _ITEST_H
#define _ITEST_H

#include <linux/miscdevice.h>

extern struct miscdevice itest_kernel_dev;	/* the kernel's API */
extern struct miscdevice itest_emul_dev;	/* compat's emulation */

#endif /* _ITEST_H */
