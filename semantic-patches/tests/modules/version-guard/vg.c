// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a LINUX_VERSION_CODE guard at 3.17 around the range form of
 * clear_flush_young, which came in 3.18; one at 4.13 around
 * invalidate_page, which is right; and a driver function whose name ends
 * in mmu_notifier_invalidate_page, which is no leftover of the API.
 */
#include <linux/mmu_notifier.h>
#include <linux/version.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 17, 0)
static int vg_clear_flush_young(struct mmu_notifier *mn, struct mm_struct *mm,
				unsigned long start, unsigned long end)
{
	return 0;
}
#else
static int vg_clear_flush_young(struct mmu_notifier *mn, struct mm_struct *mm,
				unsigned long address)
{
	return 0;
}
#endif

static void vg_mmu_notifier_invalidate_page(unsigned long address)
{
}

static int vg_range_start(struct mmu_notifier *mn,
			  const struct mmu_notifier_range *range)
{
	vg_mmu_notifier_invalidate_page(range->start);
	return 0;
}

static const struct mmu_notifier_ops vg_ops = {
#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 13, 0)
	.invalidate_range_start = vg_range_start,
#endif
	.clear_flush_young = vg_clear_flush_young,
	.invalidate_range_start = vg_range_start,
};

const struct mmu_notifier_ops *vg_notifier_ops(void)
{
	return &vg_ops;
}
