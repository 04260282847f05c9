/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One itest device, included by itest_kernel.c and itest_emul.c with
 * ITEST_DEV and ITEST_NAME set. Each open file may watch one interval of
 * its opener's address space; ioctls report what ops->invalidate saw and
 * run mmu_interval_read_begin()/mmu_interval_read_retry() (itest_uapi.h).
 */
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <mncompat/mmu_interval_notifier.h>

#include "devpt_misc.h"
#include "itest.h"
#include "itest_uapi.h"

struct itest_file {
	struct mmu_interval_notifier sub;
	struct mutex insert_lock;	/* protects inserted */
	bool inserted;
	spinlock_t lock;	/* set_seq and read_retry; protects st */
	struct itest_state st;
};

static bool itest_invalidate(struct mmu_interval_notifier *sub,
			     const struct mmu_notifier_range *range,
			     unsigned long cur_seq)
{
	struct itest_file *f = container_of(sub, struct itest_file, sub);

	spin_lock(&f->lock);
	mmu_interval_set_seq(sub, cur_seq);
	f->st.invalidations++;
	f->st.last_cur_seq = cur_seq;
	f->st.last_start = range->start;
	f->st.last_end = range->end;
	spin_unlock(&f->lock);
	return true;
}

static const struct mmu_interval_notifier_ops itest_ops = {
	.invalidate = itest_invalidate,
};

static int itest_open(struct inode *inode, struct file *file)
{
	struct itest_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->insert_lock);
	spin_lock_init(&f->lock);
	file->private_data = f;
	return 0;
}

static int itest_file_release(struct inode *inode, struct file *file)
{
	struct itest_file *f = file->private_data;

	if (f->inserted)
		mmu_interval_notifier_remove(&f->sub);
	kfree(f);
	return 0;
}

/* INSERT: watch [last_start, last_end) of the caller's address space. */
static long itest_insert(struct itest_file *f, const struct itest_state *in)
{
	long ret = -EBUSY;

	if (in->last_end <= in->last_start || !current->mm)
		return -EINVAL;
	mutex_lock(&f->insert_lock);
	if (!f->inserted) {
		ret = mmu_interval_notifier_insert(&f->sub, current->mm,
						   in->last_start,
						   in->last_end - in->last_start,
						   &itest_ops);
		f->inserted = !ret;
	}
	mutex_unlock(&f->insert_lock);
	return ret;
}

static long itest_ioctl(struct itest_file *f, unsigned int cmd,
			void __user *uarg)
{
	struct itest_state st;

	if (cmd == ITEST_IOC_INSERT || cmd == ITEST_IOC_RETRY) {
		if (copy_from_user(&st, uarg, sizeof(st)))
			return -EFAULT;
	}
	if (cmd != ITEST_IOC_INSERT && cmd != ITEST_IOC_STATE &&
	    !READ_ONCE(f->inserted))
		return -EINVAL;
	switch (cmd) {
	case ITEST_IOC_INSERT:
		return itest_insert(f, &st);
	case ITEST_IOC_STATE:
		spin_lock(&f->lock);
		st = f->st;
		spin_unlock(&f->lock);
		break;
	case ITEST_IOC_BEGIN:
		memset(&st, 0, sizeof(st));
		st.seq = mmu_interval_read_begin(&f->sub);
		break;
	case ITEST_IOC_RETRY:
		spin_lock(&f->lock);
		st.retry = mmu_interval_read_retry(&f->sub, st.seq);
		spin_unlock(&f->lock);
		break;
	default:
		return -ENOTTY;
	}
	return copy_to_user(uarg, &st, sizeof(st)) ? -EFAULT : 0;
}

DEVPT_FOPS(itest);

struct miscdevice ITEST_DEV = DEVPT_MISC_DEVICE(ITEST_NAME, &itest_fops);
