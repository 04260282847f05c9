// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_FLAGS_FIELD
 * Upstream: 5.2 27560ee96f40 (replaced bool blockable)
 * Backported: RHEL 8.2+ (4.18), without the helper (issue 27).
 * mmu_notifier_range::flags (unsigned) and MMU_NOTIFIER_RANGE_BLOCKABLE.
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_blockable(const struct mmu_notifier_range *range);
bool mncompat_probe_blockable(const struct mmu_notifier_range *range)
{
	return range->flags & MMU_NOTIFIER_RANGE_BLOCKABLE;
}
