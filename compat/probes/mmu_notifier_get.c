// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_NOTIFIER_GET
 * Upstream: 5.4 2c7933f53f6b
 * Backported: RHEL 8.2+ (4.18) (issue 27).
 * ops->alloc_notifier(mm), ops->free_notifier(mn), mmu_notifier_get(ops, mm),
 * mmu_notifier_get_locked(ops, mm) (what mncompat_mmu_notifier_get() calls
 * under the mmap lock for a table whose range_start may fail) and
 * mmu_notifier_put(mn).
 */
#include <linux/mmu_notifier.h>

static struct mmu_notifier *probe_alloc_notifier(struct mm_struct *mm)
{
	return NULL;
}

static void probe_free_notifier(struct mmu_notifier *mn)
{
}

const struct mmu_notifier_ops mncompat_probe_ops = {
	.alloc_notifier = probe_alloc_notifier,
	.free_notifier = probe_free_notifier,
};

struct mmu_notifier *mncompat_probe_get(struct mm_struct *mm);
struct mmu_notifier *mncompat_probe_get(struct mm_struct *mm)
{
	struct mmu_notifier *mn = mmu_notifier_get(&mncompat_probe_ops, mm);

	if (!IS_ERR(mn))
		mmu_notifier_put(mn);
	return mn ?: mmu_notifier_get_locked(&mncompat_probe_ops, mm);
}
