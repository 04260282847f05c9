// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a notifier whose ops are filled in at run time. spatch
 * cannot know what else the driver does with them: both assignments
 * must be reported and the code left as it is.
 */
#include <linux/mmu_notifier.h>

static struct mmu_notifier_ops dyn_mn_ops;

static void dyn_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				unsigned long address)
{
	dyn_unmap(mn, address, PAGE_SIZE);
}

static void dyn_setup(struct mmu_notifier_ops *ops, bool fast)
{
	if (fast)
		ops->invalidate_page = dyn_invalidate_page;
}

int dyn_register(struct mmu_notifier *mn, struct mm_struct *mm)
{
	dyn_mn_ops.invalidate_page = dyn_invalidate_page;
	dyn_setup(&dyn_mn_ops, true);
	mn->ops = &dyn_mn_ops;
	return mmu_notifier_register(mn, mm);
}
