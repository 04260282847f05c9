/* SPDX-License-Identifier: GPL-2.0 */
/*
 * agedev internals: the device (agedev_dev.c) and its MMU-notifier glue
 * (agedev_notifier.c, written as drivers with KVM's young callbacks did
 * before Linux 4.13) meet here.
 */
#ifndef _AGEDEV_H
#define _AGEDEV_H

#include <linux/mmu_notifier.h>
#include <linux/spinlock.h>

#include "agedev_uapi.h"
#include "devpt.h"

struct agedev_file {
	spinlock_t lock;		/* protects pt, seq, active, stats */
	struct devpt pt;		/* of mm: page number -> struct page */
	unsigned long seq;		/* bumped by every invalidation's end */
	unsigned int active;		/* range invalidations in progress */
	struct agedev_stats stats;
};

static inline struct agedev_file *to_agedev(struct mmu_notifier *mn)
{
	return container_of(mn, struct agedev_file, pt.notifier);
}

/* Provided by the glue: the device's ops table. */
const struct mmu_notifier_ops *agedev_notifier_ops(void);

/* How the kernel ages the device's mappings (agedev_age()). */
enum agedev_aging {
	AGEDEV_CLEAR_FLUSH,	/* test and clear, then flush */
	AGEDEV_CLEAR,		/* test and clear, no flush */
	AGEDEV_TEST,		/* test only */
};

/*
 * For the glue; none of them sleeps. agedev_drop() drops the device
 * mappings of [start, end) after the CPU page table changed; the range pair
 * keeps new SNAPs out between begin and done. agedev_age(): whether a device
 * mapping of [start, end) was accessed since the last clearing, 1 or 0.
 */
void agedev_drop(struct agedev_file *ad, unsigned long start,
		 unsigned long end);
void agedev_range_begin(struct agedev_file *ad, unsigned long start,
			unsigned long end);
void agedev_range_done(struct agedev_file *ad);
int agedev_age(struct agedev_file *ad, unsigned long start,
	       unsigned long end, enum agedev_aging how);

#endif /* _AGEDEV_H */
