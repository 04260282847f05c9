// SPDX-License-Identifier: GPL-2.0
/*
 * A pre-4.13 module whose subscription is torn down, after the mm's
 * release, with mmu_notifier_unregister_no_release() (as amdgpu_mn and
 * amdkfd of 4.11 did): gone since 5.4, and no step converts it.  Its
 * range_start takes a mutex, so from 4.19 it may fail next to a range_end.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

struct nr_ctx {
	struct mmu_notifier mn;
	struct mm_struct *mm;
	struct mutex lock;
	struct work_struct work;
	long active;
};

static void nr_invalidate_range_start(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	struct nr_ctx *c = container_of(mn, struct nr_ctx, mn);

	mutex_lock(&c->lock);
	c->active++;
	mutex_unlock(&c->lock);
}

static void nr_invalidate_range_end(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long start, unsigned long end)
{
	struct nr_ctx *c = container_of(mn, struct nr_ctx, mn);

	mutex_lock(&c->lock);
	c->active--;
	mutex_unlock(&c->lock);
}

static void nr_destroy(struct work_struct *work)
{
	struct nr_ctx *c = container_of(work, struct nr_ctx, work);

	mmu_notifier_unregister_no_release(&c->mn, c->mm);
	mmu_notifier_synchronize();
	kfree(c);
}

static void nr_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct nr_ctx *c = container_of(mn, struct nr_ctx, mn);

	INIT_WORK(&c->work, nr_destroy);
	schedule_work(&c->work);
}

static const struct mmu_notifier_ops nr_ops = {
	.release = nr_release,
	.invalidate_range_start = nr_invalidate_range_start,
	.invalidate_range_end = nr_invalidate_range_end,
};

struct nr_ctx *nr_attach(void)
{
	struct nr_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);
	int ret;

	if (!c)
		return ERR_PTR(-ENOMEM);
	c->mm = current->mm;
	mutex_init(&c->lock);
	c->mn.ops = &nr_ops;
	ret = mmu_notifier_register(&c->mn, c->mm);
	if (ret) {
		kfree(c);
		return ERR_PTR(ret);
	}
	return c;
}
EXPORT_SYMBOL_GPL(nr_attach);

MODULE_LICENSE("GPL");
