// SPDX-License-Identifier: GPL-2.0
/*
 * Test input in the shape of a GPU userptr notifier (seed 007): an
 * interval tree of buffer objects, a mutex, an invalidate_page callback
 * next to an invalidate_range_start callback that already covers it.
 */
#include <linux/mmu_notifier.h>
#include <linux/interval_tree.h>
#include <linux/mutex.h>

struct gpu_mn {
	struct mmu_notifier mn;
	struct mutex lock;
	struct rb_root_cached objects;
};

struct gpu_mn_node {
	struct interval_tree_node it;
	struct list_head bos;
};

static void gpu_mn_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct gpu_mn *gmn = container_of(mn, struct gpu_mn, mn);

	mutex_lock(&gmn->lock);
	gmn->objects = RB_ROOT_CACHED;
	mutex_unlock(&gmn->lock);
}

static void gpu_mn_invalidate_node(struct gpu_mn_node *node,
				   unsigned long start, unsigned long end)
{
	struct gpu_bo *bo;

	list_for_each_entry(bo, &node->bos, mn_list)
		gpu_bo_unbind_range(bo, start, end);
}

/**
 * gpu_mn_invalidate_page - callback to notify about mm change
 *
 * @mn: our notifier
 * @mm: the mm this callback is about
 * @address: address of invalidate page
 *
 * Block for all buffer objects mapping the page and unbind them.
 */
static void gpu_mn_invalidate_page(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long address)
{
	struct gpu_mn *gmn = container_of(mn, struct gpu_mn, mn);
	struct interval_tree_node *it;

	mutex_lock(&gmn->lock);
	it = interval_tree_iter_first(&gmn->objects, address, address);
	if (it) {
		struct gpu_mn_node *node;

		node = container_of(it, struct gpu_mn_node, it);
		gpu_mn_invalidate_node(node, address, address);
	}
	mutex_unlock(&gmn->lock);
}

/**
 * gpu_mn_invalidate_range_start - callback to notify about mm change
 *
 * @mn: our notifier
 * @mm: the mm this callback is about
 * @start: start of updated range
 * @end: end of updated range
 */
static void gpu_mn_invalidate_range_start(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end)
{
	struct gpu_mn *gmn = container_of(mn, struct gpu_mn, mn);
	struct interval_tree_node *it;

	/* notification is exclusive, but interval is inclusive */
	end -= 1;

	mutex_lock(&gmn->lock);
	it = interval_tree_iter_first(&gmn->objects, start, end);
	while (it) {
		struct gpu_mn_node *node;

		node = container_of(it, struct gpu_mn_node, it);
		it = interval_tree_iter_next(it, start, end);
		gpu_mn_invalidate_node(node, start, end);
	}
	mutex_unlock(&gmn->lock);
}

static const struct mmu_notifier_ops gpu_mn_ops = {
	.release = gpu_mn_release,
	.invalidate_page = gpu_mn_invalidate_page,
	.invalidate_range_start = gpu_mn_invalidate_range_start,
};

int gpu_mn_register(struct gpu_mn *gmn, struct mm_struct *mm)
{
	gmn->mn.ops = &gpu_mn_ops;
	mutex_init(&gmn->lock);
	gmn->objects = RB_ROOT_CACHED;
	return mmu_notifier_register(&gmn->mn, mm);
}
