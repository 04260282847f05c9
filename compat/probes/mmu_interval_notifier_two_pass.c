// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER_TWO_PASS
 * Upstream: 7.1 7aba71dbc416
 * The two-pass interval notifier ("mm/mmu_notifier: Allow two-pass struct
 * mmu_interval_notifiers"): struct mmu_interval_notifier_finish and
 * ops->invalidate_start(sub, range, cur_seq, &finish) with
 * ops->invalidate_finish(finish). compat runs both passes itself where
 * this is missing (<mncompat/mmu_interval_notifier.h>).
 */
#include <linux/mmu_notifier.h>

static bool probe_start(struct mmu_interval_notifier *sub,
			const struct mmu_notifier_range *range,
			unsigned long cur_seq,
			struct mmu_interval_notifier_finish **finish)
{
	return *finish == NULL;
}

static void probe_finish(struct mmu_interval_notifier_finish *finish)
{
	struct mmu_interval_notifier *sub = finish->notifier;

	mmu_interval_set_seq(sub, 0);
}

const struct mmu_interval_notifier_ops mncompat_probe_ops = {
	.invalidate_start = probe_start,
	.invalidate_finish = probe_finish,
};
