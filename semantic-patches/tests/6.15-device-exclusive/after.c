// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the 6.15 make_device_exclusive_range() removal: a GPU
 * driver's atomic fault of one page (an interval notifier around it, the
 * result tested for failure only), a device mirror that takes a range of
 * pages in batches of 16, and a one-page call in a function with no folio
 * local.
 */
#include <linux/mmu_notifier.h>
#include <linux/rmap.h>
#include <linux/mm.h>

struct gpu {
	struct mmu_interval_notifier notifier;
	struct mutex lock;
	void *owner;
};

static int gpu_map(struct gpu *gpu, unsigned long addr, struct page *page)
{
	return page ? 1 : 0;
}

static int gpu_atomic_fault(struct gpu *gpu, struct mm_struct *mm,
			    unsigned long start)
{
	struct folio *folio;
	struct page *page;
	unsigned long seq;
	int ret = 0;

	for (;;) {
		seq = mmu_interval_read_begin(&gpu->notifier);
		mmap_read_lock(mm);
		page = make_device_exclusive(mm, start, gpu->owner, &folio);
		mmap_read_unlock(mm);
		if (IS_ERR(page)) {
			ret = -EINVAL;
			goto out;
		}
		folio = page_folio(page);

		mutex_lock(&gpu->lock);
		if (!mmu_interval_read_retry(&gpu->notifier, seq))
			break;
		mutex_unlock(&gpu->lock);
		folio_unlock(folio);
		folio_put(folio);
	}
	ret = gpu_map(gpu, start, page);
	mutex_unlock(&gpu->lock);
	folio_unlock(folio);
	folio_put(folio);
out:
	return ret;
}

/*
 * make_device_exclusive_range() as it was before Linux 6.15: one
 * make_device_exclusive() per page; a page that is not made exclusive is
 * NULL (returned pages are locked and referenced, as they were).
 */
static int mn_make_device_exclusive_range(struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end,
					  struct page **pages, void *owner)
{
	unsigned long addr = start;
	int n = 0;

	while (addr < end) {
		struct folio *folio;

		pages[n] = make_device_exclusive(mm, addr, owner, &folio);
		if (IS_ERR(pages[n]))
			pages[n] = NULL;
		addr += PAGE_SIZE;
		n++;
	}
	return n;
}

static int gpu_exclusive(struct gpu *gpu, struct mm_struct *mm,
			 unsigned long start, unsigned long end)
{
	struct page *pages[16];
	unsigned long addr, next;
	int i, n, mapped;

	mmap_read_lock(mm);
	for (addr = start; addr < end; addr = next) {
		next = min(end, addr + (ARRAY_SIZE(pages) << PAGE_SHIFT));
		n = mn_make_device_exclusive_range(mm, addr, next, pages,
						   NULL);
		mapped = 0;
		for (i = 0; i < n; i++) {
			if (!pages[i])
				continue;
			mapped += gpu_map(gpu, addr + i * PAGE_SIZE, pages[i]);
			unlock_page(pages[i]);
			put_page(pages[i]);
		}
		if (mapped < (next - addr) >> PAGE_SHIFT) {
			mmap_read_unlock(mm);
			return -EBUSY;
		}
	}
	mmap_read_unlock(mm);
	return 0;
}

static int gpu_touch(struct gpu *gpu, struct mm_struct *mm, unsigned long addr)
{
	struct page *page;
	int ret;

	ret = mn_make_device_exclusive_range(mm, addr, addr + PAGE_SIZE,
					     &page, gpu->owner);
	if (ret <= 0 || !page)
		return -EBUSY;
	unlock_page(page);
	put_page(page);
	return 0;
}

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture");
