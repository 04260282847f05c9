// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 6.6 rename: an IOMMU shared-virtual-address style
 * notifier whose invalidate_range flushes the device TLB, a second one
 * named just "invalidate_range" (an ocxl-like link), a caller of the
 * removed range helpers, and a run-time assignment that is reported.
 */
#include <linux/mmu_notifier.h>

struct sva_bond {
	struct mmu_notifier notifier;
	struct sva_domain *domain;
	u32 pasid;
};

static void sva_invalidate_range(struct mmu_notifier *mn,
				 struct mm_struct *mm,
				 unsigned long start, unsigned long end);

static void sva_mm_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct sva_bond *bond = container_of(mn, struct sva_bond, notifier);

	sva_clear_pasid_entry(bond->domain, bond->pasid);
}

static const struct mmu_notifier_ops sva_mmuops = {
	.release = sva_mm_release,
	.invalidate_range = sva_invalidate_range,
};

/* Pages have been freed at this point */
static void sva_invalidate_range(struct mmu_notifier *mn,
				 struct mm_struct *mm,
				 unsigned long start, unsigned long end)
{
	struct sva_bond *bond = container_of(mn, struct sva_bond, notifier);

	sva_flush_dev_iotlb(bond->domain, bond->pasid, start, end - start);
}

static void invalidate_range(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end)
{
	struct link_pe *pe = container_of(mn, struct link_pe, mmu_notifier);

	link_tlb_invalidate(pe->link, pe->pid, start, end);
}

static const struct mmu_notifier_ops link_mmu_notifier_ops = {
	.invalidate_range = invalidate_range,
};

void link_clear_ptes(struct mm_struct *mm, struct mmu_notifier_range *range)
{
	mmu_notifier_invalidate_range_start(range);
	link_zap(mm, range->start, range->end);
	mmu_notifier_invalidate_range(mm, range->start, range->end);
	mmu_notifier_invalidate_range_only_end(range);
}

void link_set_ops(struct mmu_notifier_ops *ops)
{
	ops->invalidate_range = invalidate_range;
}
