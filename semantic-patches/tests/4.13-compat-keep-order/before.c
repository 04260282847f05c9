// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (-D compat): as 4.13-compat-keep, but the table with range
 * callbacks comes before the invalidate_page-only table that shares its
 * callback.  The range table's callbacks never sleep and cover its work:
 * no hook there (4.13-compat-keep-sleep-order keeps one, with its
 * declaration before the earlier table).
 */
#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

struct twin {
	struct mmu_notifier mn;
	spinlock_t lock;
	unsigned long seq;
	unsigned int active;
};

static void twin_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm,
				 unsigned long address)
{
	struct twin *t = container_of(mn, struct twin, mn);

	spin_lock(&t->lock);
	t->seq++;
	spin_unlock(&t->lock);
}

static void twin_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end)
{
	struct twin *t = container_of(mn, struct twin, mn);

	spin_lock(&t->lock);
	t->active++;
	spin_unlock(&t->lock);
}

static void twin_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	struct twin *t = container_of(mn, struct twin, mn);

	spin_lock(&t->lock);
	t->active--;
	t->seq++;
	spin_unlock(&t->lock);
}

static void twin_flush(struct mmu_notifier *mn, struct mm_struct *mm,
		       unsigned long start, unsigned long end)
{
	twin_invalidate_page(mn, mm, start);
}

static const struct mmu_notifier_ops twin_track_ops = {
	.invalidate_page = twin_invalidate_page,
	.invalidate_range_start = twin_range_start,
	.invalidate_range_end = twin_range_end,
};

static const struct mmu_notifier_ops twin_page_ops = {
	.invalidate_page = twin_invalidate_page,
};

static const struct mmu_notifier_ops twin_tlb_ops = {
	.invalidate_page = twin_invalidate_page,
	.invalidate_range = twin_flush,
};

const struct mmu_notifier_ops *twin_ops(int which)
{
	if (which == 2)
		return &twin_tlb_ops;
	return which ? &twin_track_ops : &twin_page_ops;
}
