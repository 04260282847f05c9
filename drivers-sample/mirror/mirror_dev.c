// SPDX-License-Identifier: GPL-2.0
/*
 * mirror: a secondary MMU in software. Each open file mirrors pages of the
 * opener's address space in a device page table (virtual page -> page), the
 * way a GPU or KVM does, and reads go through that table. The notifier glue
 * (mirror_notifier.c) keeps the table coherent with the CPU page tables.
 *
 * Faults race invalidations. The device uses the pattern the 4.13 notifier
 * rework recommends: an invalidation bumps a sequence count (and, between
 * range_start and range_end, an active-invalidation count) and drops the
 * range; a fault samples the sequence, looks the page up without locks, and
 * installs it only if no invalidation ran or is running meanwhile. Each
 * entry holds a page reference, so a missed invalidation shows up as stale
 * data, never as a use-after-free.
 *
 * MIRROR_SKIP_INVALIDATION=1 builds a device that forgets to drop ranges on
 * invalidation: the coherence tests must then fail.
 */
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <mncompat/highmem.h>
#include <mncompat/mm.h>
#include <mncompat/mmu_notifier.h>
#include <mncompat/sched.h>

#include "devpt_misc.h"
#include "mirror.h"

#ifndef MIRROR_SKIP_INVALIDATION
#define MIRROR_SKIP_INVALIDATION 0
#endif

static atomic_long_t mirror_global_mapped;
static atomic_long_t mirror_global_releases;
static atomic_long_t mirror_global_orphaned;
static atomic_long_t mirror_global_hold_active;
static atomic_t mirror_global_open;

/*
 * Count a callback and log the range it dropped. A range that continues the
 * last one logged extends it, so a page-by-page walk shows as one range.
 */
static void mirror_log_range(struct mirror_file *mf, enum mirror_callback cb,
			     unsigned long start, unsigned long end)
{
	struct mirror_stats *st = &mf->stats;
	struct mirror_range *last;

	lockdep_assert_held(&mf->lock);
	st->calls[cb]++;
	/*
	 * A flush of the whole address space (x86 hands the secondary-TLB
	 * hook [0, TLB_FLUSH_ALL) when it flushes everything) covers every
	 * byte: saturate rather than wrap.
	 */
	if (end - start > U64_MAX - st->bytes[cb])
		st->bytes[cb] = U64_MAX;
	else
		st->bytes[cb] += end - start;
	if (cb != MIRROR_CB_RANGE_START && cb != MIRROR_CB_SECONDARY_TLBS &&
	    cb != MIRROR_CB_INVALIDATE_PAGE)
		return;
	last = st->nr_ranges ? &st->ranges[st->nr_ranges - 1] : NULL;
	if (last && last->end == start) {
		last->end = end;
		st->max_range = max(st->max_range, last->end - last->start);
		return;
	}
	st->max_range = max_t(u64, st->max_range, end - start);
	if (st->nr_ranges == MIRROR_RANGE_LOG) {
		memmove(&st->ranges[0], &st->ranges[1],
			sizeof(st->ranges) - sizeof(st->ranges[0]));
		st->nr_ranges--;
	}
	st->ranges[st->nr_ranges].start = start;
	st->ranges[st->nr_ranges].end = end;
	st->nr_ranges++;
}

/* A page that left the device page table: its reference goes. */
static void mirror_put_entry(struct mirror_file *mf, struct page *page)
{
	put_page(page);
	mf->stats.mapped_pages--;
	atomic_long_dec(&mirror_global_mapped);
}

/* Drop the device mappings of [start, end). Called with mf->lock held. */
static void mirror_unmap_range(struct mirror_file *mf, unsigned long start,
			       unsigned long end)
{
	unsigned long dropped;

	lockdep_assert_held(&mf->lock);
	dropped = devpt_zap_locked(&mf->pt, start, end);
	mf->stats.mapped_pages -= dropped;
	atomic_long_sub(dropped, &mirror_global_mapped);
}

/*
 * An invalidation under mf->lock: a new sequence, so that no fault racing
 * it installs what it looked up, and the range dropped.
 */
static void mirror_invalidate_locked(struct mirror_file *mf,
				     enum mirror_callback cb,
				     unsigned long start, unsigned long end)
{
	lockdep_assert_held(&mf->lock);
	mf->seq++;
	mirror_log_range(mf, cb, start, end);
	if (MIRROR_SKIP_INVALIDATION)
		return;
	mirror_unmap_range(mf, start, end);
}

void mirror_invalidate_begin(struct mirror_file *mf, unsigned long start,
			     unsigned long end)
{
	spin_lock(&mf->lock);
	mf->active++;
	mirror_invalidate_locked(mf, MIRROR_CB_RANGE_START, start, end);
	spin_unlock(&mf->lock);
}

void mirror_invalidate_end(struct mirror_file *mf, unsigned long start,
			   unsigned long end)
{
	bool idle;

	spin_lock(&mf->lock);
	mirror_log_range(mf, MIRROR_CB_RANGE_END, start, end);
	idle = --mf->active == 0;
	spin_unlock(&mf->lock);
	if (idle)
		wake_up_all(&mf->idle);
}

void mirror_invalidate(struct mirror_file *mf, enum mirror_callback cb,
		       unsigned long start, unsigned long end)
{
	spin_lock(&mf->lock);
	mirror_invalidate_locked(mf, cb, start, end);
	spin_unlock(&mf->lock);
}

/* The mm is going away: drop everything. */
void mirror_release_all(struct mirror_file *mf)
{
	spin_lock(&mf->lock);
	mf->seq++;
	mirror_log_range(mf, MIRROR_CB_RELEASE, 0, 0);
	mirror_unmap_range(mf, 0, ULONG_MAX);
	spin_unlock(&mf->lock);
	atomic_long_inc(&mirror_global_releases);
}

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

		ret = devpt_fault_begin(addr, &page);
		if (ret)
			return ret;
		spin_lock(&mf->lock);
		if (mf->active || mf->seq != seq) {
			/* An invalidation ran: the page may be stale. */
			spin_unlock(&mf->lock);
			devpt_fault_end(page);
			continue;
		}
		ret = devpt_store_locked(&mf->pt, addr, page, &old);
		if (old)
			mirror_put_entry(mf, old);
		if (!ret) {
			mf->stats.mapped_pages++;
			atomic_long_inc(&mirror_global_mapped);
		}
		spin_unlock(&mf->lock);
		devpt_fault_end(NULL);
		return ret;
	}
}

static int mirror_check_io(struct mirror_file *mf, const struct mirror_io *io)
{
	if (current->mm != mf->pt.mm)
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
	char __user *buf = (char __user *)(uintptr_t)io->buf;
	unsigned long addr = io->addr, end = io->addr + io->len;
	int ret = mirror_check_io(mf, io);

	if (ret)
		return ret;
	while (addr < end) {
		unsigned long offset = offset_in_page(addr);
		unsigned long n = min(end - addr, PAGE_SIZE - offset);
		struct page *page = devpt_get(&mf->pt, addr);
		void *vaddr;

		if (!page)
			return -ENXIO;

		vaddr = mncompat_kmap_local_page(page);
		ret = copy_to_user(buf, vaddr + offset, n) ? -EFAULT : 0;
		mncompat_kunmap_local(page, vaddr);
		put_page(page);
		if (ret)
			return ret;
		addr += n;
		buf += n;
	}
	return 0;
}

/* MIRROR_IOC_HOLD, see mirror_uapi.h. */
static long mirror_hold(struct mirror_file *mf, u32 __user *arg)
{
	unsigned long orphaned = 0;
	struct radix_tree_iter iter;
	void __rcu **slot;
	u32 hold_ms;
	int active, ret;

	if (get_user(hold_ms, arg))
		return -EFAULT;
	if (current->mm != mf->pt.mm)
		return -EINVAL;
	ret = devpt_hold_until_killed(hold_ms);
	if (ret)
		return ret;

	spin_lock(&mf->lock);
	radix_tree_for_each_slot(slot, &mf->pt.tree, &iter, 0) {
		struct page *page = radix_tree_deref_slot_protected(slot,
								    &mf->lock);

		if (!mncompat_page_mapped(page))
			orphaned++;
	}
	active = (int)mf->active;
	spin_unlock(&mf->lock);
	atomic_long_add(orphaned, &mirror_global_orphaned);
	atomic_long_add(active, &mirror_global_hold_active);
	return orphaned ? -ESTALE : 0;
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
	snapshot->active = (int)mf->active;
	spin_unlock(&mf->lock);
	snapshot->device_flags = mirror_notifier_ops()->invalidate_range_start ?
				 0 : MIRROR_DEVICE_TLB_ONLY;
	snapshot->global_mapped_pages = atomic_long_read(&mirror_global_mapped);
	snapshot->global_releases = atomic_long_read(&mirror_global_releases);
	snapshot->global_orphaned_pages =
		atomic_long_read(&mirror_global_orphaned);
	snapshot->global_open_files = atomic_read(&mirror_global_open);
	snapshot->global_hold_active =
		atomic_long_read(&mirror_global_hold_active);
	if (copy_to_user(arg, snapshot, sizeof(*snapshot)))
		ret = -EFAULT;
	kfree(snapshot);
	return ret;
}

static long mirror_ioctl(struct mirror_file *mf, unsigned int cmd,
			 void __user *uarg)
{
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
	case MIRROR_IOC_HOLD:
		return mirror_hold(mf, uarg);
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

static struct mirror_file *mirror_file_alloc(void)
{
	struct mirror_file *mf = kzalloc(sizeof(*mf), GFP_KERNEL);

	if (!mf)
		return NULL;
	spin_lock_init(&mf->lock);
	init_waitqueue_head(&mf->idle);
	mutex_init(&mf->sleep_lock);
	return mf;
}

#ifdef DEVPT_REGISTER_GET
/*
 * A test knob: the file is the opener's mm's one subscription of the
 * glue's table, through mncompat_mmu_notifier_get(): allocated by the
 * table's alloc_notifier, put when the file closes, freed by its
 * free_notifier. One file per mm (-EBUSY for a second).
 */
struct mmu_notifier *mirror_alloc_notifier(struct mm_struct *mm)
{
	struct mirror_file *mf = mirror_file_alloc();

	if (!mf)
		return ERR_PTR(-ENOMEM);
	devpt_init(&mf->pt, &mf->lock, mm);
	return &mf->pt.notifier;
}

void mirror_free_notifier(struct mmu_notifier *mn)
{
	kfree(to_mirror(mn));
}

static int mirror_open(struct inode *inode, struct file *file)
{
	struct mmu_notifier *mn;
	struct mirror_file *mf;
	bool busy;

	if (!current->mm)
		return -EINVAL;
	mn = mncompat_mmu_notifier_get(mirror_notifier_ops(), current->mm);
	if (IS_ERR(mn))
		return PTR_ERR(mn);
	mf = to_mirror(mn);
	spin_lock(&mf->lock);
	busy = mf->opened;
	mf->opened = true;
	spin_unlock(&mf->lock);
	if (busy) {
		mncompat_mmu_notifier_put(mn);
		return -EBUSY;
	}
	atomic_inc(&mirror_global_open);
	file->private_data = mf;
	return 0;
}

/* Put last: callbacks may run until free_notifier frees the file. */
static int mirror_file_release(struct inode *inode, struct file *file)
{
	struct mirror_file *mf = file->private_data;

	spin_lock(&mf->lock);
	mirror_unmap_range(mf, 0, ULONG_MAX);
	spin_unlock(&mf->lock);
	atomic_dec(&mirror_global_open);
	mncompat_mmu_notifier_put(&mf->pt.notifier);
	return 0;
}
#else
static int mirror_open(struct inode *inode, struct file *file)
{
	struct mirror_file *mf = mirror_file_alloc();
	int ret;

	if (!mf)
		return -ENOMEM;
	ret = devpt_register(&mf->pt, &mf->lock, mirror_notifier_ops());
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

	devpt_unregister(&mf->pt);
	spin_lock(&mf->lock);
	mirror_unmap_range(mf, 0, ULONG_MAX);
	spin_unlock(&mf->lock);
	atomic_dec(&mirror_global_open);
	kfree(mf);
	return 0;
}
#endif

DEVPT_FOPS(mirror);

static struct miscdevice mirror_misc =
	DEVPT_MISC_DEVICE(MIRROR_DEVICE_NAME, &mirror_fops);
static struct miscdevice *const mirror_devs[] = { &mirror_misc };
DEVPT_MODULE_MISC(mirror);

MODULE_DESCRIPTION("mncompat sample: a software secondary MMU kept coherent by MMU notifiers");
MODULE_LICENSE("GPL");
