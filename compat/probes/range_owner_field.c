// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_OWNER_FIELD
 * Upstream: 5.14 6b49bf6ddbb0 (5.9 998427b3ad2c named it migrate_pgmap_owner)
 * void *mmu_notifier_range::owner. compat leaves it NULL in the ranges
 * its trampolines build; only for drivers that test it.
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_owner(const struct mmu_notifier_range *range,
			  void *owner);
bool mncompat_probe_owner(const struct mmu_notifier_range *range,
			  void *owner)
{
	void *const *field = &range->owner;

	return *field == owner;
}
