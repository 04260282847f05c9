// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_KMAP_LOCAL_PAGE
 * Upstream: 5.11 f3ba3c710ac5
 * kmap_local_page(page) and kunmap_local(vaddr): a mapping that may take
 * page faults and lives in the calling thread.
 */
#include <linux/highmem.h>

u8 mncompat_probe_first_byte(struct page *page);
u8 mncompat_probe_first_byte(struct page *page)
{
	u8 *vaddr = kmap_local_page(page);
	u8 first = vaddr[0];

	kunmap_local(vaddr);
	return first;
}
