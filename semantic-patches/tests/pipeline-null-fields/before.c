// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the series without compat: fields of an ops table set
 * to NULL or 0 name no callback.  The removed fields (invalidate_page,
 * change_pte) go, with no note and nothing to review; a field that stays
 * keeps its 0; a NULL invalidate_range_start stays, a NULL or 0
 * invalidate_range is renamed with the field.
 */
#include <linux/mmu_notifier.h>

struct nf {
	struct mmu_notifier mn;
	atomic_t young;
};

static int nf_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
			  unsigned long start, unsigned long end)
{
	struct nf *n = container_of(mn, struct nf, mn);

	return atomic_xchg(&n->young, 0);
}

static const struct mmu_notifier_ops nf_ops = {
	.clear_young	= nf_clear_young,
	.change_pte	= NULL,
	.invalidate_page = 0,
	.test_young	= 0,
};

static const struct mmu_notifier_ops nf_zero_ops = {
	.invalidate_page = NULL,
	.change_pte	= 0,
	.clear_young	= nf_clear_young,
	.invalidate_range = 0,
};

static void nf_end(struct mmu_notifier *mn, struct mm_struct *mm,
		  unsigned long start, unsigned long end)
{
}

static const struct mmu_notifier_ops nf_end_ops = {
	.invalidate_range_start	= NULL,
	.invalidate_range_end	= nf_end,
	.invalidate_range	= NULL,
};

/* For the build of the fixture outputs (tests/run.sh): the tables in use. */
const void *pipeline_null_fields_tables[] = {
	&nf_ops, &nf_zero_ops, &nf_end_ops,
};
