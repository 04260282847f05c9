/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The notifier glue: drivers-sample/mirror/mirror_notifier.c and the table
 * MNCOMPAT_MMU_NOTIFIER_OPS (compat/include/mncompat/mmu_notifier.h)
 * builds from it. The device registers one of
 *   DEVICE_RANGE      mirror_range_ops: range_start and range_end
 *   DEVICE_TLB        mirror_tlb_ops (MIRROR_TLB_ONLY=1 makes
 *                     mirror_notifier_ops() pick it): the secondary-TLB
 *                     hook only
 *   DEVICE_MAY_SLEEP  the same three callbacks in one table with
 *                     MNCOMPAT_RANGE_START_MAY_SLEEP, which compat allows
 *                     (on 6.6+ __MNCOMPAT_TLBS_FIELD leaves the hook out of
 *                     such a table, which makes it DEVICE_RANGE)
 *
 * Mutants:
 *   MUTANT_EMPTY_RANGE        the invalidate_page trampoline delivers
 *                             [address, address)
 *   MUTANT_TRAMPOLINE_NO_END  the trampoline calls range_start but not
 *                             range_end (faults must then hang: deadlock)
 *   MUTANT_NO_TRAMPOLINE      compat built with
 *                             MNCOMPAT_NO_INVALIDATE_PAGE_TRAMPOLINE: the
 *                             kernel's invalidate_page reaches no callback
 *                             (B2; the mirror-no-trampoline suite)
 */
#if defined(DEVICE_RANGE)
#define HAS_RANGE	1
#define HAS_TLBS	0
#define MAY_SLEEP	0
#elif defined(DEVICE_TLB)
#define HAS_RANGE	0
#define HAS_TLBS	1
#define MAY_SLEEP	0
#elif defined(DEVICE_MAY_SLEEP)
#define HAS_RANGE	1
#define HAS_TLBS	1
#define MAY_SLEEP	1
#else
#error "define DEVICE_RANGE, DEVICE_TLB or DEVICE_MAY_SLEEP"
#endif

/* mirror_invalidate_range_start() */
inline mirror_invalidate_range_start(covers)
{
	mirror_invalidate_begin(covers)
}

/* mirror_invalidate_range_end() */
inline mirror_invalidate_range_end()
{
	mirror_invalidate_end()
}

/* mirror_invalidate_secondary_tlbs() */
inline mirror_invalidate_secondary_tlbs(covers)
{
	mirror_invalidate(covers)
}

/* mirror_release() */
inline mirror_release()
{
	mirror_release_all()
}

/*
 * The kernel calls the table (mirror_range_ops or mirror_tlb_ops, as
 * mirror_notifier_ops() picks): a NULL callback is not called.
 */
inline call_range_start(covers)
{
#if HAS_RANGE
	mirror_invalidate_range_start(covers)
#else
	skip
#endif
}

inline call_range_end()
{
#if HAS_RANGE
	mirror_invalidate_range_end()
#else
	skip
#endif
}

inline call_secondary_tlbs(covers)
{
#if HAS_TLBS
	mirror_invalidate_secondary_tlbs(covers)
#else
	skip
#endif
}

/*
 * __mncompat_invalidate_page(), compat's ops->invalidate_page trampoline
 * (kernels before 4.13). Its range, from __mncompat_invalidate_page_end(),
 * contains A; __mncompat_range_start_nofail() calls range_start.
 */
#ifdef MUTANT_EMPTY_RANGE
#define TRAMPOLINE_COVERS	false
#else
#define TRAMPOLINE_COVERS	true
#endif

inline __mncompat_invalidate_page()
{
#ifdef MUTANT_NO_TRAMPOLINE
	skip
#else
#if !MAY_SLEEP
	call_range_start(TRAMPOLINE_COVERS);
#endif
	call_secondary_tlbs(TRAMPOLINE_COVERS);
#if !MAY_SLEEP && !defined(MUTANT_TRAMPOLINE_NO_END)
	call_range_end()
#else
	skip
#endif
#endif /* MUTANT_NO_TRAMPOLINE */
}
