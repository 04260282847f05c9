// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (-D compat): as 4.13-compat-keep-order, but range_start
 * takes a mutex: before 4.13 compat can call the range callbacks from
 * invalidate_page only if they never sleep, so the table keeps the
 * callback as its hook (generated before the later table, so the earlier
 * one needs a declaration of it).  From 4.13 to 6.5 the hook then runs
 * next to the range callbacks, which already cover its work: a review
 * item says so.
 */
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

struct twin {
	struct mmu_notifier mn;
	spinlock_t lock;
	struct mutex mlock;
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

	mutex_lock(&t->mlock);
	t->active++;
	mutex_unlock(&t->mlock);
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

static void twin_invalidate_range(struct mmu_notifier *mn,
				  struct mm_struct *mm, unsigned long start,
				  unsigned long end);

static const struct mmu_notifier_ops twin_track_ops = {
	.invalidate_range = twin_invalidate_range,
	.invalidate_range_start = twin_range_start,
	.invalidate_range_end = twin_range_end,
};

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

static const struct mmu_notifier_ops twin_tlb_ops = {
	.invalidate_range = twin_flush,
};

const struct mmu_notifier_ops *twin_ops(int which)
{
	if (which == 2)
		return &twin_tlb_ops;
	return which ? &twin_track_ops : &twin_page_ops;
}
