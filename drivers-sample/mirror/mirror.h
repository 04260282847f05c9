/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mirror internals: the device (mirror_dev.c) and its MMU-notifier glue
 * (mirror_notifier.c, or mirror_notifier_legacy.c as drivers wrote it before
 * 4.13) meet here.
 */
#ifndef _MIRROR_H
#define _MIRROR_H

#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "devpt.h"
#include "mirror_uapi.h"

struct mirror_file {
	/*
	 * lock protects pt, seq, active and stats. It is a spinlock so that
	 * the callbacks never sleep, whatever context the kernel calls them in.
	 */
	spinlock_t lock;
	struct devpt pt;		/* of mm: page number -> struct page */
	unsigned long seq;		/* bumped by every invalidation */
	unsigned int active;		/* invalidations between start and end */
	wait_queue_head_t idle;		/* woken when active drops to 0 */
	struct mutex sleep_lock;	/* for notifier glue that sleeps */
	struct mirror_stats stats;
	bool opened;			/* DEVPT_REGISTER_GET: a file has it */
};

static inline struct mirror_file *to_mirror(struct mmu_notifier *mn)
{
	return container_of(mn, struct mirror_file, pt.notifier);
}

/* Provided by the glue: the ops the device registers with. */
const struct mmu_notifier_ops *mirror_notifier_ops(void);
#ifdef DEVPT_REGISTER_GET
/* The glue's alloc_notifier and free_notifier (mirror_dev.c). */
struct mmu_notifier *mirror_alloc_notifier(struct mm_struct *mm);
void mirror_free_notifier(struct mmu_notifier *mn);
#endif

/*
 * For the glue. An invalidation bracketed by begin/end keeps faults out
 * until end; mirror_invalidate() is a one-shot drop for hooks that run after
 * the CPU page table changed. Both bump the sequence count that faults check.
 */
void mirror_invalidate_begin(struct mirror_file *mf, unsigned long start,
			     unsigned long end);
void mirror_invalidate_end(struct mirror_file *mf, unsigned long start,
			   unsigned long end);
void mirror_invalidate(struct mirror_file *mf, enum mirror_callback cb,
		       unsigned long start, unsigned long end);
void mirror_release_all(struct mirror_file *mf);

#endif /* _MIRROR_H */
