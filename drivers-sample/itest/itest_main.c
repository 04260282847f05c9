// SPDX-License-Identifier: GPL-2.0
/*
 * itest: test devices for <mncompat/mmu_interval_notifier.h>, one on the
 * kernel's implementation and one on compat's emulation (see itest_dev.h).
 */
#include <linux/module.h>

#include "itest.h"

static int __init itest_init(void)
{
	int ret = misc_register(&itest_kernel_dev);

	if (ret)
		return ret;
	ret = misc_register(&itest_emul_dev);
	if (ret)
		misc_deregister(&itest_kernel_dev);
	return ret;
}

static void __exit itest_exit(void)
{
	misc_deregister(&itest_emul_dev);
	misc_deregister(&itest_kernel_dev);
}

module_init(itest_init);
module_exit(itest_exit);
MODULE_DESCRIPTION("mncompat test: mmu_interval_notifier, kernel's and emulated");
MODULE_LICENSE("GPL");
