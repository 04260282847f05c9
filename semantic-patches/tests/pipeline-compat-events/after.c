// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: ummunotify's shape.  User space registers ranges of its
 * address space and reads, from a counter it maps, how many invalidation
 * events hit them.  invalidate_range_start and invalidate_page both
 * count one event for the range they are given (under a spinlock, then
 * a wake-up); the module maps no user pages into any device.  From 4.13
 * start/end bracket every page-table change, so range_start already
 * counts each change once: invalidate_page goes, and with --compat it
 * must not stay as the secondary-TLB hook either, or every change is
 * counted twice on 3.19-6.5 (range_start, then the hook).  Nothing may
 * sleep: the table is not flagged MNCOMPAT_RANGE_START_MAY_SLEEP.
 */
#include <mncompat/mmu_notifier.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

struct umn_file {
	struct mmu_notifier mn;
	spinlock_t lock;
	wait_queue_head_t read_wait;
	unsigned long start, end;
	u64 *counter;
	u64 events;
};

int umn_attach(struct umn_file *f, struct mm_struct *mm);

static void umn_event(struct umn_file *f, unsigned long start,
		      unsigned long end)
{
	spin_lock(&f->lock);
	if (start < f->end && end > f->start) {
		f->events++;
		if (f->counter)
			WRITE_ONCE(*f->counter, f->events);
	}
	spin_unlock(&f->lock);
	wake_up_interruptible(&f->read_wait);
}

static int umn_invalidate_range_start(struct mmu_notifier *mn,
				       const struct mmu_notifier_range *range)
{
	umn_event(container_of(mn, struct umn_file, mn), range->start,
		  range->end);
	return 0;
}

MNCOMPAT_MMU_NOTIFIER_OPS(umn_ops, NULL, umn_invalidate_range_start, NULL, NULL,
			  0);

int umn_attach(struct umn_file *f, struct mm_struct *mm)
{
	f->mn.ops = &umn_ops;
	return mmu_notifier_register(&f->mn, mm);
}
