// SPDX-License-Identifier: GPL-2.0
/*
 * mirror's MMU-notifier glue as out-of-tree drivers wrote it before Linux
 * 4.13: one invalidate_page() callback per page the kernel unmaps, which
 * sleeps (a mutex) and assumes a page is 4 KiB. Nothing here is ever edited
 * by hand to port it: the build runs semantic-patches/convert.sh on a copy
 * (MIRROR_LEGACY=1), or builds it as is for the re-created pre-4.13 kernels.
 *
 * MIRROR_LEGACY_ATOMIC=1 builds the callback as drivers fixed it for 4.11's
 * page-table-lock context: no mutex, still one 4 KiB page per call.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>

#include "mirror.h"

#ifndef MIRROR_LEGACY_ATOMIC
#define MIRROR_LEGACY_ATOMIC 0
#endif

static void mirror_invalidate_page(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long address)
{
	struct mirror_file *mf = to_mirror(mn);

	if (!MIRROR_LEGACY_ATOMIC)
		mutex_lock(&mf->sleep_lock);
	mirror_invalidate(mf, MIRROR_CB_INVALIDATE_PAGE, address,
			  address + PAGE_SIZE);
	if (!MIRROR_LEGACY_ATOMIC)
		mutex_unlock(&mf->sleep_lock);
}

static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	mirror_release_all(to_mirror(mn));
}

static const struct mmu_notifier_ops mirror_legacy_ops = {
	.release = mirror_release,
	.invalidate_page = mirror_invalidate_page,
};

const struct mmu_notifier_ops *mirror_notifier_ops(void)
{
	return &mirror_legacy_ops;
}
