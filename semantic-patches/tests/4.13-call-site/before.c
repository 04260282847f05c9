// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: core-style callers of mmu_notifier_invalidate_page() in the
 * shapes of seeds 005 (a writeback walker with no struct page at hand)
 * and 006 (reverse-map walkers that get the page and the address).
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
