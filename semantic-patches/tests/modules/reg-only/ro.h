/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test input: a module whose notifier table and its registration live in
 * two files; only the table's file includes anything of the kernel's own
 * beside this header.
 */
#include <linux/mmu_notifier.h>

struct ro_dev {
	struct mmu_notifier mn;
	unsigned long seq;
};

const struct mmu_notifier_ops *ro_notifier_ops(void);
