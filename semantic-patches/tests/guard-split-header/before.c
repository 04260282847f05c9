// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 44 item 3), in the shape of a
 * vendor's port to later kernels with its own version guards (Dune's
 * EPT glue as ported in 2022): .invalidate_page and its callback under
 * #if < 5.0 (the wrong release: it is gone from 4.13), range_start and
 * range_end written twice, the function header under #if/#else (each
 * branch opening the body, or the #if inside the parameter list), the
 * range_start body with a guard of its own, range_end empty.  The fault
 * path maps pages back in freely, so range_end must redo invalidate_page's
 * work after the page-table change: the vendor's branch without it lost
 * that.  unsplit.py makes each split definition whole per branch, the
 * series converts the old one, the empty range_end goes.  The output
 * builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/version.h>

#define GS_SLOTS 16

struct gs_dev {
	struct mmu_notifier mn;
	spinlock_t lock;
	unsigned long base;
	unsigned long pfns[GS_SLOTS];
};

static void gs_clear(struct gs_dev *d, unsigned long start, unsigned long end)
{
	unsigned long a;

	spin_lock(&d->lock);
	for (a = start; a < end; a += PAGE_SIZE)
		if (a >= d->base && a < d->base + GS_SLOTS * PAGE_SIZE)
			d->pfns[(a - d->base) >> PAGE_SHIFT] = 0;
	spin_unlock(&d->lock);
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 0, 0)
static void gs_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	gs_clear(container_of(mn, struct gs_dev, mn), address & PAGE_MASK,
		 (address & PAGE_MASK) + PAGE_SIZE);
}
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 0, 0)
static int gs_invalidate_range_start(struct mmu_notifier *mn,
				     const struct mmu_notifier_range *range)
{
	unsigned long start = range->start;
	unsigned long end = range->end;
#else
static void gs_invalidate_range_start(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
#endif
	struct gs_dev *d = container_of(mn, struct gs_dev, mn);

	gs_clear(d, start, end);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 0, 0)
	return 0;
#endif
}

static void
gs_invalidate_range_end(struct mmu_notifier *mn,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 0, 0)
			const struct mmu_notifier_range *range)
#else
			struct mm_struct *mm, unsigned long start,
			unsigned long end)
#endif
{
}

static const struct mmu_notifier_ops gs_ops = {
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 0, 0)
	.invalidate_page = gs_invalidate_page,
#endif
	.invalidate_range_start = gs_invalidate_range_start,
	.invalidate_range_end = gs_invalidate_range_end,
};

/* The device's fault: it maps the page again, checking nothing. */
int gs_fault(struct gs_dev *d, unsigned long addr)
{
	struct page *page;

	if (addr < d->base || addr >= d->base + GS_SLOTS * PAGE_SIZE)
		return -EINVAL;
	if (get_user_pages_fast(addr, 1, 0, &page) != 1)
		return -EFAULT;
	spin_lock(&d->lock);
	d->pfns[(addr - d->base) >> PAGE_SHIFT] = page_to_pfn(page);
	spin_unlock(&d->lock);
	put_page(page);
	return 0;
}
EXPORT_SYMBOL_GPL(gs_fault);

int gs_attach(struct gs_dev *d)
{
	spin_lock_init(&d->lock);
	d->mn.ops = &gs_ops;
	return mmu_notifier_register(&d->mn, current->mm);
}
EXPORT_SYMBOL_GPL(gs_attach);

void gs_detach(struct gs_dev *d)
{
	mmu_notifier_unregister(&d->mn, current->mm);
}
EXPORT_SYMBOL_GPL(gs_detach);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: headers split by #if/#else");
