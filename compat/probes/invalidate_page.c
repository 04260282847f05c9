// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_INVALIDATE_PAGE
 * Upstream: 2.6.27 cddb8a5c14aa added; 4.13 5f32b265400d removed
 * ops->invalidate_page(mn, mm, address). 4.11 (c7ab0d2fdc84) started to
 * call it under the page-table lock.
 */
#include <linux/mmu_notifier.h>

static void probe_invalidate_page(struct mmu_notifier *mn,
				  struct mm_struct *mm, unsigned long address)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.invalidate_page = probe_invalidate_page,
};
