// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 44 item 3), in the shape of the
 * ROCm DKMS amdgpu_mn: the vendor's own version macro guards range_start's
 * header (the pre-4.19 form, else the 4.19 form: #if/#else, the body's
 * brace after the #endif) and, inside the body, the 4.19-only lines on
 * the negated condition; a teardown walks a list with a macro whose
 * arguments an #if/#else splits, each branch opening the loop's block.
 * unsplit.py makes each whole per branch, resolving the inner guards per
 * branch; the series converts the old branch.  The output builds.
 */
#include <linux/module.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define GB_VERSION(a, b) (((a) << 8) + (b))
#ifndef GB_VERSION_CODE
#define GB_VERSION_CODE GB_VERSION(4, 18)
#endif

struct gb_obj {
	struct list_head link;
	unsigned long start, end;
	bool valid;
};

struct gb_dev {
	struct mmu_notifier mn;
	struct mutex lock;
	struct list_head objs;
};

#if GB_VERSION_CODE < GB_VERSION(4, 19)
static int gb_invalidate_range_start(struct mmu_notifier *mn,
				      const struct mmu_notifier_range *range)
{
	struct gb_dev *d = container_of(mn, struct gb_dev, mn);
	struct gb_obj *o;

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&d->lock);
	list_for_each_entry(o, &d->objs, link)
		if (o->start < range->end && o->end > range->start)
			o->valid = false;
	mutex_unlock(&d->lock);
	return 0;
}
#else
static int gb_invalidate_range_start(struct mmu_notifier *mn,
				     const struct mmu_notifier_range *range)
{
	struct gb_dev *d = container_of(mn, struct gb_dev, mn);
	struct gb_obj *o;

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&d->lock);
	list_for_each_entry(o, &d->objs, link)
		if (o->start < range->end && o->end > range->start)
			o->valid = false;
	mutex_unlock(&d->lock);
	return 0;
}
#endif

static const struct mmu_notifier_ops gb_ops = {
	.invalidate_range_start = gb_invalidate_range_start,
};

int gb_attach(struct gb_dev *d)
{
	mutex_init(&d->lock);
	INIT_LIST_HEAD(&d->objs);
	d->mn.ops = &gb_ops;
	return mmu_notifier_register(&d->mn, current->mm);
}
EXPORT_SYMBOL_GPL(gb_attach);

void gb_detach(struct gb_dev *d)
{
	struct gb_obj *o, *n;

	mmu_notifier_unregister(&d->mn, current->mm);
#if GB_VERSION_CODE < GB_VERSION(4, 19)
	list_for_each_entry_safe(o, n,
				 &d->objs, link) {
		list_del(&o->link);
		kfree(o);
	}
#else
	list_for_each_entry_safe(o, n,
				 &d->objs, link) {
		o->valid = false;
		list_del(&o->link);
		kfree(o);
	}
#endif
}
EXPORT_SYMBOL_GPL(gb_detach);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: version guards inside the split");
