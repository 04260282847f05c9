// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER
 * Upstream: 5.5 99cb252f5e68
 * Backported: RHEL 8.2+ (4.18) (issue 27).
 * struct mmu_interval_notifier, mmu_interval_notifier_insert/remove,
 * mmu_interval_read_begin/retry, mmu_interval_set_seq, and an
 * ops->invalidate that takes the kernel's const struct mmu_notifier_range *
 * (-Werror: another range type fails this probe, and compat emulates).
 */
#include <linux/mmu_notifier.h>

static bool probe_invalidate(struct mmu_interval_notifier *sub,
			     const struct mmu_notifier_range *range,
			     unsigned long cur_seq)
{
	mmu_interval_set_seq(sub, cur_seq);
	return true;
}

static const struct mmu_interval_notifier_ops probe_interval_ops = {
	.invalidate = probe_invalidate,
};

static int __used mncompat_probe_interval(struct mmu_interval_notifier *sub,
					 struct mm_struct *mm)
{
	int ret = mmu_interval_notifier_insert(sub, mm, 0, PAGE_SIZE,
					       &probe_interval_ops);

	if (!ret) {
		ret = mmu_interval_read_retry(sub,
					      mmu_interval_read_begin(sub));
		mmu_interval_notifier_remove(sub);
	}
	return ret;
}
