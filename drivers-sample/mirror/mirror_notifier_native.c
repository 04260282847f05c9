// SPDX-License-Identifier: GPL-2.0
/*
 * mirror's notifier glue without compat/: a plain struct mmu_notifier_ops as
 * a driver written for one kernel generation declares it, the reference the
 * benchmark (MIRROR_BENCH=1, tests/mirror_bench.c) measures compat against.
 *
 * 5.0+ range callbacks on every kernel. Where the kernel still has
 * ops->invalidate_page (the re-created pre-4.13 rows) it gets the callback
 * a careful driver for 4.11-4.12 writes by hand: a non-sleeping one-shot
 * drop of the page, where compat calls range_start and range_end. The
 * probe result only tells which kernel this is (pre413-6.1 has a 6.1
 * version number); no compat/ code is used.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <mncompat_config.h>

#include "mirror.h"
#include "mirror_bench.h"

#ifndef MNCOMPAT_HAVE_RANGE_START_RANGE
#error "mirror_notifier_native.c is written for 5.0+ range callbacks"
#endif

static int mirror_native_range_start(struct mmu_notifier *mn,
				     const struct mmu_notifier_range *range)
{
	mirror_invalidate_begin(to_mirror(mn), range->start, range->end);
	return 0;
}

static void mirror_native_range_end(struct mmu_notifier *mn,
				    const struct mmu_notifier_range *range)
{
	mirror_invalidate_end(to_mirror(mn), range->start, range->end);
}

#ifdef MNCOMPAT_HAVE_INVALIDATE_PAGE
/* Called under the page-table lock: the device lock is a spinlock. */
static void mirror_native_invalidate_page(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long address)
{
	unsigned long start = address & PAGE_MASK;

	mirror_invalidate(to_mirror(mn), MIRROR_CB_INVALIDATE_PAGE, start,
			  start + PAGE_SIZE);
}
#endif

static void mirror_native_release(struct mmu_notifier *mn,
				  struct mm_struct *mm)
{
	mirror_release_all(to_mirror(mn));
}

static const struct mmu_notifier_ops mirror_native_ops = {
	.release = mirror_native_release,
	.invalidate_range_start = mirror_native_range_start,
	.invalidate_range_end = mirror_native_range_end,
#ifdef MNCOMPAT_HAVE_INVALIDATE_PAGE
	.invalidate_page = mirror_native_invalidate_page,
#endif
};

const struct mmu_notifier_ops *mirror_notifier_ops_native(void)
{
	return &mirror_native_ops;
}
