// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_CHANGE_PTE
 * Upstream: 2.6.32 828502d30073 added; 6.10 997308f9ae72 removed
 * void ops->change_pte(mn, mm, address, pte_t pte).
 */
#include <linux/mmu_notifier.h>

static void probe_change_pte(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long address, pte_t pte)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.change_pte = probe_change_pte,
};
