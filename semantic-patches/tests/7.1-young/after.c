// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 7.1 young callbacks: a hypervisor-style notifier on
 * the 6.12 API whose clear_flush_young, clear_young and test_young return
 * int (a forward declaration, literal and computed returns, one callback
 * shared by two tables), a table field set to NULL, a callback stored by
 * a typed run-time assignment and one by an untyped one, and a young
 * callback defined in another file.
 */
#include <linux/mmu_notifier.h>
#include <linux/module.h>

struct guest {
	struct mmu_notifier mn;
	spinlock_t lock;
	unsigned long accessed;
};

static bool guest_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long address);

static int guest_age(struct guest *g, unsigned long start, unsigned long end,
		     bool clear)
{
	int young;

	spin_lock(&g->lock);
	young = test_bit(0, &g->accessed);
	if (clear)
		clear_bit(0, &g->accessed);
	spin_unlock(&g->lock);
	return young;
}

static bool guest_clear_flush_young(struct mmu_notifier *mn,
				    struct mm_struct *mm, unsigned long start,
				    unsigned long end)
{
	struct guest *g = container_of(mn, struct guest, mn);

	if (!mm)
		return false;
	return guest_age(g, start, end, true);
}

static bool guest_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long start, unsigned long end)
{
	struct guest *g = container_of(mn, struct guest, mn);

	if (guest_age(g, start, end, true))
		return true;
	return false;
}

static bool guest_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long address)
{
	struct guest *g = container_of(mn, struct guest, mn);

	return guest_age(g, address, address + PAGE_SIZE, false);
}

static int guest_release_count(struct guest *g)
{
	return 0;
}

static const struct mmu_notifier_ops guest_ops = {
	.clear_flush_young	= guest_clear_flush_young,
	.clear_young		= guest_clear_young,
	.test_young		= guest_test_young,
};

static const struct mmu_notifier_ops guest_lite_ops = {
	.clear_flush_young	= guest_clear_flush_young,
	.clear_young		= NULL,
};

extern int other_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long start, unsigned long end);

static const struct mmu_notifier_ops guest_other_ops = {
	.clear_young		= other_clear_young,
};

static bool guest_late_young(struct mmu_notifier *mn, struct mm_struct *mm,
			     unsigned long address)
{
	return true;
}

#define GUEST_OPS(g) ((struct mmu_notifier_ops *)(g)->mn.ops)

extern int guest_late_clear(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start, unsigned long end);

void guest_set_ops(struct mmu_notifier_ops *ops, struct guest *g)
{
	ops->test_young = guest_late_young;
	GUEST_OPS(g)->clear_young = guest_late_clear;
	GUEST_OPS(g)->clear_flush_young = NULL;
	guest_release_count(g);
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture");
