// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_BLOCKABLE_FIELD
 * Upstream: 5.0 ac46d4f3c432 added; 5.2 27560ee96f40 made it a flag
 * bool mmu_notifier_range::blockable, read directly before the 5.2 helper.
 * compat's own struct mmu_notifier_range (no kernel one) has it too.
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_blockable(const struct mmu_notifier_range *range);
bool mncompat_probe_blockable(const struct mmu_notifier_range *range)
{
	bool *blockable = &((struct mmu_notifier_range *)range)->blockable;

	return *blockable;
}
