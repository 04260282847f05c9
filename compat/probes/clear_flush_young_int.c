// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_INT
 * Upstream: 3.18 57128468080a added; 7.1 1fc7dc675e26 made it return bool
 * int ops->clear_flush_young(mn, mm, start, end).
 */
#include <linux/mmu_notifier.h>

static int probe_clear_flush_young(struct mmu_notifier *mn,
				   struct mm_struct *mm, unsigned long start,
				   unsigned long end)
{
	return 0;
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.clear_flush_young = probe_clear_flush_young,
};
