// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_INVALIDATE_RANGE
 * Upstream: 3.19 0f0a327fa12c added; 6.6 1af5a8109904 renamed
 * ops->invalidate_range(mn, mm, start, end): called under the page-table
 * lock, must not sleep.
 */
#include <linux/mmu_notifier.h>

static void probe_invalidate_range(struct mmu_notifier *mn,
		struct mm_struct *mm, unsigned long start, unsigned long end)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_range = probe_invalidate_range,
};
