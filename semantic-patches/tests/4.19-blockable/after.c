// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 4.19 blockable break: a forward-declared
 * invalidate_range_start with an early return, an invalidate_range_end
 * and an invalidate_range that keep their prototypes, and a run-time
 * assignment that is only reported.
 */
#include <linux/mmu_notifier.h>
#include <linux/rwsem.h>

struct shadow {
	struct mmu_notifier mn;
	struct rw_semaphore sem;
	struct rb_root_cached tree;
	atomic_t active;
};

static int shadow_range_start(struct mmu_notifier *, struct mm_struct *,
			       unsigned long, unsigned long, bool);

static const struct mmu_notifier_ops shadow_mn_ops = {
	.invalidate_range_start = shadow_range_start,
	.invalidate_range_end = shadow_range_end,
	.invalidate_range = shadow_flush_iotlb,
};

static int shadow_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long start, unsigned long end,
			       bool blockable)
{
	struct shadow *sh = container_of(mn, struct shadow, mn);

	if (!blockable)
		return -EAGAIN;
	if (RB_EMPTY_ROOT(&sh->tree.rb_root))
		return 0;

	atomic_inc(&sh->active);
	down_read(&sh->sem);
	shadow_unmap_range(sh, start, end);
	up_read(&sh->sem);
	return 0;
}

static void shadow_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end)
{
	struct shadow *sh = container_of(mn, struct shadow, mn);

	atomic_dec(&sh->active);
}

static void shadow_flush_iotlb(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long start, unsigned long end)
{
	shadow_iotlb_flush(container_of(mn, struct shadow, mn), start, end);
}

void shadow_set_ops(struct mmu_notifier_ops *ops)
{
	ops->invalidate_range_start = shadow_range_start;
}
