/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <mncompat/mmu_notifier.h>: the 6.x MMU-notifier API on every kernel
 * generation from 2.6.27 on, chosen by the compile probes that
 * compat/configure.sh turns into <mncompat_config.h>.
 *
 * The driver writes its callbacks in the newest form:
 *
 *   void release(struct mmu_notifier *mn, struct mm_struct *mm);
 *   int invalidate_range_start(struct mmu_notifier *mn,
 *                              const struct mmu_notifier_range *range);
 *   void invalidate_range_end(struct mmu_notifier *mn,
 *                             const struct mmu_notifier_range *range);
 *   void invalidate_secondary_tlbs(struct mmu_notifier *mn,
 *                                  struct mm_struct *mm,
 *                                  unsigned long start, unsigned long end);
 *
 * and declares its table with
 *
 *   MNCOMPAT_MMU_NOTIFIER_OPS(name, release, range_start, range_end,
 *                             secondary_tlbs, flags [, extra...]);
 *
 * which defines "static const struct mmu_notifier_ops name", and registers
 * it with compat's form of the kernel call it would use (same arguments,
 * same rules): mncompat_mmu_notifier_register(),
 * __mncompat_mmu_notifier_register() (the caller holds the mmap lock,
 * mncompat_mmap_write_lock()), both undone by
 * mncompat_mmu_notifier_unregister(); or mncompat_mmu_notifier_get() and
 * mncompat_mmu_notifier_put() for a table of MNCOMPAT_MMU_NOTIFIER_GET_OPS
 * (emulated before 5.4). The young callbacks and the *_notify() helpers:
 * <mncompat/mmu_notifier_young.h>, included here.
 * Pass NULL for an absent callback.  flags is
 * MNCOMPAT_RANGE_START_MAY_SLEEP if range_start or range_end may sleep on a
 * blockable range, else 0.  Optional trailing designated initialisers
 * (e.g. ".alloc_notifier = f") go into the table untranslated.
 *
 * Where the kernel has the callback in this form (5.0+; on 6.1 and 6.12
 * all four), the table points straight at the driver's functions.  Older
 * forms get per-table trampolines that build a struct mmu_notifier_range:
 * the kernel's where it has one (5.0+, or backported next to the older
 * callbacks, as in RHEL 8.2+), else compat's own.  Only range->mm,
 * range->start and range->end are portable; test blockability with
 * mncompat_range_blockable().
 *
 * Rules where the kernel still has ops->invalidate_page (before 4.13):
 * the compat layer adds an invalidate_page() that delivers
 * [addr, addr + PAGE_SIZE), or [addr, addr + HPAGE_PMD_SIZE) when addr is
 * PMD-aligned: the callback does not say how big the page is, and 4.x
 * called it once for a whole PMD-mapped THP.  Since 4.11 (c7ab0d2fdc84) the kernel calls it
 * under the page-table lock; a compile probe cannot tell 4.11-4.12 from
 * older kernels (same signature), so every kernel with invalidate_page is
 * treated as calling it in atomic context:
 *  - flags 0: range_start (with a non-blockable range), secondary_tlbs and
 *    range_end are called in turn;
 *  - MNCOMPAT_RANGE_START_MAY_SLEEP: only secondary_tlbs is called, so it
 *    must on its own stop the device using the page;
 *  - MNCOMPAT_RANGE_START_MAY_SLEEP without secondary_tlbs: build error.
 * A secondary_tlbs hook on a kernel without invalidate_range (before 3.19)
 * is a build error too: nothing could call it at the right time.
 * From 6.6 on the kernel refuses a table with both secondary_tlbs and
 * range callbacks; the compat table then leaves secondary_tlbs out (the
 * range callbacks hear every change there), so one table can carry the
 * hook for pre-4.13 kernels and still register on 6.6+.
 *
 * Kernels whose range_start may fail (4.19+: the int forms). A range_start
 * may refuse a non-blockable range (the OOM reaper's, process_mrelease()'s)
 * with -EAGAIN; the kernel calls every subscription's range_start anyway
 * and then backs off. What follows differs, and no probe can tell which a
 * kernel does (no signature changed; stable and distribution kernels carry
 * the change under older version numbers):
 *  - 4.19-5.11: no range_end for anyone, no warning;
 *  - 5.12+ (c2655835fd8c "mm/mmu_notifiers: ensure range_end() is paired
 *    with range_start()", also in 5.10.y and 5.11.y stable updates):
 *    WARN_ON(ops->invalidate_range_end) for the failing subscription, then
 *    range_end on every subscription that has one, the failing one too.
 * So a table whose range_start fails and that has a range_end WARNs on
 * 5.12+ and gets a range_end its range_start never began (a counter raised
 * in range_start and lowered in range_end goes below 0), while 4.19-5.11
 * ends nobody's range, not even that of a subscription whose start went
 * well. Interval notifiers (5.5+) unwind themselves on both.
 * compat keeps them paired on both, for a table with
 * MNCOMPAT_RANGE_START_MAY_SLEEP, a range_start and a range_end (the
 * "paired" tables; every other table is as above, and
 * mncompat_mmu_notifier_register() is mmu_notifier_register() for it):
 *  - mncompat_mmu_notifier_register() registers, besides the driver's
 *    subscription, a gate subscription whose ops have only a range_start
 *    (so 5.12+ has no range_end to warn about). On a non-blockable range
 *    the gate calls the driver's range_start and answers -EAGAIN when it
 *    fails: the kernel backs off, as the driver asked (the OOM reaper
 *    leaves the mm to exit_mmap()). The driver's table itself never fails.
 *  - The table's range_start (a per-table trampoline that holds the
 *    table's state) calls the driver's for blockable ranges (and, without
 *    a gate, for all: old behaviour). Its range_end (one function per
 *    module, by which registration knows the table) calls the
 *    driver's for a blockable range, and for a non-blockable one only if
 *    the gate noted that the driver's range_start succeeded for it (per
 *    subscription, task, start and end, in a small spinlock-protected
 *    store of the table). A range the kernel never ends (4.19-5.11, after
 *    another subscription failed) is ended when the same task starts the
 *    next one, or at unregistration; with the store full the gate refuses
 *    the range without calling the driver (-EAGAIN: the safe answer).
 *  - The 4.19-4.20 form's range_end is not told whether the range was
 *    blockable: there every range_end reaches the driver's (those kernels
 *    end no range after a failure; the 5.12 change came with the 5.0
 *    form).
 * Every registration form of compat sets up the gate. A paired table
 * registered with the kernel's plain calls gets none: its range_start's
 * answers go to the kernel as they are, with compat's message naming the
 * missing gate the first time one fails, so on 5.12+ the kernel WARNs where
 * the driver fails (not silent); on the 5.0+ forms compat notes the failure
 * and keeps the range_end 5.12+ then calls from the driver. The test knob
 * -DMNCOMPAT_NO_START_END_PAIRING gives
 * every table and registration as before (only to show the WARN and the
 * unpaired range_end on 5.12+; never ship a driver built with it).
 */
#ifndef _MNCOMPAT_MMU_NOTIFIER_H
#define _MNCOMPAT_MMU_NOTIFIER_H

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <mncompat_config.h>
#include <mncompat/mmu_notifier_young.h>

/*
 * Test knob: with -DMNCOMPAT_NO_INVALIDATE_PAGE_TRAMPOLINE the header acts
 * as if the kernel had no ops->invalidate_page, so the table leaves it
 * NULL. Only for proving at run time that the trampoline is what keeps a
 * driver coherent on pre-4.13 kernels; never ship a driver built with it.
 */
#ifdef MNCOMPAT_NO_INVALIDATE_PAGE_TRAMPOLINE
#undef MNCOMPAT_HAVE_INVALIDATE_PAGE
#endif

/*
 * Test knob: with -DMNCOMPAT_GUESS_RANGE_STRUCT the header decides by
 * callback generation, as compat did before issue 27: where range_start
 * does not take a range it ignores the kernel's struct mmu_notifier_range
 * and defines its own. On a kernel with the struct next to the 4.x
 * callbacks (RHEL 8.2+, the ent-6.1 row) the build must then fail; only
 * for proving that the probe is what makes such a kernel build.
 */
#if defined(MNCOMPAT_GUESS_RANGE_STRUCT) && \
	!defined(MNCOMPAT_HAVE_RANGE_START_RANGE)
#undef MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE
#endif

#define MNCOMPAT_RANGE_START_MAY_SLEEP	0x1

/*
 * struct mmu_notifier_range: the kernel's wherever it has one (5.0+, and
 * kernels that backported it next to older callbacks, e.g. RHEL 8.2+),
 * else compat's own. Each field is probed on its own; the trampolines fill
 * the fields the struct has.
 */
#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE
#ifdef MNCOMPAT_HAVE_RANGE_FLAGS_FIELD
#define __MNCOMPAT_RANGE_FLAGS	1
#else
#define __MNCOMPAT_RANGE_FLAGS	0
#endif
#ifdef MNCOMPAT_HAVE_RANGE_BLOCKABLE_FIELD
#define __MNCOMPAT_RANGE_BOOL	1
#else
#define __MNCOMPAT_RANGE_BOOL	0
#endif
#ifdef MNCOMPAT_HAVE_RANGE_EVENT_FIELD
#define __MNCOMPAT_RANGE_EVENT	1
#else
#define __MNCOMPAT_RANGE_EVENT	0
#endif
#if !__MNCOMPAT_RANGE_FLAGS && !__MNCOMPAT_RANGE_BOOL
#error "mncompat: the kernel's struct mmu_notifier_range has neither flags nor blockable: rerun compat/configure.sh"
#endif
#else
/* No struct in the kernel (before 5.0): the trampolines build this one. */
struct mmu_notifier_range {
	struct mm_struct *mm;
	unsigned long start;
	unsigned long end;
	bool blockable;
};

#define __MNCOMPAT_RANGE_FLAGS	0
#define __MNCOMPAT_RANGE_BOOL	1
#define __MNCOMPAT_RANGE_EVENT	0
#endif

/* Designated initialiser of a range, for every struct layout. */
#if __MNCOMPAT_RANGE_FLAGS
#define __MNCOMPAT_RANGE_BLOCKABLE(blockable_)				\
	.flags = (blockable_) ? MMU_NOTIFIER_RANGE_BLOCKABLE : 0,
#else
#define __MNCOMPAT_RANGE_BLOCKABLE(blockable_)	.blockable = (blockable_),
#endif
#if __MNCOMPAT_RANGE_EVENT
#define __MNCOMPAT_RANGE_EVENT_FIELD	.event = MMU_NOTIFY_CLEAR,
#else
#define __MNCOMPAT_RANGE_EVENT_FIELD
#endif
#define __MNCOMPAT_RANGE(mm_, start_, end_, blockable_)			\
	{								\
		.mm = (mm_),						\
		.start = (start_),					\
		.end = (end_),						\
		__MNCOMPAT_RANGE_BLOCKABLE(blockable_)			\
		__MNCOMPAT_RANGE_EVENT_FIELD				\
	}

/**
 * mncompat_range_blockable - may the callback sleep for this range?
 * @range: the range passed to invalidate_range_start/end
 *
 * If this is false, invalidate_range_start must not sleep and should
 * return -EAGAIN when it cannot proceed without sleeping. The kernel's
 * mmu_notifier_range_blockable() where it has one, else the field the
 * struct has (RHEL 8.2+ has the flags without the helper).
 */
static inline bool
mncompat_range_blockable(const struct mmu_notifier_range *range)
{
#if defined(MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE_BLOCKABLE)
	return mmu_notifier_range_blockable(range);
#elif __MNCOMPAT_RANGE_FLAGS
	return range->flags & MMU_NOTIFIER_RANGE_BLOCKABLE;
#else
	return range->blockable;
#endif
}

/**
 * mncompat_mmu_notifier_synchronize - wait for deferred notifier frees
 *
 * A no-op on kernels without mmu_notifier_synchronize() (before 3.17 and
 * 5.0-5.3): this API defers no frees there, and mmu_notifier_unregister()
 * waits for running callbacks on every kernel. Where compat emulates
 * get/put (before 5.4) it also waits for the work items of the last puts.
 */
static inline void mncompat_mmu_notifier_synchronize(void)
{
#ifndef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
	/* The last puts of emulated get/put unregister from a work item. */
	flush_scheduled_work();
#endif
#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_SYNCHRONIZE
	mmu_notifier_synchronize();
#endif
}

/**
 * mncompat_mmap_write_lock - take the mmap lock of @mm for writing
 * @mm: the mm
 *
 * mmap_write_lock() where the kernel has it (5.8 9740ca4e95b4, and stable
 * trees that carried it back), else down_write(&mm->mmap_sem). For the
 * callers of __mncompat_mmu_notifier_register().
 */
static inline void mncompat_mmap_write_lock(struct mm_struct *mm)
{
#ifdef MNCOMPAT_HAVE_MMAP_WRITE_LOCK
	mmap_write_lock(mm);
#else
	down_write(&mm->mmap_sem);
#endif
}

/* mncompat_mmap_write_unlock - release what mncompat_mmap_write_lock() took */
static inline void mncompat_mmap_write_unlock(struct mm_struct *mm)
{
#ifdef MNCOMPAT_HAVE_MMAP_WRITE_LOCK
	mmap_write_unlock(mm);
#else
	up_write(&mm->mmap_sem);
#endif
}

/* The callbacks in the driver's (newest) form. */
struct mncompat_mmu_notifier_desc {
	void (*release)(struct mmu_notifier *mn, struct mm_struct *mm);
	int (*invalidate_range_start)(struct mmu_notifier *mn,
				      const struct mmu_notifier_range *range);
	void (*invalidate_range_end)(struct mmu_notifier *mn,
				     const struct mmu_notifier_range *range);
	void (*invalidate_secondary_tlbs)(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  unsigned long start,
					  unsigned long end);
	unsigned int flags;
};

/* True (as a constant expression) when a callback argument is NULL. */
#define __MNCOMPAT_IS_NULL(fn)	__builtin_types_compatible_p(typeof(fn), void *)
#define __MNCOMPAT_DESC(ops)	ops##__mncompat_desc
#define __MNCOMPAT_TRAMP(ops, what)	ops##__mncompat_##what
/* fn, or NULL when fn is NULL, as an address constant. */
#define __MNCOMPAT_UNLESS_NULL(fn, tramp)				\
	__builtin_choose_expr(__MNCOMPAT_IS_NULL(fn), NULL, tramp)

#if defined(MNCOMPAT_HAVE_INVALIDATE_RANGE)
/*
 * Where invalidate_range is there, the core calls it on every page-table
 * change (range_end, ptep_clear_flush_notify()), also where the kernel has
 * backported arch_invalidate_secondary_tlbs beside it (openEuler's 5.10
 * calls that one from arm64's TLB flushes only): the hook goes there.
 */
#define __MNCOMPAT_HAVE_TLBS_HOOK	1
#define __MNCOMPAT_TLBS_FIELD(fn, ...)	.invalidate_range = (fn),
#elif defined(MNCOMPAT_HAVE_ARCH_INVALIDATE_SECONDARY_TLBS)
/*
 * The 6.6 rename (1af5a8109904) also made __mmu_notifier_register() refuse
 * (WARN, -EINVAL) a table with both the secondary-TLB hook and range
 * callbacks: there the hook is left out of such a table. It is only
 * needed next to range callbacks where the kernel calls invalidate_page.
 */
#define __MNCOMPAT_HAVE_TLBS_HOOK	1
#define __MNCOMPAT_TLBS_FIELD(fn, start_fn, end_fn)			\
	.arch_invalidate_secondary_tlbs =				\
		__builtin_choose_expr(__MNCOMPAT_IS_NULL(start_fn) &&	\
				      __MNCOMPAT_IS_NULL(end_fn),	\
				      (fn), NULL),
#else
#define __MNCOMPAT_HAVE_TLBS_HOOK	0
#define __MNCOMPAT_TLBS_FIELD(...)
#endif

#ifdef MNCOMPAT_HAVE_OPS_FLAGS_DOES_NOT_BLOCK
/* 4.16-4.19: the oom reaper only reaps an mm whose notifiers never block. */
#define __MNCOMPAT_FLAGS_FIELD(mn_flags)				\
	.flags = ((mn_flags) & MNCOMPAT_RANGE_START_MAY_SLEEP) ?	\
		 0 : MMU_INVALIDATE_DOES_NOT_BLOCK,
#else
#define __MNCOMPAT_FLAGS_FIELD(...)
#endif

/*
 * Start/end pairing (see "Kernels whose range_start may fail" above): on
 * the 4.19+ callback forms, unless the test knob
 * -DMNCOMPAT_NO_START_END_PAIRING asks for the tables of before issue 33.
 */
#if (defined(MNCOMPAT_HAVE_RANGE_START_RANGE) ||			\
	defined(MNCOMPAT_HAVE_RANGE_START_BLOCKABLE)) &&		\
	!defined(MNCOMPAT_NO_START_END_PAIRING)
#define __MNCOMPAT_PAIRING	1
#else
#define __MNCOMPAT_PAIRING	0
#endif

#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE) &&				\
	defined(MNCOMPAT_HAVE_RANGE_END_RANGE) &&			\
	!defined(MNCOMPAT_HAVE_INVALIDATE_PAGE) && !__MNCOMPAT_PAIRING
/* 5.0 and later without invalidate_page: the driver's functions as they are. */
#define __MNCOMPAT_DEFINE_DESC(...)	struct mncompat_mmu_notifier_desc
#else
#define __MNCOMPAT_DEFINE_DESC(ops, rel, start_fn, end_fn, tlbs_fn, mn_flags) \
	static const struct mncompat_mmu_notifier_desc			\
	__maybe_unused ops##__mncompat_desc = {				\
		.release = (rel),					\
		.invalidate_range_start = (start_fn),			\
		.invalidate_range_end = (end_fn),			\
		.invalidate_secondary_tlbs = (tlbs_fn),		\
		.flags = (mn_flags),					\
	}
#endif

/* Call the driver's range_start where the kernel cannot take a failure. */
static __always_inline void
__mncompat_range_start_nofail(const struct mncompat_mmu_notifier_desc *desc,
			      struct mmu_notifier *mn,
			      const struct mmu_notifier_range *range)
{
	if (desc->invalidate_range_start)
		WARN_ONCE(desc->invalidate_range_start(mn, range),
			  "mncompat: invalidate_range_start failed where the kernel cannot handle it\n");
}

/*
 * The parameters of a pre-5.0 range callback, and the range they give
 * (declared as "range"), for the trampolines below.
 */
#define __MNCOMPAT_OLD_PARAMS						\
	struct mmu_notifier *mn, struct mm_struct *mm,			\
	unsigned long start_, unsigned long end_
#define __MNCOMPAT_OLD_RANGE(blockable_)				\
	const struct mmu_notifier_range range =				\
		__MNCOMPAT_RANGE(mm, start_, end_, blockable_)

/* The table's value: the trampoline, or NULL where fn is NULL. */
#define __MNCOMPAT_TRAMP_VALUE(fn, ops, what)				\
	__MNCOMPAT_UNLESS_NULL(fn, __MNCOMPAT_TRAMP(ops, what))

#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE)
#define __MNCOMPAT_RANGE_START_VALUE(start, ...)	(start)
#define __MNCOMPAT_DEFINE_RANGE_START(...)
#else
#define __MNCOMPAT_RANGE_START_VALUE(start, ops)			\
	__MNCOMPAT_TRAMP_VALUE(start, ops, range_start)
#if defined(MNCOMPAT_HAVE_RANGE_START_BLOCKABLE)
/* 4.19-4.20: int (mn, mm, start, end, bool blockable). */
#define __MNCOMPAT_DEFINE_RANGE_START(ops, ...)			\
	static int __maybe_unused					\
	ops##__mncompat_range_start(__MNCOMPAT_OLD_PARAMS, bool blockable) \
	{								\
		__MNCOMPAT_OLD_RANGE(blockable);			\
									\
		return __MNCOMPAT_DESC(ops).invalidate_range_start(mn,	\
								   &range); \
	}
#elif defined(MNCOMPAT_HAVE_RANGE_START_VOID4)
/* 2.6.27-4.18: void (mn, mm, start, end); always allowed to sleep. */
#define __MNCOMPAT_DEFINE_RANGE_START(ops, ...)			\
	static void __maybe_unused					\
	ops##__mncompat_range_start(__MNCOMPAT_OLD_PARAMS)		\
	{								\
		__MNCOMPAT_OLD_RANGE(true);				\
									\
		__mncompat_range_start_nofail(&__MNCOMPAT_DESC(ops),	\
					      mn, &range);		\
	}
#else
#error "mncompat: no known invalidate_range_start form: rerun compat/configure.sh"
#endif
#endif

#if defined(MNCOMPAT_HAVE_RANGE_END_RANGE)
#define __MNCOMPAT_RANGE_END_VALUE(end, ...)	(end)
#define __MNCOMPAT_DEFINE_RANGE_END(...)
#elif defined(MNCOMPAT_HAVE_RANGE_END_VOID4)
/*
 * 2.6.27-4.20: void (mn, mm, start, end).  The kernel does not say whether
 * the range was blockable; it was, except for the 4.19-4.20 oom reaper.
 */
#define __MNCOMPAT_RANGE_END_VALUE(end, ops)				\
	__MNCOMPAT_TRAMP_VALUE(end, ops, range_end)
#define __MNCOMPAT_DEFINE_RANGE_END(ops, ...)				\
	static void __maybe_unused					\
	ops##__mncompat_range_end(__MNCOMPAT_OLD_PARAMS)		\
	{								\
		__MNCOMPAT_OLD_RANGE(true);				\
									\
		__MNCOMPAT_DESC(ops).invalidate_range_end(mn, &range);	\
	}
#else
#error "mncompat: no known invalidate_range_end form: rerun compat/configure.sh"
#endif

#ifdef MNCOMPAT_HAVE_INVALIDATE_PAGE
/* Assumed to run under the page-table lock: see the rules at the top. */
#define __MNCOMPAT_INVALIDATE_PAGE_ATOMIC	1

/*
 * The end of what invalidate_page(address) covers. A PMD-aligned address
 * may stand for a whole THP: over-invalidating one 4 KiB page in 512 costs
 * a refault, missing 511 pages of a THP leaves the device stale (B3).
 */
static __always_inline unsigned long
__mncompat_invalidate_page_end(unsigned long address)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	if (IS_ALIGNED(address, HPAGE_PMD_SIZE))
		return address + HPAGE_PMD_SIZE;
#endif
	return (address & PAGE_MASK) + PAGE_SIZE;
}

static __always_inline void
__mncompat_invalidate_page(const struct mncompat_mmu_notifier_desc *desc,
			   struct mmu_notifier *mn, struct mm_struct *mm,
			   unsigned long address)
{
	const struct mmu_notifier_range range =
		__MNCOMPAT_RANGE(mm, address & PAGE_MASK,
				 __mncompat_invalidate_page_end(address),
				 false);

	if (!(desc->flags & MNCOMPAT_RANGE_START_MAY_SLEEP))
		__mncompat_range_start_nofail(desc, mn, &range);
	if (desc->invalidate_secondary_tlbs)
		desc->invalidate_secondary_tlbs(mn, mm, range.start,
						range.end);
	if (!(desc->flags & MNCOMPAT_RANGE_START_MAY_SLEEP) &&
	    desc->invalidate_range_end)
		desc->invalidate_range_end(mn, &range);
}

#define __MNCOMPAT_INVALIDATE_PAGE(ops)					\
	.invalidate_page = __MNCOMPAT_TRAMP(ops, invalidate_page),
#define __MNCOMPAT_DEFINE_INVALIDATE_PAGE(ops)				\
	static void __maybe_unused					\
	ops##__mncompat_invalidate_page(struct mmu_notifier *mn,	\
					struct mm_struct *mm,		\
					unsigned long address)		\
	{								\
		__mncompat_invalidate_page(&__MNCOMPAT_DESC(ops), mn,	\
					   mm, address);		\
	}
#else
#define __MNCOMPAT_INVALIDATE_PAGE_ATOMIC	0
#define __MNCOMPAT_INVALIDATE_PAGE(...)
#define __MNCOMPAT_DEFINE_INVALIDATE_PAGE(...)
#endif

#define __MNCOMPAT_PAIRED(start_fn, end_fn, mn_flags)			\
	(((mn_flags) & MNCOMPAT_RANGE_START_MAY_SLEEP) &&		\
	 !__MNCOMPAT_IS_NULL(start_fn) && !__MNCOMPAT_IS_NULL(end_fn))

#if __MNCOMPAT_PAIRING
/*
 * Start/end pairing, for a table whose range_start may fail: flags
 * MNCOMPAT_RANGE_START_MAY_SLEEP, a range_start and a range_end, on the
 * 4.19+ callback forms (the header comment says why). Such a table's
 * range_start is its per-table trampoline, which holds the table's state
 * (struct __mncompat_pairing), and its range_end is
 * __mncompat_paired_range_end(), one definition per module (__weak), by
 * which mncompat_mmu_notifier_register() recognises such a table in any
 * file of the module. Whoever holds the table asks the trampoline for the
 * state with a query range (mm NULL, start the address of the answer).
 * mncompat_mmu_notifier_register() adds a gate subscription (struct
 * __mncompat_gate) with only an invalidate_range_start.
 */

/*
 * Non-blockable ranges in flight whose driver range_start succeeded. The
 * kernel's non-blocking invalidations (the OOM reaper, process_mrelease())
 * run one range at a time per task, so a slot is needed per task and
 * subscription at a time; when all are taken, the gate refuses the range
 * (-EAGAIN) without calling the driver.
 */
#define __MNCOMPAT_PAIRING_SLOTS	8

struct __mncompat_started {
	struct mmu_notifier *mn;	/* NULL: a free slot */
	struct task_struct *task;
	unsigned long start;
	unsigned long end;
	bool failed;			/* no gate, the driver's start failed */
};

struct __mncompat_pairing {
	const struct mncompat_mmu_notifier_desc *desc;
	spinlock_t lock;
	struct __mncompat_gate *gates;	/* of the table's subscriptions */
	struct __mncompat_started started[__MNCOMPAT_PAIRING_SLOTS];
};

struct __mncompat_gate {
	struct mmu_notifier mn;		/* ops: __mncompat_gate_ops */
	struct mmu_notifier *main;	/* the driver's subscription */
	struct mm_struct *mm;
	struct __mncompat_pairing *pairing;
	struct __mncompat_gate *next;	/* in pairing->gates */
	unsigned int users;		/* mncompat_mmu_notifier_get()s */
	bool live;			/* both subscriptions registered */
};

#define __MNCOMPAT_DEFINE_PAIRING(ops)					\
	static struct __mncompat_pairing __maybe_unused			\
	ops##__mncompat_pairing = {					\
		.desc = &ops##__mncompat_desc,				\
		.lock = __SPIN_LOCK_UNLOCKED(ops##__mncompat_pairing.lock), \
	}

/* The gate of mn (live: calling the driver's range_start), or NULL. */
static inline struct __mncompat_gate *
__mncompat_gate_of(struct __mncompat_pairing *p, const struct mmu_notifier *mn)
{
	struct __mncompat_gate *gate;

	lockdep_assert_held(&p->lock);
	for (gate = p->gates; gate; gate = gate->next)
		if (gate->main == mn)
			return gate;
	return NULL;
}

/* Take gate out of p->gates. */
static inline void __mncompat_unlist_gate(struct __mncompat_pairing *p,
					  struct __mncompat_gate *gate)
{
	struct __mncompat_gate **link;

	lockdep_assert_held(&p->lock);
	for (link = &p->gates; *link; link = &(*link)->next) {
		if (*link == gate) {
			*link = gate->next;
			return;
		}
	}
}

/*
 * Note a started range (or, failed, a range whose start failed) in a free
 * slot; false when none is free.
 */
static inline bool __mncompat_note_started(struct __mncompat_pairing *p,
					   struct mmu_notifier *mn,
					   const struct mmu_notifier_range *range,
					   bool failed)
{
	struct __mncompat_started *s;

	lockdep_assert_held(&p->lock);
	for (s = p->started; s < p->started + __MNCOMPAT_PAIRING_SLOTS; s++) {
		if (s->mn)
			continue;
		s->mn = mn;
		s->task = current;
		s->start = range->start;
		s->end = range->end;
		s->failed = failed;
		return true;
	}
	return false;
}

/*
 * Take out the slot of mn (and of task, unless NULL; of [start, end)
 * unless any_range) into *out; false when there is none.
 */
static inline bool __mncompat_take_started(struct __mncompat_pairing *p,
					   const struct mmu_notifier *mn,
					   struct task_struct *task,
					   unsigned long start,
					   unsigned long end, bool any_range,
					   struct __mncompat_started *out)
{
	struct __mncompat_started *s;

	lockdep_assert_held(&p->lock);
	for (s = p->started; s < p->started + __MNCOMPAT_PAIRING_SLOTS; s++) {
		if (s->mn != mn || (task && s->task != task) ||
		    (!any_range && (s->start != start || s->end != end)))
			continue;
		*out = *s;
		s->mn = NULL;
		return true;
	}
	return false;
}

/* The driver's range_end for a range noted as started, late. */
static inline void __mncompat_end_noted(struct __mncompat_pairing *p,
					struct mmu_notifier *mn,
					struct mm_struct *mm,
					const struct __mncompat_started *s)
{
	const struct mmu_notifier_range range =
		__MNCOMPAT_RANGE(mm, s->start, s->end, false);

	p->desc->invalidate_range_end(mn, &range);
}

/*
 * A subscription of a paired table without its gate (registered with the
 * kernel's plain calls) meets a non-blockable range: say so, once, before
 * the kernel's own warning of a failed start (5.12+).
 */
static inline void __mncompat_no_gate(struct __mncompat_pairing *p, int ret)
{
	pr_warn_once("mncompat: %ps: a table whose range_start may fail, registered without compat's gate (use mncompat_mmu_notifier_register(), __mncompat_mmu_notifier_register() or mncompat_mmu_notifier_get()): its failed start (%d) makes 5.12+ kernels warn\n",
		     p->desc->invalidate_range_start, ret);
}

/*
 * The table's range_start (through its trampoline, which passes its
 * state): blockable ranges go to the driver; non-blockable ones are the
 * live gate's. While the gate is not yet live (registration under way)
 * the driver's answer goes to the kernel as it is, a success noted for the
 * range_end. Without a gate (the table registered with the kernel's plain
 * calls) the driver's answer goes to the kernel too, with compat's warning
 * when it fails; on the 5.0+ forms the failure is noted, so that the
 * range_end 5.12+ then calls does not reach the driver (a failure of this
 * task and subscription still noted had no range_end: 4.19-5.11). A query
 * range (mm NULL) gets the state's address written to range->start.
 */
static inline int __mncompat_paired_start(struct __mncompat_pairing *p,
					  struct mmu_notifier *mn,
					  const struct mmu_notifier_range *range)
{
	struct __mncompat_gate *gate;
	struct __mncompat_started stale __maybe_unused;
	int ret = 0;

	if (unlikely(!range->mm)) {
		*(struct __mncompat_pairing **)range->start = p;
		return 0;
	}
	if (mncompat_range_blockable(range))
		return p->desc->invalidate_range_start(mn, range);
	spin_lock(&p->lock);
	gate = __mncompat_gate_of(p, mn);
	if (gate && !gate->live) {
		ret = p->desc->invalidate_range_start(mn, range);
		if (!ret)
			__mncompat_note_started(p, mn, range, false);
	} else if (!gate) {
#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE)
		__mncompat_take_started(p, mn, current, 0, 0, true, &stale);
#endif
		ret = p->desc->invalidate_range_start(mn, range);
		if (ret) {
			__mncompat_no_gate(p, ret);
#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE)
			__mncompat_note_started(p, mn, range, true);
#endif
		}
	}
	spin_unlock(&p->lock);
	return ret;
}

/* The state of a paired table, from its range_start trampoline. */
static inline struct __mncompat_pairing *
__mncompat_pairing_of(struct mmu_notifier *mn)
{
	struct __mncompat_pairing *p = NULL;
#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE)
	const struct mmu_notifier_range query =
		__MNCOMPAT_RANGE(NULL, (unsigned long)&p, 0, true);

	mn->ops->invalidate_range_start(mn, &query);
#else
	mn->ops->invalidate_range_start(mn, NULL, (unsigned long)&p, 0, true);
#endif
	return p;
}

/*
 * The table's range_end: the driver's range_end for a blockable range
 * (blockable: true; known: false where range_end is not told, the
 * 4.19-4.20 form), or for a range noted as started (not for one noted as
 * failed); for any other non-blockable range only where no live gate
 * speaks for the subscription (old behaviour).
 */
static inline void __mncompat_main_end(struct mmu_notifier *mn,
				       const struct mmu_notifier_range *range,
				       bool blockable, bool known)
{
	struct __mncompat_pairing *p = __mncompat_pairing_of(mn);
	struct __mncompat_gate *gate;
	struct __mncompat_started s;
	bool call;

	if (blockable) {
		p->desc->invalidate_range_end(mn, range);
		return;
	}
	spin_lock(&p->lock);
	gate = __mncompat_gate_of(p, mn);
	if (__mncompat_take_started(p, mn, current, range->start, range->end,
				    false, &s))
		call = !s.failed;
	else
		call = !known || !gate || !gate->live;
	spin_unlock(&p->lock);
	if (call)
		p->desc->invalidate_range_end(mn, range);
}

/*
 * The gate's range_start: for a non-blockable range, the driver's
 * range_start, noted when it succeeds; -EAGAIN when it fails (the kernel
 * then backs off, and the gate has no range_end for 5.12+ to warn about).
 * A range of this task still noted was started before and never ended (a
 * 4.19-5.11 kernel ends no range after any subscription's failure): its
 * range_end comes first.
 */
static inline int __mncompat_gate_start(struct mmu_notifier *gate_mn,
					const struct mmu_notifier_range *range)
{
	struct __mncompat_gate *gate =
		container_of(gate_mn, struct __mncompat_gate, mn);
	struct __mncompat_pairing *p = gate->pairing;
	struct mmu_notifier *mn = gate->main;
	struct __mncompat_started stale;
	bool live, have_stale;
	int ret = 0;

	if (mncompat_range_blockable(range))
		return 0;
	spin_lock(&p->lock);
	live = gate->live;
	have_stale = live && __mncompat_take_started(p, mn, current, 0, 0,
						     true, &stale);
	spin_unlock(&p->lock);
	if (!live)
		return 0;
	if (have_stale && !stale.failed)
		__mncompat_end_noted(p, mn, range->mm, &stale);

	spin_lock(&p->lock);
	if (!gate->live) {
		ret = 0;
	} else if (!__mncompat_note_started(p, mn, range, false)) {
		ret = -EAGAIN;	/* no slot: refuse without the driver */
	} else if (p->desc->invalidate_range_start(mn, range)) {
		__mncompat_take_started(p, mn, current, range->start,
					range->end, false, &stale);
		ret = -EAGAIN;
	}
	spin_unlock(&p->lock);
	return ret;
}

#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE)
void __mncompat_paired_range_end(struct mmu_notifier *mn,
				 const struct mmu_notifier_range *range);

void __weak __mncompat_paired_range_end(struct mmu_notifier *mn,
					const struct mmu_notifier_range *range)
{
	__mncompat_main_end(mn, range, mncompat_range_blockable(range), true);
}

static int __maybe_unused
__mncompat_gate_range_start(struct mmu_notifier *mn,
			    const struct mmu_notifier_range *range)
{
	return __mncompat_gate_start(mn, range);
}

/* The range_start trampoline of a paired table. */
#define __MNCOMPAT_DEFINE_PAIRED_START(ops)				\
	static int __maybe_unused					\
	ops##__mncompat_paired_start(struct mmu_notifier *mn,		\
				     const struct mmu_notifier_range *range) \
	{								\
		return __mncompat_paired_start(&ops##__mncompat_pairing, \
					       mn, range);		\
	}
#else
/* 4.19-4.20: void (mn, mm, start, end); not told whether blockable. */
void __mncompat_paired_range_end(struct mmu_notifier *mn,
				 struct mm_struct *mm, unsigned long start_,
				 unsigned long end_);

void __weak __mncompat_paired_range_end(struct mmu_notifier *mn,
					struct mm_struct *mm,
					unsigned long start_,
					unsigned long end_)
{
	__MNCOMPAT_OLD_RANGE(false);

	__mncompat_main_end(mn, &range, false, false);
}

static int __maybe_unused
__mncompat_gate_range_start(struct mmu_notifier *mn, struct mm_struct *mm,
			    unsigned long start_, unsigned long end_,
			    bool blockable)
{
	__MNCOMPAT_OLD_RANGE(blockable);

	return __mncompat_gate_start(mn, &range);
}

/* The range_start trampoline of a paired table. */
#define __MNCOMPAT_DEFINE_PAIRED_START(ops)				\
	static int __maybe_unused					\
	ops##__mncompat_paired_start(__MNCOMPAT_OLD_PARAMS, bool blockable) \
	{								\
		__MNCOMPAT_OLD_RANGE(blockable);			\
									\
		return __mncompat_paired_start(&ops##__mncompat_pairing, \
					       mn, &range);		\
	}
#endif

#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
/* A gate put by mncompat_mmu_notifier_put(): freed after the SRCU grace. */
static void __maybe_unused __mncompat_gate_free(struct mmu_notifier *gate_mn)
{
	kfree(container_of(gate_mn, struct __mncompat_gate, mn));
}
#endif

static const struct mmu_notifier_ops __maybe_unused __mncompat_gate_ops = {
	.invalidate_range_start = __mncompat_gate_range_start,
	__MNCOMPAT_FLAGS_FIELD(MNCOMPAT_RANGE_START_MAY_SLEEP)
#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
	.free_notifier = __mncompat_gate_free,
#endif
};

static inline bool __mncompat_ops_paired(const struct mmu_notifier_ops *ops)
{
	return ops && ops->invalidate_range_end == __mncompat_paired_range_end;
}

static inline bool __mncompat_is_paired(const struct mmu_notifier *mn)
{
	return __mncompat_ops_paired(mn->ops);
}

/* mmu_notifier_register(), or __mmu_notifier_register() under the lock. */
static __always_inline int __mncompat_register_one(struct mmu_notifier *mn,
					  struct mm_struct *mm,
					  bool mmap_locked)
{
	return mmap_locked ? __mmu_notifier_register(mn, mm) :
			     mmu_notifier_register(mn, mm);
}

/* A new gate for mn on mm, listed in p (not yet registered). */
static inline struct __mncompat_gate *
__mncompat_new_gate(struct __mncompat_pairing *p, struct mmu_notifier *mn,
		    struct mm_struct *mm)
{
	struct __mncompat_gate *gate = kzalloc(sizeof(*gate), GFP_KERNEL);

	if (!gate)
		return NULL;
	gate->mn.ops = &__mncompat_gate_ops;
	gate->main = mn;
	gate->mm = mm;
	gate->pairing = p;
	spin_lock(&p->lock);
	gate->next = p->gates;
	p->gates = gate;
	spin_unlock(&p->lock);
	return gate;
}

static inline void __mncompat_free_new_gate(struct __mncompat_pairing *p,
					    struct __mncompat_gate *gate)
{
	spin_lock(&p->lock);
	__mncompat_unlist_gate(p, gate);
	spin_unlock(&p->lock);
	kfree(gate);
}

/*
 * The gate, then the driver's subscription: mmu_notifier_register() each,
 * or with the caller holding the mmap lock for writing,
 * __mmu_notifier_register() each (nothing here takes the mmap lock then).
 * Always inlined, so that each form's code holds its own calls only.
 */
static __always_inline int __mncompat_register_paired(struct mmu_notifier *mn,
					     struct mm_struct *mm,
					     bool mmap_locked)
{
	struct __mncompat_pairing *p = __mncompat_pairing_of(mn);
	struct __mncompat_gate *gate;
	int ret;

	gate = __mncompat_new_gate(p, mn, mm);
	if (!gate)
		return -ENOMEM;
	/*
	 * The gate first: the kernel adds at the head of the mm's list, so
	 * the driver's subscription is called before the gate, and a range
	 * that sees the gate turn live between the two is already noted by
	 * the driver's (the gate then ends it before starting it again).
	 */
	ret = __mncompat_register_one(&gate->mn, mm, mmap_locked);
	if (ret)
		goto free;
	ret = __mncompat_register_one(mn, mm, mmap_locked);
	if (ret)
		goto unregister;
	spin_lock(&p->lock);
	gate->live = true;
	spin_unlock(&p->lock);
	return 0;

unregister:
	/* Takes no mmap lock: also right where the caller holds it. */
	mmu_notifier_unregister(&gate->mn, mm);
free:
	__mncompat_free_new_gate(p, gate);
	return ret;
}

#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
/*
 * mmu_notifier_get() for a paired table: under the mmap lock (which keeps
 * the OOM reaper and process_mrelease() out, so no non-blockable range
 * comes before the gate is live) the kernel's subscription for (ops, mm),
 * new or shared, and one gate for it, counted per get.
 */
static inline struct mmu_notifier *
__mncompat_get_paired(const struct mmu_notifier_ops *ops, struct mm_struct *mm)
{
	struct __mncompat_pairing *p;
	struct __mncompat_gate *gate;
	struct mmu_notifier *mn;
	int ret = 0;

	mncompat_mmap_write_lock(mm);
	mn = mmu_notifier_get_locked(ops, mm);
	if (IS_ERR(mn))
		goto unlock;
	p = __mncompat_pairing_of(mn);
	spin_lock(&p->lock);
	gate = __mncompat_gate_of(p, mn);
	if (gate)
		gate->users++;
	spin_unlock(&p->lock);
	if (gate)
		goto unlock;
	gate = __mncompat_new_gate(p, mn, mm);
	if (!gate) {
		ret = -ENOMEM;
	} else {
		ret = __mmu_notifier_register(&gate->mn, mm);
		if (ret)
			__mncompat_free_new_gate(p, gate);
	}
	if (ret) {
		mmu_notifier_put(mn);
		mn = ERR_PTR(ret);
		goto unlock;
	}
	spin_lock(&p->lock);
	gate->users = 1;
	gate->live = true;
	spin_unlock(&p->lock);
unlock:
	mncompat_mmap_write_unlock(mm);
	return mn;
}

/*
 * mmu_notifier_put() for a paired table. The last put takes the gate out
 * (it calls the driver no more: the driver's subscription may be freed
 * one SRCU grace period after its put, while the gate is still called)
 * and forgets the ranges noted for the subscription (a range still in
 * flight gets its range_end from the kernel; one a 4.19-5.11 kernel never
 * ends stays unended: the subscription is going away), then puts the
 * subscription and the gate (both freed after the SRCU grace period). A
 * get in between finds no gate and makes a new one. Between the two, a
 * failing non-blockable start would reach the kernel without a gate; the
 * OOM reaper and process_mrelease() come only to an exiting mm, whose
 * subscriptions exit_mmap() took out before its files are closed. Does not
 * sleep.
 */
static inline void __mncompat_put_paired(struct mmu_notifier *mn)
{
	struct __mncompat_pairing *p = __mncompat_pairing_of(mn);
	struct __mncompat_gate *gate;
	struct __mncompat_started s;

	spin_lock(&p->lock);
	gate = __mncompat_gate_of(p, mn);
	if (gate && !--gate->users) {
		gate->live = false;
		__mncompat_unlist_gate(p, gate);
		while (__mncompat_take_started(p, mn, NULL, 0, 0, true, &s))
			;
	} else {
		gate = NULL;
	}
	spin_unlock(&p->lock);
	mmu_notifier_put(mn);
	if (gate)
		mmu_notifier_put(&gate->mn);
}
#endif

static inline void __mncompat_unregister_paired(struct mmu_notifier *mn,
						struct mm_struct *mm)
{
	struct __mncompat_pairing *p = __mncompat_pairing_of(mn);
	struct __mncompat_gate *gate;
	struct __mncompat_started s;
	bool more;

	/* No call of the driver's table after this; then the gate's. */
	mmu_notifier_unregister(mn, mm);
	spin_lock(&p->lock);
	gate = __mncompat_gate_of(p, mn);
	if (gate) {
		gate->live = false;	/* the gate calls nothing more */
		__mncompat_unlist_gate(p, gate);
	}
	spin_unlock(&p->lock);
	/* Ranges started whose range_end can no longer come. */
	do {
		spin_lock(&p->lock);
		more = __mncompat_take_started(p, mn, NULL, 0, 0, true, &s);
		spin_unlock(&p->lock);
		if (more && !s.failed)
			__mncompat_end_noted(p, mn, mm, &s);
	} while (more);
	if (gate) {
		mmu_notifier_unregister(&gate->mn, mm);
		kfree(gate);
	}
}

#define __MNCOMPAT_START_VALUE(start_fn, ops, end_fn, mn_flags)	\
	__builtin_choose_expr(__MNCOMPAT_PAIRED(start_fn, end_fn, mn_flags), \
			      __MNCOMPAT_TRAMP(ops, paired_start),	\
			      __MNCOMPAT_RANGE_START_VALUE(start_fn, ops))
#define __MNCOMPAT_END_VALUE(end_fn, ops, start_fn, mn_flags)		\
	__builtin_choose_expr(__MNCOMPAT_PAIRED(start_fn, end_fn, mn_flags), \
			      __mncompat_paired_range_end,		\
			      __MNCOMPAT_RANGE_END_VALUE(end_fn, ops))
#else
/* A declaration that declares nothing new, for the ";" after it. */
#define __MNCOMPAT_DEFINE_PAIRING(...)	struct mncompat_mmu_notifier_desc
#define __MNCOMPAT_DEFINE_PAIRED_START(...)
#define __MNCOMPAT_START_VALUE(start_fn, ops, ...)			\
	__MNCOMPAT_RANGE_START_VALUE(start_fn, ops)
#define __MNCOMPAT_END_VALUE(end_fn, ops, ...)				\
	__MNCOMPAT_RANGE_END_VALUE(end_fn, ops)
#endif

/**
 * mncompat_mmu_notifier_register - mmu_notifier_register() for compat tables
 * @mn: the subscription, its ops set
 * @mm: the mm to register on
 *
 * For every table of MNCOMPAT_MMU_NOTIFIER_OPS. For a table whose
 * range_start may fail (see the header comment) it also registers the
 * gate that keeps range_start and range_end paired; for any other table
 * it is mmu_notifier_register(). Takes the mmap lock, may sleep; returns 0
 * or a negative errno.
 */
static inline int mncompat_mmu_notifier_register(struct mmu_notifier *mn,
						 struct mm_struct *mm)
{
#if __MNCOMPAT_PAIRING
	if (__mncompat_is_paired(mn))
		return __mncompat_register_paired(mn, mm, false);
#endif
	return mmu_notifier_register(mn, mm);
}

/**
 * __mncompat_mmu_notifier_register - __mmu_notifier_register() for compat tables
 * @mn: the subscription, its ops set
 * @mm: the mm to register on, its mmap lock held for writing by the caller
 *
 * As mncompat_mmu_notifier_register(), for a caller that holds the mmap
 * lock (mncompat_mmap_write_lock()), as __mmu_notifier_register() wants:
 * the gate and the subscription are registered with
 * __mmu_notifier_register(), and nothing here takes the mmap lock. Undo
 * it with mncompat_mmu_notifier_unregister() (without the lock). May
 * sleep; returns 0 or a negative errno.
 */
static inline int __mncompat_mmu_notifier_register(struct mmu_notifier *mn,
						   struct mm_struct *mm)
{
#if __MNCOMPAT_PAIRING
	if (__mncompat_is_paired(mn))
		return __mncompat_register_paired(mn, mm, true);
#endif
	return __mmu_notifier_register(mn, mm);
}

#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
/**
 * mncompat_mmu_notifier_get - mmu_notifier_get() for compat tables
 * @ops: the table (with .alloc_notifier and .free_notifier)
 * @mm: the mm
 *
 * The one subscription of @ops on @mm, allocated by ops->alloc_notifier()
 * the first time, as mmu_notifier_get() (5.4 2c7933f53f6b); for a table
 * whose range_start may fail, with its gate (one per subscription, however
 * many gets). Takes the mmap lock, may sleep; the subscription or an
 * ERR_PTR(). Pair each with mncompat_mmu_notifier_put().
 */
static inline struct mmu_notifier *
mncompat_mmu_notifier_get(const struct mmu_notifier_ops *ops,
			  struct mm_struct *mm)
{
#if __MNCOMPAT_PAIRING
	if (__mncompat_ops_paired(ops))
		return __mncompat_get_paired(ops, mm);
#endif
	return mmu_notifier_get(ops, mm);
}

/**
 * mncompat_mmu_notifier_put - mmu_notifier_put() for compat tables
 * @mn: a subscription of mncompat_mmu_notifier_get()
 *
 * Drops a reference; the last one frees the subscription (and its gate)
 * through ops->free_notifier() after the SRCU grace period, as
 * mmu_notifier_put(). Does not sleep; may be called from the table's
 * release callback. Call mncompat_mmu_notifier_synchronize() before the
 * module goes.
 */
static inline void mncompat_mmu_notifier_put(struct mmu_notifier *mn)
{
#if __MNCOMPAT_PAIRING
	if (__mncompat_is_paired(mn)) {
		__mncompat_put_paired(mn);
		return;
	}
#endif
	mmu_notifier_put(mn);
}
#else
/*
 * get/put on kernels without them (before 5.4): for tables of
 * MNCOMPAT_MMU_NOTIFIER_GET_OPS, whose struct mmu_notifier_ops is the
 * first member of a struct __mncompat_get_table (the table's name is an
 * alias of it) with alloc_notifier, free_notifier, the driver's release
 * and the table's subscriptions, one per mm, counted. The table's release
 * is __mncompat_get_release(), by which compat knows such a table.
 */
struct __mncompat_get_sub {
	struct list_head link;		/* in state->subs */
	struct mmu_notifier *mn;
	struct mm_struct *mm;
	unsigned int users;		/* gets not yet put */
	const struct __mncompat_get_table *table;
	struct work_struct work;	/* the last put's unregister */
};

struct __mncompat_get_state {
	struct mutex lock;		/* serialises gets */
	spinlock_t subs_lock;		/* subs and users, also for puts */
	struct list_head subs;
};

struct __mncompat_get_table {
	struct mmu_notifier_ops table;	/* first: the table itself */
	void (*release)(struct mmu_notifier *mn, struct mm_struct *mm);
	struct mmu_notifier *(*alloc_notifier)(struct mm_struct *mm);
	void (*free_notifier)(struct mmu_notifier *mn);
	struct __mncompat_get_state *state;
};

static inline const struct __mncompat_get_table *
__mncompat_get_table_of(const struct mmu_notifier_ops *ops)
{
	return container_of(ops, struct __mncompat_get_table, table);
}

void __mncompat_get_release(struct mmu_notifier *mn, struct mm_struct *mm);

void __weak __mncompat_get_release(struct mmu_notifier *mn,
				   struct mm_struct *mm)
{
	const struct __mncompat_get_table *t = __mncompat_get_table_of(mn->ops);

	if (t->release)
		t->release(mn, mm);
}

static inline void mncompat_mmu_notifier_unregister(struct mmu_notifier *mn,
						    struct mm_struct *mm);

/* The last put's work: unregister (it may sleep), then free. */
static void __maybe_unused __mncompat_get_unregister(struct work_struct *work)
{
	struct __mncompat_get_sub *sub =
		container_of(work, struct __mncompat_get_sub, work);

	mncompat_mmu_notifier_unregister(sub->mn, sub->mm);
	sub->table->free_notifier(sub->mn);
	kfree(sub);
}

/* The counted subscription of t on mm, or NULL. */
static inline struct __mncompat_get_sub *
__mncompat_get_sub_of(const struct __mncompat_get_table *t,
		      const struct mmu_notifier *mn, const struct mm_struct *mm)
{
	struct __mncompat_get_sub *sub;

	lockdep_assert_held(&t->state->subs_lock);
	list_for_each_entry(sub, &t->state->subs, link)
		if (sub->mn == mn || (!mn && sub->mm == mm))
			return sub;
	return NULL;
}

/**
 * mncompat_mmu_notifier_get - mmu_notifier_get() for compat tables
 * @ops: a table of MNCOMPAT_MMU_NOTIFIER_GET_OPS
 * @mm: the mm
 *
 * Emulated (this kernel has no get/put, 5.4 2c7933f53f6b): the table's one
 * subscription on @mm, allocated by its alloc_notifier and registered with
 * mncompat_mmu_notifier_register() the first time (the gate included),
 * counted after. -EINVAL for a table not made by
 * MNCOMPAT_MMU_NOTIFIER_GET_OPS. Takes the mmap lock, may sleep.
 */
static inline struct mmu_notifier *
mncompat_mmu_notifier_get(const struct mmu_notifier_ops *ops,
			  struct mm_struct *mm)
{
	const struct __mncompat_get_table *t;
	struct __mncompat_get_sub *sub, *new;
	struct mmu_notifier *mn;
	int ret;

	if (WARN_ON_ONCE(ops->release != __mncompat_get_release))
		return ERR_PTR(-EINVAL);
	t = __mncompat_get_table_of(ops);
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&t->state->lock);
	spin_lock(&t->state->subs_lock);
	sub = __mncompat_get_sub_of(t, NULL, mm);
	if (sub)
		sub->users++;
	spin_unlock(&t->state->subs_lock);
	if (sub) {
		mn = sub->mn;
		kfree(new);
		goto unlock;
	}
	mn = t->alloc_notifier(mm);
	if (IS_ERR(mn)) {
		kfree(new);
		goto unlock;
	}
	mn->ops = ops;
	ret = mncompat_mmu_notifier_register(mn, mm);
	if (ret) {
		t->free_notifier(mn);
		kfree(new);
		mn = ERR_PTR(ret);
		goto unlock;
	}
	new->mn = mn;
	new->mm = mm;
	new->users = 1;
	new->table = t;
	INIT_WORK(&new->work, __mncompat_get_unregister);
	spin_lock(&t->state->subs_lock);
	list_add(&new->link, &t->state->subs);
	spin_unlock(&t->state->subs_lock);
unlock:
	mutex_unlock(&t->state->lock);
	return mn;
}

/**
 * mncompat_mmu_notifier_put - mmu_notifier_put() for compat tables
 * @mn: a subscription of mncompat_mmu_notifier_get()
 *
 * Emulated: the last put unregisters the subscription from a work item
 * (mncompat_mmu_notifier_unregister(), which also calls its release while
 * the mm lives, unlike the kernel's put) and then frees it with the
 * table's free_notifier. Does not sleep; may be called from the table's
 * release. Call mncompat_mmu_notifier_synchronize() before the module goes.
 */
static inline void mncompat_mmu_notifier_put(struct mmu_notifier *mn)
{
	const struct __mncompat_get_table *t = __mncompat_get_table_of(mn->ops);
	struct __mncompat_get_sub *sub;
	bool last = false;

	spin_lock(&t->state->subs_lock);
	sub = __mncompat_get_sub_of(t, mn, NULL);
	if (!WARN_ON_ONCE(!sub) && !--sub->users) {
		list_del(&sub->link);
		last = true;
	}
	spin_unlock(&t->state->subs_lock);
	if (last)
		schedule_work(&sub->work);
}
#endif

/**
 * mncompat_mmu_notifier_unregister - undo mncompat_mmu_notifier_register()
 * @mn: the subscription
 * @mm: the mm it was registered on
 *
 * mmu_notifier_unregister() of the subscription and of its gate, if any.
 * No callback of the table runs after it returns, except that the
 * driver's range_end is called here for a non-blockable range whose
 * range_start succeeded and whose end can no longer come.
 */
static inline void mncompat_mmu_notifier_unregister(struct mmu_notifier *mn,
						    struct mm_struct *mm)
{
#if __MNCOMPAT_PAIRING
	if (__mncompat_is_paired(mn)) {
		__mncompat_unregister_paired(mn, mm);
		return;
	}
#endif
	mmu_notifier_unregister(mn, mm);
}

/**
 * MNCOMPAT_MMU_NOTIFIER_OPS - define a static const struct mmu_notifier_ops
 * @ops: name of the table
 * @rel: void (*)(mn, mm), or NULL
 * @start: int (*)(mn, const struct mmu_notifier_range *), or NULL
 * @end: void (*)(mn, const struct mmu_notifier_range *), or NULL
 * @tlbs: void (*)(mn, mm, start, end), must not sleep, or NULL
 * @flags: MNCOMPAT_RANGE_START_MAY_SLEEP or 0
 *
 * Trailing arguments are extra designated initialisers for the table.
 */
#define __MNCOMPAT_NO_TLBS_HOOK_MSG(ops, tlbs_fn)				\
	"mncompat: " #ops ": this kernel has no invalidate_range (3.19+) to call " #tlbs_fn " from"
#define __MNCOMPAT_ATOMIC_PAGE_MSG(ops)					\
	"mncompat: " #ops ": range_start may sleep, this kernel calls invalidate_page() under the page-table lock (4.11-4.12; assumed for every pre-4.13 kernel) and there is no non-sleeping secondary-TLB hook to route it to"

#define MNCOMPAT_MMU_NOTIFIER_OPS(ops, rel, start_fn, end_fn, tlbs_fn,	\
				  mn_flags, ...)			\
	_Static_assert(__MNCOMPAT_HAVE_TLBS_HOOK ||			\
		       __MNCOMPAT_IS_NULL(tlbs_fn),			\
		       __MNCOMPAT_NO_TLBS_HOOK_MSG(ops, tlbs_fn));	\
	_Static_assert(!__MNCOMPAT_INVALIDATE_PAGE_ATOMIC ||		\
		       !((mn_flags) & MNCOMPAT_RANGE_START_MAY_SLEEP) ||	\
		       !__MNCOMPAT_IS_NULL(tlbs_fn),			\
		       __MNCOMPAT_ATOMIC_PAGE_MSG(ops));		\
	__MNCOMPAT_DEFINE_DESC(ops, rel, start_fn, end_fn, tlbs_fn,	\
			       mn_flags);				\
	__MNCOMPAT_DEFINE_PAIRING(ops);					\
	__MNCOMPAT_DEFINE_PAIRED_START(ops)				\
	__MNCOMPAT_DEFINE_RANGE_START(ops, start_fn)			\
	__MNCOMPAT_DEFINE_RANGE_END(ops, end_fn)			\
	__MNCOMPAT_DEFINE_INVALIDATE_PAGE(ops)				\
	static const struct mmu_notifier_ops ops = {			\
		.release = (rel),					\
		.invalidate_range_start =				\
			__MNCOMPAT_START_VALUE(start_fn, ops, end_fn,	\
					       mn_flags),		\
		.invalidate_range_end =					\
			__MNCOMPAT_END_VALUE(end_fn, ops, start_fn,	\
					     mn_flags),			\
		__MNCOMPAT_TLBS_FIELD(tlbs_fn, start_fn, end_fn)	\
		__MNCOMPAT_INVALIDATE_PAGE(ops)				\
		__MNCOMPAT_FLAGS_FIELD(mn_flags)			\
		__VA_ARGS__						\
	}

/**
 * MNCOMPAT_MMU_NOTIFIER_GET_OPS - a table for mncompat_mmu_notifier_get()
 * @ops: name of the table
 * @alloc_fn: struct mmu_notifier *(*)(mm), the table's alloc_notifier
 * @free_fn: void (*)(mn), its free_notifier (must not sleep)
 *
 * The other arguments as MNCOMPAT_MMU_NOTIFIER_OPS(). Where the kernel has
 * get/put (5.4+) the table is MNCOMPAT_MMU_NOTIFIER_OPS()'s with
 * .alloc_notifier and .free_notifier. Elsewhere it is the first member of
 * a struct __mncompat_get_table that holds them for compat's emulation
 * (the name @ops is an alias of it), and its release is compat's, which
 * calls @rel.
 */
#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_GET
#define MNCOMPAT_MMU_NOTIFIER_GET_OPS(ops, alloc_fn, free_fn, rel,	\
				      start_fn, end_fn, tlbs_fn,	\
				      mn_flags, ...)			\
	MNCOMPAT_MMU_NOTIFIER_OPS(ops, rel, start_fn, end_fn, tlbs_fn,	\
				  mn_flags,				\
				  .alloc_notifier = (alloc_fn),	\
				  .free_notifier = (free_fn),		\
				  __VA_ARGS__)
#else
#define MNCOMPAT_MMU_NOTIFIER_GET_OPS(ops, alloc_fn, free_fn, rel,	\
				      start_fn, end_fn, tlbs_fn,	\
				      mn_flags, ...)			\
	_Static_assert(__MNCOMPAT_HAVE_TLBS_HOOK ||			\
		       __MNCOMPAT_IS_NULL(tlbs_fn),			\
		       __MNCOMPAT_NO_TLBS_HOOK_MSG(ops, tlbs_fn));	\
	_Static_assert(!__MNCOMPAT_INVALIDATE_PAGE_ATOMIC ||		\
		       !((mn_flags) & MNCOMPAT_RANGE_START_MAY_SLEEP) ||	\
		       !__MNCOMPAT_IS_NULL(tlbs_fn),			\
		       __MNCOMPAT_ATOMIC_PAGE_MSG(ops));		\
	__MNCOMPAT_DEFINE_DESC(ops, rel, start_fn, end_fn, tlbs_fn,	\
			       mn_flags);				\
	__MNCOMPAT_DEFINE_PAIRING(ops);					\
	__MNCOMPAT_DEFINE_PAIRED_START(ops)				\
	__MNCOMPAT_DEFINE_RANGE_START(ops, start_fn)			\
	__MNCOMPAT_DEFINE_RANGE_END(ops, end_fn)			\
	__MNCOMPAT_DEFINE_INVALIDATE_PAGE(ops)				\
	static struct __mncompat_get_state ops##__mncompat_get_state = {	\
		.lock = __MUTEX_INITIALIZER(ops##__mncompat_get_state.lock), \
		.subs_lock =						\
		  __SPIN_LOCK_UNLOCKED(ops##__mncompat_get_state.subs_lock), \
		.subs = LIST_HEAD_INIT(ops##__mncompat_get_state.subs),	\
	};								\
	static const struct mmu_notifier_ops ops			\
		__alias(ops##__mncompat_get_table);			\
	static const struct __mncompat_get_table			\
	ops##__mncompat_get_table = {					\
		.table = {						\
			.release = __mncompat_get_release,		\
			.invalidate_range_start =			\
				__MNCOMPAT_START_VALUE(start_fn, ops,	\
						       end_fn, mn_flags), \
			.invalidate_range_end =				\
				__MNCOMPAT_END_VALUE(end_fn, ops,	\
						     start_fn, mn_flags), \
			__MNCOMPAT_TLBS_FIELD(tlbs_fn, start_fn, end_fn) \
			__MNCOMPAT_INVALIDATE_PAGE(ops)			\
			__MNCOMPAT_FLAGS_FIELD(mn_flags)		\
			__VA_ARGS__					\
		},							\
		.release = (rel),					\
		.alloc_notifier = (alloc_fn),				\
		.free_notifier = (free_fn),				\
		.state = &ops##__mncompat_get_state,			\
	}
#endif

#endif /* _MNCOMPAT_MMU_NOTIFIER_H */
