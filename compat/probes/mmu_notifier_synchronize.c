// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_NOTIFIER_SYNCHRONIZE
 * Upstream: 3.17 b972216e27d1 added; 5.0 removed; 5.4 c96245148c1e back
 * Kept (or back) in RHEL 8.2+ (4.18) (issue 27).
 * void mmu_notifier_synchronize(void).
 */
#include <linux/mmu_notifier.h>

void (*const mncompat_probe_synchronize)(void) = mmu_notifier_synchronize;
