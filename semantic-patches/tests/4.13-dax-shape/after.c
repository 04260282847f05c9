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
	unsigned long start, end;
	struct vm_area_struct *vma;
	pte_t *ptep = NULL, pte;
	pmd_t *pmdp = NULL;
	spinlock_t *ptl;

	i_mmap_lock_read(mapping);
	vma_interval_tree_foreach(vma, &mapping->i_mmap, index, index) {
		unsigned long addr;

		if (!(vma->vm_flags & VM_SHARED))
			continue;

		addr = index_to_addr(index, vma);
		if (follow_pte_pmd(vma->vm_mm, addr, &start, &end, &ptep, &pmdp, &ptl))
			continue;

		if (pmdp) {
#ifdef CONFIG_FS_DAX_PMD
			pmd_t pmd;

			if (pfn != pmd_pfn(*pmdp) || !pmd_write(*pmdp))
				goto unlock_pmd;
			pmd = pmdp_huge_clear_flush(vma, addr, pmdp);
			pmd = pmd_mkclean(pmd_wrprotect(pmd));
			set_pmd_at(vma->vm_mm, addr, pmdp, pmd);
			mmu_notifier_invalidate_range(vma->vm_mm, start, end);
unlock_pmd:
			spin_unlock(ptl);
#endif
		} else {
			if (pfn != pte_pfn(*ptep) || !pte_write(*ptep))
				goto unlock_pte;
			pte = ptep_clear_flush(vma, addr, ptep);
			pte = pte_mkclean(pte_wrprotect(pte));
			set_pte_at(vma->vm_mm, addr, ptep, pte);
			mmu_notifier_invalidate_range(vma->vm_mm, start, end);
unlock_pte:
			pte_unmap_unlock(ptep, ptl);
		}

		mmu_notifier_invalidate_range_end(vma->vm_mm, start, end);
	}
	i_mmap_unlock_read(mapping);
}

/* the same without the flag: invalidate_page after every unlock */
static void age_index(struct address_space *mapping, pgoff_t index)
{
	unsigned long start, end;
	struct vm_area_struct *vma;
	pte_t *ptep = NULL;
	pmd_t *pmdp = NULL;
	spinlock_t *ptl;

	vma_interval_tree_foreach(vma, &mapping->i_mmap, index, index) {
		unsigned long addr = index_to_addr(index, vma);

		if (follow_pte_pmd(vma->vm_mm, addr, &start, &end, &ptep, &pmdp, &ptl))
			continue;
		if (pmdp) {
			set_pmd_at(vma->vm_mm, addr, pmdp, pmd_mkold(*pmdp));
			mmu_notifier_invalidate_range(vma->vm_mm, start, end);
			spin_unlock(ptl);
		} else {
			set_pte_at(vma->vm_mm, addr, ptep, pte_mkold(*ptep));
			mmu_notifier_invalidate_range(vma->vm_mm, start, end);
			pte_unmap_unlock(ptep, ptl);
		}
		mmu_notifier_invalidate_range_end(vma->vm_mm, start, end);
	}
}

/* no follow_pte_pmd(): one bracket per iteration, before the PTE lock */
static int clear_index(struct address_space *mapping, pgoff_t index,
		       pmd_t *pmd)
{
	unsigned long start, end;
	struct vm_area_struct *vma;
	spinlock_t *ptl;
	pte_t *ptep;
	int n = 0;

	vma_interval_tree_foreach(vma, &mapping->i_mmap, index, index) {
		unsigned long addr = index_to_addr(index, vma);

		if (vma->vm_flags & VM_LOCKED)
			break;
		start = addr;
		end = start + PAGE_SIZE;
		mmu_notifier_invalidate_range_start(vma->vm_mm, start, end);
		ptep = pte_offset_map_lock(vma->vm_mm, pmd, addr, &ptl);
		if (pte_none(*ptep)) {
			pte_unmap_unlock(ptep, ptl);
			mmu_notifier_invalidate_range_end(vma->vm_mm, start,
							  end);
			continue;
		}
		pte_clear(vma->vm_mm, addr, ptep);
		pte_unmap_unlock(ptep, ptl);
		mmu_notifier_invalidate_range(vma->vm_mm, addr,
					      addr + PAGE_SIZE);
		mmu_notifier_invalidate_range_end(vma->vm_mm, start, end);
		n++;
	}
	return n;
}
