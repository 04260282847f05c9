/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shadow internals: the device (shadow_dev.c) and its MMU-notifier glue
 * (shadow_notifier.c, written as drivers did before Linux 4.13) meet here.
 */
#ifndef _SHADOW_H
#define _SHADOW_H

#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

#include "devpt.h"
#include "shadow_uapi.h"

struct shadow_file {
	spinlock_t lock;		/* protects pt, seq, active, stats */
	struct devpt pt;		/* of mm: page number -> struct page */
	unsigned long seq;		/* bumped by every drop */
	unsigned int active;		/* range invalidations in progress */
	struct shadow_stats stats;
};

static inline struct shadow_file *to_shadow(struct mmu_notifier *mn)
{
	return container_of(mn, struct shadow_file, pt.notifier);
}

/* Provided by the glue: the table for /dev/shadow or /dev/shadow-track. */
const struct mmu_notifier_ops *shadow_notifier_ops(bool track);

/*
 * For the glue; none of them sleeps. shadow_drop() drops the shadow
 * mappings of [start, end) after the CPU page table changed. The range pair
 * also keeps new SNAPs out between begin and done.
 */
void shadow_drop(struct shadow_file *sf, unsigned long start,
		 unsigned long end);
void shadow_count_page_call(struct shadow_file *sf);
void shadow_range_begin(struct shadow_file *sf, unsigned long start,
			unsigned long end);
void shadow_range_done(struct shadow_file *sf);

#endif /* _SHADOW_H */
