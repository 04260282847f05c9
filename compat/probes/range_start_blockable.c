// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_START_BLOCKABLE
 * Upstream: 4.19 93065ac753e4 added; 5.0 5d6527a784f7 changed
 * int ops->invalidate_range_start(mn, mm, start, end, bool blockable).
 */
#include <linux/mmu_notifier.h>

static int probe_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end,
			     bool blockable)
{
	return 0;
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_range_start = probe_range_start,
};
