// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a driver that carried its own compatibility #if inside the
 * callback, splitting its header so that spatch cannot parse it. The
 * field is dropped (the range callback covers it) and the function is
 * reported for removal by hand.
 */
#include <linux/mmu_notifier.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 0, 0)
static void split_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				  unsigned long address)
{
#else
static void split_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				  unsigned long address, struct page *page)
{
#endif
	split_unmap(mn, address, address + PAGE_SIZE);
}

static void split_invalidate_range_start(struct mmu_notifier *mn,
					 struct mm_struct *mm,
					 unsigned long start, unsigned long end)
{
	split_unmap(mn, start, end);
}

static const struct mmu_notifier_ops split_mn_ops = {
	.invalidate_range_start = split_invalidate_range_start,
};
