// SPDX-License-Identifier: GPL-2.0
/*
 * Builds an ops table through <mncompat/mmu_notifier.h> the way a driver
 * does.  The tests compile it against every kernel and inspect the object;
 * it is never loaded by them.  -DMIRROR_NO_TLBS drops the secondary-TLB
 * hook, -DMIRROR_MAY_SLEEP declares that range_start may sleep.  Beside
 * the table with range callbacks, mirror_tlb_ops has only the hook (the
 * shape of a device that shares the CPU's page tables).
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <mncompat/mmu_notifier.h>

#ifdef MIRROR_NO_TLBS
#define MIRROR_TLBS	NULL
#else
#define MIRROR_TLBS	mirror_invalidate_secondary_tlbs
#endif

#ifdef MIRROR_MAY_SLEEP
#define MIRROR_FLAGS	MNCOMPAT_RANGE_START_MAY_SLEEP
#else
#define MIRROR_FLAGS	0
#endif

struct mirror {
	struct mmu_notifier mn;
	struct mm_struct *mm;	/* struct mmu_notifier has no mm before 5.4 */
	atomic_long_t invalidated_pages;
	atomic_t active;
};

static struct mirror *mirror;

static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct mirror *m = container_of(mn, struct mirror, mn);

	atomic_set(&m->active, 0);
}

static int mirror_invalidate_range_start(struct mmu_notifier *mn,
					 const struct mmu_notifier_range *range)
{
	struct mirror *m = container_of(mn, struct mirror, mn);

	if ((MIRROR_FLAGS & MNCOMPAT_RANGE_START_MAY_SLEEP) &&
	    !mncompat_range_blockable(range))
		return -EAGAIN;
	atomic_inc(&m->active);
	atomic_long_add((range->end - range->start) >> PAGE_SHIFT,
			&m->invalidated_pages);
	return 0;
}

static void mirror_invalidate_range_end(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	struct mirror *m = container_of(mn, struct mirror, mn);

	atomic_dec(&m->active);
}

static void __maybe_unused
mirror_invalidate_secondary_tlbs(struct mmu_notifier *mn, struct mm_struct *mm,
				 unsigned long start, unsigned long end)
{
	struct mirror *m = container_of(mn, struct mirror, mn);

	atomic_long_add((end - start) >> PAGE_SHIFT, &m->invalidated_pages);
}

MNCOMPAT_MMU_NOTIFIER_OPS(mirror_mn_ops,
			  mirror_release,
			  mirror_invalidate_range_start,
			  mirror_invalidate_range_end,
			  MIRROR_TLBS,
			  MIRROR_FLAGS);

MNCOMPAT_MMU_NOTIFIER_OPS(mirror_tlb_ops, mirror_release, NULL, NULL,
			  MIRROR_TLBS, 0);

static bool tlb_only;
module_param(tlb_only, bool, 0444);

static int __init mirror_init(void)
{
	int ret;

	mirror = kzalloc(sizeof(*mirror), GFP_KERNEL);
	if (!mirror)
		return -ENOMEM;
	mirror->mn.ops = tlb_only ? &mirror_tlb_ops : &mirror_mn_ops;
	mirror->mm = current->mm;
	ret = mncompat_mmu_notifier_register(&mirror->mn, mirror->mm);
	if (ret)
		kfree(mirror);
	return ret;
}

static void __exit mirror_exit(void)
{
	mncompat_mmu_notifier_unregister(&mirror->mn, mirror->mm);
	mncompat_mmu_notifier_synchronize();
	kfree(mirror);
}

module_init(mirror_init);
module_exit(mirror_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mncompat header build test");
