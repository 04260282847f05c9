// SPDX-License-Identifier: GPL-2.0
/*
 * mirror: a misc device that registers an MMU notifier on the mm of the
 * process that opens it and records what the notifier tells it.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "mirror_uapi.h"

struct mirror_file {
	struct mmu_notifier notifier;
	struct mm_struct *mm;
	spinlock_t lock;		/* protects stats */
	struct mirror_stats stats;
};

static struct mirror_file *to_mirror(struct mmu_notifier *mn)
{
	return container_of(mn, struct mirror_file, notifier);
}

static void mirror_count(struct mirror_file *mf, enum mirror_callback cb,
			 unsigned long start, unsigned long end)
{
	struct mirror_stats *st = &mf->stats;
	unsigned long flags;

	spin_lock_irqsave(&mf->lock, flags);
	st->calls[cb]++;
	st->bytes[cb] += end - start;
	if (cb == MIRROR_CB_RANGE_START) {
		if (st->nr_ranges == MIRROR_RANGE_LOG) {
			memmove(&st->ranges[0], &st->ranges[1],
				sizeof(st->ranges) - sizeof(st->ranges[0]));
			st->nr_ranges--;
		}
		st->ranges[st->nr_ranges].start = start;
		st->ranges[st->nr_ranges].end = end;
		st->nr_ranges++;
	}
	spin_unlock_irqrestore(&mf->lock, flags);
}

static int mirror_invalidate_range_start(struct mmu_notifier *mn,
					 const struct mmu_notifier_range *range)
{
	mirror_count(to_mirror(mn), MIRROR_CB_RANGE_START,
		     range->start, range->end);
	return 0;
}

static void mirror_invalidate_range_end(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	mirror_count(to_mirror(mn), MIRROR_CB_RANGE_END,
		     range->start, range->end);
}

static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	mirror_count(to_mirror(mn), MIRROR_CB_RELEASE, 0, 0);
}

static const struct mmu_notifier_ops mirror_notifier_ops = {
	.release = mirror_release,
	.invalidate_range_start = mirror_invalidate_range_start,
	.invalidate_range_end = mirror_invalidate_range_end,
};

static int mirror_open(struct inode *inode, struct file *file)
{
	struct mirror_file *mf;
	int ret;

	if (!current->mm)
		return -EINVAL;
	mf = kzalloc(sizeof(*mf), GFP_KERNEL);
	if (!mf)
		return -ENOMEM;
	spin_lock_init(&mf->lock);
	mf->notifier.ops = &mirror_notifier_ops;
	mf->mm = current->mm;
	ret = mmu_notifier_register(&mf->notifier, mf->mm);
	if (ret) {
		kfree(mf);
		return ret;
	}
	file->private_data = mf;
	return 0;
}

static int mirror_file_release(struct inode *inode, struct file *file)
{
	struct mirror_file *mf = file->private_data;

	mmu_notifier_unregister(&mf->notifier, mf->mm);
	kfree(mf);
	return 0;
}

static long mirror_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct mirror_file *mf = file->private_data;
	struct mirror_stats *snapshot;
	long ret = 0;

	switch (cmd) {
	case MIRROR_IOC_STATS:
		snapshot = kmalloc(sizeof(*snapshot), GFP_KERNEL);
		if (!snapshot)
			return -ENOMEM;
		spin_lock_irq(&mf->lock);
		*snapshot = mf->stats;
		spin_unlock_irq(&mf->lock);
		if (copy_to_user((void __user *)arg, snapshot,
				 sizeof(*snapshot)))
			ret = -EFAULT;
		kfree(snapshot);
		return ret;
	case MIRROR_IOC_RESET:
		spin_lock_irq(&mf->lock);
		memset(&mf->stats, 0, sizeof(mf->stats));
		spin_unlock_irq(&mf->lock);
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations mirror_fops = {
	.owner = THIS_MODULE,
	.open = mirror_open,
	.release = mirror_file_release,
	.unlocked_ioctl = mirror_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice mirror_device = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = MIRROR_DEVICE_NAME,
	.fops = &mirror_fops,
};

module_misc_device(mirror_device);

MODULE_DESCRIPTION("mncompat sample: MMU notifier on the opener's mm");
MODULE_LICENSE("GPL");
