// SPDX-License-Identifier: GPL-2.0
/*
 * shape_refault's notifier glue, written before Linux 4.13: the range
 * start drops the pages, the range end has nothing to do, and
 * invalidate_page drops one page after the page-table change. Nothing
 * keeps the device from faulting a page back in between the range start
 * and the page-table change: from 4.13 on, where the rmap paths call the
 * range pair instead of invalidate_page, its work must run after the
 * change too, or the device keeps a page the CPU no longer maps.
 */
#include <linux/mm.h>

#include "shape_core.h"

static void refault_invalidate_page(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long address)
{
	address &= PAGE_MASK;
	shape_drop(to_shape(mn), address, address + PAGE_SIZE);
}

static void refault_invalidate_range_start(struct mmu_notifier *mn,
					   struct mm_struct *mm,
					   unsigned long start,
					   unsigned long end)
{
	struct shape_dev *sd = to_shape(mn);

	shape_drop(sd, start, end);
	shape_pause(sd, start, end);
}

static void refault_invalidate_range_end(struct mmu_notifier *mn,
					 struct mm_struct *mm,
					 unsigned long start,
					 unsigned long end)
{
}

static const struct mmu_notifier_ops refault_ops = {
	.invalidate_page = refault_invalidate_page,
	.invalidate_range_start = refault_invalidate_range_start,
	.invalidate_range_end = refault_invalidate_range_end,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &refault_ops;
}
