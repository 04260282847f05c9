// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a device that maps user pages on demand (get_user_pages
 * from its fault path) and drops them from invalidate_range_start and
 * invalidate_page; invalidate_range_end has nothing to do.  Nothing keeps
 * the fault path out between start and end, so after 4.13 (where rmap
 * paths bracket the page-table change with start/end) the device can map
 * the old page again before the change: invalidate_page's work must run
 * again after the change, from invalidate_range_end.
 *
 * Guard arrangement nested: the field under #if RHEL_RELEASE_CODE inside
 * #ifdef RHEL_RELEASE_CODE, #else under #if LINUX_VERSION_CODE;
 * unguard.py merges it, and the verdict and the output are those of
 * 4.13-start-only-refault.
 */
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/version.h>
#include <linux/spinlock.h>

struct vdev {
	struct mmu_notifier mn;
	spinlock_t lock;
	struct page *pages[64];
	unsigned long base;
};

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

static void vdev_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				 unsigned long start, unsigned long end)
{
	vdev_zap(container_of(mn, struct vdev, mn), start,
		 end);
}

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

/* Replaces invalidate_page (4.13): its work, after the page-table change. */
static void vdev_invalidate_page_range_end(struct mmu_notifier *mn,
					   struct mm_struct *mm,
					   unsigned long start,
					   unsigned long end)
{
	vdev_invalidate_range_end(mn, mm, start, end);
	vdev_invalidate_page(mn, mm, start, end);
}

static const struct mmu_notifier_ops vdev_ops = {
	.invalidate_range_start = vdev_invalidate_range_start,
	.invalidate_range_end = vdev_invalidate_page_range_end,
};

int vdev_touch(struct vdev *v, unsigned long addr)
{
	v->mn.ops = &vdev_ops;
	return vdev_fault(v, addr);
}
