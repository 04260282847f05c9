// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_MMAP_WRITE_LOCK
 * Upstream: 5.8 9740ca4e95b4
 * mmap_write_lock(mm) and mmap_write_unlock(mm), the mmap locking API
 * (before: down_write(&mm->mmap_sem)). Stable trees carried it back under
 * older numbers; mncompat_mmap_write_lock() uses it where it is.
 */
#include <linux/mm.h>

void mncompat_probe_lock(struct mm_struct *mm);
void mncompat_probe_lock(struct mm_struct *mm)
{
	mmap_write_lock(mm);
	mmap_write_unlock(mm);
}
