// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a vendor's own 4.13 port under #if.  Before 4.13 the table
 * has .invalidate_page, from 4.13 .invalidate_range (the device's TLB
 * flush for a range); the range callbacks keep a counter that the fault
 * path waits on.  unguard.py merges the branches: the conversion sees a
 * table with both fields, drops invalidate_page (the hook runs after the
 * change) and keeps the vendor's invalidate_range as the table's
 * secondary-TLB hook.  The --compat output must build on every kernel,
 * with no #if ... #else .invalidate_range left outside the table.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <mncompat/mmu_notifier.h>
#include <linux/spinlock.h>
#include <linux/version.h>

struct tdev {
	struct mmu_notifier mn;
	spinlock_t lock;
	unsigned int active;
	unsigned long seq;
	unsigned long flushed;
	void __iomem *regs;
};

int tdev_fault(struct tdev *t, unsigned long addr);
int tdev_attach(struct tdev *t, struct mm_struct *mm);

static void tdev_flush(struct tdev *t, unsigned long start, unsigned long end)
{
	spin_lock(&t->lock);
	t->flushed += (end - start) >> PAGE_SHIFT;
	writel(t->flushed, t->regs);
	spin_unlock(&t->lock);
}

static void tdev_arch_invalidate_secondary_tlbs(struct mmu_notifier *mn,
						struct mm_struct *mm,
						unsigned long start,
						unsigned long end)
{
	tdev_flush(container_of(mn, struct tdev, mn), start, end);
}

static int tdev_range_start(struct mmu_notifier *mn,
			    const struct mmu_notifier_range *range)
{
	struct tdev *t = container_of(mn, struct tdev, mn);

	spin_lock(&t->lock);
	t->active++;
	spin_unlock(&t->lock);
	return 0;
}

static void tdev_range_end(struct mmu_notifier *mn,
			   const struct mmu_notifier_range *range)
{
	struct tdev *t = container_of(mn, struct tdev, mn);

	spin_lock(&t->lock);
	t->active--;
	t->seq++;
	spin_unlock(&t->lock);
}

MNCOMPAT_MMU_NOTIFIER_OPS(tdev_ops, NULL, tdev_range_start, tdev_range_end,
			  tdev_arch_invalidate_secondary_tlbs,
			  MNCOMPAT_RANGE_START_MAY_SLEEP);

int tdev_fault(struct tdev *t, unsigned long addr)
{
	int busy;

	spin_lock(&t->lock);
	busy = t->active != 0;
	spin_unlock(&t->lock);
	return busy ? -EAGAIN : 0;
}

int tdev_attach(struct tdev *t, struct mm_struct *mm)
{
	t->mn.ops = &tdev_ops;
	return mmu_notifier_register(&t->mn, mm);
}
