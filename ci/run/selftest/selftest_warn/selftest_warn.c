// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test: a module that WARNs when loaded. Every test of its run
 * passes, yet the run must be reported as a splat.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init selftest_warn_init(void)
{
	WARN(1, "mncompat harness self-test: deliberate warning\n");
	return 0;
}

static void __exit selftest_warn_exit(void)
{
}

module_init(selftest_warn_init);
module_exit(selftest_warn_exit);

MODULE_DESCRIPTION("mncompat harness self-test: WARN on load");
MODULE_LICENSE("GPL");
