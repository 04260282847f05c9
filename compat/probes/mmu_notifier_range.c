// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE
 * Upstream: 5.0 ac46d4f3c432 (with the range callbacks)
 * Backported: RHEL 8.2+ (4.18) next to the 4.x (mn, mm, start, end)
 * callbacks (issue 27).
 * struct mmu_notifier_range with mm, start and end, whatever form the
 * callbacks take: compat uses the kernel's struct where there is one.
 */
#include <linux/mmu_notifier.h>

unsigned long mncompat_probe_range_size(struct mm_struct *mm);
unsigned long mncompat_probe_range_size(struct mm_struct *mm)
{
	struct mmu_notifier_range range = {
		.mm = mm,
		.start = 0,
		.end = PAGE_SIZE,
	};

	return range.mm ? range.end - range.start : 0;
}
