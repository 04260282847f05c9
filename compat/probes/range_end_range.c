// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_END_RANGE
 * Upstream: 5.0 5d6527a784f7, ac46d4f3c432
 * void ops->invalidate_range_end(mn, const struct mmu_notifier_range *).
 */
#include <linux/mmu_notifier.h>

static void probe_range_end(struct mmu_notifier *mn,
			    const struct mmu_notifier_range *range)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_range_end = probe_range_end,
};
