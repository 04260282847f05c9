// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE_BLOCKABLE
 * Upstream: 5.2 4a83bfe916f3
 * bool mmu_notifier_range_blockable(const struct mmu_notifier_range *).
 * Probed on its own: RHEL 8.2+ (4.18) has the range flags without it
 * (issue 27); compat then reads the field it has (range_flags_field,
 * range_blockable_field).
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_blockable(const struct mmu_notifier_range *range);
bool mncompat_probe_blockable(const struct mmu_notifier_range *range)
{
	return mmu_notifier_range_blockable(range);
}
