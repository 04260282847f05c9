// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module that leaks memory when loaded. On kernels
 * with kmemleak the end-of-run scan must report it as a splat.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static int __init selftest_leak_init(void)
{
	char *lost = kmalloc(256, GFP_KERNEL);

	if (!lost)
		return -ENOMEM;
	memset(lost, 0x6b, 256);
	lost = NULL;
	return 0;
}

static void __exit selftest_leak_exit(void)
{
}

module_init(selftest_leak_init);
module_exit(selftest_leak_exit);

MODULE_DESCRIPTION("mncompat harness self-test: leak on load");
MODULE_LICENSE("GPL");
