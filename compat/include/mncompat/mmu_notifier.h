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
 * which defines "static const struct mmu_notifier_ops name" for use with
 * mmu_notifier_register().  Pass NULL for an absent callback.  flags is
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
 */
#ifndef _MNCOMPAT_MMU_NOTIFIER_H
#define _MNCOMPAT_MMU_NOTIFIER_H

#include <linux/bug.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <mncompat_config.h>

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
 * waits for running callbacks on every kernel.
 */
static inline void mncompat_mmu_notifier_synchronize(void)
{
#ifdef MNCOMPAT_HAVE_MMU_NOTIFIER_SYNCHRONIZE
	mmu_notifier_synchronize();
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

#if defined(MNCOMPAT_HAVE_ARCH_INVALIDATE_SECONDARY_TLBS)
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
#elif defined(MNCOMPAT_HAVE_INVALIDATE_RANGE)
#define __MNCOMPAT_HAVE_TLBS_HOOK	1
#define __MNCOMPAT_TLBS_FIELD(fn, ...)	.invalidate_range = (fn),
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

#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE) &&				\
	defined(MNCOMPAT_HAVE_RANGE_END_RANGE) &&			\
	!defined(MNCOMPAT_HAVE_INVALIDATE_PAGE)
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

/* The table's field: the trampoline, or NULL where fn is NULL. */
#define __MNCOMPAT_TRAMP_FIELD(field, fn, ops, what)			\
	.field = __MNCOMPAT_UNLESS_NULL(fn, __MNCOMPAT_TRAMP(ops, what)),

#if defined(MNCOMPAT_HAVE_RANGE_START_RANGE)
#define __MNCOMPAT_RANGE_START(start, ...)				\
	.invalidate_range_start = (start),
#define __MNCOMPAT_DEFINE_RANGE_START(...)
#else
#define __MNCOMPAT_RANGE_START(start, ops)				\
	__MNCOMPAT_TRAMP_FIELD(invalidate_range_start, start, ops, range_start)
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
#define __MNCOMPAT_RANGE_END(end, ...)	.invalidate_range_end = (end),
#define __MNCOMPAT_DEFINE_RANGE_END(...)
#elif defined(MNCOMPAT_HAVE_RANGE_END_VOID4)
/*
 * 2.6.27-4.20: void (mn, mm, start, end).  The kernel does not say whether
 * the range was blockable; it was, except for the 4.19-4.20 oom reaper.
 */
#define __MNCOMPAT_RANGE_END(end, ops)					\
	__MNCOMPAT_TRAMP_FIELD(invalidate_range_end, end, ops, range_end)
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
	__MNCOMPAT_DEFINE_RANGE_START(ops, start_fn)			\
	__MNCOMPAT_DEFINE_RANGE_END(ops, end_fn)			\
	__MNCOMPAT_DEFINE_INVALIDATE_PAGE(ops)				\
	static const struct mmu_notifier_ops ops = {			\
		.release = (rel),					\
		__MNCOMPAT_RANGE_START(start_fn, ops)			\
		__MNCOMPAT_RANGE_END(end_fn, ops)			\
		__MNCOMPAT_TLBS_FIELD(tlbs_fn, start_fn, end_fn)	\
		__MNCOMPAT_INVALIDATE_PAGE(ops)				\
		__MNCOMPAT_FLAGS_FIELD(mn_flags)			\
		__VA_ARGS__						\
	}

#endif /* _MNCOMPAT_MMU_NOTIFIER_H */
