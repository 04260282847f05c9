// SPDX-License-Identifier: GPL-2.0
/*
 * agedev's MMU-notifier glue as a 4.x driver with KVM's shape wrote it: a
 * count and a sequence raised and bumped by the range callbacks (the fault
 * path checks both), an invalidate_page() for the rmap paths that called
 * only it, and the young callbacks, which return int, through which the
 * kernel ages the pages the device maps (idle page tracking, reclaim,
 * khugepaged). Nothing here is edited by hand to port it:
 * ci/run/driver-matrix.sh runs semantic-patches/convert.sh on a copy.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>

#include "agedev.h"

/* Called after the CPU page table stopped mapping the page at address. */
static void agedev_invalidate_page(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long address)
{
	agedev_drop(to_agedev(mn), address, address + PAGE_SIZE);
}

static void agedev_invalidate_range_start(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end)
{
	agedev_range_begin(to_agedev(mn), start, end);
}

static void agedev_invalidate_range_end(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start,
					unsigned long end)
{
	agedev_range_done(to_agedev(mn));
}

static int agedev_clear_flush_young(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long start,
				    unsigned long end)
{
	return agedev_age(to_agedev(mn), start, end, AGEDEV_CLEAR_FLUSH);
}

static int agedev_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long start, unsigned long end)
{
	return agedev_age(to_agedev(mn), start, end, AGEDEV_CLEAR);
}

static int agedev_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long address)
{
	return agedev_age(to_agedev(mn), address, address + PAGE_SIZE,
			  AGEDEV_TEST);
}

static void agedev_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	agedev_drop(to_agedev(mn), 0, ULONG_MAX);
}

static const struct mmu_notifier_ops agedev_ops = {
	.release = agedev_release,
	.clear_flush_young = agedev_clear_flush_young,
	.clear_young = agedev_clear_young,
	.test_young = agedev_test_young,
	.invalidate_page = agedev_invalidate_page,
	.invalidate_range_start = agedev_invalidate_range_start,
	.invalidate_range_end = agedev_invalidate_range_end,
};

const struct mmu_notifier_ops *agedev_notifier_ops(void)
{
	return &agedev_ops;
}
