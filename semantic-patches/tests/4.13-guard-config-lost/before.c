// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: the start-only-refault shape (range_start drops what the
 * fault path maps back in with get_user_pages_fast(), range_end empty),
 * with .invalidate_page, its callback and its prototype under a CONFIG_
 * option.  A configuration guard is not the vendor's port to a kernel
 * version: unguard.py leaves it, and the verdict (range_end must run the
 * old callback after the page-table change) cannot be applied in the
 * configurations where the callback exists without a range_end of its
 * own there.  The field goes, and the review item says what is lost.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

struct vdev {
	struct mmu_notifier mn;
	spinlock_t lock;
	struct page *pages[64];
	unsigned long base;
};

#ifdef CONFIG_VDEV_LEGACY
static void vdev_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				 unsigned long address);
#endif

static void vdev_zap(struct vdev *v, unsigned long start, unsigned long end)
{
	unsigned long a;

	spin_lock(&v->lock);
	for (a = start; a < end; a += PAGE_SIZE) {
		unsigned long i = (a - v->base) >> PAGE_SHIFT;

		if (a < v->base || i >= 64 || !v->pages[i])
			continue;
		put_page(v->pages[i]);
		v->pages[i] = NULL;
	}
	spin_unlock(&v->lock);
}

static int vdev_fault(struct vdev *v, unsigned long addr)
{
	unsigned long i = (addr - v->base) >> PAGE_SHIFT;
	struct page *page;

	if (get_user_pages_fast(addr, 1, 0, &page) != 1)
		return -EFAULT;
	spin_lock(&v->lock);
	if (v->pages[i])
		put_page(v->pages[i]);
	v->pages[i] = page;
	spin_unlock(&v->lock);
	return 0;
}

#ifdef CONFIG_VDEV_LEGACY
static void vdev_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				 unsigned long address)
{
	vdev_zap(container_of(mn, struct vdev, mn), address,
		 address + PAGE_SIZE);
}
#endif

static void vdev_invalidate_range_start(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start, unsigned long end)
{
	vdev_zap(container_of(mn, struct vdev, mn), start, end);
}

static void vdev_invalidate_range_end(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
}

static const struct mmu_notifier_ops vdev_ops = {
#ifdef CONFIG_VDEV_LEGACY
	.invalidate_page = vdev_invalidate_page,
#endif
	.invalidate_range_start = vdev_invalidate_range_start,
	.invalidate_range_end = vdev_invalidate_range_end,
};

int vdev_touch(struct vdev *v, unsigned long addr)
{
	v->mn.ops = &vdev_ops;
	return vdev_fault(v, addr);
}
