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

/* Replaces invalidate_page, removed in Linux 4.13. */
static void mirror_invalidate_range_start(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end)
{
	unsigned long address = start;

	while (address < end) {
		mirror_invalidate_page(mn, mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void mirror_invalidate_range_end(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start,
					unsigned long end)
{
	unsigned long address = start;

	while (address < end) {
		mirror_invalidate_page(mn, mm, address);
		address += PAGE_SIZE;
		cond_resched();
	}
}

static const struct mmu_notifier_ops mirror_mn_ops = {
	.release = mirror_release,
	.invalidate_range_start = mirror_invalidate_range_start,
	.invalidate_range_end = mirror_invalidate_range_end,
};

static void flush_all_page(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long address)
{
	struct mirror *mirror = container_of(mn, struct mirror, mn);

	mirror_flush_all(mirror);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void flush_all_page_range_start(struct mmu_notifier *mn,
				       struct mm_struct *mm,
				       unsigned long start, unsigned long end)
{
	flush_all_page(mn, mm, start);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void flush_all_page_range_end(struct mmu_notifier *mn,
				     struct mm_struct *mm,
				     unsigned long start, unsigned long end)
{
	flush_all_page(mn, mm, start);
}

static struct mmu_notifier_ops flush_all_mn_ops = {
	.invalidate_range_start = flush_all_page_range_start,
	.invalidate_range_end = flush_all_page_range_end,
};
