// SPDX-License-Identifier: GPL-2.0
/*
 * mirror's may-sleep glue (mirror_notifier_may_sleep.c, the model's
 * may-sleep device) in a table for get/put: the same callbacks, with the
 * alloc_notifier and free_notifier of mirror_dev.c, so that each opener's
 * mm has one subscription of mncompat_mmu_notifier_get(). mirror built
 * with MIRROR_MAY_SLEEP=1 MIRROR_REGISTER=get uses it (Kbuild):
 * b4-may-sleep-get.suite runs it under the OOM reaper, where compat's gate
 * must keep the failing range_start and its range_end paired as it does
 * for mncompat_mmu_notifier_register().
 */
#include "mirror_notifier_may_sleep.c"

MNCOMPAT_MMU_NOTIFIER_OPS(mirror_get_ops, mirror_sleepy_release,
			  mirror_sleepy_range_start, mirror_sleepy_range_end,
			  mirror_sleepy_secondary_tlbs,
			  MNCOMPAT_RANGE_START_MAY_SLEEP,
			  .alloc_notifier = mirror_alloc_notifier,
			  .free_notifier = mirror_free_notifier);

const struct mmu_notifier_ops *mirror_notifier_ops(void)
{
	return &mirror_get_ops;
}
