// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (4.19 and 5.0 steps): a range callback the driver also calls
 * itself, and one whose header is split by #if so that spatch cannot
 * parse it.  Neither may be left behind silently: the direct calls keep
 * the old arguments (a build error) and the unparsed callback keeps the
 * old prototype.
 */
#include <linux/mmu_notifier.h>
#include <linux/version.h>

static int dev_range_start(struct mmu_notifier *mn,
			   const struct mmu_notifier_range *range)
{
	if (!mmu_notifier_range_blockable(range))
		return -EAGAIN;
	dev_unmap(mn, range->start, range->end);
	return 0;
}

static void dev_range_end(struct mmu_notifier *mn,
			  const struct mmu_notifier_range *range)
{
	dev_remap(mn, range->start, range->end);
}

static void dev_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	dev_range_start(mn, mm, 0, ULONG_MAX);
	dev_range_end(mn, mm, 0, ULONG_MAX);
}

static const struct mmu_notifier_ops dev_ops = {
	.release = dev_release,
	.invalidate_range_start = dev_range_start,
	.invalidate_range_end = dev_range_end,
};

#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 0, 0)
static void split_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long start, unsigned long end)
{
#else
static void split_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long start, unsigned long end, int old)
{
#endif
	dev_unmap(mn, start, end);
}

static const struct mmu_notifier_ops split_ops = {
	.invalidate_range_start = split_range_start,
};
