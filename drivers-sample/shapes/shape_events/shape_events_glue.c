// SPDX-License-Identifier: GPL-2.0
/*
 * shape_events' notifier glue, written before Linux 4.13 in ummunotify's
 * shape: user space watches an address and counts the invalidation
 * events that hit it. invalidate_range_start and invalidate_page each
 * count one event for what they are given; there is no range_end and no
 * page is mapped into the device. From 4.13 on the range start hears
 * every change, so invalidate_page must go without becoming a second
 * counter (a secondary-TLB hook would count each change again on
 * 3.19-6.5).
 */
#include <linux/mm.h>

#include "shape_core.h"

static void events_invalidate_page(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long address)
{
	address &= PAGE_MASK;
	shape_event(to_shape(mn), address, address + PAGE_SIZE);
}

static void events_invalidate_range_start(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end)
{
	shape_event(to_shape(mn), start, end);
}

static const struct mmu_notifier_ops events_ops = {
	.invalidate_page = events_invalidate_page,
	.invalidate_range_start = events_invalidate_range_start,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &events_ops;
}
