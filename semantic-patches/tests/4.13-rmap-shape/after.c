// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: reverse-map walkers written for this repository in the
 * shape of Linux 4.12's mm/rmap.c callers of mmu_notifier_invalidate_page()
 * (seed 006): a page_vma_mapped_walk() loop over the PTEs or the PMD that
 * map a page (a THP can be mapped by one PMD or by 512 PTEs), early
 * returns, a THP split before the loop, gotos inside the loop.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/rmap.h>
#include <linux/swapops.h>

/* Write-protect every mapping of page in vma: PTEs one by one, or a PMD. */
static bool wp_one(struct page *page, struct vm_area_struct *vma,
		   unsigned long address, void *arg)
{
	unsigned long start = address, end, cstart, cend;
	struct page_vma_mapped_walk walk = {
		.page = page,
		.vma = vma,
		.address = address,
		.flags = PVMW_SYNC,
	};
	int *done = arg;

	end = min(vma->vm_end, start + (PAGE_SIZE << compound_order(page)));
	mmu_notifier_invalidate_range_start(vma->vm_mm, start, end);
	while (page_vma_mapped_walk(&walk)) {
		int changed = 0;

		address = walk.address;
		if (walk.pte) {
			pte_t val;

			if (!pte_write(*walk.pte))
				continue;
			val = ptep_clear_flush(vma, address, walk.pte);
			val = pte_wrprotect(val);
			set_pte_at(vma->vm_mm, address, walk.pte, val);
			cstart = address;
			cend = cstart + PAGE_SIZE;
			changed = 1;
		} else {
#ifdef CONFIG_TRANSPARENT_HUGE_PAGECACHE
			pmd_t val;

			if (!pmd_write(*walk.pmd))
				continue;
			val = pmdp_huge_clear_flush(vma, address, walk.pmd);
			val = pmd_wrprotect(val);
			set_pmd_at(vma->vm_mm, address, walk.pmd, val);
			cstart = address & PMD_MASK;
			cend = cstart + PMD_SIZE;
			changed = 1;
#else
			WARN_ON_ONCE(1);
#endif
		}
		if (changed) {
			mmu_notifier_invalidate_range(vma->vm_mm, cstart, cend);
			(*done)++;
		}
	}
	mmu_notifier_invalidate_range_end(vma->vm_mm, start, end);
	return true;
}

/*
 * Unmap page from vma. A THP is split first, so the loop sees PTEs only:
 * 512 of them for a PTE-mapped THP, each for its own subpage's address.
 */
static bool drop_one(struct page *page, struct vm_area_struct *vma,
		     unsigned long address, void *arg)
{
	unsigned long start = address, end;
	struct mm_struct *mm = vma->vm_mm;
	struct page_vma_mapped_walk walk = {
		.page = page,
		.vma = vma,
		.address = address,
	};
	unsigned long how = (unsigned long)arg;
	struct page *part;
	pte_t old;
	bool ret = true;

	/* only locked vmas matter to a munlock pass */
	if ((how & TTU_MUNLOCK) && !(vma->vm_flags & VM_LOCKED))
		return true;

	if (how & TTU_SPLIT_HUGE_PMD)
		split_huge_pmd_address(vma, address, false, page);

	end = min(vma->vm_end, start + (PAGE_SIZE << compound_order(page)));
	mmu_notifier_invalidate_range_start(mm, start, end);
	while (page_vma_mapped_walk(&walk)) {
		if (vma->vm_flags & VM_LOCKED) {
			ret = false;
			page_vma_mapped_walk_done(&walk);
			break;
		}
		if (how & TTU_MUNLOCK)
			continue;

		VM_BUG_ON_PAGE(!walk.pte, page);
		part = page - page_to_pfn(page) + pte_pfn(*walk.pte);
		address = walk.address;

		old = ptep_clear_flush(vma, address, walk.pte);
		if (pte_dirty(old))
			set_page_dirty(page);

		if (PageAnon(page)) {
			swp_entry_t entry = { .val = page_private(part) };

			if (!PageSwapBacked(page)) {
				dec_mm_counter(mm, MM_ANONPAGES);
				goto discard;
			}
			if (swap_duplicate(entry) < 0) {
				set_pte_at(mm, address, walk.pte, old);
				ret = false;
				page_vma_mapped_walk_done(&walk);
				break;
			}
			set_pte_at(mm, address, walk.pte,
				   swp_entry_to_pte(entry));
		}
discard:
		page_remove_rmap(part, false);
		put_page(page);
		mmu_notifier_invalidate_range(mm, address, address + PAGE_SIZE);
	}
	mmu_notifier_invalidate_range_end(mm, start, end);
	return ret;
}

/* Not in 4.12: a return and a goto out of the loop, and no vma at hand. */
static int count_one(struct page *page, struct mm_struct *mm,
		     unsigned long address, unsigned long *left)
{
	unsigned long start = address, end;
	pte_t *pte;
	spinlock_t *ptl;

	if (!*left)
		return 0;
	end = start + (PAGE_SIZE << compound_order(page));
	mmu_notifier_invalidate_range_start(mm, start, end);
	pte = get_locked_pte(mm, address, &ptl);
	if (!pte)
		goto out;
	if (pte_none(*pte)) {
		pte_unmap_unlock(pte, ptl);
		mmu_notifier_invalidate_range_end(mm, start, end);
		return -ENOENT;
	}
	if (!pte_write(*pte)) {
		pte_unmap_unlock(pte, ptl);
		goto out;
	}
	ptep_set_wrprotect(mm, address, pte);
	pte_unmap_unlock(pte, ptl);
	mmu_notifier_invalidate_range(mm, address, address + PAGE_SIZE);
	mmu_notifier_invalidate_range_end(mm, start, end);
	(*left)--;
out:
	return 1;
}
