// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a device mirror with only an invalidate_page callback (plus
 * release). The callback takes a spinlock and assumes 4 KiB pages; a
 * second notifier ignores the address and flushes everything.
 */
#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

struct mirror {
	struct mmu_notifier mn;
	spinlock_t lock;
	struct mirror_pt *pt;
	bool dead;
};

static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct mirror *mirror = container_of(mn, struct mirror, mn);

	spin_lock(&mirror->lock);
	mirror->dead = true;
	spin_unlock(&mirror->lock);
}

static void mirror_invalidate_page(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long address)
{
	struct mirror *mirror = container_of(mn, struct mirror, mn);

	spin_lock(&mirror->lock);
	mirror_pt_clear(mirror->pt, address >> PAGE_SHIFT);
	spin_unlock(&mirror->lock);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void mirror_invalidate_range(struct mmu_notifier *mn,
				    struct mm_struct *mm, unsigned long start,
				    unsigned long end)
{
	unsigned long address = start;

	while (address < end) {
		mirror_invalidate_page(mn, mm, address);
		address += PAGE_SIZE;
	}
}

static const struct mmu_notifier_ops mirror_mn_ops = {
	.release = mirror_release,
	.invalidate_range = mirror_invalidate_range,
};

static void flush_all_page(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long address)
{
	struct mirror *mirror = container_of(mn, struct mirror, mn);

	mirror_flush_all(mirror);
}

/* Replaces invalidate_page, removed in Linux 4.13. */
static void flush_all_page_range(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long start,
				 unsigned long end)
{
	flush_all_page(mn, mm, start);
}

static struct mmu_notifier_ops flush_all_mn_ops = {
	.invalidate_range = flush_all_page_range,
};
