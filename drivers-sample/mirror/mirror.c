// SPDX-License-Identifier: GPL-2.0
/*
 * mirror: a secondary MMU in software. Each open file mirrors pages of the
 * opener's address space in a device page table (virtual page -> page), the
 * way a GPU or KVM does, and reads go through that table. An MMU notifier
 * keeps the table coherent with the CPU page tables.
 *
 * Faults race invalidations. The driver uses the pattern the 4.13 notifier
 * rework recommends: invalidate_range_start() bumps a sequence count and an
 * active-invalidation count and drops the range; a fault samples the
 * sequence, looks the page up without locks, and installs it only if no
 * invalidation ran or is running meanwhile. Each entry holds a page
 * reference, so a missed invalidation shows up as stale data, never as a
 * use-after-free.
 *
 * The driver is written once against the 6.x notifier API and built through
 * compat/ (<mncompat/mmu_notifier.h>), which maps it onto older kernels.
 *
 * Build options (make VAR=1):
 *  MIRROR_TLB_ONLY          use only the non-sleeping secondary-TLB hook, as
 *                           an IOMMU/SVA driver would; a fault then checks
 *                           the sequence count alone.
 *  MIRROR_SKIP_INVALIDATION invalidate_range_start() forgets to drop the
 *                           range: the coherence tests must then fail.
 */
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include <mncompat/mmu_notifier.h>

#include "mirror_uapi.h"

#ifndef MIRROR_SKIP_INVALIDATION
#define MIRROR_SKIP_INVALIDATION 0
#endif
#ifndef MIRROR_TLB_ONLY
#define MIRROR_TLB_ONLY 0
#endif

struct mirror_file {
	struct mmu_notifier notifier;
	struct mm_struct *mm;
	/*
	 * lock protects pt, seq, active and stats. It is a spinlock so that
	 * the callbacks never sleep, whatever context the kernel calls them in.
	 */
	spinlock_t lock;
	struct xarray pt;		/* virtual page number -> struct page */
	unsigned long seq;		/* bumped by every invalidation */
	unsigned int active;		/* invalidations between start and end */
	wait_queue_head_t idle;		/* woken when active drops to 0 */
	struct mirror_stats stats;
};

static atomic_long_t mirror_global_mapped;
static atomic_long_t mirror_global_releases;
static atomic_t mirror_global_open;

static struct mirror_file *to_mirror(struct mmu_notifier *mn)
{
	return container_of(mn, struct mirror_file, notifier);
}

static void mirror_log_range(struct mirror_file *mf, enum mirror_callback cb,
			     unsigned long start, unsigned long end)
{
	struct mirror_stats *st = &mf->stats;

	lockdep_assert_held(&mf->lock);
	st->calls[cb]++;
	st->bytes[cb] += end - start;
	if (cb != MIRROR_CB_RANGE_START && cb != MIRROR_CB_SECONDARY_TLBS &&
	    cb != MIRROR_CB_INVALIDATE_PAGE)
		return;
	if (end - start > st->max_range)
		st->max_range = end - start;
	if (st->nr_ranges == MIRROR_RANGE_LOG) {
		memmove(&st->ranges[0], &st->ranges[1],
			sizeof(st->ranges) - sizeof(st->ranges[0]));
		st->nr_ranges--;
	}
	st->ranges[st->nr_ranges].start = start;
	st->ranges[st->nr_ranges].end = end;
	st->nr_ranges++;
}

/* Drop the device mappings of [start, end). Called with mf->lock held. */
static void mirror_unmap_range(struct mirror_file *mf, unsigned long start,
			       unsigned long end)
{
	struct page *page;
	unsigned long index;

	lockdep_assert_held(&mf->lock);
	xa_for_each_range(&mf->pt, index, page, start >> PAGE_SHIFT,
			  (end - 1) >> PAGE_SHIFT) {
		__xa_erase(&mf->pt, index);
		put_page(page);
		mf->stats.mapped_pages--;
		atomic_long_dec(&mirror_global_mapped);
	}
}

static int mirror_invalidate_range_start(struct mmu_notifier *mn,
					 const struct mmu_notifier_range *range)
{
	struct mirror_file *mf = to_mirror(mn);

	spin_lock(&mf->lock);
	mf->active++;
	mf->seq++;
	mirror_log_range(mf, MIRROR_CB_RANGE_START, range->start, range->end);
	if (!MIRROR_SKIP_INVALIDATION) {
		xa_lock(&mf->pt);
		mirror_unmap_range(mf, range->start, range->end);
		xa_unlock(&mf->pt);
	}
	spin_unlock(&mf->lock);
	return 0;
}

static void mirror_invalidate_range_end(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	struct mirror_file *mf = to_mirror(mn);
	bool idle;

	spin_lock(&mf->lock);
	mirror_log_range(mf, MIRROR_CB_RANGE_END, range->start, range->end);
	idle = --mf->active == 0;
	spin_unlock(&mf->lock);
	if (idle)
		wake_up_all(&mf->idle);
}

/*
 * The secondary-TLB hook runs under the page-table lock right after the CPU
 * page table changed: drop the range and bump the sequence so that a fault
 * that looked the old page up cannot install it.
 */
static void mirror_invalidate_secondary_tlbs(struct mmu_notifier *mn,
					     struct mm_struct *mm,
					     unsigned long start,
					     unsigned long end)
{
	struct mirror_file *mf = to_mirror(mn);

	spin_lock(&mf->lock);
	mf->seq++;
	mirror_log_range(mf, MIRROR_CB_SECONDARY_TLBS, start, end);
	if (!MIRROR_SKIP_INVALIDATION) {
		xa_lock(&mf->pt);
		mirror_unmap_range(mf, start, end);
		xa_unlock(&mf->pt);
	}
	spin_unlock(&mf->lock);
}

static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct mirror_file *mf = to_mirror(mn);

	spin_lock(&mf->lock);
	mf->seq++;
	mirror_log_range(mf, MIRROR_CB_RELEASE, 0, 0);
	xa_lock(&mf->pt);
	mirror_unmap_range(mf, 0, ULONG_MAX);
	xa_unlock(&mf->pt);
	spin_unlock(&mf->lock);
	atomic_long_inc(&mirror_global_releases);
}

/* The callbacks never sleep: they only take a spinlock. */
MNCOMPAT_MMU_NOTIFIER_OPS(mirror_range_ops, mirror_release,
			  mirror_invalidate_range_start,
			  mirror_invalidate_range_end, NULL, 0);
MNCOMPAT_MMU_NOTIFIER_OPS(mirror_tlb_ops, mirror_release, NULL, NULL,
			  mirror_invalidate_secondary_tlbs, 0);

/* Fault one page into the device page table. */
static int mirror_fault_page(struct mirror_file *mf, unsigned long addr)
{
	struct page *page, *old;
	unsigned long seq;
	int ret;

	for (;;) {
		ret = wait_event_killable(mf->idle, READ_ONCE(mf->active) == 0);
		if (ret)
			return ret;
		spin_lock(&mf->lock);
		seq = mf->seq;
		ret = mf->active;
		spin_unlock(&mf->lock);
		if (ret)
			continue;

		ret = get_user_pages_fast(addr, 1, 0, &page);
		if (ret != 1)
			return ret < 0 ? ret : -EFAULT;

		spin_lock(&mf->lock);
		if (mf->active || mf->seq != seq) {
			/* An invalidation ran: the page may be stale. */
			spin_unlock(&mf->lock);
			put_page(page);
			continue;
		}
		old = xa_store(&mf->pt, addr >> PAGE_SHIFT, page, GFP_ATOMIC);
		if (xa_is_err(old)) {
			spin_unlock(&mf->lock);
			put_page(page);
			return xa_err(old);
		}
		if (old) {
			put_page(old);
		} else {
			mf->stats.mapped_pages++;
			atomic_long_inc(&mirror_global_mapped);
		}
		spin_unlock(&mf->lock);
		return 0;
	}
}

static int mirror_check_io(struct mirror_file *mf, const struct mirror_io *io)
{
	if (current->mm != mf->mm)
		return -EINVAL;
	if (!io->len || io->addr + io->len < io->addr ||
	    io->addr + io->len > TASK_SIZE_MAX)
		return -EINVAL;
	return 0;
}

static long mirror_map(struct mirror_file *mf, const struct mirror_io *io)
{
	unsigned long addr;
	int ret = mirror_check_io(mf, io);

	if (ret)
		return ret;
	for (addr = io->addr & PAGE_MASK; addr < io->addr + io->len;
	     addr += PAGE_SIZE) {
		ret = mirror_fault_page(mf, addr);
		if (ret)
			return ret;
		cond_resched();
	}
	return 0;
}

static long mirror_read(struct mirror_file *mf, const struct mirror_io *io)
{
	char __user *buf = u64_to_user_ptr(io->buf);
	unsigned long addr = io->addr, end = io->addr + io->len;
	int ret = mirror_check_io(mf, io);

	if (ret)
		return ret;
	while (addr < end) {
		unsigned long offset = offset_in_page(addr);
		unsigned long n = min(end - addr, PAGE_SIZE - offset);
		struct page *page;
		void *vaddr;

		spin_lock(&mf->lock);
		page = xa_load(&mf->pt, addr >> PAGE_SHIFT);
		if (page)
			get_page(page);
		spin_unlock(&mf->lock);
		if (!page)
			return -ENXIO;

		vaddr = kmap_local_page(page);
		ret = copy_to_user(buf, vaddr + offset, n) ? -EFAULT : 0;
		kunmap_local(vaddr);
		put_page(page);
		if (ret)
			return ret;
		addr += n;
		buf += n;
	}
	return 0;
}

static long mirror_stats(struct mirror_file *mf, void __user *arg)
{
	struct mirror_stats *snapshot;
	long ret = 0;

	snapshot = kmalloc(sizeof(*snapshot), GFP_KERNEL);
	if (!snapshot)
		return -ENOMEM;
	spin_lock(&mf->lock);
	*snapshot = mf->stats;
	spin_unlock(&mf->lock);
	snapshot->device_flags = MIRROR_TLB_ONLY ? MIRROR_DEVICE_TLB_ONLY : 0;
	snapshot->global_mapped_pages = atomic_long_read(&mirror_global_mapped);
	snapshot->global_releases = atomic_long_read(&mirror_global_releases);
	snapshot->global_open_files = atomic_read(&mirror_global_open);
	if (copy_to_user(arg, snapshot, sizeof(*snapshot)))
		ret = -EFAULT;
	kfree(snapshot);
	return ret;
}

static long mirror_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct mirror_file *mf = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct mirror_io io;

	switch (cmd) {
	case MIRROR_IOC_STATS:
		return mirror_stats(mf, uarg);
	case MIRROR_IOC_RESET:
		spin_lock(&mf->lock);
		memset(mf->stats.calls, 0, sizeof(mf->stats.calls));
		memset(mf->stats.bytes, 0, sizeof(mf->stats.bytes));
		mf->stats.max_range = 0;
		mf->stats.nr_ranges = 0;
		spin_unlock(&mf->lock);
		return 0;
	case MIRROR_IOC_MAP:
	case MIRROR_IOC_READ:
		if (copy_from_user(&io, uarg, sizeof(io)))
			return -EFAULT;
		return cmd == MIRROR_IOC_MAP ? mirror_map(mf, &io) :
					       mirror_read(mf, &io);
	default:
		return -ENOTTY;
	}
}

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
	xa_init(&mf->pt);
	init_waitqueue_head(&mf->idle);
	mf->notifier.ops = MIRROR_TLB_ONLY ? &mirror_tlb_ops : &mirror_range_ops;
	mf->mm = current->mm;
	ret = mmu_notifier_register(&mf->notifier, mf->mm);
	if (ret) {
		kfree(mf);
		return ret;
	}
	atomic_inc(&mirror_global_open);
	file->private_data = mf;
	return 0;
}

static int mirror_file_release(struct inode *inode, struct file *file)
{
	struct mirror_file *mf = file->private_data;

	/* After this no callback runs: the table is ours alone. */
	mmu_notifier_unregister(&mf->notifier, mf->mm);
	spin_lock(&mf->lock);
	xa_lock(&mf->pt);
	mirror_unmap_range(mf, 0, ULONG_MAX);
	xa_unlock(&mf->pt);
	spin_unlock(&mf->lock);
	xa_destroy(&mf->pt);
	atomic_dec(&mirror_global_open);
	kfree(mf);
	return 0;
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

MODULE_DESCRIPTION("mncompat sample: a software secondary MMU kept coherent by MMU notifiers");
MODULE_LICENSE("GPL");
