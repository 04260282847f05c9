// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_OPS_FLAGS_DOES_NOT_BLOCK
 * Upstream: 4.16 5ff7091f5a2c added; 4.20 4e15a073a168 reverted
 * ops->flags with MMU_INVALIDATE_DOES_NOT_BLOCK: the oom reaper (4.14
 * 4d4bbd8526a8) skips an mm whose notifiers lack this flag.
 */
#include <linux/mmu_notifier.h>

const struct mmu_notifier_ops mncompat_probe_ops = {
	.flags = MMU_INVALIDATE_DOES_NOT_BLOCK,
};
