// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 6.10 change_pte removal: a hypervisor-style notifier
 * whose change_pte goes through a static handler only it uses, a
 * same-page-merging style caller of set_pte_at_notify(), an explicit
 * mmu_notifier_change_pte() call, and a run-time assignment.
 */
#include <linux/mmu_notifier.h>

struct guest {
	struct mmu_notifier mmu_notifier;
	spinlock_t mmu_lock;
	long mn_active_invalidate_count;
};

static int guest_mmu_notifier_clear_young(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end)
{
	struct guest *g = container_of(mn, struct guest, mmu_notifier);

	return guest_handle_hva_range(g, start, end, __pte(0),
				      guest_age_gfn);
}

static const struct mmu_notifier_ops guest_mmu_notifier_ops = {
	.clear_young		= guest_mmu_notifier_clear_young,
};

static int merge_replace_page(struct vm_area_struct *vma, pte_t *ptep,
			      unsigned long addr, pte_t newpte)
{
	flush_cache_page(vma, addr, pte_pfn(*ptep));
	ptep_clear_flush(vma, addr, ptep);
	set_pte_at(vma->vm_mm, addr, ptep, newpte);
	return 0;
}

static void merge_notify(struct mm_struct *mm, unsigned long addr, pte_t pte)
{
	merge_count_update(mm);
}

void guest_set_ops(struct mmu_notifier_ops *ops)
{
	ops->change_pte = NULL;
}
