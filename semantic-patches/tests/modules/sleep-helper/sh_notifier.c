// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: the notifier glue of a two-file module.  Its invalidate_page
 * and invalidate_range_end call sh_forget() of sh_table.c, which takes a
 * mutex: the page callback may not become the non-sleeping hook.
 */
#include "sh.h"

static void sh_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	sh_forget(container_of(mn, struct sh_dev, mn), address,
		  address + PAGE_SIZE);
}

static void sh_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			 unsigned long start, unsigned long end)
{
	sh_forget(container_of(mn, struct sh_dev, mn), start, end);
}

static const struct mmu_notifier_ops sh_ops = {
	.invalidate_page = sh_invalidate_page,
	.invalidate_range_end = sh_range_end,
};

const struct mmu_notifier_ops *sh_notifier_ops(void)
{
	return &sh_ops;
}
