// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series with --compat (issue 44 item 1): a
 * pre-4.13 module in the shape of SGI GRU and amdgpu_mn 4.11, whose
 * registration runs with the mmap lock held (one subscription per mm,
 * looked up and added under it), so it calls __mmu_notifier_register().
 * range_start takes a mutex and raises a count that range_end lowers and
 * the device's faults wait on.  From 4.19 range_start returns -EAGAIN
 * for a non-blockable range: compat pairs such a table, but only for a
 * subscription registered through it, so __mmu_notifier_register()
 * becomes __mncompat_mmu_notifier_register() (mncompat_mmu_notifier_
 * register() would take the mmap lock the caller holds: a deadlock).  The
 * output builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>

struct lr_ctx {
	struct mmu_notifier mn;
	struct mm_struct *mm;
	struct mutex lock;
	atomic_t active;
	wait_queue_head_t wq;
	unsigned long base, pages[16];
};

static void lr_zap(struct lr_ctx *c, unsigned long start, unsigned long end)
{
	unsigned long i;

	for (i = 0; i < 16; i++)
		if (c->base + i * PAGE_SIZE >= start &&
		    c->base + i * PAGE_SIZE < end)
			c->pages[i] = 0;
}

static void lr_invalidate_range_start(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	struct lr_ctx *c = container_of(mn, struct lr_ctx, mn);

	atomic_inc(&c->active);
	mutex_lock(&c->lock);
	lr_zap(c, start, end);
	mutex_unlock(&c->lock);
}

static void lr_invalidate_range_end(struct mmu_notifier *mn,
				    struct mm_struct *mm,
				    unsigned long start, unsigned long end)
{
	struct lr_ctx *c = container_of(mn, struct lr_ctx, mn);

	if (atomic_dec_and_test(&c->active))
		wake_up_all(&c->wq);
}

static void lr_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	struct lr_ctx *c = container_of(mn, struct lr_ctx, mn);

	mutex_lock(&c->lock);
	lr_zap(c, address, address + PAGE_SIZE);
	mutex_unlock(&c->lock);
}

static const struct mmu_notifier_ops lr_ops = {
	.invalidate_page = lr_invalidate_page,
	.invalidate_range_start = lr_invalidate_range_start,
	.invalidate_range_end = lr_invalidate_range_end,
};

/* The device's fault: it waits for every invalidation to end. */
int lr_fault(struct lr_ctx *c, unsigned long addr)
{
	struct page *page;
	int ret;

	wait_event(c->wq, !atomic_read(&c->active));
	ret = get_user_pages_fast(addr, 1, 0, &page);
	if (ret != 1)
		return -EFAULT;
	mutex_lock(&c->lock);
	if (atomic_read(&c->active)) {
		mutex_unlock(&c->lock);
		put_page(page);
		return -EAGAIN;
	}
	c->pages[(addr - c->base) >> PAGE_SHIFT] = page_to_pfn(page);
	mutex_unlock(&c->lock);
	put_page(page);
	return 0;
}

/* Called with the mmap lock held for writing, as the driver's lookup is. */
static struct lr_ctx *lr_attach_locked(struct mm_struct *mm)
{
	struct lr_ctx *c = kzalloc(sizeof(*c), GFP_KERNEL);
	int ret;

	if (!c)
		return ERR_PTR(-ENOMEM);
	c->mm = mm;
	mutex_init(&c->lock);
	init_waitqueue_head(&c->wq);
	c->mn.ops = &lr_ops;
	ret = __mmu_notifier_register(&c->mn, mm);
	if (ret) {
		kfree(c);
		return ERR_PTR(ret);
	}
	return c;
}

struct lr_ctx *lr_attach(void)
{
	struct mm_struct *mm = current->mm;
	struct lr_ctx *c;

	mmap_write_lock(mm);
	c = lr_attach_locked(mm);
	mmap_write_unlock(mm);
	return c;
}
EXPORT_SYMBOL_GPL(lr_attach);

void lr_detach(struct lr_ctx *c)
{
	mmu_notifier_unregister(&c->mn, c->mm);
	kfree(c);
}
EXPORT_SYMBOL_GPL(lr_detach);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: registration under the mmap lock");
