// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (the whole series with -D compat, then mn-compat-ops.cocci):
 * the commonest real shape, as in Xen's gntdev before 4.13: the
 * invalidate_page callback forwards [address, address + PAGE_SIZE) to the
 * driver's own invalidate_range_start, which takes a mutex.  Keeping it as
 * the secondary-TLB hook would call a callback the 4.19/5.0 steps change
 * (a build error) and sleep under the page-table lock: it is removed as in
 * plain conversion, and compat refuses to build the table before 4.13.
 * A second table has only an invalidate_page that takes the mutex: it
 * gets the sleepable range callbacks, refused before 4.13 too.  The
 * result must build with compat (compat/tests/run.sh builds after.c on
 * every kernel it tests and checks the refusals).
 */
#include <linux/mm.h>
#include <mncompat/mmu_notifier.h>
#include <linux/module.h>
#include <linux/mutex.h>

struct grant {
	struct mmu_notifier mn;
	struct mutex lock;
	unsigned long lo, hi;
};

static void grant_unmap(struct grant *g, unsigned long start,
			unsigned long end)
{
	if (start < g->hi && end > g->lo)
		g->lo = g->hi = 0;
}

static int grant_range_start(struct mmu_notifier *mn,
			     const struct mmu_notifier_range *range)
{
	struct grant *g = container_of(mn, struct grant, mn);

	if (!mncompat_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&g->lock);
	grant_unmap(g, range->start, range->end);
	mutex_unlock(&g->lock);
	return 0;
}

static void grant_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct grant *g = container_of(mn, struct grant, mn);

	mutex_lock(&g->lock);
	grant_unmap(g, 0, TASK_SIZE);
	mutex_unlock(&g->lock);
}

MNCOMPAT_MMU_NOTIFIER_OPS(grant_mmu_ops, grant_release, grant_range_start, NULL,
			  NULL, MNCOMPAT_RANGE_START_MAY_SLEEP);

static void grant_page_locked(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long start, unsigned long end)
{
	struct grant *g = container_of(mn, struct grant, mn);

	mutex_lock(&g->lock);
	grant_unmap(g, start, end);
	mutex_unlock(&g->lock);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static int grant_page_locked_range_start(struct mmu_notifier *mn,
					  const struct mmu_notifier_range *range)
{
	if (!mncompat_range_blockable(range))
		return -EAGAIN;
	grant_page_locked(mn, range->mm, range->start, range->end);
	return 0;
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void grant_page_locked_range_end(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	grant_page_locked(mn, range->mm, range->start, range->end);
}

MNCOMPAT_MMU_NOTIFIER_OPS(grant_page_ops, NULL, grant_page_locked_range_start,
			  grant_page_locked_range_end, NULL,
			  MNCOMPAT_RANGE_START_MAY_SLEEP);

const struct mmu_notifier_ops *grant_ops(bool ranges);
const struct mmu_notifier_ops *grant_ops(bool ranges)
{
	return ranges ? &grant_mmu_ops : &grant_page_ops;
}
EXPORT_SYMBOL_GPL(grant_ops);

MODULE_DESCRIPTION("mncompat test input: gntdev-shaped notifier");
MODULE_LICENSE("GPL");
