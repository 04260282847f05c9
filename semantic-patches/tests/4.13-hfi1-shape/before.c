// SPDX-License-Identifier: GPL-2.0
/*
 * Test input in the shape of a pinned-buffer cache notifier (seed 009):
 * forward declarations with unnamed parameters, the ops table before the
 * callbacks, and both callbacks forwarding to one range helper.
 */
#include <linux/mmu_notifier.h>
#include <linux/interval_tree_generic.h>

struct pin_cache {
	struct mmu_notifier mn;
	struct rb_root_cached root;
	spinlock_t lock;
};

static unsigned long pin_node_start(struct pin_node *);
static unsigned long pin_node_last(struct pin_node *);
static inline void pin_notifier_page(struct mmu_notifier *, struct mm_struct *,
				     unsigned long);
static inline void pin_notifier_range_start(struct mmu_notifier *,
					    struct mm_struct *,
					    unsigned long, unsigned long);
static void pin_notifier_mem_invalidate(struct mmu_notifier *,
					struct mm_struct *,
					unsigned long, unsigned long);

static const struct mmu_notifier_ops pin_mn_ops = {
	.invalidate_page = pin_notifier_page,
	.invalidate_range_start = pin_notifier_range_start,
};

INTERVAL_TREE_DEFINE(struct pin_node, node, unsigned long, __last,
		     pin_node_start, pin_node_last, static, __pin_int_rb);

static unsigned long pin_node_start(struct pin_node *node)
{
	return node->addr & PAGE_MASK;
}

static unsigned long pin_node_last(struct pin_node *node)
{
	return PAGE_ALIGN(node->addr + node->len) - 1;
}

static inline void pin_notifier_page(struct mmu_notifier *mn,
				     struct mm_struct *mm, unsigned long addr)
{
	pin_notifier_mem_invalidate(mn, mm, addr, addr + PAGE_SIZE);
}

static inline void pin_notifier_range_start(struct mmu_notifier *mn,
					    struct mm_struct *mm,
					    unsigned long start,
					    unsigned long end)
{
	pin_notifier_mem_invalidate(mn, mm, start, end);
}

static void pin_notifier_mem_invalidate(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start, unsigned long end)
{
	struct pin_cache *cache = container_of(mn, struct pin_cache, mn);
	struct pin_node *node, *ptr = NULL;
	unsigned long flags;

	spin_lock_irqsave(&cache->lock, flags);
	for (node = __pin_int_rb_iter_first(&cache->root, start, end - 1);
	     node; node = ptr) {
		ptr = __pin_int_rb_iter_next(node, start, end - 1);
		pin_cache_evict(cache, node);
	}
	spin_unlock_irqrestore(&cache->lock, flags);
}
