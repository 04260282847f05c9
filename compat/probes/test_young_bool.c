// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_TEST_YOUNG_BOOL
 * Upstream: 7.1 1fc7dc675e26
 * bool ops->test_young(mn, mm, address).
 */
#include <linux/mmu_notifier.h>

static bool probe_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long address)
{
	return false;
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.test_young = probe_test_young,
};
