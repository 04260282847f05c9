// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (the whole series, no compat: the 7.3 API): a 4.x
 * hypervisor-style notifier with KVM's shape: a count and a sequence that
 * the range callbacks raise and bump and the fault path checks, an
 * invalidate_page, and int young callbacks. Converted to the newest API
 * the young callbacks return bool (7.1), literal 0 and 1 become false
 * and true.
 */
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/spinlock.h>

struct vmm {
	struct mmu_notifier mn;
	spinlock_t lock;
	unsigned long seq;
	unsigned int active;
	unsigned long accessed;
};

static struct vmm *to_vmm(struct mmu_notifier *mn)
{
	return container_of(mn, struct vmm, mn);
}

static void vmm_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				unsigned long address)
{
	struct vmm *v = to_vmm(mn);

	spin_lock(&v->lock);
	v->seq++;
	spin_unlock(&v->lock);
}

static void vmm_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start, unsigned long end)
{
	struct vmm *v = to_vmm(mn);

	spin_lock(&v->lock);
	v->active++;
	spin_unlock(&v->lock);
}

static void vmm_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			  unsigned long start, unsigned long end)
{
	struct vmm *v = to_vmm(mn);

	spin_lock(&v->lock);
	v->active--;
	v->seq++;
	spin_unlock(&v->lock);
}

static int vmm_clear_flush_young(struct mmu_notifier *mn, struct mm_struct *mm,
				 unsigned long start, unsigned long end)
{
	return test_and_clear_bit(0, &to_vmm(mn)->accessed);
}

static int vmm_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long start, unsigned long end)
{
	return test_and_clear_bit(0, &to_vmm(mn)->accessed);
}

static int vmm_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
			  unsigned long address)
{
	if (test_bit(0, &to_vmm(mn)->accessed))
		return 1;
	return 0;
}

/* The fault path: map a page only while no invalidation runs. */
int vmm_fault(struct vmm *v, unsigned long seq)
{
	int ret;

	spin_lock(&v->lock);
	ret = v->active || v->seq != seq ? -EAGAIN : 0;
	if (!ret)
		set_bit(0, &v->accessed);
	spin_unlock(&v->lock);
	return ret;
}

static const struct mmu_notifier_ops vmm_mmu_notifier_ops = {
	.invalidate_page	= vmm_invalidate_page,
	.invalidate_range_start	= vmm_range_start,
	.invalidate_range_end	= vmm_range_end,
	.clear_flush_young	= vmm_clear_flush_young,
	.clear_young		= vmm_clear_young,
	.test_young		= vmm_test_young,
};

int vmm_register(struct vmm *v, struct mm_struct *mm)
{
	spin_lock_init(&v->lock);
	v->mn.ops = &vmm_mmu_notifier_ops;
	return mmu_notifier_register(&v->mn, mm);
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture");
