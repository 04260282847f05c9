// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series: a self-contained module in the shape
 * of a pre-4.13 device mirror. It keeps a software "device page table"
 * of the user pages it mirrors, one bit per 4 KiB page, and has only
 * release and a sleeping invalidate_page. After every .cocci in series
 * order it must build against the 6.1 and 6.12 headers.
 */
#include <linux/module.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/bitmap.h>
#include <linux/sched.h>
#include <linux/slab.h>

#define LEGACY_MIRROR_PAGES 512

struct legacy_mirror {
	struct mmu_notifier mn;
	struct mutex lock;
	unsigned long base;
	bool dead;
	DECLARE_BITMAP(present, LEGACY_MIRROR_PAGES);
};

static struct legacy_mirror *legacy_mirror;

static void legacy_mirror_release(struct mmu_notifier *mn,
				  struct mm_struct *mm)
{
	struct legacy_mirror *lm = container_of(mn, struct legacy_mirror, mn);

	mutex_lock(&lm->lock);
	lm->dead = true;
	bitmap_zero(lm->present, LEGACY_MIRROR_PAGES);
	mutex_unlock(&lm->lock);
}

static void legacy_mirror_invalidate_page(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long address)
{
	struct legacy_mirror *lm = container_of(mn, struct legacy_mirror, mn);
	unsigned long idx;

	if (address < lm->base)
		return;
	idx = (address - lm->base) >> PAGE_SHIFT;
	if (idx >= LEGACY_MIRROR_PAGES)
		return;

	mutex_lock(&lm->lock);
	clear_bit(idx, lm->present);
	mutex_unlock(&lm->lock);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static int legacy_mirror_invalidate_range_start(struct mmu_notifier *mn,
						 const struct mmu_notifier_range *range)
{
	unsigned long address = range->start;

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	while (address < range->end) {
		legacy_mirror_invalidate_page(mn, range->mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
	return 0;
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void legacy_mirror_invalidate_range_end(struct mmu_notifier *mn,
					       const struct mmu_notifier_range *range)
{
	unsigned long address = range->start;

	while (address < range->end) {
		legacy_mirror_invalidate_page(mn, range->mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

static const struct mmu_notifier_ops legacy_mirror_ops = {
	.release = legacy_mirror_release,
	.invalidate_range_start = legacy_mirror_invalidate_range_start,
	.invalidate_range_end = legacy_mirror_invalidate_range_end,
};

static int __init legacy_mirror_init(void)
{
	int ret;

	legacy_mirror = kzalloc(sizeof(*legacy_mirror), GFP_KERNEL);
	if (!legacy_mirror)
		return -ENOMEM;
	mutex_init(&legacy_mirror->lock);
	legacy_mirror->mn.ops = &legacy_mirror_ops;
	ret = mmu_notifier_register(&legacy_mirror->mn, current->mm);
	if (ret)
		kfree(legacy_mirror);
	return ret;
}

static void __exit legacy_mirror_exit(void)
{
	mmu_notifier_unregister(&legacy_mirror->mn, current->mm);
	kfree(legacy_mirror);
}

module_init(legacy_mirror_init);
module_exit(legacy_mirror_exit);
MODULE_DESCRIPTION("mncompat test input: pre-4.13 device mirror");
MODULE_LICENSE("GPL");
