// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 44 item 4): a pre-4.13 module
 * in the shape of Xen gntdev's grant copy.  Its only get_user_pages() is
 * in bp_pin_one(), which keeps the page in a batch; the batch lives on
 * the stack of the ioctl, bp_ioctl_copy(), and bp_release() drops every
 * page of it before the ioctl returns (also on its error path).  No fault
 * handler maps anything into the device: nothing re-establishes what
 * range_start dropped, so invalidate_page goes and nothing is generated
 * (a range_end here would take the mutex the OOM reaper's -EAGAIN avoids,
 * next to a start that may fail).  invalidate_page forwards one page to
 * range_start with range_start's old arguments: nothing is left calling
 * it that way.  The output builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/highmem.h>
#include <linux/uaccess.h>

#define BP_BATCH 8

struct bp_dev {
	struct mmu_notifier mn;
	struct mutex lock;
	unsigned long grants[BP_BATCH];
};

struct bp_batch {
	struct page *pages[BP_BATCH];
	unsigned int offs[BP_BATCH];
	unsigned int nr;
};

static struct bp_dev *bp_dev;

/* Forget the grants of [start, end); the caller holds the lock. */
static void bp_drop(struct bp_dev *d, unsigned long start, unsigned long end)
{
	int i;

	for (i = 0; i < BP_BATCH; i++)
		if (d->grants[i] >= start && d->grants[i] < end)
			d->grants[i] = 0;
}

static void bp_invalidate_range_start(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	struct bp_dev *d = container_of(mn, struct bp_dev, mn);

	mutex_lock(&d->lock);
	bp_drop(d, start, end);
	mutex_unlock(&d->lock);
}

static void bp_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	bp_invalidate_range_start(mn, mm, address, address + PAGE_SIZE);
}

static const struct mmu_notifier_ops bp_ops = {
	.invalidate_page = bp_invalidate_page,
	.invalidate_range_start = bp_invalidate_range_start,
};

/* Pin the page of uaddr into the batch (its caller's). */
static int bp_pin_one(struct bp_batch *batch, unsigned long uaddr,
		      unsigned int *slot)
{
	struct page *page;

	if (batch->nr >= BP_BATCH)
		return -ENOSPC;
	if (get_user_pages_fast(uaddr, 1, 0, &page) != 1)
		return -EFAULT;
	*slot = batch->nr;
	batch->offs[batch->nr] = offset_in_page(uaddr);
	batch->pages[batch->nr++] = page;
	return 0;
}

/* Drop every page of the batch. */
static void bp_release(struct bp_batch *batch)
{
	unsigned int i;

	for (i = 0; i < batch->nr; i++)
		put_page(batch->pages[i]);
	batch->nr = 0;
}

/* Copy one byte out of each pinned page, then let them go. */
static int bp_copy_out(struct bp_batch *batch, u8 *buf)
{
	unsigned int i;
	u8 *kaddr;

	for (i = 0; i < batch->nr; i++) {
		kaddr = kmap(batch->pages[i]);
		buf[i] = kaddr[batch->offs[i]];
		kunmap(batch->pages[i]);
	}
	bp_release(batch);
	return 0;
}

/* The ioctl: its batch lives on its stack, for this one copy. */
long bp_ioctl_copy(const unsigned long __user *uaddrs, unsigned int n,
		   u8 __user *out)
{
	struct bp_batch batch;
	u8 buf[BP_BATCH];
	unsigned long uaddr;
	unsigned int i, slot;
	int ret = 0;

	batch.nr = 0;
	if (n > BP_BATCH)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (get_user(uaddr, &uaddrs[i])) {
			ret = -EFAULT;
			goto out;
		}
		ret = bp_pin_one(&batch, uaddr, &slot);
		if (ret)
			goto out;
	}
	ret = bp_copy_out(&batch, buf);
	if (!ret && copy_to_user(out, buf, n))
		ret = -EFAULT;
	return ret;
out:
	bp_release(&batch);
	return ret;
}
EXPORT_SYMBOL_GPL(bp_ioctl_copy);

static int __init bp_init(void)
{
	int ret;

	bp_dev = kzalloc(sizeof(*bp_dev), GFP_KERNEL);
	if (!bp_dev)
		return -ENOMEM;
	mutex_init(&bp_dev->lock);
	bp_dev->mn.ops = &bp_ops;
	ret = mmu_notifier_register(&bp_dev->mn, current->mm);
	if (ret)
		kfree(bp_dev);
	return ret;
}

static void __exit bp_exit(void)
{
	mmu_notifier_unregister(&bp_dev->mn, current->mm);
	kfree(bp_dev);
}

module_init(bp_init);
module_exit(bp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: a batch pinned for one copy");
