// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 44: a shape of real 4.11 code,
 * umem_odp's page trampoline): page callbacks that hand (address,
 * address + PAGE_SIZE) on to code that acts on the first page only.
 * fp_flush() tests its end but tells the device start alone; fp_walk()
 * goes over the device's slots in [start, end) but calls, for each, the
 * function it was handed, and fp_drop_first() drops the slot at start
 * only.  Rewriting either callback to take [start, end) and run once per
 * range would leave every page after the first mapped in the device: the
 * 4.13 step keeps the page loop and says why.  The output builds.
 */
#include <linux/module.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

#define FP_SLOTS 16

struct fp_dev {
	struct mmu_notifier mn;
	struct mmu_notifier walk_mn;
	spinlock_t lock;
	void __iomem *reg;
	unsigned long base;
	unsigned long slot[FP_SLOTS];
};

typedef void (*fp_slot_fn)(struct fp_dev *fp, unsigned long start,
			   unsigned long end);

static void fp_flush(struct fp_dev *fp, unsigned long start,
		     unsigned long end)
{
	if (start >= end)
		return;
	writeq(start, fp->reg);
}

static void fp_drop_first(struct fp_dev *fp, unsigned long start,
			  unsigned long end)
{
	unsigned long i = (start - fp->base) >> PAGE_SHIFT;

	if (i < FP_SLOTS)
		fp->slot[i] = 0;
}

static void fp_walk(struct fp_dev *fp, unsigned long start, unsigned long end,
		    fp_slot_fn fn)
{
	spin_lock(&fp->lock);
	if (start < fp->base + FP_SLOTS * PAGE_SIZE && end > fp->base)
		fn(fp, start, end);
	spin_unlock(&fp->lock);
}

static void fp_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	struct fp_dev *fp = container_of(mn, struct fp_dev, mn);

	fp_flush(fp, address, address + PAGE_SIZE);
}

static void fp_walk_invalidate_page(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long address)
{
	struct fp_dev *fp = container_of(mn, struct fp_dev, walk_mn);

	fp_walk(fp, address, address + PAGE_SIZE, fp_drop_first);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static int fp_invalidate_range_start(struct mmu_notifier *mn,
				      const struct mmu_notifier_range *range)
{
	unsigned long address = range->start;

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	while (address < range->end) {
		fp_invalidate_page(mn, range->mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
	return 0;
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void fp_invalidate_range_end(struct mmu_notifier *mn,
				    const struct mmu_notifier_range *range)
{
	unsigned long address = range->start;

	while (address < range->end) {
		fp_invalidate_page(mn, range->mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

static const struct mmu_notifier_ops fp_ops = {
	.invalidate_range_start = fp_invalidate_range_start,
	.invalidate_range_end = fp_invalidate_range_end,
};

/* Replaces invalidate_page, removed in Linux 4.13. */
static int fp_walk_invalidate_range_start(struct mmu_notifier *mn,
					   const struct mmu_notifier_range *range)
{
	unsigned long address = range->start;

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	while (address < range->end) {
		fp_walk_invalidate_page(mn, range->mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
	return 0;
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void fp_walk_invalidate_range_end(struct mmu_notifier *mn,
					 const struct mmu_notifier_range *range)
{
	unsigned long address = range->start;

	while (address < range->end) {
		fp_walk_invalidate_page(mn, range->mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

static const struct mmu_notifier_ops fp_walk_ops = {
	.invalidate_range_start = fp_walk_invalidate_range_start,
	.invalidate_range_end = fp_walk_invalidate_range_end,
};

int fp_register(struct fp_dev *fp, struct mm_struct *mm)
{
	int ret;

	spin_lock_init(&fp->lock);
	fp->mn.ops = &fp_ops;
	fp->walk_mn.ops = &fp_walk_ops;
	ret = mmu_notifier_register(&fp->mn, mm);
	if (ret)
		return ret;
	return mmu_notifier_register(&fp->walk_mn, mm);
}
EXPORT_SYMBOL_GPL(fp_register);

MODULE_LICENSE("GPL");
