// SPDX-License-Identifier: GPL-2.0
/*
 * shape_events written for the 6.x notifier API from the start (through
 * compat, as every sample is): one event per range start. What it counts
 * is what a converted shape_events must count on every kernel.
 */
#include <linux/mm.h>
#include <mncompat/mmu_notifier.h>

#include "shape_core.h"

static int events_native_range_start(struct mmu_notifier *mn,
				     const struct mmu_notifier_range *range)
{
	shape_event(to_shape(mn), range->start, range->end);
	return 0;
}

MNCOMPAT_MMU_NOTIFIER_OPS(events_native_ops, NULL, events_native_range_start,
			  NULL, NULL, 0);

const struct mmu_notifier_ops *shape_notifier_ops(void)
{
	return &events_native_ops;
}
