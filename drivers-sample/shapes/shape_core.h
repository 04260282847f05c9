/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device shared by the shape fixtures (shape_core.c): a table of user
 * pages it maps on demand with get_user_pages, as a secondary MMU would.
 * Each fixture module adds its MMU-notifier glue, written the pre-4.13 way
 * in the shape of a real driver; CI converts it with
 * semantic-patches/convert.sh and boots the result.
 */
#ifndef _SHAPE_CORE_H
#define _SHAPE_CORE_H

#include <linux/completion.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "devpt.h"
#include "shape_uapi.h"

struct shape_dev {
	spinlock_t lock;		/* pt, seq, busy, armed, stats */
	struct devpt pt;		/* of mm: page number -> page */
	unsigned long seq;		/* bumped by invalidations (pair) */
	long busy;			/* invalidations in progress (pair) */
	unsigned long armed;		/* SHAPE_IOC_ARM address, 0: none */
	struct completion paused;	/* an armed start waits */
	struct completion resume;	/* SHAPE_IOC_RESUME */
	struct mutex cmd_lock;		/* the command queue (sleep) */
	struct shape_stats stats;
};

static inline struct shape_dev *to_shape(struct mmu_notifier *mn)
{
	return container_of(mn, struct shape_dev, pt.notifier);
}

/* Drop the device mappings of [start, end); never sleeps. */
void shape_drop(struct shape_dev *sd, unsigned long start,
		unsigned long end);
/*
 * Called by an invalidation start after it dropped [start, end): if the
 * armed address is in it, wait for the test (sleeps).
 */
void shape_pause(struct shape_dev *sd, unsigned long start,
		 unsigned long end);

/*
 * One invalidation event over [start, end): counted in stats.events when
 * the armed address is in it (the events shapes); never sleeps.
 */
void shape_event(struct shape_dev *sd, unsigned long start,
		 unsigned long end);

/* Provided by each fixture's glue: its ops table. */
const struct mmu_notifier_ops *shape_notifier_ops(void);

/* A device of mm, its locks and table set up, not registered. */
void shape_dev_init(struct shape_dev *sd, struct mm_struct *mm);

#ifdef SHAPE_GLUE_REGISTERS
/*
 * A glue that registers its own notifier, the way its real driver does
 * (under the mmap lock, or through mmu_notifier_get()): the device of the
 * caller's mm (or an ERR_PTR()), and its undoing (the device's mappings
 * dropped, its memory freed or left to the table's free_notifier);
 * shape_glue_exit() at module exit.
 */
struct shape_dev *shape_glue_open(void);
void shape_glue_close(struct shape_dev *sd);
void shape_glue_exit(void);
#endif

#endif /* _SHAPE_CORE_H */
