// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE_BLOCKABLE
 * Upstream: 5.2 4a83bfe916f3 (helper), 27560ee96f40 (flags)
 * bool mmu_notifier_range_blockable(const struct mmu_notifier_range *).
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_blockable(const struct mmu_notifier_range *range);
bool mncompat_probe_blockable(const struct mmu_notifier_range *range)
{
	return mmu_notifier_range_blockable(range);
}
