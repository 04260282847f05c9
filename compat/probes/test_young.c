// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_TEST_YOUNG
 * Upstream: 2.6.38 8ee53820edfd
 * ops->test_young(mn, mm, address), whatever it returns (int, or bool
 * since 7.1: the form is test_young_int/_bool's answer): the callback is
 * there.
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_young(const struct mmu_notifier_ops *ops,
			  struct mmu_notifier *mn, struct mm_struct *mm);
bool mncompat_probe_young(const struct mmu_notifier_ops *ops,
			  struct mmu_notifier *mn, struct mm_struct *mm)
{
	return ops->test_young(mn, mm, 0);
}
