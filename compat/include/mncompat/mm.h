/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <mncompat/mm.h>: is a page mapped into a user address space, on every
 * kernel.
 *
 *   bool mncompat_page_mapped(struct page *page);
 *
 * folio_mapped(page_folio(page)) where the kernel has folios (5.16), as
 * 7.x requires (page_mapped() is gone there); page_mapped() before.
 */
#ifndef _MNCOMPAT_MM_H
#define _MNCOMPAT_MM_H

#include <linux/mm.h>
#include <mncompat_config.h>

static inline bool mncompat_page_mapped(struct page *page)
{
#ifdef MNCOMPAT_HAVE_FOLIO_MAPPED
	return folio_mapped(page_folio(page));
#else
	return page_mapped(page);
#endif
}

#endif /* _MNCOMPAT_MM_H */
