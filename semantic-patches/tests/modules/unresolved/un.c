// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: an invalidate_page callback that calls a function of
 * another module (declared, not defined here): whether it sleeps is not
 * known, and the tool must say so.
 */
#include <linux/mmu_notifier.h>

void other_module_flush(unsigned long address);

static void un_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	other_module_flush(address);
}

static const struct mmu_notifier_ops un_ops = {
	.invalidate_page = un_invalidate_page,
};

const struct mmu_notifier_ops *un_notifier_ops(void)
{
	return &un_ops;
}
