// SPDX-License-Identifier: GPL-2.0
/*
 * shape_guarded's notifier glue: shape_refault's (the range start drops
 * the pages, the range end has nothing to do, the device faults pages
 * back in freely through devpt.c's get_user_pages_fast()), ported the
 * way vendors did when 4.13 removed invalidate_page: the callback and
 * its field kept under the vendor's own version guard, so that on 4.14+
 * the table is simply the range pair. That port loses the invalidation
 * after the page-table change; convert.sh must judge the callback as it
 * would without the guard.
 */
#include <linux/mm.h>
#include <linux/version.h>

#include "shape_core.h"

#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 14, 0)
static void guarded_invalidate_page(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long address)
{
	address &= PAGE_MASK;
	shape_drop(to_shape(mn), address, address + PAGE_SIZE);
}
#endif

static void guarded_invalidate_range_start(struct mmu_notifier *mn,
					   struct mm_struct *mm,
					   unsigned long start,
					   unsigned long end)
{
	struct shape_dev *sd = to_shape(mn);

	shape_drop(sd, start, end);
	shape_pause(sd, start, end);
}

static void guarded_invalidate_range_end(struct mmu_notifier *mn,
					 struct mm_struct *mm,
					 unsigned long start,
					 unsigned long end)
{
}

static const struct mmu_notifier_ops guarded_ops = {
#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 14, 0)
	.invalidate_page = guarded_invalidate_page,
#endif
	.invalidate_range_start = guarded_invalidate_range_start,
	.invalidate_range_end = guarded_invalidate_range_end,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &guarded_ops;
}
