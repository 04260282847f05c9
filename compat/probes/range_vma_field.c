// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_RANGE_VMA_FIELD
 * Upstream: 5.2 bf198b2b34bf added; gone by 6.12 (6.1 still has it)
 * struct vm_area_struct *mmu_notifier_range::vma. compat leaves it NULL in
 * the ranges its trampolines build (the 4.x callbacks name no vma).
 */
#include <linux/mmu_notifier.h>

bool mncompat_probe_vma(const struct mmu_notifier_range *range);
bool mncompat_probe_vma(const struct mmu_notifier_range *range)
{
	struct vm_area_struct *const *vma = &range->vma;

	return *vma != NULL;
}
