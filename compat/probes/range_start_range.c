// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_START_RANGE
 * Upstream: 5.0 5d6527a784f7, ac46d4f3c432
 * int ops->invalidate_range_start(mn, const struct mmu_notifier_range *).
 */
#include <linux/mmu_notifier.h>

static int probe_range_start(struct mmu_notifier *mn,
			     const struct mmu_notifier_range *range)
{
	return 0;
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_range_start = probe_range_start,
};
