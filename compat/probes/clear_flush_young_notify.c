// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_NOTIFY
 * Upstream: 2.6.27 cddb8a5c14aa added; 7.1 5a970006786a removed
 * The macros ptep_clear_flush_young_notify(vma, address, ptep) and
 * pmdp_clear_flush_young_notify(vma, address, pmdp) (the pmd one since THP)
 * in <linux/mmu_notifier.h>, with their !CONFIG_MMU_NOTIFIER stubs. 7.1's
 * series on batched young-flag checks replaced them with inline helpers
 * in mm/internal.h, out of a module's reach; 5a970006786a ("mm: use inline
 * helper functions instead of ugly macros") is its last step, and which of
 * its commits took each macro out of the header is not established here
 * (7.3's header has none of them). Tested as macros, which they always
 * were: a use needs declarations this header does not give on every kernel.
 */
#include <linux/mmu_notifier.h>

#if !defined(ptep_clear_flush_young_notify) || \
	!defined(pmdp_clear_flush_young_notify)
#error "no ptep/pmdp_clear_flush_young_notify()"
#endif
