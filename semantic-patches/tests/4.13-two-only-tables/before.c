// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: two tables with only invalidate_page, one callback (a
 * driver with a notifier per kind of mapping).  The callbacks generated
 * for it go before the first table, once: the second uses them too.
 */
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(dual_lock);

static void dual_invalidate_page(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long address)
{
	mutex_lock(&dual_lock);
	dual_flush(mn, address);
	mutex_unlock(&dual_lock);
}

static const struct mmu_notifier_ops dual_anon_ops = {
	.invalidate_page = dual_invalidate_page,
};

static const struct mmu_notifier_ops dual_file_ops = {
	.invalidate_page = dual_invalidate_page,
};
