// SPDX-License-Identifier: GPL-2.0
/*
 * Uses every call of the mmu_interval_notifier API the way an HMM-style
 * driver does, through <mncompat/mmu_interval_notifier.h>: the kernel's
 * own where it has one, the emulation elsewhere (or with the probe result
 * forced off). The tests compile it and inspect the object's undefined
 * symbols; it is never loaded.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <mncompat/mmu_interval_notifier.h>

struct itest {
	struct mmu_interval_notifier sub;
	struct mutex lock;	/* the driver's lock: set_seq and read_retry */
	unsigned long valid_start, valid_end;	/* the "device mapping" */
};

static bool itest_invalidate(struct mmu_interval_notifier *sub,
			     const struct mmu_notifier_range *range,
			     unsigned long cur_seq)
{
	struct itest *it = container_of(sub, struct itest, sub);

	if (mncompat_range_blockable(range))
		mutex_lock(&it->lock);
	else if (!mutex_trylock(&it->lock))
		return false;
	mmu_interval_set_seq(sub, cur_seq);
	if (range->start < it->valid_end && range->end > it->valid_start)
		it->valid_start = it->valid_end = 0;
	mutex_unlock(&it->lock);
	return true;
}

static const struct mmu_interval_notifier_ops itest_ops = {
	.invalidate = itest_invalidate,
};

/* "Fault" [start, end) into the device: the read_begin/retry loop. */
static int __used itest_fault(struct itest *it, unsigned long start,
			      unsigned long end)
{
	unsigned long seq;

	do {
		seq = mmu_interval_read_begin(&it->sub);
		/* ... look the pages up without the lock ... */
		if (mmu_interval_check_retry(&it->sub, seq))
			continue;
		mutex_lock(&it->lock);
		if (!mmu_interval_read_retry(&it->sub, seq))
			break;
		mutex_unlock(&it->lock);
	} while (1);
	it->valid_start = start;
	it->valid_end = end;
	mutex_unlock(&it->lock);
	return 0;
}

static struct itest *__used itest_create(unsigned long start,
					 unsigned long length, bool locked)
{
	struct itest *it = kzalloc(sizeof(*it), GFP_KERNEL);
	int ret;

	if (!it)
		return NULL;
	mutex_init(&it->lock);
	if (locked)
		ret = mmu_interval_notifier_insert_locked(&it->sub,
							  current->mm, start,
							  length, &itest_ops);
	else
		ret = mmu_interval_notifier_insert(&it->sub, current->mm,
						   start, length, &itest_ops);
	if (ret) {
		kfree(it);
		return NULL;
	}
	return it;
}

static void __used itest_destroy(struct itest *it)
{
	mmu_interval_notifier_remove(&it->sub);
	kfree(it);
}

MODULE_DESCRIPTION("mncompat compile test: mmu_interval_notifier");
MODULE_LICENSE("GPL");
