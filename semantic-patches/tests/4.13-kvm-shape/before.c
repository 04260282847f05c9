// SPDX-License-Identifier: GPL-2.0
/*
 * Test input in the shape of a hypervisor's shadow-page-table notifier
 * (seed 010): sequence count and in-progress counter, an architecture
 * hook that only the invalidate_page callback calls (here the empty
 * stub an architecture without shadow page tables provides), and
 * change_pte/range/young callbacks that stay.
 */
#include <linux/mmu_notifier.h>
#include <linux/srcu.h>

struct vmm {
	struct mmu_notifier mmu_notifier;
	struct srcu_struct srcu;
	spinlock_t mmu_lock;
	unsigned long mmu_notifier_seq;
	long mmu_notifier_count;
	long tlbs_dirty;
};

/* No shadow page tables here, hence the empty hook. */
static inline void vmm_arch_mmu_notifier_invalidate_page(struct vmm *vmm,
							 unsigned long address)
{
}

static inline struct vmm *mmu_notifier_to_vmm(struct mmu_notifier *mn)
{
	return container_of(mn, struct vmm, mmu_notifier);
}

static void vmm_mmu_notifier_invalidate_page(struct mmu_notifier *mn,
					     struct mm_struct *mm,
					     unsigned long address)
{
	struct vmm *vmm = mmu_notifier_to_vmm(mn);
	int need_tlb_flush, idx;

	/*
	 * Bump the sequence under the lock so that a concurrent secondary
	 * fault notices the page is going away.
	 */
	idx = srcu_read_lock(&vmm->srcu);
	spin_lock(&vmm->mmu_lock);

	vmm->mmu_notifier_seq++;
	need_tlb_flush = vmm_unmap_hva(vmm, address) | vmm->tlbs_dirty;
	if (need_tlb_flush)
		vmm_flush_remote_tlbs(vmm);

	spin_unlock(&vmm->mmu_lock);

	vmm_arch_mmu_notifier_invalidate_page(vmm, address);

	srcu_read_unlock(&vmm->srcu, idx);
}

static void vmm_mmu_notifier_change_pte(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long address,
					pte_t pte)
{
	struct vmm *vmm = mmu_notifier_to_vmm(mn);
	int idx;

	idx = srcu_read_lock(&vmm->srcu);
	spin_lock(&vmm->mmu_lock);
	vmm->mmu_notifier_seq++;
	vmm_set_spte_hva(vmm, address, pte);
	spin_unlock(&vmm->mmu_lock);
	srcu_read_unlock(&vmm->srcu, idx);
}

static void vmm_mmu_notifier_invalidate_range_start(struct mmu_notifier *mn,
						    struct mm_struct *mm,
						    unsigned long start,
						    unsigned long end)
{
	struct vmm *vmm = mmu_notifier_to_vmm(mn);
	int need_tlb_flush = 0, idx;

	idx = srcu_read_lock(&vmm->srcu);
	spin_lock(&vmm->mmu_lock);
	vmm->mmu_notifier_count++;
	need_tlb_flush = vmm_unmap_hva_range(vmm, start, end);
	need_tlb_flush |= vmm->tlbs_dirty;
	if (need_tlb_flush)
		vmm_flush_remote_tlbs(vmm);
	spin_unlock(&vmm->mmu_lock);
	srcu_read_unlock(&vmm->srcu, idx);
}

static void vmm_mmu_notifier_invalidate_range_end(struct mmu_notifier *mn,
						  struct mm_struct *mm,
						  unsigned long start,
						  unsigned long end)
{
	struct vmm *vmm = mmu_notifier_to_vmm(mn);

	spin_lock(&vmm->mmu_lock);
	vmm->mmu_notifier_seq++;
	/* Publish the new sequence before the count drops. */
	smp_wmb();
	vmm->mmu_notifier_count--;
	spin_unlock(&vmm->mmu_lock);

	BUG_ON(vmm->mmu_notifier_count < 0);
}

static int vmm_mmu_notifier_clear_flush_young(struct mmu_notifier *mn,
					      struct mm_struct *mm,
					      unsigned long start,
					      unsigned long end)
{
	struct vmm *vmm = mmu_notifier_to_vmm(mn);
	int young, idx;

	idx = srcu_read_lock(&vmm->srcu);
	spin_lock(&vmm->mmu_lock);
	young = vmm_age_hva(vmm, start, end);
	if (young)
		vmm_flush_remote_tlbs(vmm);
	spin_unlock(&vmm->mmu_lock);
	srcu_read_unlock(&vmm->srcu, idx);

	return young;
}

static void vmm_mmu_notifier_release(struct mmu_notifier *mn,
				     struct mm_struct *mm)
{
	struct vmm *vmm = mmu_notifier_to_vmm(mn);
	int idx;

	idx = srcu_read_lock(&vmm->srcu);
	vmm_arch_flush_shadow_all(vmm);
	srcu_read_unlock(&vmm->srcu, idx);
}

static const struct mmu_notifier_ops vmm_mmu_notifier_ops = {
	.invalidate_page	= vmm_mmu_notifier_invalidate_page,
	.invalidate_range_start	= vmm_mmu_notifier_invalidate_range_start,
	.invalidate_range_end	= vmm_mmu_notifier_invalidate_range_end,
	.clear_flush_young	= vmm_mmu_notifier_clear_flush_young,
	.change_pte		= vmm_mmu_notifier_change_pte,
	.release		= vmm_mmu_notifier_release,
};

static int vmm_init_mmu_notifier(struct vmm *vmm)
{
	vmm->mmu_notifier.ops = &vmm_mmu_notifier_ops;
	return mmu_notifier_register(&vmm->mmu_notifier, current->mm);
}
