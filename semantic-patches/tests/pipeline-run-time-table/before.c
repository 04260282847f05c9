// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 44 item 3): a table built at run
 * time, a copy of a static template (kmemdup()) whose range callbacks the
 * driver fills in, as drivers that pick their callbacks per device do.
 * The callbacks named there are converted as a table's would be (4.19:
 * int and the -EAGAIN guard for the one that sleeps; 5.0: the range
 * struct); what the tool cannot see is the rest of that table: whether a
 * start that may fail sits next to a range_end (5.12), a review item.
 * The output builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>

struct rt_dev {
	struct mmu_notifier mn;
	struct mutex lock;
	unsigned long seq;
	bool fast;
	struct mmu_notifier_ops *ops;
};

static void rt_start(struct mmu_notifier *mn, struct mm_struct *mm,
		     unsigned long start, unsigned long end)
{
	struct rt_dev *d = container_of(mn, struct rt_dev, mn);

	mutex_lock(&d->lock);
	d->seq++;
	mutex_unlock(&d->lock);
}

static void rt_end(struct mmu_notifier *mn, struct mm_struct *mm,
		   unsigned long start, unsigned long end)
{
	struct rt_dev *d = container_of(mn, struct rt_dev, mn);

	WRITE_ONCE(d->seq, d->seq + 1);
}

static void rt_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
}

static const struct mmu_notifier_ops rt_template = {
	.release = rt_release,
};

int rt_attach(struct rt_dev *d)
{
	int ret;

	mutex_init(&d->lock);
	d->ops = kmemdup(&rt_template, sizeof(*d->ops), GFP_KERNEL);
	if (!d->ops)
		return -ENOMEM;
	d->ops->invalidate_range_start = rt_start;
	if (!d->fast)
		d->ops->invalidate_range_end = rt_end;
	d->mn.ops = d->ops;
	ret = mmu_notifier_register(&d->mn, current->mm);
	if (ret)
		kfree(d->ops);
	return ret;
}
EXPORT_SYMBOL_GPL(rt_attach);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: a table built at run time");
