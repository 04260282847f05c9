// SPDX-License-Identifier: GPL-2.0
/*
 * shape_pairlock's notifier glue, written before Linux 4.13: shape_pair's
 * KVM-shaped pair (the range start drops the pages and raises an
 * in-progress count, the range end lowers it and bumps the sequence, the
 * device's fault path in shape_core.c maps nothing while the count is up
 * or when the sequence moved; the start waits when the test arms it), in
 * a driver that registers with the mmap lock held, as SGI GRU, amdgpu_mn
 * and radeon of 4.x do: __mmu_notifier_register(). From 4.19 the start
 * may fail for the OOM reaper's non-blockable range next to a range_end:
 * converted with --compat, the registration must be
 * __mncompat_mmu_notifier_register(), or nothing keeps start and end
 * paired on 5.12+.
 */
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <mncompat/mmu_notifier.h>

#include "shape_core.h"

static void pairlock_invalidate_page(struct mmu_notifier *mn,
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

static void pairlock_invalidate_range_start(struct mmu_notifier *mn,
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

static void pairlock_invalidate_range_end(struct mmu_notifier *mn,
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

static const struct mmu_notifier_ops pairlock_ops = {
	.invalidate_page = pairlock_invalidate_page,
	.invalidate_range_start = pairlock_invalidate_range_start,
	.invalidate_range_end = pairlock_invalidate_range_end,
};

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &pairlock_ops;
}

/* The device of the caller's mm, registered with the mmap lock held. */
struct shape_dev *shape_glue_open(void)
{
	struct mm_struct *mm = current->mm;
	struct shape_dev *sd;
	int ret;

	if (!mm)
		return ERR_PTR(-EINVAL);
	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return ERR_PTR(-ENOMEM);
	shape_dev_init(sd, mm);
	sd->pt.notifier.ops = &pairlock_ops;
	mncompat_mmap_write_lock(mm);
	ret = __mmu_notifier_register(&sd->pt.notifier, mm);
	mncompat_mmap_write_unlock(mm);
	if (ret) {
		kfree(sd);
		return ERR_PTR(ret);
	}
	return sd;
}

void shape_glue_close(struct shape_dev *sd)
{
	mmu_notifier_unregister(&sd->pt.notifier, sd->pt.mm);
	shape_drop(sd, 0, ULONG_MAX);
	kfree(sd);
}

void shape_glue_exit(void)
{
}
