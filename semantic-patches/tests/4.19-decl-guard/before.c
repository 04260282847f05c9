// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 4.19 step (issue 33 item 7): a range_start that
 * may sleep and begins with declaration macros (LIST_HEAD(), DEFINE_*):
 * the -EAGAIN guard goes after them (-Wdeclaration-after-statement),
 * not before the first thing spatch takes for a statement.  Its table
 * has no range_end, so the guarded start is right on every kernel.
 */
#include <linux/list.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>

struct dl_dev {
	struct mmu_notifier mn;
	struct mutex lock;
	struct list_head pages;
};

static void dl_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	LIST_HEAD(dead);
	DEFINE_MUTEX(scratch);
	struct dl_dev *d = container_of(mn, struct dl_dev, mn);

	mutex_lock(&d->lock);
	list_splice_init(&d->pages, &dead);
	mutex_unlock(&d->lock);
	mutex_lock(&scratch);
	mutex_unlock(&scratch);
}

static const struct mmu_notifier_ops dl_ops = {
	.invalidate_range_start = dl_range_start,
};

void dl_set(struct dl_dev *d)
{
	d->mn.ops = &dl_ops;
}
