// SPDX-License-Identifier: GPL-2.0
/*
 * shape_endonly's notifier glue, written before Linux 4.13 in XPMEM's
 * shape: only invalidate_range_end, which drops the pages once the CPU
 * page table no longer maps them, and invalidate_page forwarding one page
 * to it. Nothing is lost when invalidate_page goes: range_end already
 * runs after the page-table change.
 */
#include <linux/mm.h>

#include "shape_endonly_zap.h"

static void endonly_invalidate_range_end(struct mmu_notifier *mn,
					 struct mm_struct *mm,
					 unsigned long start,
					 unsigned long end)
{
	endonly_zap(to_shape(mn), start, end);
}

static void endonly_invalidate_page(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long address)
{
	address &= PAGE_MASK;
	endonly_invalidate_range_end(mn, mm, address, address + PAGE_SIZE);
}

static const struct mmu_notifier_ops endonly_ops = {
	.invalidate_page = endonly_invalidate_page,
	.invalidate_range_end = endonly_invalidate_range_end,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &endonly_ops;
}
