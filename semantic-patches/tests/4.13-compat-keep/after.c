// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (-D compat; pipeline-compat runs the whole series and
 * mn-compat-ops.cocci on it): two tables share one invalidate_page; the
 * second also tracks ranges, a third already has invalidate_range.
 * An invalidate_page-only table gets it as its hook; the range table
 * covers its work without sleeping, so no kernel needs the hook there.
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

/* Replaces invalidate_page, removed in Linux 4.13. */
static void twin_invalidate_range(struct mmu_notifier *mn,
				  struct mm_struct *mm, unsigned long start,
				  unsigned long end)
{
	twin_invalidate_page(mn, mm, start);
}

static const struct mmu_notifier_ops twin_page_ops = {
	.invalidate_range = twin_invalidate_range,
};

static const struct mmu_notifier_ops twin_track_ops = {
	.invalidate_range_start = twin_range_start,
	.invalidate_range_end = twin_range_end,
};

static const struct mmu_notifier_ops twin_tlb_ops = {
	.invalidate_range = twin_flush,
};

const struct mmu_notifier_ops *twin_ops(int which)
{
	if (which == 2)
		return &twin_tlb_ops;
	return which ? &twin_track_ops : &twin_page_ops;
}
