// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: one invalidate_page callback in two tables, one with only
 * invalidate_page, one with invalidate_range_start too (the field goes,
 * the function stays).  The device faults pages back in freely, so both
 * tables end up calling the old callback from invalidate_range_end, and
 * every callback generated from it runs it for every page of the range,
 * not once.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

struct pdev {
	struct mmu_notifier mn;
	spinlock_t lock;
	struct page *slot[16];
};

static void pdev_drop(struct pdev *d, unsigned long addr)
{
	struct page *page;

	spin_lock(&d->lock);
	page = d->slot[(addr >> PAGE_SHIFT) % 16];
	d->slot[(addr >> PAGE_SHIFT) % 16] = NULL;
	spin_unlock(&d->lock);
	if (page)
		put_page(page);
}

static void pdev_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				 unsigned long address)
{
	pdev_drop(container_of(mn, struct pdev, mn), address);
}

static void pdev_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end)
{
	struct pdev *d = container_of(mn, struct pdev, mn);

	for (; start < end; start += PAGE_SIZE)
		pdev_drop(d, start);
}

int pdev_fault(struct pdev *d, unsigned long addr)
{
	struct page *page;

	if (get_user_pages_fast(addr, 1, 0, &page) != 1)
		return -EFAULT;
	spin_lock(&d->lock);
	d->slot[(addr >> PAGE_SHIFT) % 16] = page;
	spin_unlock(&d->lock);
	return 0;
}

static const struct mmu_notifier_ops pdev_page_ops = {
	.invalidate_page = pdev_invalidate_page,
};

static const struct mmu_notifier_ops pdev_range_ops = {
	.invalidate_page = pdev_invalidate_page,
	.invalidate_range_start = pdev_range_start,
};

const struct mmu_notifier_ops *pdev_ops(int range)
{
	return range ? &pdev_range_ops : &pdev_page_ops;
}
