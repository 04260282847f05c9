/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <mncompat/mmu_interval_notifier.h>: the 5.5+ mmu_interval_notifier API
 * (99cb252f5e68) on every kernel <mncompat/mmu_notifier.h> supports, and
 * its 7.1 two-pass form (MNCOMPAT_MMU_INTERVAL_NOTIFIER_OPS, at the end).
 *
 * Where the kernel has it (MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER) this header
 * adds nothing. Elsewhere it emulates it with one classic struct
 * mmu_notifier per interval, registered on the mm, whose range callbacks go
 * through MNCOMPAT_MMU_NOTIFIER_OPS (so the trampolines of old kernels,
 * invalidate_page included, deliver to it). No kernel-internal structure is
 * copied: the emulated types have mncompat_ names, and macros map the
 * kernel's names onto them, so that the driver's code is unchanged:
 *
 *   struct mmu_interval_notifier, struct mmu_interval_notifier_ops,
 *   mmu_interval_notifier_insert(), mmu_interval_notifier_insert_locked(),
 *   mmu_interval_notifier_remove(), mmu_interval_read_begin(),
 *   mmu_interval_read_retry(), mmu_interval_check_retry(),
 *   mmu_interval_set_seq().
 *
 * Semantics kept: ops->invalidate(sub, range, cur_seq) runs for each
 * invalidation that overlaps [start, start + length), with an odd cur_seq,
 * and must call mmu_interval_set_seq() under the lock the driver takes
 * around mmu_interval_read_retry(); it returns false only for a range that
 * is not blockable (mncompat_range_blockable()), and the invalidation then
 * fails with -EAGAIN where the kernel can take a failure.
 * mmu_interval_read_begin() may sleep until invalidations of the interval
 * have ended. When the mm exits, ops->invalidate sees [0, ULONG_MAX).
 * After mmu_interval_notifier_remove() returns, ops->invalidate no longer
 * runs.
 *
 * Differences: every interval costs one classic notifier (a registration,
 * and a call per invalidation of the mm); read_begin waits for every
 * overlapping invalidation, not only the one that set the sequence;
 * range->event is not meaningful (use range->start/end/mm only). Where the
 * kernel calls invalidate_page (before 4.13), ops->invalidate gets a
 * non-blockable one-page range and must not fail it.
 */
#ifndef _MNCOMPAT_MMU_INTERVAL_NOTIFIER_H
#define _MNCOMPAT_MMU_INTERVAL_NOTIFIER_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/llist.h>
#include <linux/mm_types.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <mncompat/mmu_notifier.h>

/*
 * Test knob: -DMNCOMPAT_EMULATE_MMU_INTERVAL_NOTIFIER uses the emulation
 * even where the kernel has the API (as the forced-off probe result does).
 */
#ifdef MNCOMPAT_EMULATE_MMU_INTERVAL_NOTIFIER
#undef MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER
#endif

#ifndef MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER

struct mncompat_mmu_interval_notifier;

struct mncompat_mmu_interval_notifier_ops {
	bool (*invalidate)(struct mncompat_mmu_interval_notifier *interval_sub,
			   const struct mmu_notifier_range *range,
			   unsigned long cur_seq);
};

struct mncompat_mmu_interval_notifier {
	struct mmu_notifier mn;		/* the classic notifier behind it */
	const struct mncompat_mmu_interval_notifier_ops *ops;
	struct mm_struct *mm;
	unsigned long start;
	unsigned long last;		/* inclusive */
	unsigned long invalidate_seq;	/* set by mmu_interval_set_seq() */
	spinlock_t lock;		/* protects next_seq and active */
	unsigned long next_seq;		/* the last cur_seq given, odd */
	unsigned int active;		/* overlapping invalidations running */
	wait_queue_head_t wq;		/* woken when active drops to 0 */
	bool removing;			/* unregister calls release: skip it */
};

#define mmu_interval_notifier		mncompat_mmu_interval_notifier
#define mmu_interval_notifier_ops	mncompat_mmu_interval_notifier_ops
#define mmu_interval_notifier_insert	mncompat_mmu_interval_notifier_insert
#define mmu_interval_notifier_insert_locked \
	mncompat_mmu_interval_notifier_insert_locked
#define mmu_interval_notifier_remove	mncompat_mmu_interval_notifier_remove
#define mmu_interval_read_begin		mncompat_mmu_interval_read_begin
#define mmu_interval_read_retry		mncompat_mmu_interval_read_retry
#define mmu_interval_check_retry	mncompat_mmu_interval_check_retry
#define mmu_interval_set_seq		mncompat_mmu_interval_set_seq

static inline struct mncompat_mmu_interval_notifier *
__mncompat_to_interval(struct mmu_notifier *mn)
{
	return container_of(mn, struct mncompat_mmu_interval_notifier, mn);
}

static inline bool
__mncompat_interval_overlaps(const struct mncompat_mmu_interval_notifier *sub,
			     const struct mmu_notifier_range *range)
{
	return range->start <= sub->last && range->end > sub->start;
}

/* An invalidation of the interval begins: its odd sequence number. */
static inline unsigned long
__mncompat_interval_begin(struct mncompat_mmu_interval_notifier *sub)
{
	unsigned long cur_seq;

	spin_lock(&sub->lock);
	if (!sub->active++)
		sub->next_seq += 2;
	cur_seq = sub->next_seq;
	spin_unlock(&sub->lock);
	return cur_seq;
}

static inline void
__mncompat_interval_finish(struct mncompat_mmu_interval_notifier *sub)
{
	bool idle;

	spin_lock(&sub->lock);
	idle = !--sub->active;
	spin_unlock(&sub->lock);
	if (idle)
		wake_up_all(&sub->wq);
}

static inline int
__mncompat_interval_start(struct mmu_notifier *mn,
			  const struct mmu_notifier_range *range)
{
	struct mncompat_mmu_interval_notifier *sub = __mncompat_to_interval(mn);
	unsigned long cur_seq;

	if (!__mncompat_interval_overlaps(sub, range))
		return 0;
	cur_seq = __mncompat_interval_begin(sub);
	if (sub->ops->invalidate(sub, range, cur_seq))
		return 0;
	/*
	 * No range_end of this table comes for a failed range_start: the
	 * table is registered with compat's gate (where its range_start may
	 * fail, 4.19+), which fails the range for it on 5.12+ too.
	 */
	__mncompat_interval_finish(sub);
	return -EAGAIN;
}

static inline void
__mncompat_interval_end(struct mmu_notifier *mn,
			const struct mmu_notifier_range *range)
{
	struct mncompat_mmu_interval_notifier *sub = __mncompat_to_interval(mn);

	if (__mncompat_interval_overlaps(sub, range))
		__mncompat_interval_finish(sub);
}

/*
 * The mm exits: its unmaps no longer reach this notifier, so tell now. Also
 * called by mmu_notifier_unregister(), where it must do nothing.
 */
static inline void __mncompat_interval_release(struct mmu_notifier *mn,
					       struct mm_struct *mm)
{
	struct mncompat_mmu_interval_notifier *sub = __mncompat_to_interval(mn);
	const struct mmu_notifier_range range =
		__MNCOMPAT_RANGE(mm, 0, ULONG_MAX, true);

	if (READ_ONCE(sub->removing))
		return;
	sub->ops->invalidate(sub, &range, __mncompat_interval_begin(sub));
	__mncompat_interval_finish(sub);
}

/*
 * range_start may sleep (the driver's invalidate may, on a blockable
 * range); where invalidate_page exists compat must call range_start from
 * it, with a non-blockable range, so the flags say it never sleeps there.
 */
#ifdef MNCOMPAT_HAVE_INVALIDATE_PAGE
#define __MNCOMPAT_INTERVAL_FLAGS	0
#else
#define __MNCOMPAT_INTERVAL_FLAGS	MNCOMPAT_RANGE_START_MAY_SLEEP
#endif

MNCOMPAT_MMU_NOTIFIER_OPS(__mncompat_interval_mn_ops,
			  __mncompat_interval_release,
			  __mncompat_interval_start, __mncompat_interval_end,
			  NULL, __MNCOMPAT_INTERVAL_FLAGS);

static inline int
__mncompat_interval_init(struct mncompat_mmu_interval_notifier *sub,
			 struct mm_struct *mm, unsigned long start,
			 unsigned long length,
			 const struct mncompat_mmu_interval_notifier_ops *ops)
{
	if (!length || start + (length - 1) < start)
		return -EOVERFLOW;
	sub->mn.ops = &__mncompat_interval_mn_ops;
	sub->ops = ops;
	sub->mm = mm;
	sub->start = start;
	sub->last = start + (length - 1);
	sub->invalidate_seq = 0;
	spin_lock_init(&sub->lock);
	sub->next_seq = 1;
	sub->active = 0;
	init_waitqueue_head(&sub->wq);
	sub->removing = false;
	return 0;
}

/* Set up the interval and register its notifier (mmap lock held or not). */
static inline int
__mncompat_insert(struct mncompat_mmu_interval_notifier *sub,
		  struct mm_struct *mm, unsigned long start, unsigned long length,
		  const struct mncompat_mmu_interval_notifier_ops *ops,
		  bool mmap_locked)
{
	int ret = __mncompat_interval_init(sub, mm, start, length, ops);

	if (ret)
		return ret;
	/* compat's forms: the table's range_start may fail (the gate). */
	return mmap_locked ? __mncompat_mmu_notifier_register(&sub->mn, mm) :
			     mncompat_mmu_notifier_register(&sub->mn, mm);
}

/**
 * mncompat_mmu_interval_notifier_insert - mmu_interval_notifier_insert()
 * @interval_sub: the interval to watch, caller-allocated
 * @mm: its mm (held by the caller; the notifier keeps it until remove)
 * @start: first address
 * @length: size in bytes, not 0
 * @ops: the invalidate callback
 *
 * Takes the mmap lock (like mmu_notifier_register()).
 */
static inline int mncompat_mmu_interval_notifier_insert(
	struct mncompat_mmu_interval_notifier *interval_sub,
	struct mm_struct *mm, unsigned long start, unsigned long length,
	const struct mncompat_mmu_interval_notifier_ops *ops)
{
	return __mncompat_insert(interval_sub, mm, start, length, ops, false);
}

/* As above, with the mmap lock already held for write. */
static inline int mncompat_mmu_interval_notifier_insert_locked(
	struct mncompat_mmu_interval_notifier *interval_sub,
	struct mm_struct *mm, unsigned long start, unsigned long length,
	const struct mncompat_mmu_interval_notifier_ops *ops)
{
	return __mncompat_insert(interval_sub, mm, start, length, ops, true);
}

/* Stop watching; waits for running callbacks. May sleep. */
static inline void mncompat_mmu_interval_notifier_remove(
	struct mncompat_mmu_interval_notifier *interval_sub)
{
	/* mmu_notifier_unregister() calls release: not an invalidation. */
	WRITE_ONCE(interval_sub->removing, true);
	mncompat_mmu_notifier_unregister(&interval_sub->mn, interval_sub->mm);
}

/* Begin a read side critical section; may sleep. */
static inline unsigned long mncompat_mmu_interval_read_begin(
	struct mncompat_mmu_interval_notifier *interval_sub)
{
	unsigned long seq;
	unsigned int busy;

	might_sleep();
	for (;;) {
		spin_lock(&interval_sub->lock);
		seq = READ_ONCE(interval_sub->invalidate_seq);
		busy = interval_sub->active;
		spin_unlock(&interval_sub->lock);
		if (!busy)
			return seq;
		wait_event(interval_sub->wq, !READ_ONCE(interval_sub->active));
	}
}

/* Under the driver's lock, as with the kernel's version. */
static inline void mncompat_mmu_interval_set_seq(
	struct mncompat_mmu_interval_notifier *interval_sub,
	unsigned long cur_seq)
{
	WRITE_ONCE(interval_sub->invalidate_seq, cur_seq);
}

static inline bool mncompat_mmu_interval_read_retry(
	struct mncompat_mmu_interval_notifier *interval_sub, unsigned long seq)
{
	return interval_sub->invalidate_seq != seq;
}

static inline bool mncompat_mmu_interval_check_retry(
	struct mncompat_mmu_interval_notifier *interval_sub, unsigned long seq)
{
	return READ_ONCE(interval_sub->invalidate_seq) != seq;
}

#endif /* !MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER */

/*
 * The two-pass interval notifier (7.1 7aba71dbc416), on every kernel:
 *
 *   static bool my_start(struct mmu_interval_notifier *sub,
 *                        const struct mmu_notifier_range *range,
 *                        unsigned long cur_seq,
 *                        struct mmu_interval_notifier_finish **finish);
 *   static void my_finish(struct mmu_interval_notifier_finish *finish);
 *
 *   MNCOMPAT_MMU_INTERVAL_NOTIFIER_OPS(my_ops, my_start, my_finish);
 *
 * defines "static const struct mmu_interval_notifier_ops my_ops", for
 * mmu_interval_notifier_insert() as usual. my_start() is the first pass:
 * as ->invalidate (it calls mmu_interval_set_seq(), returns false only for
 * a non-blockable range it cannot handle without sleeping); *finish is
 * NULL on entry, and a struct mmu_interval_notifier_finish it leaves there
 * (typically embedded in the driver's own structure, one per concurrent
 * invalidation) gets my_finish() as the second pass, its ->notifier set
 * to the subscription. Where the kernel has the two-pass form, the table
 * holds my_start and my_finish as they are: the kernel runs the first
 * pass of every subscription the invalidation overlaps, then their finish
 * passes, before it changes the page tables. Elsewhere (5.5-7.0 over the
 * kernel's interval notifier, before 5.5 over the emulation above, or
 * with the emulation forced) compat provides struct
 * mmu_interval_notifier_finish and a per-table ->invalidate that runs
 * my_start and, if it left a finish, my_finish at once: the same passes,
 * for each subscription in turn, so the second pass of one subscription
 * no longer overlaps the first pass of the next (what the two-pass form
 * is for on multi-device setups), still before the page tables change.
 */
#define __MNCOMPAT_TWO_PASS_BOTH(ops, start_fn, finish_fn)		\
	_Static_assert(!__MNCOMPAT_IS_NULL(start_fn) &&			\
		       !__MNCOMPAT_IS_NULL(finish_fn),			\
		       "mncompat: " #ops ": a two-pass table needs both passes")

/**
 * MNCOMPAT_MMU_INTERVAL_NOTIFIER_OPS - a two-pass interval notifier table
 * @ops: name of the static const struct mmu_interval_notifier_ops
 * @start_fn: the first pass (invalidate_start), not NULL
 * @finish_fn: the second pass (invalidate_finish), not NULL
 */
#if defined(MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER_TWO_PASS) &&		\
	defined(MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER)
#define MNCOMPAT_MMU_INTERVAL_NOTIFIER_OPS(ops, start_fn, finish_fn)	\
	__MNCOMPAT_TWO_PASS_BOTH(ops, start_fn, finish_fn);		\
	static const struct mmu_interval_notifier_ops ops = {		\
		.invalidate_start = (start_fn),				\
		.invalidate_finish = (finish_fn),			\
	}
#else
struct mncompat_mmu_interval_notifier_finish {
	struct llist_node link;		/* the kernel's: unused by compat */
	struct mmu_interval_notifier *notifier;
};

#define mmu_interval_notifier_finish	mncompat_mmu_interval_notifier_finish

/* Both passes of a subscription, for its ->invalidate. */
static __always_inline bool
__mncompat_two_pass(struct mmu_interval_notifier *sub,
		    const struct mmu_notifier_range *range,
		    unsigned long cur_seq,
		    bool (*start)(struct mmu_interval_notifier *sub,
				  const struct mmu_notifier_range *range,
				  unsigned long cur_seq,
				  struct mmu_interval_notifier_finish **finish),
		    void (*finish)(struct mmu_interval_notifier_finish *finish))
{
	struct mmu_interval_notifier_finish *pending = NULL;

	if (!start(sub, range, cur_seq, &pending))
		return false;
	if (pending) {
		pending->notifier = sub;
		finish(pending);
	}
	return true;
}

#define MNCOMPAT_MMU_INTERVAL_NOTIFIER_OPS(ops, start_fn, finish_fn)	\
	__MNCOMPAT_TWO_PASS_BOTH(ops, start_fn, finish_fn);		\
	static bool ops##__mncompat_invalidate(				\
		struct mmu_interval_notifier *sub,			\
		const struct mmu_notifier_range *range,			\
		unsigned long cur_seq)					\
	{								\
		return __mncompat_two_pass(sub, range, cur_seq,	\
					   (start_fn), (finish_fn));	\
	}								\
	static const struct mmu_interval_notifier_ops ops = {		\
		.invalidate = ops##__mncompat_invalidate,		\
	}
#endif

#endif /* _MNCOMPAT_MMU_INTERVAL_NOTIFIER_H */
