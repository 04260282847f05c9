// SPDX-License-Identifier: GPL-2.0
/*
 * mirror's MMU-notifier glue, written once against the 6.x API and built
 * through compat/, which maps it onto every kernel generation.
 *
 * MIRROR_TLB_ONLY=1 builds the variant that uses only the non-sleeping
 * secondary-TLB hook, as an IOMMU/SVA driver would: it runs under the
 * page-table lock right after the CPU page table changed, and a fault then
 * relies on the sequence count alone.
 *
 * MIRROR_BENCH_SLOW_COMPAT=1 (with MIRROR_BENCH=1, a test knob) makes every
 * range_start of this glue spin 10 us: the benchmark must then call the
 * compat glue too slow (mirror-bench-slow.suite).
 */
#include <linux/delay.h>
#include <mncompat/mmu_notifier.h>

#include "mirror.h"

#ifndef MIRROR_TLB_ONLY
#define MIRROR_TLB_ONLY 0
#endif
#ifndef MIRROR_BENCH_SLOW_COMPAT
#define MIRROR_BENCH_SLOW_COMPAT 0
#endif

static int mirror_invalidate_range_start(struct mmu_notifier *mn,
					 const struct mmu_notifier_range *range)
{
	if (MIRROR_BENCH_SLOW_COMPAT)
		udelay(10);
	mirror_invalidate_begin(to_mirror(mn), range->start, range->end);
	return 0;
}

static void mirror_invalidate_range_end(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	mirror_invalidate_end(to_mirror(mn), range->start, range->end);
}

static void mirror_invalidate_secondary_tlbs(struct mmu_notifier *mn,
					     struct mm_struct *mm,
					     unsigned long start,
					     unsigned long end)
{
	mirror_invalidate(to_mirror(mn), MIRROR_CB_SECONDARY_TLBS, start, end);
}

static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	mirror_release_all(to_mirror(mn));
}

/* The callbacks never sleep: the device only takes a spinlock. */
MNCOMPAT_MMU_NOTIFIER_OPS(mirror_range_ops, mirror_release,
			  mirror_invalidate_range_start,
			  mirror_invalidate_range_end, NULL, 0);
MNCOMPAT_MMU_NOTIFIER_OPS(mirror_tlb_ops, mirror_release, NULL, NULL,
			  mirror_invalidate_secondary_tlbs, 0);

const struct mmu_notifier_ops *mirror_notifier_ops(void)
{
	return MIRROR_TLB_ONLY ? &mirror_tlb_ops : &mirror_range_ops;
}
