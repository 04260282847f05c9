// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_TEST_YOUNG_INT
 * Upstream: 2.6.38 8ee53820edfd added; 7.1 1fc7dc675e26 made it return bool
 * int ops->test_young(mn, mm, address).
 */
#include <linux/mmu_notifier.h>

static int probe_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long address)
{
	return 0;
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.test_young = probe_test_young,
};
