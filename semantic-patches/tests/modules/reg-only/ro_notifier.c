// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: range_start may fail (-EAGAIN when it may not block) and the
 * table has range_end, so the registration in ro_main.c becomes compat's.
 */
#include <linux/compiler.h>
#include "ro.h"

static int ro_range_start(struct mmu_notifier *mn,
			  const struct mmu_notifier_range *range)
{
	struct ro_dev *d = container_of(mn, struct ro_dev, mn);

	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	WRITE_ONCE(d->seq, d->seq + 1);
	return 0;
}

static void ro_range_end(struct mmu_notifier *mn,
			 const struct mmu_notifier_range *range)
{
	struct ro_dev *d = container_of(mn, struct ro_dev, mn);

	WRITE_ONCE(d->seq, d->seq + 1);
}

static const struct mmu_notifier_ops ro_ops = {
	.invalidate_range_start = ro_range_start,
	.invalidate_range_end = ro_range_end,
};

const struct mmu_notifier_ops *ro_notifier_ops(void)
{
	return &ro_ops;
}
