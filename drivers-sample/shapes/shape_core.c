// SPDX-License-Identifier: GPL-2.0
/*
 * The shape fixtures' device: it maps user pages of its opener on demand
 * (SHAPE_IOC_MAP, get_user_pages) and reads through its own references
 * (SHAPE_IOC_READ), so it reads what the CPU wrote only if its MMU-notifier
 * glue drops a page every time the CPU page table stops mapping it.
 *
 * A real device may fault a page back in at any moment, also between an
 * invalidation's start and the page-table change; ARM/WAIT/RESUME let a
 * test put such a fault exactly there (see shape_uapi.h).
 *
 * SHAPE_BREAK=1 (a test knob): mapping ignores the invalidation count and
 * sequence, as a device without that protocol would.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <mncompat/highmem.h>

#include "shape_core.h"

#ifndef SHAPE_BREAK
#define SHAPE_BREAK 0
#endif

/* Mappings shape_drop() collects before dropping them. */
#define SHAPE_DROP_BATCH	16

void shape_drop(struct shape_dev *sd, unsigned long start, unsigned long end)
{
	unsigned long first = start >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
	unsigned long index[SHAPE_DROP_BATCH];
	struct radix_tree_iter iter;
	void __rcu **slot;
	unsigned int i, n;

	if (end <= start)
		return;
	spin_lock(&sd->lock);
	do {
		/* Collect, then delete: 4.4's tree has no delete in a walk. */
		n = 0;
		radix_tree_for_each_slot(slot, &sd->pt, &iter, first) {
			if (iter.index > last)
				break;
			index[n++] = iter.index;
			if (n == SHAPE_DROP_BATCH)
				break;
		}
		for (i = 0; i < n; i++) {
			put_page(radix_tree_delete(&sd->pt, index[i]));
			sd->stats.dropped++;
		}
		if (n)
			first = index[n - 1] + 1;
	} while (n == SHAPE_DROP_BATCH);
	spin_unlock(&sd->lock);
}

void shape_pause(struct shape_dev *sd, unsigned long start, unsigned long end)
{
	bool hit;

	spin_lock(&sd->lock);
	hit = sd->armed && sd->armed >= start && sd->armed < end;
	if (hit)
		sd->stats.paused++;
	spin_unlock(&sd->lock);
	if (!hit)
		return;
	complete(&sd->paused);
	wait_for_completion_timeout(&sd->resume, 5 * HZ);
}

/* The device's fault: map the page holding addr. */
static int shape_map(struct shape_dev *sd, unsigned long addr)
{
	struct page *page, *old;
	unsigned long seq;
	long busy;
	int ret;

	spin_lock(&sd->lock);
	seq = sd->seq;
	busy = sd->busy;
	spin_unlock(&sd->lock);
	if (busy && !SHAPE_BREAK)
		return -EBUSY;
	ret = get_user_pages_fast(addr & PAGE_MASK, 1, 0, &page);
	if (ret != 1)
		return ret < 0 ? ret : -EFAULT;
	/* Tree nodes for the insert below, taken while we may sleep. */
	ret = radix_tree_preload(GFP_KERNEL);
	if (ret) {
		put_page(page);
		return ret;
	}
	spin_lock(&sd->lock);
	if (!SHAPE_BREAK && (sd->busy || sd->seq != seq)) {
		spin_unlock(&sd->lock);
		radix_tree_preload_end();
		put_page(page);
		return -EAGAIN;
	}
	old = radix_tree_delete(&sd->pt, addr >> PAGE_SHIFT);
	if (old)
		put_page(old);
	ret = radix_tree_insert(&sd->pt, addr >> PAGE_SHIFT, page);
	if (ret)
		put_page(page);
	else
		sd->stats.mapped++;
	spin_unlock(&sd->lock);
	radix_tree_preload_end();
	return ret;
}

static int shape_read(struct shape_dev *sd, struct shape_word *w)
{
	struct page *page;
	void *vaddr;

	spin_lock(&sd->lock);
	page = radix_tree_lookup(&sd->pt, w->addr >> PAGE_SHIFT);
	if (page)
		get_page(page);
	spin_unlock(&sd->lock);
	if (!page)
		return -ENOENT;
	vaddr = mncompat_kmap_local_page(page);
	w->value = READ_ONCE(*(u64 *)(vaddr + offset_in_page(w->addr)));
	mncompat_kunmap_local(page, vaddr);
	put_page(page);
	return 0;
}

static long shape_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	struct shape_dev *sd = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct shape_stats stats;
	struct shape_word w;
	u64 addr;
	int ret;

	if (current->mm != sd->mm)
		return -EINVAL;
	switch (cmd) {
	case SHAPE_IOC_STATS:
		spin_lock(&sd->lock);
		stats = sd->stats;
		spin_unlock(&sd->lock);
		return copy_to_user(uarg, &stats, sizeof(stats)) ? -EFAULT : 0;
	case SHAPE_IOC_ARM:
		if (copy_from_user(&addr, uarg, sizeof(addr)))
			return -EFAULT;
		if (addr) {
			reinit_completion(&sd->paused);
			reinit_completion(&sd->resume);
		}
		spin_lock(&sd->lock);
		sd->armed = addr;
		spin_unlock(&sd->lock);
		return 0;
	case SHAPE_IOC_WAIT:
		return wait_for_completion_timeout(&sd->paused, HZ) ? 0 :
		       -ETIMEDOUT;
	case SHAPE_IOC_RESUME:
		complete(&sd->resume);
		return 0;
	case SHAPE_IOC_MAP:
	case SHAPE_IOC_READ:
		if (copy_from_user(&w, uarg, sizeof(w)))
			return -EFAULT;
		if (w.addr % sizeof(u64) || w.addr >= TASK_SIZE)
			return -EINVAL;
		if (cmd == SHAPE_IOC_MAP)
			return shape_map(sd, w.addr);
		ret = shape_read(sd, &w);
		if (ret)
			return ret;
		return copy_to_user(uarg, &w, sizeof(w)) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

static int shape_open(struct inode *inode, struct file *file)
{
	struct shape_dev *sd;
	int ret;

	if (!current->mm)
		return -EINVAL;
	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	spin_lock_init(&sd->lock);
	mutex_init(&sd->cmd_lock);
	init_completion(&sd->paused);
	init_completion(&sd->resume);
	INIT_RADIX_TREE(&sd->pt, GFP_ATOMIC);
	sd->mn.ops = shape_notifier_ops();
	sd->mm = current->mm;
	ret = mmu_notifier_register(&sd->mn, sd->mm);
	if (ret) {
		kfree(sd);
		return ret;
	}
	file->private_data = sd;
	return 0;
}

static int shape_release(struct inode *inode, struct file *file)
{
	struct shape_dev *sd = file->private_data;

	/* After this no callback runs: the table is ours alone. */
	mmu_notifier_unregister(&sd->mn, sd->mm);
	shape_drop(sd, 0, ULONG_MAX);
	kfree(sd);
	return 0;
}

static const struct file_operations shape_fops = {
	.owner = THIS_MODULE,
	.open = shape_open,
	.release = shape_release,
	.unlocked_ioctl = shape_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice shape_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = KBUILD_MODNAME,
	.fops = &shape_fops,
};

static int __init shape_init(void)
{
	return misc_register(&shape_misc);
}
module_init(shape_init);

static void __exit shape_exit(void)
{
	misc_deregister(&shape_misc);
}
module_exit(shape_exit);

MODULE_DESCRIPTION("mncompat fixture: a device mapping user pages on demand, with pre-4.13 notifier glue of one shape");
MODULE_LICENSE("GPL");
