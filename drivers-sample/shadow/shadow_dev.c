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
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <mncompat/highmem.h>

#include "shadow.h"

#define SHADOW_SNAP_TRIES	1000

#ifndef SHADOW_SKIP_INVALIDATION
#define SHADOW_SKIP_INVALIDATION 0
#endif

static struct miscdevice shadow_page_dev;
static struct miscdevice shadow_track_dev;

/* Shadow mappings shadow_drop_locked() collects before dropping them. */
#define SHADOW_DROP_BATCH	16

/*
 * Caller holds sf->lock. The walk only collects indices and the deletes
 * come after it: the 4.4 radix tree has no delete that keeps an iteration
 * valid.
 */
static void shadow_drop_locked(struct shadow_file *sf, unsigned long start,
			       unsigned long end)
{
	unsigned long first = start >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
	unsigned long index[SHADOW_DROP_BATCH];
	struct radix_tree_iter iter;
	void __rcu **slot;
	unsigned int i, n;

	sf->seq++;
	if (end <= start || SHADOW_SKIP_INVALIDATION)
		return;
	do {
		n = 0;
		radix_tree_for_each_slot(slot, &sf->pt, &iter, first) {
			if (iter.index > last)
				break;
			index[n++] = iter.index;
			if (n == SHADOW_DROP_BATCH)
				break;
		}
		for (i = 0; i < n; i++) {
			put_page(radix_tree_delete(&sf->pt, index[i]));
			sf->stats.dropped++;
		}
		if (n)
			first = index[n - 1] + 1;
	} while (n == SHADOW_DROP_BATCH);
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

		ret = get_user_pages_fast(addr, 1, 0, &page);
		if (ret != 1)
			return ret < 0 ? ret : -EFAULT;

		/* Tree nodes for the insert below, taken while we may sleep. */
		ret = radix_tree_preload(GFP_KERNEL);
		if (ret) {
			put_page(page);
			return ret;
		}
		spin_lock(&sf->lock);
		if (sf->active || sf->seq != seq) {
			spin_unlock(&sf->lock);
			radix_tree_preload_end();
			put_page(page);
			continue;
		}
		old = radix_tree_delete(&sf->pt, addr >> PAGE_SHIFT);
		if (old)
			put_page(old);
		ret = radix_tree_insert(&sf->pt, addr >> PAGE_SHIFT, page);
		if (ret)
			put_page(page);
		else
			sf->stats.snapped++;
		spin_unlock(&sf->lock);
		radix_tree_preload_end();
		return ret;
	}
	return -EAGAIN;
}

static int shadow_read(struct shadow_file *sf, struct shadow_word *w)
{
	struct page *page;
	void *vaddr;

	spin_lock(&sf->lock);
	page = radix_tree_lookup(&sf->pt, w->addr >> PAGE_SHIFT);
	if (page)
		get_page(page);
	spin_unlock(&sf->lock);
	if (!page)
		return -ENOENT;
	vaddr = mncompat_kmap_local_page(page);
	w->value = READ_ONCE(*(u64 *)(vaddr + offset_in_page(w->addr)));
	mncompat_kunmap_local(page, vaddr);
	put_page(page);
	return 0;
}

static long shadow_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct shadow_file *sf = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct shadow_stats stats;
	struct shadow_word w;
	int ret;

	if (current->mm != sf->mm)
		return -EINVAL;
	switch (cmd) {
	case SHADOW_IOC_STATS:
		spin_lock(&sf->lock);
		stats = sf->stats;
		spin_unlock(&sf->lock);
		return copy_to_user(uarg, &stats, sizeof(stats)) ? -EFAULT : 0;
	case SHADOW_IOC_SNAP:
	case SHADOW_IOC_READ:
		if (copy_from_user(&w, uarg, sizeof(w)))
			return -EFAULT;
		if (w.addr % sizeof(u64) || w.addr >= TASK_SIZE)
			return -EINVAL;
		if (cmd == SHADOW_IOC_SNAP)
			return shadow_snap(sf, w.addr);
		ret = shadow_read(sf, &w);
		if (ret)
			return ret;
		return copy_to_user(uarg, &w, sizeof(w)) ? -EFAULT : 0;
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

	if (!current->mm)
		return -EINVAL;
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	spin_lock_init(&sf->lock);
	INIT_RADIX_TREE(&sf->pt, GFP_ATOMIC);
	sf->notifier.ops = shadow_notifier_ops(track);
	sf->mm = current->mm;
	ret = mmu_notifier_register(&sf->notifier, sf->mm);
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

	/* After this no callback runs: the table is ours alone. */
	mmu_notifier_unregister(&sf->notifier, sf->mm);
	shadow_drop(sf, 0, ULONG_MAX);
	kfree(sf);
	return 0;
}

static const struct file_operations shadow_fops = {
	.owner = THIS_MODULE,
	.open = shadow_open,
	.release = shadow_file_release,
	.unlocked_ioctl = shadow_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice shadow_page_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = SHADOW_DEV_PAGE,
	.fops = &shadow_fops,
};

static struct miscdevice shadow_track_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = SHADOW_DEV_TRACK,
	.fops = &shadow_fops,
};

static int __init shadow_init(void)
{
	int ret;

	ret = misc_register(&shadow_page_dev);
	if (ret)
		return ret;
	ret = misc_register(&shadow_track_dev);
	if (ret)
		misc_deregister(&shadow_page_dev);
	return ret;
}
module_init(shadow_init);

static void __exit shadow_exit(void)
{
	misc_deregister(&shadow_track_dev);
	misc_deregister(&shadow_page_dev);
}
module_exit(shadow_exit);

MODULE_DESCRIPTION("mncompat sample: pre-4.13 notifier glue with two ops tables sharing one callback");
MODULE_LICENSE("GPL");
