// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a device mirror with only an invalidate_page callback (plus
 * release). The callback sleeps (mutex) and assumes 4 KiB pages; a
 * second notifier ignores the address and flushes everything.
 */
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>

struct mirror {
	struct mmu_notifier mn;
	struct mutex lock;
	struct mirror_pt *pt;
	bool dead;
};

static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct mirror *mirror = container_of(mn, struct mirror, mn);

	mutex_lock(&mirror->lock);
	mirror->dead = true;
	mutex_unlock(&mirror->lock);
}

static void mirror_invalidate_page(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long address)
{
	struct mirror *mirror = container_of(mn, struct mirror, mn);

	mutex_lock(&mirror->lock);
	mirror_pt_clear(mirror->pt, address >> PAGE_SHIFT);
	mutex_unlock(&mirror->lock);
}

static const struct mmu_notifier_ops mirror_mn_ops = {
	.release = mirror_release,
	.invalidate_page = mirror_invalidate_page,
};

static void flush_all_page(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long address)
{
	struct mirror *mirror = container_of(mn, struct mirror, mn);

	mirror_flush_all(mirror);
}

static struct mmu_notifier_ops flush_all_mn_ops = {
	.invalidate_page = flush_all_page,
};
