/* SPDX-License-Identifier: GPL-2.0 */
/* Test input: the two files of one module share this. */
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>

struct sh_dev {
	struct mmu_notifier mn;
	struct mutex table_lock;
	unsigned long table[32];
};

void sh_forget(struct sh_dev *d, unsigned long start, unsigned long end);
