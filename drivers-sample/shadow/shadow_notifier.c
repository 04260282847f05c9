// SPDX-License-Identifier: GPL-2.0
/*
 * shadow's MMU-notifier glue the pre-4.13 way: two ops tables share one
 * invalidate_page() callback. /dev/shadow's table has nothing else;
 * /dev/shadow-track's also has invalidate_range_start/end, as drivers that
 * tracked range invalidations wrote it. Nothing here is edited by hand to
 * port it: ci/run/driver-matrix.sh runs semantic-patches/convert.sh on a copy.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>

#include "shadow.h"

/* Called after the CPU page table stopped mapping the page at address. */
static void shadow_invalidate_page(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long address)
{
	struct shadow_file *sf = to_shadow(mn);

	shadow_count_page_call(sf);
	shadow_drop(sf, address, address + PAGE_SIZE);
}

static void shadow_track_range_start(struct mmu_notifier *mn,
				     struct mm_struct *mm,
				     unsigned long start, unsigned long end)
{
	shadow_range_begin(to_shadow(mn), start, end);
}

static void shadow_track_range_end(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long start, unsigned long end)
{
	shadow_range_done(to_shadow(mn));
}

static void shadow_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	shadow_drop(to_shadow(mn), 0, ULONG_MAX);
}

static const struct mmu_notifier_ops shadow_page_ops = {
	.release = shadow_release,
	.invalidate_page = shadow_invalidate_page,
};

static const struct mmu_notifier_ops shadow_track_ops = {
	.release = shadow_release,
	.invalidate_page = shadow_invalidate_page,
	.invalidate_range_start = shadow_track_range_start,
	.invalidate_range_end = shadow_track_range_end,
};

const struct mmu_notifier_ops *shadow_notifier_ops(bool track)
{
	return track ? &shadow_track_ops : &shadow_page_ops;
}
