// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 4.19 blockable break: an invalidate_range_start
 * that only calls kernel helpers which never sleep (cache and TLB
 * flushes, cpu and node ids, panic/BUG), in the shape of SGI GRU's.  It
 * gets a definite "never sleeps" verdict: no -EAGAIN guard, nothing to
 * review.
 */
#include <linux/mmu_notifier.h>

struct gs {
	struct mmu_notifier mn;
	atomic_t range_active;
	void *tfh;
	int node;
};

static void gs_flush(struct gs *g, unsigned long start, unsigned long end)
{
	if (!g->tfh)
		panic("gs: no TLB handle");
	BUG_ON(start > end);
	g->node = cpu_to_node(smp_processor_id());
	if (g->node != numa_node_id())
		prefetch(g->tfh);
	clflush(g->tfh);
	clflush_cache_range(g->tfh, 64);
	local_flush_tlb_all();
}

static void gs_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	struct gs *g = container_of(mn, struct gs, mn);

	atomic_inc(&g->range_active);
	gs_flush(g, start, end);
}

static void gs_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			 unsigned long start, unsigned long end)
{
	struct gs *g = container_of(mn, struct gs, mn);

	atomic_dec(&g->range_active);
}

static const struct mmu_notifier_ops gs_ops = {
	.invalidate_range_start = gs_range_start,
	.invalidate_range_end = gs_range_end,
};
