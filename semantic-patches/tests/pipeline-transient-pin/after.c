// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 33 items 6 and 7): a pre-4.13
 * module whose only get_user_pages() is a transient pin, taken and
 * released inside one copy (the mapping has no fault handler), next to
 * a device cache of addresses that range_start flushes.  invalidate_page
 * forwards one page to range_start, with range_start's old arguments.
 * Nothing re-establishes what range_start dropped: invalidate_page goes
 * (as upstream dropped such callbacks in 4.13), and nothing is left that
 * calls range_start with its pre-4.19 arguments.  The output builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/highmem.h>

#define TP_SLOTS 16

struct tp_dev {
	struct mmu_notifier mn;
	spinlock_t lock;
	unsigned long cached[TP_SLOTS];
};

static struct tp_dev *tp_dev;

static void tp_flush(struct tp_dev *d, unsigned long start, unsigned long end)
{
	int i;

	spin_lock(&d->lock);
	for (i = 0; i < TP_SLOTS; i++)
		if (d->cached[i] >= start && d->cached[i] < end)
			d->cached[i] = 0;
	spin_unlock(&d->lock);
}

static int tp_invalidate_range_start(struct mmu_notifier *mn,
				      const struct mmu_notifier_range *range)
{
	tp_flush(container_of(mn, struct tp_dev, mn), range->start,
		 range->end);
	return 0;
}

static const struct mmu_notifier_ops tp_ops = {
	.invalidate_range_start = tp_invalidate_range_start,
};

/* One copy from user memory: the page is pinned for the copy only. */
int tp_copy_from(unsigned long uaddr, void *buf, size_t len)
{
	struct page *page;
	void *kaddr;

	if (len > PAGE_SIZE - offset_in_page(uaddr))
		return -EINVAL;
	if (get_user_pages_fast(uaddr, 1, 0, &page) != 1)
		return -EFAULT;
	kaddr = kmap(page);
	memcpy(buf, kaddr + offset_in_page(uaddr), len);
	kunmap(page);
	put_page(page);
	return 0;
}
EXPORT_SYMBOL_GPL(tp_copy_from);

static int __init tp_init(void)
{
	int ret;

	tp_dev = kzalloc(sizeof(*tp_dev), GFP_KERNEL);
	if (!tp_dev)
		return -ENOMEM;
	spin_lock_init(&tp_dev->lock);
	tp_dev->mn.ops = &tp_ops;
	ret = mmu_notifier_register(&tp_dev->mn, current->mm);
	if (ret)
		kfree(tp_dev);
	return ret;
}

static void __exit tp_exit(void)
{
	mmu_notifier_unregister(&tp_dev->mn, current->mm);
	kfree(tp_dev);
}

module_init(tp_init);
module_exit(tp_exit);
MODULE_LICENSE("GPL");
