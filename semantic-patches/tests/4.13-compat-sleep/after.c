// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (-D compat): invalidate_page callbacks that may sleep, one
 * directly (a mutex), one through a helper of the file (a rw semaphore),
 * next to one that never sleeps.  Only the last may become the
 * non-sleeping secondary-TLB hook; the others get the sleepable range
 * callbacks, which compat refuses to build before 4.13.  An end-only
 * table covered by its range_end, which never sleeps, needs no hook.
 */
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>

struct dev {
	struct mmu_notifier mn;
	struct mutex lock;
	struct rw_semaphore sem;
	spinlock_t slock;
	unsigned long gen;
};

static void lock_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long address)
{
	struct dev *d = container_of(mn, struct dev, mn);

	mutex_lock(&d->lock);
	d->gen++;
	mutex_unlock(&d->lock);
}

static void dev_forget(struct dev *d, unsigned long address)
{
	down_write(&d->sem);
	d->gen += address;
	up_write(&d->sem);
}

static void deep_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long address)
{
	dev_forget(container_of(mn, struct dev, mn), address);
}

static void quick_invalidate_page(struct mmu_notifier *mn,
				  struct mm_struct *mm, unsigned long address)
{
	struct dev *d = container_of(mn, struct dev, mn);

	spin_lock(&d->slock);
	d->gen++;
	spin_unlock(&d->slock);
}

static void quick_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start, unsigned long end)
{
	struct dev *d = container_of(mn, struct dev, mn);

	spin_lock(&d->slock);
	d->gen++;
	spin_unlock(&d->slock);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void lock_invalidate_range_start(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start,
					unsigned long end)
{
	lock_invalidate_page(mn, mm, start);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void lock_invalidate_range_end(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	lock_invalidate_page(mn, mm, start);
}

static const struct mmu_notifier_ops lock_ops = {
	.invalidate_range_start = lock_invalidate_range_start,
	.invalidate_range_end = lock_invalidate_range_end,
};

/* Replaces invalidate_page, removed in Linux 4.13. */
static void deep_invalidate_range_start(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start,
					unsigned long end)
{
	unsigned long address = start;

	while (address < end) {
		deep_invalidate_page(mn, mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void deep_invalidate_range_end(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	unsigned long address = start;

	while (address < end) {
		deep_invalidate_page(mn, mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

static const struct mmu_notifier_ops deep_ops = {
	.invalidate_range_start = deep_invalidate_range_start,
	.invalidate_range_end = deep_invalidate_range_end,
};

/* Replaces invalidate_page, removed in Linux 4.13. */
static void quick_invalidate_range(struct mmu_notifier *mn,
				   struct mm_struct *mm, unsigned long start,
				   unsigned long end)
{
	quick_invalidate_page(mn, mm, start);
}

static const struct mmu_notifier_ops quick_ops = {
	.invalidate_range = quick_invalidate_range,
};

static const struct mmu_notifier_ops quick_end_ops = {
	.invalidate_range_end = quick_range_end,
};

const struct mmu_notifier_ops *dev_ops(int which)
{
	if (which == 3)
		return &quick_end_ops;
	if (which == 2)
		return &quick_ops;
	return which ? &deep_ops : &lock_ops;
}
