// SPDX-License-Identifier: GPL-2.0
/* devpt: the device page table of the sample devices (see devpt.h). */
#include <linux/delay.h>
#include <linux/mm.h>
#include <mncompat/mmu_notifier.h>
#include <mncompat/sched.h>

#include "devpt.h"

/* Entries a pass of devpt_zap_locked() collects before dropping them. */
#define DEVPT_ZAP_BATCH	16

void devpt_init(struct devpt *pt, spinlock_t *lock, struct mm_struct *mm)
{
	pt->lock = lock;
	INIT_RADIX_TREE(&pt->tree, GFP_ATOMIC);
	pt->mm = mm;
}

int devpt_register(struct devpt *pt, spinlock_t *lock,
		   const struct mmu_notifier_ops *ops)
{
	int ret;

	if (!current->mm)
		return -EINVAL;
	devpt_init(pt, lock, current->mm);
	pt->notifier.ops = ops;
#if defined(DEVPT_REGISTER_LOCKED) || defined(DEVPT_REGISTER_KERNEL_LOCKED)
	mncompat_mmap_write_lock(pt->mm);
#ifdef DEVPT_REGISTER_LOCKED
	ret = __mncompat_mmu_notifier_register(&pt->notifier, pt->mm);
#else
	ret = __mmu_notifier_register(&pt->notifier, pt->mm);
#endif
	mncompat_mmap_write_unlock(pt->mm);
#else
	ret = mncompat_mmu_notifier_register(&pt->notifier, pt->mm);
#endif
	return ret;
}

void devpt_unregister(struct devpt *pt)
{
	mncompat_mmu_notifier_unregister(&pt->notifier, pt->mm);
}

struct page *devpt_get(struct devpt *pt, unsigned long addr)
{
	struct page *page;

	spin_lock(pt->lock);
	page = radix_tree_lookup(&pt->tree, addr >> PAGE_SHIFT);
	if (page)
		get_page(page);
	spin_unlock(pt->lock);
	return page;
}

int devpt_fault_begin(unsigned long addr, struct page **page)
{
	int ret = get_user_pages_fast(addr & PAGE_MASK, 1, 0, page);

	if (ret != 1)
		return ret < 0 ? ret : -EFAULT;
	/* Tree nodes for the insert, taken while we may sleep. */
	ret = radix_tree_preload(GFP_KERNEL);
	if (ret)
		put_page(*page);
	return ret;
}

int devpt_store_locked(struct devpt *pt, unsigned long addr,
		       struct page *page, struct page **old)
{
	int ret;

	lockdep_assert_held(pt->lock);
	*old = radix_tree_delete(&pt->tree, addr >> PAGE_SHIFT);
	ret = radix_tree_insert(&pt->tree, addr >> PAGE_SHIFT, page);
	if (ret)
		put_page(page);
	return ret;
}

void devpt_fault_end(struct page *page)
{
	radix_tree_preload_end();
	if (page)
		put_page(page);
}

/*
 * The walk only collects indices and the deletes come after it: the 4.4
 * radix tree has no delete that keeps an iteration valid.
 */
unsigned long devpt_zap_locked(struct devpt *pt, unsigned long start,
			       unsigned long end)
{
	unsigned long first = start >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;
	unsigned long index[DEVPT_ZAP_BATCH], dropped = 0;
	struct radix_tree_iter iter;
	void __rcu **slot;
	unsigned int i, n;

	lockdep_assert_held(pt->lock);
	do {
		n = 0;
		radix_tree_for_each_slot(slot, &pt->tree, &iter, first) {
			if (iter.index > last)
				break;
			index[n++] = iter.index;
			if (n == DEVPT_ZAP_BATCH)
				break;
		}
		for (i = 0; i < n; i++)
			put_page(radix_tree_delete(&pt->tree, index[i]));
		dropped += n;
		if (n)
			first = index[n - 1] + 1;
	} while (n == DEVPT_ZAP_BATCH);
	return dropped;
}

int devpt_hold_until_killed(u32 ms)
{
	unsigned long deadline = jiffies + 60 * HZ;

	/* msleep() sleeps uninterruptibly: a kill does not end the wait. */
	while (!fatal_signal_pending(current)) {
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		msleep(20);
	}
	msleep(min_t(u32, ms, 10000));
	return 0;
}
