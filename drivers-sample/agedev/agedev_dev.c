// SPDX-License-Identifier: GPL-2.0
/*
 * agedev: a device that holds its own references to user pages, with an
 * accessed bit each (a radix tree tag of the device page table), kept
 * coherent with the CPU page table by MMU notifiers and aged by the kernel
 * through the notifier's young callbacks (agedev_notifier.c).
 *
 * AGEDEV_NO_YOUNG=1 builds a device whose young callbacks answer "old" and
 * clear nothing: the ageing tests must then fail.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "agedev.h"
#include "devpt_misc.h"
#include "devpt_word.h"

#define AGEDEV_SNAP_TRIES	1000
/* The radix tree tag that is the device's accessed bit of a mapping. */
#define AGEDEV_TAG_YOUNG	0
/* Entries a pass of agedev_age() collects before clearing their bits. */
#define AGEDEV_AGE_BATCH	16

#ifndef AGEDEV_NO_YOUNG
#define AGEDEV_NO_YOUNG 0
#endif

/* Caller holds ad->lock. */
static void agedev_drop_locked(struct agedev_file *ad, unsigned long start,
			       unsigned long end)
{
	ad->seq++;
	if (end > start)
		ad->stats.dropped += devpt_zap_locked(&ad->pt, start, end);
}

void agedev_drop(struct agedev_file *ad, unsigned long start,
		 unsigned long end)
{
	spin_lock(&ad->lock);
	agedev_drop_locked(ad, start, end);
	spin_unlock(&ad->lock);
}

void agedev_range_begin(struct agedev_file *ad, unsigned long start,
			unsigned long end)
{
	spin_lock(&ad->lock);
	ad->active++;
	agedev_drop_locked(ad, start, end);
	spin_unlock(&ad->lock);
}

void agedev_range_done(struct agedev_file *ad)
{
	spin_lock(&ad->lock);
	if (!WARN_ON_ONCE(!ad->active))
		ad->active--;
	ad->seq++;
	spin_unlock(&ad->lock);
}

int agedev_age(struct agedev_file *ad, unsigned long start,
	       unsigned long end, enum agedev_aging how)
{
	unsigned long first = start >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
	unsigned long index[AGEDEV_AGE_BATCH];
	struct radix_tree_iter iter;
	void __rcu **slot;
	unsigned int i, n;
	int young = 0;

	spin_lock(&ad->lock);
	if (how == AGEDEV_CLEAR_FLUSH)
		ad->stats.flush_young_calls++;
	else if (how == AGEDEV_CLEAR)
		ad->stats.clear_young_calls++;
	else
		ad->stats.test_young_calls++;
	do {
		n = 0;
		if (end <= start)
			break;
		radix_tree_for_each_tagged(slot, &ad->pt.tree, &iter, first,
					   AGEDEV_TAG_YOUNG) {
			if (iter.index > last)
				break;
			index[n++] = iter.index;
			if (n == AGEDEV_AGE_BATCH)
				break;
		}
		if (n)
			young = 1;
		if (how == AGEDEV_TEST || AGEDEV_NO_YOUNG)
			break;
		/* A device would clear its accessed bits (and flush) here. */
		for (i = 0; i < n; i++)
			radix_tree_tag_clear(&ad->pt.tree, index[i],
					     AGEDEV_TAG_YOUNG);
		if (n)
			first = index[n - 1] + 1;
	} while (n == AGEDEV_AGE_BATCH);
	if (AGEDEV_NO_YOUNG)
		young = 0;
	ad->stats.young += young;
	spin_unlock(&ad->lock);
	return young;
}

/* The device accessed its mapping of addr: its accessed bit. Under the lock. */
static bool agedev_touch_locked(struct agedev_file *ad, unsigned long addr)
{
	unsigned long index = addr >> PAGE_SHIFT;

	if (!radix_tree_lookup(&ad->pt.tree, index))
		return false;
	radix_tree_tag_set(&ad->pt.tree, index, AGEDEV_TAG_YOUNG);
	return true;
}

/*
 * Take a reference to the page at addr. If an invalidation ran (or is
 * running) meanwhile, the page may already be stale: try again.
 */
static int agedev_snap(struct agedev_file *ad, unsigned long addr)
{
	struct page *page, *old;
	unsigned long seq;
	int tries, ret;

	for (tries = 0; tries < AGEDEV_SNAP_TRIES; tries++) {
		if (tries)
			cond_resched();
		spin_lock(&ad->lock);
		seq = ad->seq;
		ret = ad->active;
		spin_unlock(&ad->lock);
		if (ret)
			continue;

		ret = devpt_fault_begin(addr, &page);
		if (ret)
			return ret;
		spin_lock(&ad->lock);
		if (ad->active || ad->seq != seq) {
			spin_unlock(&ad->lock);
			devpt_fault_end(page);
			continue;
		}
		ret = devpt_store_locked(&ad->pt, addr, page, &old);
		if (old)
			put_page(old);
		if (!ret) {
			agedev_touch_locked(ad, addr);
			ad->stats.snapped++;
		}
		spin_unlock(&ad->lock);
		devpt_fault_end(NULL);
		return ret;
	}
	return -EAGAIN;
}

static int agedev_young_of(struct agedev_file *ad, struct devpt_word *w,
			   void __user *uarg)
{
	unsigned long index = w->addr >> PAGE_SHIFT;
	int ret = 0;

	spin_lock(&ad->lock);
	if (radix_tree_lookup(&ad->pt.tree, index))
		w->value = radix_tree_tag_get(&ad->pt.tree, index,
					      AGEDEV_TAG_YOUNG);
	else
		ret = -ENOENT;
	spin_unlock(&ad->lock);
	if (ret)
		return ret;
	return copy_to_user(uarg, w, sizeof(*w)) ? -EFAULT : 0;
}

static long agedev_ioctl(struct agedev_file *ad, unsigned int cmd,
			 void __user *uarg)
{
	struct agedev_stats stats;
	struct devpt_word w;
	bool mapped;
	int ret;

	if (current->mm != ad->pt.mm)
		return -EINVAL;
	switch (cmd) {
	case AGEDEV_IOC_STATS:
		spin_lock(&ad->lock);
		stats = ad->stats;
		spin_unlock(&ad->lock);
		return copy_to_user(uarg, &stats, sizeof(stats)) ? -EFAULT : 0;
	case AGEDEV_IOC_SNAP:
	case AGEDEV_IOC_READ:
	case AGEDEV_IOC_YOUNG:
		ret = devpt_word_from_user(&w, uarg);
		if (ret)
			return ret;
		if (cmd == AGEDEV_IOC_SNAP)
			return agedev_snap(ad, w.addr);
		if (cmd == AGEDEV_IOC_YOUNG)
			return agedev_young_of(ad, &w, uarg);
		spin_lock(&ad->lock);
		mapped = agedev_touch_locked(ad, w.addr);
		spin_unlock(&ad->lock);
		if (!mapped)
			return -ENOENT;
		return devpt_word_read(&ad->pt, &w, uarg);
	default:
		return -ENOTTY;
	}
}

static int agedev_open(struct inode *inode, struct file *file)
{
	struct agedev_file *ad;
	int ret;

	ad = kzalloc(sizeof(*ad), GFP_KERNEL);
	if (!ad)
		return -ENOMEM;
	spin_lock_init(&ad->lock);
	ret = devpt_register(&ad->pt, &ad->lock, agedev_notifier_ops());
	if (ret) {
		kfree(ad);
		return ret;
	}
	file->private_data = ad;
	return 0;
}

static int agedev_file_release(struct inode *inode, struct file *file)
{
	struct agedev_file *ad = file->private_data;

	devpt_unregister(&ad->pt);
	agedev_drop(ad, 0, ULONG_MAX);
	kfree(ad);
	return 0;
}

DEVPT_FOPS(agedev);

static struct miscdevice agedev_dev =
	DEVPT_MISC_DEVICE(AGEDEV_DEV, &agedev_fops);
static struct miscdevice *const agedev_devs[] = { &agedev_dev };
DEVPT_MODULE_MISC(agedev);

MODULE_DESCRIPTION("mncompat sample: 4.x notifier glue with KVM's young callbacks");
MODULE_LICENSE("GPL");
