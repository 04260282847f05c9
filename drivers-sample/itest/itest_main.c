// SPDX-License-Identifier: GPL-2.0
/*
 * itest: test devices for <mncompat/mmu_interval_notifier.h>, one on the
 * kernel's implementation and one on compat's emulation (see itest_dev.h).
 */
#include "devpt_misc.h"
#include "itest.h"

static struct miscdevice *const itest_devs[] = {
	&itest_kernel_dev, &itest_emul_dev,
};
DEVPT_MODULE_MISC(itest);

MODULE_DESCRIPTION("mncompat test: mmu_interval_notifier, kernel's and emulated");
MODULE_LICENSE("GPL");
