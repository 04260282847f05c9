// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_START_WRONG_SIGNATURE
 * Upstream: none: negative control, no kernel has this form
 * range_start_range.c with an extra argument: must not compile anywhere,
 * showing that a callback of the wrong type fails its probe.
 */
#include <linux/mmu_notifier.h>

static int probe_range_start(struct mmu_notifier *mn,
			     const struct mmu_notifier_range *range,
			     unsigned int why)
{
	return 0;
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_range_start = probe_range_start,
};
