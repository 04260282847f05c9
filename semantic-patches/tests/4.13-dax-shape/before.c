// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: writeback walkers written for this repository in the shape
 * of Linux 4.12's fs/dax.c (seed 005): for every shared mapping of a file
 * index, follow_pte_pmd() returns the PTE or the huge PMD locked; the
 * entry is write-protected and a flag says whether invalidate_page is due
 * after the unlock.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>

static inline unsigned long index_to_addr(pgoff_t index,
					  struct vm_area_struct *vma)
{
	return vma->vm_start + ((index - vma->vm_pgoff) << PAGE_SHIFT);
}

/* seed 005's shape: the flag, a PMD branch under #ifdef, unlock labels */
static void wp_index(struct address_space *mapping, pgoff_t index,
		     unsigned long pfn)
{
	struct vm_area_struct *vma;
	pte_t *ptep = NULL, pte;
	pmd_t *pmdp = NULL;
	spinlock_t *ptl;
	bool dirty;

	i_mmap_lock_read(mapping);
	vma_interval_tree_foreach(vma, &mapping->i_mmap, index, index) {
		unsigned long addr;

		if (!(vma->vm_flags & VM_SHARED))
			continue;

		addr = index_to_addr(index, vma);
		dirty = false;
		if (follow_pte_pmd(vma->vm_mm, addr, &ptep, &pmdp, &ptl))
			continue;

		if (pmdp) {
#ifdef CONFIG_FS_DAX_PMD
			pmd_t pmd;

			if (pfn != pmd_pfn(*pmdp) || !pmd_write(*pmdp))
				goto unlock_pmd;
			pmd = pmdp_huge_clear_flush(vma, addr, pmdp);
			pmd = pmd_mkclean(pmd_wrprotect(pmd));
			set_pmd_at(vma->vm_mm, addr, pmdp, pmd);
			dirty = true;
unlock_pmd:
			spin_unlock(ptl);
#endif
		} else {
			if (pfn != pte_pfn(*ptep) || !pte_write(*ptep))
				goto unlock_pte;
			pte = ptep_clear_flush(vma, addr, ptep);
			pte = pte_mkclean(pte_wrprotect(pte));
			set_pte_at(vma->vm_mm, addr, ptep, pte);
			dirty = true;
unlock_pte:
			pte_unmap_unlock(ptep, ptl);
		}

		if (dirty)
			mmu_notifier_invalidate_page(vma->vm_mm, addr);
	}
	i_mmap_unlock_read(mapping);
}

/* the same without the flag: invalidate_page after every unlock */
static void age_index(struct address_space *mapping, pgoff_t index)
{
	struct vm_area_struct *vma;
	pte_t *ptep = NULL;
	pmd_t *pmdp = NULL;
	spinlock_t *ptl;

	vma_interval_tree_foreach(vma, &mapping->i_mmap, index, index) {
		unsigned long addr = index_to_addr(index, vma);

		if (follow_pte_pmd(vma->vm_mm, addr, &ptep, &pmdp, &ptl))
			continue;
		if (pmdp) {
			set_pmd_at(vma->vm_mm, addr, pmdp, pmd_mkold(*pmdp));
			spin_unlock(ptl);
		} else {
			set_pte_at(vma->vm_mm, addr, ptep, pte_mkold(*ptep));
			pte_unmap_unlock(ptep, ptl);
		}
		mmu_notifier_invalidate_page(vma->vm_mm, addr);
	}
}

/* no follow_pte_pmd(): one bracket per iteration, before the PTE lock */
static int clear_index(struct address_space *mapping, pgoff_t index,
		       pmd_t *pmd)
{
	struct vm_area_struct *vma;
	spinlock_t *ptl;
	pte_t *ptep;
	int n = 0;

	vma_interval_tree_foreach(vma, &mapping->i_mmap, index, index) {
		unsigned long addr = index_to_addr(index, vma);

		if (vma->vm_flags & VM_LOCKED)
			break;
		ptep = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);
		if (pte_none(*ptep)) {
			pte_unmap_unlock(ptep, ptl);
			continue;
		}
		pte_clear(vma->vm_mm, addr, ptep);
		pte_unmap_unlock(ptep, ptl);
		mmu_notifier_invalidate_page(vma->vm_mm, addr);
		n++;
	}
	return n;
}
