// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a 4.19-style invalidate_range_end with a local variable
 * named range, which the 5.0 parameter would shadow: left alone and
 * reported, while the other callback is converted.
 */
#include <linux/mmu_notifier.h>

static void span_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	struct span range;

	range.first = start;
	range.last = end - 1;
	span_release(mn, mm, &range);
}

static int span_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start, unsigned long end,
			    bool blockable)
{
	return span_block(mn, start, end, blockable);
}

static const struct mmu_notifier_ops span_mn_ops = {
	.invalidate_range_start = span_range_start,
	.invalidate_range_end = span_range_end,
};
