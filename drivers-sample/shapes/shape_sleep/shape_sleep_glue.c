// SPDX-License-Identifier: GPL-2.0
/*
 * shape_sleep's notifier glue, written before Linux 4.13: invalidate_page
 * and invalidate_range_end both flush through the command queue of
 * shape_sleep_cmd.c, which takes a mutex. So invalidate_page may sleep,
 * which is wrong where the kernel calls it under the page-table lock
 * (4.11-4.12), and it may not become the non-sleeping secondary-TLB hook.
 */
#include <linux/mm.h>

#include "shape_sleep_cmd.h"

static void sleep_invalidate_page(struct mmu_notifier *mn,
				  struct mm_struct *mm,
				  unsigned long address)
{
	address &= PAGE_MASK;
	sleep_cmd_flush(to_shape(mn), address, address + PAGE_SIZE);
}

static void sleep_invalidate_range_end(struct mmu_notifier *mn,
				       struct mm_struct *mm,
				       unsigned long start,
				       unsigned long end)
{
	sleep_cmd_flush(to_shape(mn), start, end);
}

static const struct mmu_notifier_ops sleep_ops = {
	.invalidate_page = sleep_invalidate_page,
	.invalidate_range_end = sleep_invalidate_range_end,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &sleep_ops;
}
