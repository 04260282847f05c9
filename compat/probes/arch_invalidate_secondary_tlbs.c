// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_ARCH_INVALIDATE_SECONDARY_TLBS
 * Upstream: 6.6 1af5a8109904
 * Backported: openEuler's 5.10 kernel (OLK-5.10), beside invalidate_range
 * (which its core still calls; arm64's TLB flushes call this one).
 * ops->arch_invalidate_secondary_tlbs(mn, mm, start, end), the 6.6 name
 * of invalidate_range().
 */
#include <linux/mmu_notifier.h>

static void probe_arch_invalidate_secondary_tlbs(struct mmu_notifier *mn,
		struct mm_struct *mm, unsigned long start, unsigned long end)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.arch_invalidate_secondary_tlbs = probe_arch_invalidate_secondary_tlbs,
};
