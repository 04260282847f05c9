// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series with --compat (issue 44 item 1): a
 * module written for the 5.5+ API in the shape of SGI GRU after it moved
 * to mmu_notifier_get(): one subscription per mm, allocated by the
 * table's alloc_notifier, referenced by every get and freed by
 * free_notifier after the last put.  range_start takes a mutex and
 * refuses a non-blockable range with -EAGAIN; range_end lowers the count
 * it raised.  compat pairs such a table only for a subscription it
 * registered, so mmu_notifier_get()/_put() become
 * mncompat_mmu_notifier_get()/_put() and the table MNCOMPAT_MMU_NOTIFIER_GET_OPS
 * (compat emulates get/put for it before 5.4), alloc_notifier and free_notifier
 * stay in the table.  The output builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>

struct gp_mm {
	struct mmu_notifier mn;
	struct mutex lock;
	long active;
	unsigned long seq;
};

static int gp_invalidate_range_start(struct mmu_notifier *mn,
				     const struct mmu_notifier_range *range)
{
	struct gp_mm *g = container_of(mn, struct gp_mm, mn);

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&g->lock);
	g->active++;
	mutex_unlock(&g->lock);
	return 0;
}

static void gp_invalidate_range_end(struct mmu_notifier *mn,
				    const struct mmu_notifier_range *range)
{
	struct gp_mm *g = container_of(mn, struct gp_mm, mn);

	mutex_lock(&g->lock);
	g->seq++;
	g->active--;
	mutex_unlock(&g->lock);
}

static struct mmu_notifier *gp_alloc_notifier(struct mm_struct *mm)
{
	struct gp_mm *g = kzalloc(sizeof(*g), GFP_KERNEL);

	if (!g)
		return ERR_PTR(-ENOMEM);
	mutex_init(&g->lock);
	return &g->mn;
}

static void gp_free_notifier(struct mmu_notifier *mn)
{
	kfree(container_of(mn, struct gp_mm, mn));
}

static const struct mmu_notifier_ops gp_ops = {
	.invalidate_range_start = gp_invalidate_range_start,
	.invalidate_range_end = gp_invalidate_range_end,
	.alloc_notifier = gp_alloc_notifier,
	.free_notifier = gp_free_notifier,
};

/* The device maps nothing while an invalidation is in progress. */
int gp_fault(struct gp_mm *g, unsigned long addr)
{
	struct page *page;
	unsigned long seq;
	int ret = 0;

	mutex_lock(&g->lock);
	seq = g->seq;
	if (g->active)
		ret = -EAGAIN;
	mutex_unlock(&g->lock);
	if (ret)
		return ret;
	if (get_user_pages_fast(addr, 1, 0, &page) != 1)
		return -EFAULT;
	mutex_lock(&g->lock);
	if (g->active || g->seq != seq)
		ret = -EAGAIN;
	mutex_unlock(&g->lock);
	put_page(page);
	return ret;
}

struct gp_mm *gp_attach(void)
{
	struct mmu_notifier *mn = mmu_notifier_get(&gp_ops, current->mm);

	if (IS_ERR(mn))
		return ERR_CAST(mn);
	return container_of(mn, struct gp_mm, mn);
}
EXPORT_SYMBOL_GPL(gp_attach);

void gp_detach(struct gp_mm *g)
{
	mmu_notifier_put(&g->mn);
}
EXPORT_SYMBOL_GPL(gp_detach);

static void __exit gp_exit(void)
{
	mmu_notifier_synchronize();
}

module_exit(gp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: mmu_notifier_get()/_put()");
