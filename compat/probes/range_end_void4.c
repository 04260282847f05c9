// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_END_VOID4
 * Upstream: 2.6.27 cddb8a5c14aa added; 5.0 5d6527a784f7 changed
 * void ops->invalidate_range_end(mn, mm, start, end).
 */
#include <linux/mmu_notifier.h>

static void probe_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start, unsigned long end)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_range_end = probe_range_end,
};
