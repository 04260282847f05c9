// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_BOOL
 * Upstream: 7.1 1fc7dc675e26
 * bool ops->clear_flush_young(mn, mm, start, end) ("mm: change to return
 * bool for the MMU notifier's young flag check", which changed the three
 * young callbacks and their wrappers at once).
 */
#include <linux/mmu_notifier.h>

static bool probe_clear_flush_young(struct mmu_notifier *mn,
				    struct mm_struct *mm, unsigned long start,
				    unsigned long end)
{
	return false;
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.clear_flush_young = probe_clear_flush_young,
};
