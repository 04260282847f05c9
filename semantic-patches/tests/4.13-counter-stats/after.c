// SPDX-License-Identifier: GPL-2.0
/*
 * Test input in the shape of a hypervisor's secondary MMU: range_start
 * drops the pages and raises an in-progress count, range_end lowers it
 * and bumps a sequence; the fault path maps pages with get_user_pages
 * and installs them only when the sequence did not move meanwhile; the
 * count it never reads (the fault path of a real driver may read it in
 * another module).  An 8-line statistics getter reads the count (issue
 * 33 item 6): that holds no re-fault off, so the verdict stays the one
 * of 4.13-counter-unread (cannot tell: the page work moves to range_end,
 * for review), not a silent removal.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

struct guest {
	struct mmu_notifier mn;
	spinlock_t lock;
	unsigned long seq;
	long count;
	struct page *map[64];
};

static void guest_unmap(struct guest *g, unsigned long start,
			unsigned long end)
{
	unsigned long i;

	for (i = start >> PAGE_SHIFT; i < end >> PAGE_SHIFT && i < 64; i++) {
		if (g->map[i])
			put_page(g->map[i]);
		g->map[i] = NULL;
	}
}

static int guest_fault(struct guest *g, unsigned long addr)
{
	unsigned long seq;
	struct page *page;

	spin_lock(&g->lock);
	seq = g->seq;
	spin_unlock(&g->lock);
	if (get_user_pages_fast(addr, 1, 1, &page) != 1)
		return -EFAULT;
	spin_lock(&g->lock);
	if (g->seq != seq) {
		spin_unlock(&g->lock);
		put_page(page);
		return -EAGAIN;
	}
	g->map[(addr >> PAGE_SHIFT) % 64] = page;
	spin_unlock(&g->lock);
	return 0;
}

static void guest_invalidate_page(struct mmu_notifier *mn,
				  struct mm_struct *mm, unsigned long start,
				  unsigned long end)
{
	struct guest *g = container_of(mn, struct guest, mn);

	spin_lock(&g->lock);
	g->seq++;
	guest_unmap(g, start, end);
	spin_unlock(&g->lock);
}

static void guest_invalidate_range_start(struct mmu_notifier *mn,
					 struct mm_struct *mm,
					 unsigned long start, unsigned long end)
{
	struct guest *g = container_of(mn, struct guest, mn);

	spin_lock(&g->lock);
	g->count++;
	guest_unmap(g, start, end);
	spin_unlock(&g->lock);
}

static void guest_invalidate_range_end(struct mmu_notifier *mn,
				       struct mm_struct *mm,
				       unsigned long start, unsigned long end)
{
	struct guest *g = container_of(mn, struct guest, mn);

	spin_lock(&g->lock);
	g->seq++;
	g->count--;
	spin_unlock(&g->lock);
}

/* Replaces invalidate_page (4.13): its work, after the page-table change. */
static void guest_invalidate_page_range_end(struct mmu_notifier *mn,
					    struct mm_struct *mm,
					    unsigned long start,
					    unsigned long end)
{
	guest_invalidate_range_end(mn, mm, start, end);
	guest_invalidate_page(mn, mm, start, end);
}

static const struct mmu_notifier_ops guest_ops = {
	.invalidate_range_start = guest_invalidate_range_start,
	.invalidate_range_end = guest_invalidate_page_range_end,
};

long guest_stats(struct guest *g, unsigned long *seq)
{
	long busy;

	spin_lock(&g->lock);
	busy = g->count;
	*seq = g->seq;
	spin_unlock(&g->lock);
	return busy;
}

int guest_touch(struct guest *g, unsigned long addr)
{
	g->mn.ops = &guest_ops;
	return guest_fault(g, addr);
}
