// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a driver already on the 6.12 API, to be declared through
 * <mncompat/mmu_notifier.h>. One table has a secondary-TLB hook next to
 * its range callbacks, one has range callbacks only and an extra field,
 * one is not static and one still has a pre-4.13 field.
 */
#include <linux/mm.h>
#include <mncompat/mmu_notifier.h>

static int dev_start(struct mmu_notifier *mn,
		     const struct mmu_notifier_range *range)
{
	if (!mncompat_range_blockable(range))
		return -EAGAIN;
	return 0;
}

static void dev_end(struct mmu_notifier *mn,
		    const struct mmu_notifier_range *range)
{
}

static void dev_tlbs(struct mmu_notifier *mn, struct mm_struct *mm,
		     unsigned long start, unsigned long end)
{
}

static void dev_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
}

static int dev_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	return 0;
}

MNCOMPAT_MMU_NOTIFIER_OPS(dev_tlb_ops, dev_release, dev_start, dev_end,
			  dev_tlbs, MNCOMPAT_RANGE_START_MAY_SLEEP);

MNCOMPAT_MMU_NOTIFIER_OPS(dev_range_ops, NULL, dev_start, dev_end, NULL, 0,
			  .clear_young = dev_clear_young);

struct mmu_notifier_ops dev_shared_ops = {
	.invalidate_range_start = dev_start,
};

static const struct mmu_notifier_ops dev_old_ops = {
	.invalidate_page = dev_old_page,
};
