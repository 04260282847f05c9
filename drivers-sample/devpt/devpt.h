/* SPDX-License-Identifier: GPL-2.0 */
/*
 * devpt: a device page table (virtual page number -> struct page, one
 * page reference per entry) of the opener's mm for the sample devices,
 * protected by a spinlock of its owner, and the MMU notifier the owner's
 * glue gets the mm's invalidations through. The owner's fault and
 * invalidation protocol (what makes a faulted page still current) stays the
 * owner's: devpt only registers, stores, reads and drops entries.
 */
#ifndef _DEVPT_H
#define _DEVPT_H

#include <linux/mmu_notifier.h>
#include <linux/radix-tree.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct page;

struct devpt {
	struct mmu_notifier notifier;	/* with the owner's ops, on mm */
	struct mm_struct *mm;		/* the opener's */
	/*
	 * The owner's lock, which also guards its protocol's state. A radix
	 * tree (not an XArray, 4.20+) so that the samples build from 4.4 on.
	 */
	spinlock_t *lock;
	struct radix_tree_root tree;	/* virtual page number -> page */
};

/*
 * The table of the caller's mm, lock its lock, ops the notifier's: 0,
 * -EINVAL for a caller without an mm, or mncompat_mmu_notifier_register()'s
 * error (plain mmu_notifier_register() for a table not of compat). Test
 * knobs: DEVPT_REGISTER_LOCKED registers under the mmap lock, as drivers
 * that hold it do (__mncompat_mmu_notifier_register()), and its control
 * DEVPT_REGISTER_KERNEL_LOCKED calls the kernel's __mmu_notifier_register()
 * there instead (no gate for a table whose range_start may fail).
 */
int devpt_register(struct devpt *pt, spinlock_t *lock,
		   const struct mmu_notifier_ops *ops);
/*
 * The table alone, of mm, lock its lock, for an owner whose subscription
 * comes from elsewhere (an alloc_notifier for mncompat_mmu_notifier_get()).
 */
void devpt_init(struct devpt *pt, spinlock_t *lock, struct mm_struct *mm);
/* After it no callback runs: the table is its owner's alone. */
void devpt_unregister(struct devpt *pt);

/* A reference to the page the table maps addr to, or NULL. */
struct page *devpt_get(struct devpt *pt, unsigned long addr);

/*
 * A fault in three steps. devpt_fault_begin() may sleep: it takes a
 * reference to the user page at addr and preloads tree nodes; on an error
 * nothing is held. Then, under the owner's lock and only if its protocol
 * says the page is still current, devpt_store_locked() puts it in the table
 * (on an error it drops the page's reference; else *old is the page it
 * replaced, or NULL, whose reference the caller now holds). Last, with the
 * lock dropped, devpt_fault_end() ends the preload and drops the reference
 * to page unless it is NULL (the page was stored).
 */
int devpt_fault_begin(unsigned long addr, struct page **page);
int devpt_store_locked(struct devpt *pt, unsigned long addr,
		       struct page *page, struct page **old);
void devpt_fault_end(struct page *page);

/*
 * Under the owner's lock: drop the entries of [start, end) (end > start)
 * and their page references; the number dropped.
 */
unsigned long devpt_zap_locked(struct devpt *pt, unsigned long start,
			       unsigned long end);

/*
 * For OOM tests: stay in the kernel, unkillable, until a fatal signal
 * (the OOM killer's) arrives, then ms milliseconds more (at most 10000),
 * so that the OOM reaper gets to the mm while its owner cannot exit.
 * 0, or -ETIMEDOUT when no fatal signal came within 60 s.
 */
int devpt_hold_until_killed(u32 ms);

#endif /* _DEVPT_H */
