// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_CLEAR_YOUNG_NOTIFY
 * Upstream: 4.3 1d7715c676a1 added; 7.1 37fb436ff673 renamed
 * The macros ptep_clear_young_notify(vma, address, ptep) and
 * pmdp_clear_young_notify(vma, address, pmdp) in <linux/mmu_notifier.h>,
 * with their !CONFIG_MMU_NOTIFIER stubs. 7.1 renamed them
 * ptep/pmdp_test_and_clear_young_notify() (37fb436ff673) and made them
 * inline helpers of mm/internal.h (5a970006786a): gone for modules.
 */
#include <linux/mmu_notifier.h>

#if !defined(ptep_clear_young_notify) || !defined(pmdp_clear_young_notify)
#error "no ptep/pmdp_clear_young_notify()"
#endif
