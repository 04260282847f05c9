// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_NOTIFIER_CONFIG
 * Upstream: 2.6.27 cddb8a5c14aa (mmu-notifiers: core)
 * Required: the kernel is built with CONFIG_MMU_NOTIFIER, so that
 * mmu_notifier_register() exists and registered ops are called.
 */
#include <linux/mmu_notifier.h>

#ifndef CONFIG_MMU_NOTIFIER
#error "CONFIG_MMU_NOTIFIER is not set"
#endif

int (*const mncompat_probe_register)(struct mmu_notifier *mn,
				     struct mm_struct *mm) =
	mmu_notifier_register;
