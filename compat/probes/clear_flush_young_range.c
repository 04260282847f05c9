// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_RANGE
 * Upstream: 3.18 57128468080a
 * ops->clear_flush_young(mn, mm, start, end), whatever it returns (int,
 * or bool since 7.1: the form is clear_flush_young_int/_bool's answer):
 * the callback is there in the range form.
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_young(const struct mmu_notifier_ops *ops,
			  struct mmu_notifier *mn, struct mm_struct *mm);
bool mncompat_probe_young(const struct mmu_notifier_ops *ops,
			  struct mmu_notifier *mn, struct mm_struct *mm)
{
	return ops->clear_flush_young(mn, mm, 0, PAGE_SIZE);
}
