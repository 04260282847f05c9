// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for convert.sh --compat's pipeline: a 4.12 table whose
 * unused fields are set to NULL (invalidate_page, change_pte), with
 * range callbacks that only call kernel helpers which never sleep
 * (clflush, panic, BUG_ON), in the shape of SGI GRU's.  The NULL fields
 * go with nothing to review, and the table gets a definite "never
 * sleeps" verdict.  A second table has only range_end: its NULL
 * range_start and invalidate_range do not make it one that may sleep.
 */
#include <linux/mmu_notifier.h>

struct gn {
	struct mmu_notifier mn;
	atomic_t range_active;
	void *tfh;
};

static void gn_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	struct gn *g = container_of(mn, struct gn, mn);

	if (!g->tfh)
		panic("gn: no TLB handle");
	BUG_ON(start > end);
	atomic_inc(&g->range_active);
	clflush(g->tfh);
}

static void gn_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			 unsigned long start, unsigned long end)
{
	struct gn *g = container_of(mn, struct gn, mn);

	atomic_dec(&g->range_active);
}

static const struct mmu_notifier_ops gn_ops = {
	.invalidate_range_start	= gn_range_start,
	.invalidate_range_end	= gn_range_end,
	.invalidate_page	= NULL,
	.change_pte		= NULL,
};

static void gn_end(struct mmu_notifier *mn, struct mm_struct *mm,
		  unsigned long start, unsigned long end)
{
}

static const struct mmu_notifier_ops gn_end_ops = {
	.invalidate_range_start	= NULL,
	.invalidate_range_end	= gn_end,
	.invalidate_range	= NULL,
};

/* For the build of the fixture outputs (tests/run.sh): the tables in use. */
const void *pipeline_compat_null_tables[] = {
	&gn_ops, &gn_end_ops,
};
