// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 33 item 3): a pre-4.13 module
 * in the shape of SGI GRU's and KVM's glue.  range_start takes a mutex,
 * raises an in-progress counter and drops the device's pages;
 * range_end lowers the counter and wakes the faults, which wait for it
 * to come back to 0 before they map a page.  range_start may sleep and
 * the table keeps its range_end: the 4.19 form "if (!blockable) return
 * -EAGAIN;" is right on 4.19-5.11 only (since 5.12 the kernel WARNs and
 * calls range_end for a start that failed, the counter goes to -1).
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>

#define SP_PAGES 64

struct sp_dev {
	struct mmu_notifier mn;
	struct mutex lock;
	wait_queue_head_t wq;
	int active;
	unsigned long base;
	struct page *map[SP_PAGES];
};

static struct sp_dev *sp_dev;

static void sp_unmap(struct sp_dev *d, unsigned long start, unsigned long end)
{
	unsigned long a;

	for (a = start; a < end; a += PAGE_SIZE) {
		unsigned long i = (a - d->base) >> PAGE_SHIFT;

		if (a < d->base || i >= SP_PAGES || !d->map[i])
			continue;
		put_page(d->map[i]);
		d->map[i] = NULL;
	}
}

static int sp_invalidate_range_start(struct mmu_notifier *mn,
				      const struct mmu_notifier_range *range)
{
	struct sp_dev *d = container_of(mn, struct sp_dev, mn);

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&d->lock);
	d->active++;
	sp_unmap(d, range->start, range->end);
	mutex_unlock(&d->lock);
	return 0;
}

static void sp_invalidate_range_end(struct mmu_notifier *mn,
				    const struct mmu_notifier_range *range)
{
	struct sp_dev *d = container_of(mn, struct sp_dev, mn);

	mutex_lock(&d->lock);
	d->active--;
	mutex_unlock(&d->lock);
	wake_up_all(&d->wq);
}

static const struct mmu_notifier_ops sp_ops = {
	.invalidate_range_start = sp_invalidate_range_start,
	.invalidate_range_end = sp_invalidate_range_end,
};

/* The fault path: waits until no invalidation is in progress. */
int sp_fault(struct sp_dev *d, unsigned long addr)
{
	unsigned long i = (addr - d->base) >> PAGE_SHIFT;
	struct page *page;

	if (addr < d->base || i >= SP_PAGES)
		return -EINVAL;
	for (;;) {
		if (wait_event_interruptible(d->wq, READ_ONCE(d->active) == 0))
			return -ERESTARTSYS;
		if (get_user_pages_fast(addr, 1, FOLL_WRITE, &page) != 1)
			return -EFAULT;
		mutex_lock(&d->lock);
		if (!d->active)
			break;
		mutex_unlock(&d->lock);
		put_page(page);
	}
	if (d->map[i])
		put_page(d->map[i]);
	d->map[i] = page;
	mutex_unlock(&d->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(sp_fault);

static int __init sp_init(void)
{
	int ret;

	sp_dev = kzalloc(sizeof(*sp_dev), GFP_KERNEL);
	if (!sp_dev)
		return -ENOMEM;
	mutex_init(&sp_dev->lock);
	init_waitqueue_head(&sp_dev->wq);
	sp_dev->mn.ops = &sp_ops;
	ret = mmu_notifier_register(&sp_dev->mn, current->mm);
	if (ret)
		kfree(sp_dev);
	return ret;
}

static void __exit sp_exit(void)
{
	mmu_notifier_unregister(&sp_dev->mn, current->mm);
	sp_unmap(sp_dev, sp_dev->base, sp_dev->base + SP_PAGES * PAGE_SIZE);
	kfree(sp_dev);
}

module_init(sp_init);
module_exit(sp_exit);
MODULE_LICENSE("GPL");
