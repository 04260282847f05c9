// SPDX-License-Identifier: GPL-2.0
/*
 * The shape fixtures' device: it maps user pages of its opener on demand
 * (SHAPE_IOC_MAP, get_user_pages) and reads through its own references
 * (SHAPE_IOC_READ), so it reads what the CPU wrote only if its MMU-notifier
 * glue drops a page every time the CPU page table stops mapping it.
 *
 * A real device may fault a page back in at any moment, also between an
 * invalidation's start and the page-table change; ARM/WAIT/RESUME let a
 * test put such a fault exactly there (see shape_uapi.h). HOLD keeps an
 * OOM victim in the kernel while the OOM reaper comes.
 *
 * SHAPE_BREAK=1 (a test knob): mapping ignores the invalidation count and
 * sequence, as a device without that protocol would.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "devpt_misc.h"
#include "devpt_word.h"
#include "shape_core.h"

#ifndef SHAPE_BREAK
#define SHAPE_BREAK 0
#endif

void shape_drop(struct shape_dev *sd, unsigned long start, unsigned long end)
{
	if (end <= start)
		return;
	spin_lock(&sd->lock);
	sd->stats.dropped += devpt_zap_locked(&sd->pt, start, end);
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
	ret = devpt_fault_begin(addr, &page);
	if (ret)
		return ret;
	spin_lock(&sd->lock);
	if (!SHAPE_BREAK && (sd->busy || sd->seq != seq)) {
		spin_unlock(&sd->lock);
		devpt_fault_end(page);
		return -EAGAIN;
	}
	ret = devpt_store_locked(&sd->pt, addr, page, &old);
	if (old)
		put_page(old);
	if (!ret)
		sd->stats.mapped++;
	spin_unlock(&sd->lock);
	devpt_fault_end(NULL);
	return ret;
}

void shape_event(struct shape_dev *sd, unsigned long start,
		 unsigned long end)
{
	spin_lock(&sd->lock);
	if (sd->armed >= start && sd->armed < end)
		sd->stats.events++;
	spin_unlock(&sd->lock);
}

static long shape_ioctl(struct shape_dev *sd, unsigned int cmd,
			void __user *uarg)
{
	struct shape_stats stats;
	struct devpt_word w;
	u64 addr;
	u32 ms;
	int ret;

	if (current->mm != sd->pt.mm)
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
	case SHAPE_IOC_HOLD:
		if (copy_from_user(&ms, uarg, sizeof(ms)))
			return -EFAULT;
		return devpt_hold_until_killed(ms);
	case SHAPE_IOC_MAP:
	case SHAPE_IOC_READ:
		ret = devpt_word_from_user(&w, uarg);
		if (ret)
			return ret;
		if (cmd == SHAPE_IOC_MAP)
			return shape_map(sd, w.addr);
		return devpt_word_read(&sd->pt, &w, uarg);
	default:
		return -ENOTTY;
	}
}

void shape_dev_init(struct shape_dev *sd, struct mm_struct *mm)
{
	spin_lock_init(&sd->lock);
	mutex_init(&sd->cmd_lock);
	init_completion(&sd->paused);
	init_completion(&sd->resume);
	devpt_init(&sd->pt, &sd->lock, mm);
}

/*
 * At close every invalidation the device saw must have ended: a range_end
 * for a start that failed (5.12+ without compat's pairing) leaves the
 * count below 0, one that never came leaves it above. Said with a WARN,
 * which the console splat check reports.
 */
static void shape_check_closed(struct shape_dev *sd)
{
	long busy;

	spin_lock(&sd->lock);
	busy = sd->busy;
	spin_unlock(&sd->lock);
	WARN(busy, "%s: %ld invalidations open at close\n", KBUILD_MODNAME, busy);
}

#ifdef SHAPE_GLUE_REGISTERS
static int shape_open(struct inode *inode, struct file *file)
{
	struct shape_dev *sd = shape_glue_open();

	if (IS_ERR(sd))
		return PTR_ERR(sd);
	file->private_data = sd;
	return 0;
}

static int shape_file_release(struct inode *inode, struct file *file)
{
	shape_check_closed(file->private_data);
	shape_glue_close(file->private_data);
	return 0;
}
#else
static int shape_open(struct inode *inode, struct file *file)
{
	struct shape_dev *sd;
	int ret;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	shape_dev_init(sd, current->mm);
	ret = devpt_register(&sd->pt, &sd->lock, shape_notifier_ops());
	if (ret) {
		kfree(sd);
		return ret;
	}
	file->private_data = sd;
	return 0;
}

static int shape_file_release(struct inode *inode, struct file *file)
{
	struct shape_dev *sd = file->private_data;

	shape_check_closed(sd);
	devpt_unregister(&sd->pt);
	shape_drop(sd, 0, ULONG_MAX);
	kfree(sd);
	return 0;
}
#endif

DEVPT_FOPS(shape);

static struct miscdevice shape_misc =
	DEVPT_MISC_DEVICE(KBUILD_MODNAME, &shape_fops);
static struct miscdevice *const shape_devs[] = { &shape_misc };
#ifdef SHAPE_GLUE_REGISTERS
static int __init shape_init(void)
{
	return devpt_misc_register(shape_devs, ARRAY_SIZE(shape_devs));
}
module_init(shape_init);

static void __exit shape_exit(void)
{
	devpt_misc_deregister(shape_devs, ARRAY_SIZE(shape_devs));
	shape_glue_exit();
}
module_exit(shape_exit);
#else
DEVPT_MODULE_MISC(shape);
#endif

MODULE_DESCRIPTION("mncompat fixture: a device mapping user pages on demand, with pre-4.13 notifier glue of one shape");
MODULE_LICENSE("GPL");
