// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series with --compat (issue 44 items 1 and 3),
 * in the shape of amdgpu_mn of 4.18: two kinds of subscription, their
 * tables in one array with designated indexes, registered as
 * &ua_mn_ops[type] with __mmu_notifier_register() under the mmap lock.
 * range_start takes the subscription's lock (a mutex) and keeps it until
 * range_end, and the user-pointer path takes it before it pins pages: the
 * array becomes one table per element and an array of pointers to them
 * (unarray.py), each table is converted (4.19: range_start may fail next
 * to a range_end; compat pairs them), and the registration is
 * __mncompat_mmu_notifier_register().  The output builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <mncompat/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>

enum ua_mn_type {
	UA_MN_TYPE_GFX,
	UA_MN_TYPE_HSA,
};

struct ua_mn {
	struct mmu_notifier mn;
	struct mutex lock;
	enum ua_mn_type type;
	unsigned long evictions;
};

static int ua_mn_invalidate_range_start_gfx(struct mmu_notifier *mn,
					     const struct mmu_notifier_range *range)
{
	struct ua_mn *u = container_of(mn, struct ua_mn, mn);

	if (!mncompat_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&u->lock);
	u->evictions++;
	return 0;
}

static int ua_mn_invalidate_range_start_hsa(struct mmu_notifier *mn,
					     const struct mmu_notifier_range *range)
{
	struct ua_mn *u = container_of(mn, struct ua_mn, mn);

	if (!mncompat_range_blockable(range))
		return -EAGAIN;
	mutex_lock(&u->lock);
	u->evictions += 2;
	return 0;
}

static void ua_mn_invalidate_range_end(struct mmu_notifier *mn,
				       const struct mmu_notifier_range *range)
{
	struct ua_mn *u = container_of(mn, struct ua_mn, mn);

	mutex_unlock(&u->lock);
}

MNCOMPAT_MMU_NOTIFIER_OPS(ua_mn_ops_gfx, NULL, ua_mn_invalidate_range_start_gfx,
			  ua_mn_invalidate_range_end, NULL,
			  MNCOMPAT_RANGE_START_MAY_SLEEP);

MNCOMPAT_MMU_NOTIFIER_OPS(ua_mn_ops_hsa, NULL, ua_mn_invalidate_range_start_hsa,
			  ua_mn_invalidate_range_end, NULL,
			  MNCOMPAT_RANGE_START_MAY_SLEEP);

static const struct mmu_notifier_ops *const ua_mn_ops[] = {
	[UA_MN_TYPE_GFX] = &ua_mn_ops_gfx,
	[UA_MN_TYPE_HSA] = &ua_mn_ops_hsa,
};

/* The user-pointer path: no pages while an invalidation runs. */
int ua_get_pages(struct ua_mn *u, unsigned long addr, struct page **pages)
{
	int ret;

	mutex_lock(&u->lock);
	ret = get_user_pages_fast(addr, 1, 1, pages);
	mutex_unlock(&u->lock);
	return ret == 1 ? 0 : -EFAULT;
}
EXPORT_SYMBOL_GPL(ua_get_pages);

struct ua_mn *ua_mn_get(enum ua_mn_type type)
{
	struct mm_struct *mm = current->mm;
	struct ua_mn *u = kzalloc(sizeof(*u), GFP_KERNEL);
	int r;

	if (!u)
		return ERR_PTR(-ENOMEM);
	mutex_init(&u->lock);
	u->type = type;
	u->mn.ops = ua_mn_ops[type];
	mmap_write_lock(mm);
	r = __mncompat_mmu_notifier_register(&u->mn, mm);
	mmap_write_unlock(mm);
	if (r) {
		kfree(u);
		return ERR_PTR(r);
	}
	return u;
}
EXPORT_SYMBOL_GPL(ua_mn_get);

void ua_mn_put(struct ua_mn *u, struct mm_struct *mm)
{
	mncompat_mmu_notifier_unregister(&u->mn, mm);
	kfree(u);
}
EXPORT_SYMBOL_GPL(ua_mn_put);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: an array of ops tables");
