// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_CLEAR_FLUSH_NOTIFY
 * Upstream: 2.6.27 cddb8a5c14aa added; 6.6 ec8832d007cb removed
 * The macro ptep_clear_flush_notify() with CONFIG_MMU_NOTIFIER: the clear
 * and flush, then the notifier (invalidate_page; the secondary-TLB hook
 * from 3.19 on), and beside it the pmd and pud ones (later
 * pmdp_huge_clear_flush_notify(), pudp_huge_clear_flush_notify()). 6.6
 * (ec8832d007cb, with the hook's rename 1af5a8109904) calls the hook from
 * the TLB flush itself and left only the !CONFIG_MMU_NOTIFIER stubs, which
 * a later cleanup removed too ("mmu_notifiers: remove leftover stub
 * macros", 2025; its commit id is not established here). Where none is
 * left compat defines the three as the plain clear and flush.
 */
#include <linux/mmu_notifier.h>

#ifndef ptep_clear_flush_notify
#error "no ptep_clear_flush_notify()"
#endif
