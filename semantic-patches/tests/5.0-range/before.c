// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 5.0 mmu_notifier_range break: a 4.19-style
 * invalidate_range_start that honours blockable with a trylock and
 * writes to its end argument, a forward-declared invalidate_range_end
 * that uses the mm, an invalidate_range that keeps its prototype, and a
 * caller of the old three-argument range API that is only reported.
 */
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>

struct bo_mn {
	struct mmu_notifier mn;
	struct mutex lock;
	struct rb_root_cached objects;
};

static void bo_mn_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start, unsigned long end);

static int bo_mn_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end,
			     bool blockable)
{
	struct bo_mn *bmn = container_of(mn, struct bo_mn, mn);
	struct interval_tree_node *it;

	/* notification is exclusive, but interval is inclusive */
	end -= 1;

	if (blockable)
		mutex_lock(&bmn->lock);
	else if (!mutex_trylock(&bmn->lock))
		return -EAGAIN;

	it = interval_tree_iter_first(&bmn->objects, start, end);
	while (it) {
		bo_unbind(container_of(it, struct bo_node, it), start, end);
		it = interval_tree_iter_next(it, start, end);
	}
	mutex_unlock(&bmn->lock);
	return 0;
}

static void bo_mn_flush(struct mmu_notifier *mn, struct mm_struct *mm,
			unsigned long start, unsigned long end)
{
	bo_iotlb_flush(container_of(mn, struct bo_mn, mn), start, end);
}

static const struct mmu_notifier_ops bo_mn_ops = {
	.invalidate_range_start = bo_mn_range_start,
	.invalidate_range_end = bo_mn_range_end,
	.invalidate_range = bo_mn_flush,
};

static void bo_mn_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start, unsigned long end)
{
	struct bo_mn *bmn = container_of(mn, struct bo_mn, mn);

	bo_mn_revalidate(bmn, mm, start, end);
}

void bo_mn_zap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	mmu_notifier_invalidate_range_start(mm, start, end);
	bo_zap_ptes(mm, start, end);
	mmu_notifier_invalidate_range_end(mm, start, end);
}
