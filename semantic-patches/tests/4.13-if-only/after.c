// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: invalidate_page-only tables and #if.  cfg_ops names its
 * callback only when CONFIG_DEV_TRACK is set: callbacks generated next to
 * the table would call a function that may not exist, so the table is
 * reported for manual work.  both_ops's callback has one definition in
 * each branch of an #if/#else: it exists in every configuration and the
 * table is converted.
 */
#include <linux/mmu_notifier.h>

#ifdef CONFIG_DEV_TRACK
static void cfg_invalidate_page(struct mmu_notifier *mn,
				struct mm_struct *mm, unsigned long address)
{
	dev_track(mn, address);
}
#endif

static void cfg_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	dev_forget(mn);
}

static const struct mmu_notifier_ops cfg_ops = {
	.release = cfg_release,
#ifdef CONFIG_DEV_TRACK
	.invalidate_page = cfg_invalidate_page,
#endif
};

#ifdef CONFIG_DEV_FAST
static void both_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long address)
{
	dev_fast_drop(mn, address);
}
#else
static void both_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long address)
{
	dev_drop(mn, address);
}
#endif

/* Replaces invalidate_page, removed in Linux 4.13. */
static void both_invalidate_range_start(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start,
					unsigned long end)
{
	unsigned long address = start;

	while (address < end) {
		both_invalidate_page(mn, mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void both_invalidate_range_end(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	unsigned long address = start;

	while (address < end) {
		both_invalidate_page(mn, mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

static const struct mmu_notifier_ops both_ops = {
	.invalidate_range_start = both_invalidate_range_start,
	.invalidate_range_end = both_invalidate_range_end,
};

const struct mmu_notifier_ops *dev_ops(int both)
{
	return both ? &both_ops : &cfg_ops;
}
