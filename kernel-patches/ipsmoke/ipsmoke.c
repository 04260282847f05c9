// SPDX-License-Identifier: GPL-2.0
/*
 * ipsmoke: smoke test of the re-created 4.x ->invalidate_page() callback.
 * A misc device that registers an MMU notifier with invalidate_page and
 * the range callbacks on the opener's mm and counts what it is told.
 * Builds only against kernels with kernel-patches/pre-4.11 or 4.11-4.12.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ipsmoke_uapi.h"

struct ipsmoke_file {
	struct mmu_notifier notifier;
	struct mm_struct *mm;
	atomic64_t invalidate_page;
	atomic64_t range_start;
	atomic64_t range_end;
	atomic64_t last_page_address;
	struct mutex device_lock;	/* stands for a device command queue */
	bool sleep;
};

static struct ipsmoke_file *to_ipsmoke(struct mmu_notifier *mn)
{
	return container_of(mn, struct ipsmoke_file, notifier);
}

static void ipsmoke_invalidate_page(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long address)
{
	struct ipsmoke_file *sf = to_ipsmoke(mn);

	atomic64_inc(&sf->invalidate_page);
	atomic64_set(&sf->last_page_address, address);
	/* What a driver waiting for its device's TLB flush does */
	if (READ_ONCE(sf->sleep)) {
		mutex_lock(&sf->device_lock);
		usleep_range(1000, 2000);
		mutex_unlock(&sf->device_lock);
	}
}

static int ipsmoke_invalidate_range_start(struct mmu_notifier *mn,
					  const struct mmu_notifier_range *range)
{
	atomic64_inc(&to_ipsmoke(mn)->range_start);
	return 0;
}

static void ipsmoke_invalidate_range_end(struct mmu_notifier *mn,
					 const struct mmu_notifier_range *range)
{
	atomic64_inc(&to_ipsmoke(mn)->range_end);
}

static const struct mmu_notifier_ops ipsmoke_notifier_ops = {
	.invalidate_page = ipsmoke_invalidate_page,
	.invalidate_range_start = ipsmoke_invalidate_range_start,
	.invalidate_range_end = ipsmoke_invalidate_range_end,
};

static void ipsmoke_reset(struct ipsmoke_file *sf)
{
	atomic64_set(&sf->invalidate_page, 0);
	atomic64_set(&sf->range_start, 0);
	atomic64_set(&sf->range_end, 0);
	atomic64_set(&sf->last_page_address, 0);
}

static int ipsmoke_open(struct inode *inode, struct file *file)
{
	struct ipsmoke_file *sf;
	int ret;

	if (!current->mm)
		return -EINVAL;
	sf = kzalloc(sizeof(*sf), GFP_KERNEL);
	if (!sf)
		return -ENOMEM;
	mutex_init(&sf->device_lock);
	sf->notifier.ops = &ipsmoke_notifier_ops;
	sf->mm = current->mm;
	ret = mmu_notifier_register(&sf->notifier, sf->mm);
	if (ret) {
		kfree(sf);
		return ret;
	}
	file->private_data = sf;
	return 0;
}

static int ipsmoke_file_release(struct inode *inode, struct file *file)
{
	struct ipsmoke_file *sf = file->private_data;

	mmu_notifier_unregister(&sf->notifier, sf->mm);
	kfree(sf);
	return 0;
}

static long ipsmoke_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct ipsmoke_file *sf = file->private_data;
	struct ipsmoke_stats st;

	switch (cmd) {
	case IPSMOKE_IOC_STATS:
		st.invalidate_page = atomic64_read(&sf->invalidate_page);
		st.range_start = atomic64_read(&sf->range_start);
		st.range_end = atomic64_read(&sf->range_end);
		st.last_page_address = atomic64_read(&sf->last_page_address);
		if (copy_to_user((void __user *)arg, &st, sizeof(st)))
			return -EFAULT;
		return 0;
	case IPSMOKE_IOC_RESET:
		ipsmoke_reset(sf);
		return 0;
	case IPSMOKE_IOC_SLEEP:
		WRITE_ONCE(sf->sleep, arg != 0);
		return 0;
	default:
		return -ENOTTY;
	}
}

static const struct file_operations ipsmoke_fops = {
	.owner = THIS_MODULE,
	.open = ipsmoke_open,
	.release = ipsmoke_file_release,
	.unlocked_ioctl = ipsmoke_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice ipsmoke_device = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = IPSMOKE_DEVICE_NAME,
	.fops = &ipsmoke_fops,
};

module_misc_device(ipsmoke_device);

MODULE_DESCRIPTION("mncompat: smoke test of the re-created invalidate_page");
MODULE_LICENSE("GPL");
