// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_FOLIO_MAPPED
 * Upstream: 5.16 (the folio series, "mm: Add folio_mapped()"; commit id
 * unverified)
 * folio_mapped(page_folio(page)): is the page mapped into any user address
 * space. page_mapped(), which tells the same on every kernel before, is
 * gone in 7.x (linux-source-7.3 has folio_mapped() only).
 */
#include <linux/mm.h>

bool mncompat_probe_mapped(struct page *page);
bool mncompat_probe_mapped(struct page *page)
{
	return folio_mapped(page_folio(page));
}
