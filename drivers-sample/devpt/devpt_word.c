// SPDX-License-Identifier: GPL-2.0
/* The word ioctls of shadow and the shape fixtures (see devpt_word.h). */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <mncompat/highmem.h>

#include "devpt_word.h"

int devpt_word_from_user(struct devpt_word *w, const void __user *uarg)
{
	if (copy_from_user(w, uarg, sizeof(*w)))
		return -EFAULT;
	if (w->addr % sizeof(u64) || w->addr >= TASK_SIZE)
		return -EINVAL;
	return 0;
}

int devpt_word_read(struct devpt *pt, struct devpt_word *w,
		    void __user *uarg)
{
	struct page *page = devpt_get(pt, w->addr);
	void *vaddr;

	if (!page)
		return -ENOENT;
	vaddr = mncompat_kmap_local_page(page);
	w->value = READ_ONCE(*(u64 *)(vaddr + offset_in_page(w->addr)));
	mncompat_kunmap_local(page, vaddr);
	put_page(page);
	return copy_to_user(uarg, w, sizeof(*w)) ? -EFAULT : 0;
}
