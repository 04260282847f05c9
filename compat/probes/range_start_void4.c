// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_START_VOID4
 * Upstream: 2.6.27 cddb8a5c14aa added; 4.19 93065ac753e4 changed
 * void ops->invalidate_range_start(mn, mm, start, end).
 */
#include <linux/mmu_notifier.h>

static void probe_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long start, unsigned long end)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_range_start = probe_range_start,
};
