// SPDX-License-Identifier: GPL-2.0
/*
 * shadow: a device that holds its own references to user pages and reads
 * through them, kept coherent with the CPU page table by MMU notifiers.
 * /dev/shadow and /dev/shadow-track differ only in the ops table they
 * register (shadow_notifier.c).
 *
 * SHADOW_SKIP_INVALIDATION=1 builds a device that forgets to drop its
 * mappings on invalidation: the coherence tests must then fail.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "devpt_misc.h"
#include "devpt_word.h"
#include "shadow.h"

#define SHADOW_SNAP_TRIES	1000

#ifndef SHADOW_SKIP_INVALIDATION
#define SHADOW_SKIP_INVALIDATION 0
#endif

static struct miscdevice shadow_page_dev;
static struct miscdevice shadow_track_dev;

/* Caller holds sf->lock. */
static void shadow_drop_locked(struct shadow_file *sf, unsigned long start,
			       unsigned long end)
{
	sf->seq++;
	if (end <= start || SHADOW_SKIP_INVALIDATION)
		return;
	sf->stats.dropped += devpt_zap_locked(&sf->pt, start, end);
}

void shadow_drop(struct shadow_file *sf, unsigned long start,
		 unsigned long end)
{
	spin_lock(&sf->lock);
	shadow_drop_locked(sf, start, end);
	spin_unlock(&sf->lock);
}

void shadow_count_page_call(struct shadow_file *sf)
{
	spin_lock(&sf->lock);
	sf->stats.page_calls++;
	spin_unlock(&sf->lock);
}

void shadow_range_begin(struct shadow_file *sf, unsigned long start,
			unsigned long end)
{
	spin_lock(&sf->lock);
	sf->active++;
	shadow_drop_locked(sf, start, end);
	spin_unlock(&sf->lock);
}

void shadow_range_done(struct shadow_file *sf)
{
	spin_lock(&sf->lock);
	if (!WARN_ON_ONCE(!sf->active))
		sf->active--;
	sf->seq++;
	sf->stats.range_ends++;
	spin_unlock(&sf->lock);
}

/*
 * Take a reference to the page at addr. If an invalidation ran (or is
 * running) meanwhile, the page may already be stale: try again.
 */
static int shadow_snap(struct shadow_file *sf, unsigned long addr)
{
	struct page *page, *old;
	unsigned long seq;
	int tries, ret;

	for (tries = 0; tries < SHADOW_SNAP_TRIES; tries++) {
		if (tries)
			cond_resched();
		spin_lock(&sf->lock);
		seq = sf->seq;
		ret = sf->active;
		spin_unlock(&sf->lock);
		if (ret)
			continue;

		ret = devpt_fault_begin(addr, &page);
		if (ret)
			return ret;
		spin_lock(&sf->lock);
		if (sf->active || sf->seq != seq) {
			spin_unlock(&sf->lock);
			devpt_fault_end(page);
			continue;
		}
		ret = devpt_store_locked(&sf->pt, addr, page, &old);
		if (old)
			put_page(old);
		if (!ret)
			sf->stats.snapped++;
		spin_unlock(&sf->lock);
		devpt_fault_end(NULL);
		return ret;
	}
	return -EAGAIN;
}

static long shadow_ioctl(struct shadow_file *sf, unsigned int cmd,
			 void __user *uarg)
{
	struct shadow_stats stats;
	struct devpt_word w;
	int ret;

	if (current->mm != sf->pt.mm)
		return -EINVAL;
	switch (cmd) {
	case SHADOW_IOC_STATS:
		spin_lock(&sf->lock);
		stats = sf->stats;
		spin_unlock(&sf->lock);
		return copy_to_user(uarg, &stats, sizeof(stats)) ? -EFAULT : 0;
	case SHADOW_IOC_SNAP:
	case SHADOW_IOC_READ:
		ret = devpt_word_from_user(&w, uarg);
		if (ret)
			return ret;
		if (cmd == SHADOW_IOC_SNAP)
			return shadow_snap(sf, w.addr);
		return devpt_word_read(&sf->pt, &w, uarg);
	default:
		return -ENOTTY;
	}
}

static int shadow_open(struct inode *inode, struct file *file)
{
	/* misc_open() left our struct miscdevice here. */
	bool track = file->private_data == &shadow_track_dev;
	struct shadow_file *sf;
	int ret;

	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	spin_lock_init(&sf->lock);
	ret = devpt_register(&sf->pt, &sf->lock, shadow_notifier_ops(track));
	if (ret) {
		kfree(sf);
		return ret;
	}
	file->private_data = sf;
	return 0;
}

static int shadow_file_release(struct inode *inode, struct file *file)
{
	struct shadow_file *sf = file->private_data;

	devpt_unregister(&sf->pt);
	shadow_drop(sf, 0, ULONG_MAX);
	kfree(sf);
	return 0;
}

DEVPT_FOPS(shadow);

static struct miscdevice shadow_page_dev =
	DEVPT_MISC_DEVICE(SHADOW_DEV_PAGE, &shadow_fops);
static struct miscdevice shadow_track_dev =
	DEVPT_MISC_DEVICE(SHADOW_DEV_TRACK, &shadow_fops);
static struct miscdevice *const shadow_devs[] = {
	&shadow_page_dev, &shadow_track_dev,
};
DEVPT_MODULE_MISC(shadow);

MODULE_DESCRIPTION("mncompat sample: pre-4.13 notifier glue with two ops tables sharing one callback");
MODULE_LICENSE("GPL");
