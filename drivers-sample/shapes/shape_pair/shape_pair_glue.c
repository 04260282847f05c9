// SPDX-License-Identifier: GPL-2.0
/*
 * shape_pair's notifier glue, written before Linux 4.13 in KVM's shape:
 * the range start drops the pages and raises an in-progress count, the
 * range end lowers it and bumps the sequence, and the device's fault path
 * (shape_core.c) maps nothing while the count is up or when the sequence
 * moved. The pages range_start dropped stay dropped until range_end: when
 * invalidate_page goes, nothing has to take its place.
 */
#include <linux/mm.h>

#include "shape_core.h"

static void pair_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm,
				 unsigned long address)
{
	struct shape_dev *sd = to_shape(mn);

	address &= PAGE_MASK;
	spin_lock(&sd->lock);
	sd->seq++;
	spin_unlock(&sd->lock);
	shape_drop(sd, address, address + PAGE_SIZE);
}

static void pair_invalidate_range_start(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start,
					unsigned long end)
{
	struct shape_dev *sd = to_shape(mn);

	spin_lock(&sd->lock);
	sd->busy++;
	spin_unlock(&sd->lock);
	shape_drop(sd, start, end);
	shape_pause(sd, start, end);
}

static void pair_invalidate_range_end(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start,
				      unsigned long end)
{
	struct shape_dev *sd = to_shape(mn);

	spin_lock(&sd->lock);
	sd->seq++;
	sd->busy--;
	spin_unlock(&sd->lock);
}

static const struct mmu_notifier_ops pair_ops = {
	.invalidate_page = pair_invalidate_page,
	.invalidate_range_start = pair_invalidate_range_start,
	.invalidate_range_end = pair_invalidate_range_end,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &pair_ops;
}
