// SPDX-License-Identifier: GPL-2.0
/*
 * The model's may-sleep device (DEVICE_MAY_SLEEP in mirror_notifier.pml):
 * mirror's device behind notifier glue whose range callbacks sleep (a
 * mutex), in the shape semantic-patches/convert.sh --compat gives a legacy
 * driver whose callbacks take one: range_start returns -EAGAIN on a range
 * it may not sleep in, and the table keeps a non-sleeping secondary-TLB
 * hook for the kernels that call invalidate_page under the page-table lock.
 *
 * Only the model's tie (tie.py) reads this file, preprocessed for every
 * kernel generation, so that the model's may-sleep device is tied to what
 * compat makes of such a table there (no MMU_INVALIDATE_DOES_NOT_BLOCK on
 * 4.16-4.19, the hook left out on 6.6+, a trampoline that calls only the
 * hook before 4.13). It is not built into the module.
 */
#include <linux/errno.h>
#include <linux/mutex.h>
#include <mncompat/mmu_notifier.h>

#include "mirror.h"

static int mirror_sleepy_range_start(struct mmu_notifier *mn,
				     const struct mmu_notifier_range *range)
{
	struct mirror_file *mf = to_mirror(mn);

	if (!mncompat_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&mf->sleep_lock);
	mirror_invalidate_begin(mf, range->start, range->end);
	mutex_unlock(&mf->sleep_lock);
	return 0;
}

static void mirror_sleepy_range_end(struct mmu_notifier *mn,
				    const struct mmu_notifier_range *range)
{
	struct mirror_file *mf = to_mirror(mn);

	mutex_lock(&mf->sleep_lock);
	mirror_invalidate_end(mf, range->start, range->end);
	mutex_unlock(&mf->sleep_lock);
}

static void mirror_sleepy_secondary_tlbs(struct mmu_notifier *mn,
					 struct mm_struct *mm,
					 unsigned long start,
					 unsigned long end)
{
	mirror_invalidate(to_mirror(mn), MIRROR_CB_SECONDARY_TLBS, start, end);
}

static void mirror_sleepy_release(struct mmu_notifier *mn,
				  struct mm_struct *mm)
{
	mirror_release_all(to_mirror(mn));
}

MNCOMPAT_MMU_NOTIFIER_OPS(mirror_may_sleep_ops, mirror_sleepy_release,
			  mirror_sleepy_range_start, mirror_sleepy_range_end,
			  mirror_sleepy_secondary_tlbs,
			  MNCOMPAT_RANGE_START_MAY_SLEEP);

const struct mmu_notifier_ops *mirror_may_sleep_notifier_ops(void);
const struct mmu_notifier_ops *mirror_may_sleep_notifier_ops(void)
{
	return &mirror_may_sleep_ops;
}
