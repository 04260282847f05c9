// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_EVENT_FIELD
 * Upstream: 5.2 bf198b2b34bf (the field; enum mmu_notifier_event just before)
 * Backported: RHEL 8.2+ (4.18) (issue 27).
 * enum mmu_notifier_event mmu_notifier_range::event, MMU_NOTIFY_CLEAR.
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_event(const struct mmu_notifier_range *range);
bool mncompat_probe_event(const struct mmu_notifier_range *range)
{
	const enum mmu_notifier_event *event = &range->event;

	return *event == MMU_NOTIFY_CLEAR;
}
