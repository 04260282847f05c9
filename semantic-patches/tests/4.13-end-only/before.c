// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: invalidate_page next to an invalidate_range_end but no
 * invalidate_range_start. range_end does the invalidation, so 4.13 needs
 * no invalidate_page (an out-of-tree driver of this shape dropped it): it
 * is removed, and the window between the page-table change and range_end
 * is reported.
 */
#include <linux/mmu_notifier.h>

static void late_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long address)
{
	late_unmap(mn, address, address + PAGE_SIZE);
}

static void late_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	late_unmap(mn, start, end);
}

static const struct mmu_notifier_ops late_mn_ops = {
	.invalidate_page = late_invalidate_page,
	.invalidate_range_end = late_range_end,
};
