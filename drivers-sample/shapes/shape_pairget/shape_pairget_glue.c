// SPDX-License-Identifier: GPL-2.0
/*
 * shape_pairget's notifier glue, written for the 5.5+ API: shape_pair's
 * KVM-shaped pair (the range start drops the pages and raises an
 * in-progress count, the range end lowers it and bumps the sequence; the
 * start waits when the test arms it, so it refuses a non-blockable range)
 * in a driver that subscribes through mmu_notifier_get(), as SGI GRU does
 * since 5.5: the device is the mm's one subscription, allocated by the
 * table's alloc_notifier, put when the file closes, freed by its
 * free_notifier. Converted with --compat, get and put must be compat's,
 * or nothing keeps start and end paired on 5.12+. Kernels without
 * mmu_notifier_get() (before 5.4) get no device.
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "shape_core.h"

#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
static int pairget_invalidate_range_start(struct mmu_notifier *mn,
					  const struct mmu_notifier_range *range)
{
	struct shape_dev *sd = to_shape(mn);

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	spin_lock(&sd->lock);
	sd->busy++;
	spin_unlock(&sd->lock);
	shape_drop(sd, range->start, range->end);
	shape_pause(sd, range->start, range->end);
	return 0;
}

static void pairget_invalidate_range_end(struct mmu_notifier *mn,
					 const struct mmu_notifier_range *range)
{
	struct shape_dev *sd = to_shape(mn);

	spin_lock(&sd->lock);
	sd->seq++;
	sd->busy--;
	spin_unlock(&sd->lock);
}

static struct mmu_notifier *pairget_alloc_notifier(struct mm_struct *mm)
{
	struct shape_dev *sd = kzalloc(sizeof(*sd), GFP_KERNEL);

	if (!sd)
		return ERR_PTR(-ENOMEM);
	shape_dev_init(sd, mm);
	return &sd->pt.notifier;
}

static void pairget_free_notifier(struct mmu_notifier *mn)
{
	kfree(to_shape(mn));
}

static const struct mmu_notifier_ops pairget_ops = {
	.invalidate_range_start = pairget_invalidate_range_start,
	.invalidate_range_end = pairget_invalidate_range_end,
	.alloc_notifier = pairget_alloc_notifier,
	.free_notifier = pairget_free_notifier,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &pairget_ops;
}

struct shape_dev *shape_glue_open(void)
{
	struct mmu_notifier *mn;

	if (!current->mm)
		return ERR_PTR(-EINVAL);
	mn = mmu_notifier_get(&pairget_ops, current->mm);
	if (IS_ERR(mn))
		return ERR_CAST(mn);
	return to_shape(mn);
}

void shape_glue_close(struct shape_dev *sd)
{
	shape_drop(sd, 0, ULONG_MAX);
	mmu_notifier_put(&sd->pt.notifier);
}

void shape_glue_exit(void)
{
	mmu_notifier_synchronize();
}
#else
const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return NULL;
}

struct shape_dev *shape_glue_open(void)
{
	return ERR_PTR(-ENODEV);
}

void shape_glue_close(struct shape_dev *sd)
{
}

void shape_glue_exit(void)
{
}
#endif
