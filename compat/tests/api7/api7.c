// SPDX-License-Identifier: GPL-2.0
/*
 * The notifier API after 6.12, written once through compat the way a
 * driver does: young callbacks with compat's return types and field
 * macros (in a compat table and in a plain one), the *_notify() helpers,
 * the two-pass interval notifier, and every registration form of a table
 * whose range_start may fail (under the mmap lock, get/put). The compat
 * tests compile it against every kernel and header set (W=1, -Werror) and
 * read the object; it is never loaded.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <mncompat/mmu_interval_notifier.h>
#include <mncompat/mmu_notifier.h>

struct api7 {
	struct mmu_notifier mn;
	struct mmu_interval_notifier sub;
	struct mmu_interval_notifier_finish finish;
	struct mutex lock;		/* set_seq, read_retry, finish_busy */
	bool finish_busy;		/* finish is queued */
	atomic_t active;		/* range_start done, range_end not */
	atomic_long_t young;		/* young checks asked */
};

static mncompat_clear_flush_young_t
api7_clear_flush_young(struct mmu_notifier *mn, struct mm_struct *mm,
		       unsigned long start, unsigned long end)
{
	struct api7 *a = container_of(mn, struct api7, mn);

	atomic_long_inc(&a->young);
	return start < end;
}

static mncompat_clear_young_t
api7_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
		 unsigned long start, unsigned long end)
{
	return api7_clear_flush_young(mn, mm, start, end);
}

static mncompat_test_young_t
api7_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
		unsigned long address)
{
	struct api7 *a = container_of(mn, struct api7, mn);

	return atomic_long_read(&a->young) != 0 && address;
}

static int api7_range_start(struct mmu_notifier *mn,
			    const struct mmu_notifier_range *range)
{
	struct api7 *a = container_of(mn, struct api7, mn);

	if (!mncompat_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&a->lock);
	atomic_inc(&a->active);
	mutex_unlock(&a->lock);
	return 0;
}

static void api7_range_end(struct mmu_notifier *mn,
			   const struct mmu_notifier_range *range)
{
	struct api7 *a = container_of(mn, struct api7, mn);

	mutex_lock(&a->lock);
	atomic_dec(&a->active);
	mutex_unlock(&a->lock);
}

/* Never sleeps: the hook kernels before 4.13 call for invalidate_page. */
static void api7_secondary_tlbs(struct mmu_notifier *mn, struct mm_struct *mm,
				unsigned long start, unsigned long end)
{
	struct api7 *a = container_of(mn, struct api7, mn);

	atomic_long_add((end - start) >> PAGE_SHIFT, &a->young);
}

static void api7_release(struct mmu_notifier *mn, struct mm_struct *mm)
{
	struct api7 *a = container_of(mn, struct api7, mn);

	atomic_set(&a->active, 0);
}

static struct mmu_notifier *api7_alloc_notifier(struct mm_struct *mm)
{
	struct api7 *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (!a)
		return ERR_PTR(-ENOMEM);
	mutex_init(&a->lock);
	return &a->mn;
}

static void api7_free_notifier(struct mmu_notifier *mn)
{
	kfree(container_of(mn, struct api7, mn));
}

/* A table whose range_start may fail, young callbacks, get/put. */
MNCOMPAT_MMU_NOTIFIER_GET_OPS(api7_ops, api7_alloc_notifier,
			      api7_free_notifier, api7_release,
			      api7_range_start, api7_range_end,
			      api7_secondary_tlbs,
			      MNCOMPAT_RANGE_START_MAY_SLEEP,
			      MNCOMPAT_CLEAR_FLUSH_YOUNG(api7_clear_flush_young)
			      MNCOMPAT_CLEAR_YOUNG(api7_clear_young)
			      MNCOMPAT_TEST_YOUNG(api7_test_young));

/* The young field macros in a plain table. */
static const struct mmu_notifier_ops api7_young_ops = {
	.release = api7_release,
	MNCOMPAT_CLEAR_FLUSH_YOUNG(api7_clear_flush_young)
	MNCOMPAT_CLEAR_YOUNG(api7_clear_young)
	MNCOMPAT_TEST_YOUNG(api7_test_young)
};

/* The *_notify() helpers compile (x86 exports none of what they call). */
static int __maybe_unused api7_notify_helpers(struct vm_area_struct *vma,
					      unsigned long address,
					      pte_t *ptep, pmd_t *pmdp)
{
	int young = ptep_clear_flush_young_notify(vma, address, ptep);

	young += ptep_clear_young_notify(vma, address, ptep);
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	young += pmdp_clear_flush_young_notify(vma, address, pmdp);
	young += pmdp_clear_young_notify(vma, address, pmdp);
#endif
	ptep_clear_flush_notify(vma, address, ptep);
	return young;
}

/* The first pass: the sequence, and the finish if it is free. */
static bool api7_invalidate_start(struct mmu_interval_notifier *sub,
				  const struct mmu_notifier_range *range,
				  unsigned long cur_seq,
				  struct mmu_interval_notifier_finish **finish)
{
	struct api7 *a = container_of(sub, struct api7, sub);

	if (mncompat_range_blockable(range))
		mutex_lock(&a->lock);
	else if (!mutex_trylock(&a->lock))
		return false;
	mmu_interval_set_seq(sub, cur_seq);
	if (!a->finish_busy) {
		a->finish_busy = true;
		*finish = &a->finish;
	}
	mutex_unlock(&a->lock);
	return true;
}

/* The second pass: the device would be waited for here. */
static void api7_invalidate_finish(struct mmu_interval_notifier_finish *finish)
{
	struct api7 *a = container_of(finish, struct api7, finish);
	struct mmu_interval_notifier *sub = finish->notifier;

	mutex_lock(&a->lock);
	WARN_ON(sub != &a->sub);
	a->finish_busy = false;
	mutex_unlock(&a->lock);
}

MNCOMPAT_MMU_INTERVAL_NOTIFIER_OPS(api7_interval_ops, api7_invalidate_start,
				   api7_invalidate_finish);

/* Registration with the mmap lock held (the caller's, here taken). */
static int __used api7_register_locked(struct api7 *a, struct mm_struct *mm)
{
	int ret;

	a->mn.ops = &api7_ops;
	mncompat_mmap_write_lock(mm);
	ret = __mncompat_mmu_notifier_register(&a->mn, mm);
	mncompat_mmap_write_unlock(mm);
	return ret;
}

static void __used api7_unregister(struct api7 *a, struct mm_struct *mm)
{
	mncompat_mmu_notifier_unregister(&a->mn, mm);
}

static struct mmu_notifier *__used api7_get(struct mm_struct *mm)
{
	return mncompat_mmu_notifier_get(&api7_ops, mm);
}

static void __used api7_put(struct mmu_notifier *mn)
{
	mncompat_mmu_notifier_put(mn);
}

static int __used api7_young_register(struct api7 *a, struct mm_struct *mm)
{
	a->mn.ops = &api7_young_ops;
	return mncompat_mmu_notifier_register(&a->mn, mm);
}

static int __used api7_interval_insert(struct api7 *a, unsigned long start,
				       unsigned long length)
{
	mutex_init(&a->lock);
	return mmu_interval_notifier_insert(&a->sub, current->mm, start,
					    length, &api7_interval_ops);
}

static void __used api7_interval_remove(struct api7 *a)
{
	mmu_interval_notifier_remove(&a->sub);
	mncompat_mmu_notifier_synchronize();
}

MODULE_DESCRIPTION("mncompat compile test: the notifier API after 6.12");
MODULE_LICENSE("GPL");
