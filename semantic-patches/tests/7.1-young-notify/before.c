// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 7.1 removal of the *_young_notify() macros and the
 * 6.16 removal of the *_clear_flush_notify() leftovers: an idle-page
 * style ager (an if condition, an assignment, a PMD), a call whose
 * address would be evaluated twice, and page-table code of the 6.5 kind.
 */
#include <linux/mmu_notifier.h>
#include <linux/pgtable.h>

struct ager {
	unsigned long addr;
	unsigned long idle;
};

static bool ager_pte(struct vm_area_struct *vma, unsigned long addr,
		     pte_t *pte)
{
	bool referenced = false;

	if (ptep_clear_young_notify(vma, addr, pte))
		referenced = true;
	return referenced;
}

static bool ager_pmd(struct vm_area_struct *vma, struct ager *a, pmd_t *pmd)
{
	bool young;

	young = pmdp_clear_young_notify(vma, a->addr, pmd);
	return young;
}

static int ager_flush(struct vm_area_struct *vma, unsigned long addr,
		      pte_t *pte, pmd_t *pmd)
{
	int young = 0;

	if (pte)
		young = ptep_clear_flush_young_notify(vma, addr, pte);
	else
		young = pmdp_clear_flush_young_notify(vma, addr & PMD_MASK, pmd);
	return young;
}

static pte_t ager_zap(struct vm_area_struct *vma, unsigned long addr,
		      pte_t *pte, pmd_t *pmd)
{
	if (pmd)
		pmdp_huge_clear_flush_notify(vma, addr, pmd);
	return ptep_clear_flush_notify(vma, addr, pte);
}
