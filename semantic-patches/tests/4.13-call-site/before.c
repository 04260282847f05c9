// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: callers of mmu_notifier_invalidate_page() that change the
 * page table through helpers the script does not know (so it cannot tell
 * where the page-table lock is taken), in the shapes of seeds 005 (no
 * struct page at hand) and 006 (the page and the address are parameters),
 * and one that changes a hugetlb entry.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/rmap.h>

/* A page is at hand and the mm comes from a parameter. */
static bool mkclean_one(struct page *page, struct vm_area_struct *vma,
			unsigned long address, void *arg)
{
	struct page_walk walk = {
		.page = page,
		.vma = vma,
		.address = address,
	};
	int *cleaned = arg;

	while (page_walk_next(&walk)) {
		address = walk.address;
		if (!walk_wrprotect(&walk))
			continue;
		mmu_notifier_invalidate_page(vma->vm_mm, address);
		(*cleaned)++;
	}
	return true;
}

/* A page is at hand and the mm sits in a local set from a parameter. */
static bool unmap_one(struct page *page, struct vm_area_struct *vma,
		      unsigned long address, void *arg)
{
	struct mm_struct *mm = vma->vm_mm;
	bool ret = true;

	if (vma->vm_flags & VM_LOCKED)
		return false;

	while (page_walk_next_addr(vma, &address)) {
		if (!walk_clear_pte(mm, address)) {
			ret = false;
			break;
		}
		put_page(page);
		mmu_notifier_invalidate_page(mm, address);
	}
	return ret;
}

/* No page: the address changes for every mapping of the index. */
static void entry_mkclean(struct address_space *mapping, pgoff_t index)
{
	struct vm_area_struct *vma;
	bool changed;

	mapping_lock_read(mapping);
	mapping_foreach_vma(vma, mapping, index) {
		unsigned long address = vma_index_address(vma, index);

		changed = entry_wrprotect(vma, address);
		if (changed)
			mmu_notifier_invalidate_page(vma->vm_mm, address);
	}
	mapping_unlock_read(mapping);
}

/* A hugetlb entry: the size of the page table entry is not PAGE_SIZE. */
static bool huge_one(struct page *page, struct vm_area_struct *vma,
		     unsigned long address, pte_t *ptep)
{
	struct mm_struct *mm = vma->vm_mm;
	spinlock_t *ptl;

	ptl = huge_pte_lock(hstate_vma(vma), mm, ptep);
	set_huge_pte_at(mm, address, ptep, huge_pte_wrprotect(*ptep));
	spin_unlock(ptl);
	mmu_notifier_invalidate_page(mm, address);
	return true;
}

/* The page-table lock is taken where the variable is declared. */
static void young_one(struct page *page, struct vm_area_struct *vma,
		      unsigned long address, pmd_t *pmd)
{
	spinlock_t *ptl = pmd_lock(vma->vm_mm, pmd);

	set_pmd_at(vma->vm_mm, address, pmd, pmd_mkold(*pmd));
	spin_unlock(ptl);
	mmu_notifier_invalidate_page(vma->vm_mm, address);
}
