/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The notifier glue: drivers-sample/mirror/mirror_notifier.c and the tables
 * and trampolines MNCOMPAT_MMU_NOTIFIER_OPS (compat/include/mncompat/
 * mmu_notifier.h) builds from it on each kernel generation. The device
 * registers one of
 *   DEVICE_RANGE      mirror_range_ops: range_start and range_end
 *   DEVICE_TLB        mirror_tlb_ops (MIRROR_TLB_ONLY=1 makes
 *                     mirror_notifier_ops() pick it): the secondary-TLB
 *                     hook only
 *   DEVICE_MAY_SLEEP  mirror_may_sleep_ops (model/may_sleep_glue.c): range
 *                     callbacks that take a mutex (range_start returns
 *                     -EAGAIN on a range that must not block) and the hook,
 *                     with MNCOMPAT_RANGE_START_MAY_SLEEP (on 6.6+ compat
 *                     leaves the hook out of such a table: range callbacks
 *                     alone, the protocol DEVICE_RANGE checks), one
 *                     subscription whose range callbacks are the driver's
 *                     (as compat's -DMNCOMPAT_NO_START_END_PAIRING knob
 *                     builds it, and every build before 4.19: the 5.12+
 *                     counterexample)
 *   DEVICE_MAY_SLEEP_GATE  the same table registered the way compat pairs
 *                     start and end on both sides of 5.12
 *                     (mncompat_mmu_notifier_register(), as devpt_register()
 *                     does: the table and compat's gate, COMPAT_GATE below;
 *                     the device the tie ties the glue to)
 *   DEVICE_MAY_SLEEP_NOGATE  compat's paired table (4.19+) registered with
 *                     the kernel's own mmu_notifier_register() or
 *                     __mmu_notifier_register() (the b4-may-sleep-kernel-locked
 *                     suite): one subscription, compat's trampolines
 *                     without a gate (COMPAT_NOGATE below)
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
 *   MUTANT_TRAMPOLINE_SLEEPS  the trampoline calls a may-sleep table's
 *                             range callbacks, with a blockable range (B1:
 *                             a sleeping callback reached from
 *                             invalidate_page)
 *   MUTANT_PAGE_SIZE_END      __mncompat_invalidate_page_end() always ends
 *                             the range one page on (B3: 4 KiB assumed)
 *   MUTANT_FLAGS_IGNORE_MAY_SLEEP  compat's 4.16-4.19 flags field gives
 *                             every table MMU_INVALIDATE_DOES_NOT_BLOCK
 *   MUTANT_EAGAIN_AFTER_BEGIN the may-sleep range_start counts the
 *                             invalidation in, then returns -EAGAIN
 * and compat's gate (DEVICE_MAY_SLEEP_GATE) broken one way at a time:
 *   MUTANT_GATE_IGNORES_FAILURE  the gate returns 0 where the driver's
 *                             range_start failed (the reaper goes on: B4)
 *   MUTANT_GATE_HAS_END       the gate's table has a range_end too
 *   MUTANT_SUB_REPORTS_FAILURE  the driver's subscription returns the
 *                             driver's -EAGAIN itself
 *   MUTANT_END_IGNORES_RECORD the driver's subscription calls the
 *                             driver's range_end whatever its start did
 *   MUTANT_START_TWICE        no record of the round: each of the two
 *                             subscriptions runs the driver's range_start
 *   MUTANT_RECORD_PER_MN      one record per notifier, not per task: two
 *                             tasks' rounds share it
 * and compat's table without a gate (DEVICE_MAY_SLEEP_NOGATE):
 *   MUTANT_NOGATE_END_IGNORES_FAILURE  its range_end calls the driver's
 *                             for a range whose start failed (as before
 *                             5a1077a), with the 5.12+ WARN let go
 *                             (MUTANT_WARN_GOES_ON: the WARN comes first)
 */
#ifdef MUTANT_NOGATE_END_IGNORES_FAILURE
#define MUTANT_WARN_GOES_ON
#endif
/* C(no-sleep): #define MNCOMPAT_RANGE_START_MAY_SLEEP 1 */
/* C(unmodelled: a benchmark knob, 0 outside MIRROR_BENCH builds): #define MIRROR_BENCH_SLOW_COMPAT 0 */

#if defined(DEVICE_RANGE)
/* C mirror_notifier_ops[default](coherence): const struct mmu_notifier_ops *mirror_notifier_ops(void) { return &mirror_range_ops; } */
/* C mirror_range_ops(coherence): static const struct mmu_notifier_ops mirror_range_ops = { .release = mirror_release, */
#define HAS_RANGE	1	/* C mirror_range_ops[<5.0](coherence): .invalidate_range_start = mirror_range_ops__mncompat_range_start, .invalidate_range_end = mirror_range_ops__mncompat_range_end, */
	/* C mirror_range_ops[>=5.0](coherence): .invalidate_range_start = mirror_invalidate_range_start, .invalidate_range_end = mirror_invalidate_range_end, */
#define HAS_TLBS	0
#define MAY_SLEEP	0
#define HAS_INVALIDATE_PAGE_TRAMPOLINE 1	/* C mirror_range_ops[<4.13](coherence): .invalidate_page = mirror_range_ops__mncompat_invalidate_page, */
#define TABLE_DOES_NOT_BLOCK 1	/* C mirror_range_ops[4.16-4.19](no-sleep): .flags = MMU_INVALIDATE_DOES_NOT_BLOCK, */
	/* C mirror_range_ops(coherence): }; */
/* C mirror_range_ops__mncompat_desc(coherence): static const struct mncompat_mmu_notifier_desc __maybe_unused mirror_range_ops__mncompat_desc = { .release = mirror_release, .invalidate_range_start = mirror_invalidate_range_start, .invalidate_range_end = mirror_invalidate_range_end, .invalidate_secondary_tlbs = NULL, .flags = 0 }; */
#define DESC_FLAGS	0

#elif defined(DEVICE_TLB)
/* C mirror_notifier_ops[tlb-only](coherence): const struct mmu_notifier_ops *mirror_notifier_ops(void) { return &mirror_tlb_ops; } */
/* C mirror_tlb_ops(coherence): static const struct mmu_notifier_ops mirror_tlb_ops = { .release = mirror_release, */
#define HAS_RANGE	0
#define HAS_TLBS	1	/* C mirror_tlb_ops[<6.6](coherence): .invalidate_range = mirror_invalidate_secondary_tlbs, */
	/* C mirror_tlb_ops[>=6.6](coherence): .arch_invalidate_secondary_tlbs = mirror_invalidate_secondary_tlbs, */
#define MAY_SLEEP	0
#define HAS_INVALIDATE_PAGE_TRAMPOLINE 1	/* C mirror_tlb_ops[<4.13](coherence): .invalidate_page = mirror_tlb_ops__mncompat_invalidate_page, */
#define TABLE_DOES_NOT_BLOCK 1	/* C mirror_tlb_ops[4.16-4.19](no-sleep): .flags = MMU_INVALIDATE_DOES_NOT_BLOCK, */
	/* C mirror_tlb_ops(coherence): }; */
/* C mirror_tlb_ops__mncompat_desc(coherence): static const struct mncompat_mmu_notifier_desc __maybe_unused mirror_tlb_ops__mncompat_desc = { .release = mirror_release, .invalidate_range_start = NULL, .invalidate_range_end = NULL, .invalidate_secondary_tlbs = mirror_invalidate_secondary_tlbs, .flags = 0 }; */
#define DESC_FLAGS	0

#elif defined(DEVICE_MAY_SLEEP)
/* C mirror_may_sleep_notifier_ops(coherence): const struct mmu_notifier_ops *mirror_may_sleep_notifier_ops(void) { return &mirror_may_sleep_ops; } */
#ifdef MUTANT_FLAGS_IGNORE_MAY_SLEEP
#define MAY_SLEEP_TABLE_FLAGS	1
#else
#define MAY_SLEEP_TABLE_FLAGS	0
#endif
/* No .flags on 4.16-4.19: the oom reaper leaves the mm alone. */
/*
 * C mirror_may_sleep_ops(no-sleep, coherence): static const struct
 * mmu_notifier_ops mirror_may_sleep_ops = { .release = mirror_sleepy_release,
 */
#define TABLE_DOES_NOT_BLOCK	MAY_SLEEP_TABLE_FLAGS
#define HAS_RANGE	1	/* C mirror_may_sleep_ops[<4.19](coherence, warn; reviewed: before 4.19 compat pairs nothing, the per-table trampolines of 4.19-4.20 are the paired ones now): .invalidate_range_start = mirror_may_sleep_ops__mncompat_range_start, .invalidate_range_end = mirror_may_sleep_ops__mncompat_range_end, */
	/*
	 * C mirror_may_sleep_ops[>=4.19](coherence, warn, pairing; reviewed:
	 * from 4.19 the table's range callbacks are compat's paired trampolines
	 * OPS__mncompat_paired_start and __mncompat_paired_range_end, which
	 * are compat_sub_range_start and compat_sub_range_end, with the gate
	 * in the may-sleep-gate device and without it in the may-sleep-nogate
	 * device, the table registered with the kernel's plain calls, while
	 * the may-sleep device has the driver's callbacks as the
	 * MNCOMPAT_NO_START_END_PAIRING build makes them, the 5.12+
	 * counterexample):
	 * .invalidate_range_start = mirror_may_sleep_ops__mncompat_paired_start,
	 * .invalidate_range_end = __mncompat_paired_range_end,
	 */
#define HAS_TLBS	1	/* C mirror_may_sleep_ops[<6.6](coherence): .invalidate_range = mirror_sleepy_secondary_tlbs, */
#ifdef OOM_66
#undef HAS_TLBS
#define HAS_TLBS	0	/* 6.6+: compat leaves the hook out of this table */
#endif
#define MAY_SLEEP	1
#define HAS_INVALIDATE_PAGE_TRAMPOLINE 1	/* C mirror_may_sleep_ops[<4.13](coherence): .invalidate_page = mirror_may_sleep_ops__mncompat_invalidate_page, }; */
	/* C mirror_may_sleep_ops[>=4.13](coherence): }; */
/*
 * C mirror_may_sleep_ops__mncompat_pairing[>=4.19](pairing; reviewed:
 * compat's state of a paired table, its lock and the records the model
 * keeps in gate_rec of coherence.pml): static struct __mncompat_pairing
 * __maybe_unused mirror_may_sleep_ops__mncompat_pairing = { .desc =
 * &mirror_may_sleep_ops__mncompat_desc, .lock =
 * __SPIN_LOCK_UNLOCKED(mirror_may_sleep_ops__mncompat_pairing.lock) };
 */
/* C mirror_may_sleep_ops__mncompat_desc(coherence, no-sleep): static const struct mncompat_mmu_notifier_desc __maybe_unused mirror_may_sleep_ops__mncompat_desc = { .release = mirror_sleepy_release, .invalidate_range_start = mirror_sleepy_range_start, .invalidate_range_end = mirror_sleepy_range_end, .invalidate_secondary_tlbs = mirror_sleepy_secondary_tlbs, .flags = MNCOMPAT_RANGE_START_MAY_SLEEP }; */
#define DESC_FLAGS	MNCOMPAT_RANGE_START_MAY_SLEEP

#else
#error "define DEVICE_RANGE, DEVICE_TLB or DEVICE_MAY_SLEEP"
#endif
#define MNCOMPAT_RANGE_START_MAY_SLEEP	1

/* mirror_invalidate_range_start() */
inline mirror_invalidate_range_start(start, end)	/* C(coherence): static int mirror_invalidate_range_start(struct mmu_notifier *mn, const struct mmu_notifier_range *range) { */
{
	/* C(unmodelled: a benchmark knob): if (MIRROR_BENCH_SLOW_COMPAT) udelay(10); */
	mirror_invalidate_begin(start, end);	/* C(coherence): mirror_invalidate_begin(to_mirror(mn), range->start, range->end); */
	ret = 0	/* C(coherence): return 0; } */
}

/* mirror_invalidate_range_end() */
inline mirror_invalidate_range_end(start, end)	/* C(deadlock): static void mirror_invalidate_range_end(struct mmu_notifier *mn, const struct mmu_notifier_range *range) { */
{
	mirror_invalidate_end(start, end)	/* C(deadlock): mirror_invalidate_end(to_mirror(mn), range->start, range->end); } */
}

/* mirror_invalidate_secondary_tlbs() */
inline mirror_invalidate_secondary_tlbs(start, end)	/* C(coherence): static void mirror_invalidate_secondary_tlbs(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end) { */
{
	mirror_invalidate(start, end)	/* C(coherence): mirror_invalidate(to_mirror(mn), MIRROR_CB_SECONDARY_TLBS, start, end); } */
}

/* mirror_release() */
inline mirror_release()	/* C(coherence): static void mirror_release(struct mmu_notifier *mn, struct mm_struct *mm) { */
{
	mirror_release_all()	/* C(coherence): mirror_release_all(to_mirror(mn)); } */
}

/* The may-sleep glue, model/may_sleep_glue.c. */
inline mirror_sleepy_range_start(start, end, blockable)	/* C(no-sleep): static int mirror_sleepy_range_start(struct mmu_notifier *mn, const struct mmu_notifier_range *range) { */
{
	/* C(unmodelled: the model has one device): struct mirror_file *mf = to_mirror(mn); */
	/* C mncompat_range_blockable[<5.2](no-sleep): static inline bool mncompat_range_blockable(const struct mmu_notifier_range *range) { return range->blockable; } */
	/* C mncompat_range_blockable[>=5.2](no-sleep): static inline bool mncompat_range_blockable(const struct mmu_notifier_range *range) { return mmu_notifier_range_blockable(range); } */
	if
#ifdef MUTANT_EAGAIN_AFTER_BEGIN
	:: !blockable -> mirror_invalidate_begin(start, end); ret = EAGAIN
#else
	:: !blockable -> ret = EAGAIN	/* C(no-sleep, deadlock, warn, pairing, b4): if (!mncompat_range_blockable(range)) return -EAGAIN; */
#endif
	:: else ->
		mutex_lock(sleep_lock);	/* C(no-sleep): mutex_lock(&mf->sleep_lock); */
		mirror_invalidate_begin(start, end);	/* C(coherence): mirror_invalidate_begin(mf, range->start, range->end); */
		mutex_unlock(sleep_lock);	/* C(no-sleep): mutex_unlock(&mf->sleep_lock); */
		ret = 0	/* C(coherence): return 0; } */
	fi
}

inline mirror_sleepy_range_end(start, end)	/* C(no-sleep, deadlock, pairing): static void mirror_sleepy_range_end(struct mmu_notifier *mn, const struct mmu_notifier_range *range) { */
{
	/* C(unmodelled: the model has one device): struct mirror_file *mf = to_mirror(mn); */
	mutex_lock(sleep_lock);	/* C(no-sleep): mutex_lock(&mf->sleep_lock); */
	mirror_invalidate_end(start, end);	/* C(deadlock): mirror_invalidate_end(mf, range->start, range->end); */
	mutex_unlock(sleep_lock)	/* C(no-sleep): mutex_unlock(&mf->sleep_lock); } */
}

inline mirror_sleepy_secondary_tlbs(start, end)	/* C(coherence): static void mirror_sleepy_secondary_tlbs(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end) { */
{
	mirror_invalidate(start, end)	/* C(coherence): mirror_invalidate(to_mirror(mn), MIRROR_CB_SECONDARY_TLBS, start, end); } */
}

inline mirror_sleepy_release()	/* C(coherence): static void mirror_sleepy_release(struct mmu_notifier *mn, struct mm_struct *mm) { */
{
	mirror_release_all()	/* C(coherence): mirror_release_all(to_mirror(mn)); } */
}

/*
 * The kernel calls the table: ops->invalidate_range_start (compat's
 * trampoline before 5.0, which builds the range), ops->invalidate_range_end,
 * the secondary-TLB hook, ops->release. A NULL callback is not called, and
 * range_start's result is 0 where there is none. BLOCKABLE is what the
 * range says: false only in the 4.19+ oom reaper's range; before 4.19
 * compat's trampoline says true, whatever the caller.
 */
/*
 * The ghost drv_started (pairing): the driver's range_start returned 0 for
 * this task's range, and its range_end has not run yet; drv_declined (b4):
 * the last range_start of the driver in this task failed. Checked where a
 * start may fail or compat pairs them (PAIRING, coherence.pml); elsewhere
 * the kernel's bracket pairs them by its shape.
 */
inline call_range_start(start, end, blockable)
{
	/* C OPS__mncompat_range_start[<4.19](coherence): static void __maybe_unused OPS__mncompat_range_start(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start_, unsigned long end_) { const struct mmu_notifier_range range = { .mm = mm, .start = start_, .end = end_, .blockable = true }; __mncompat_range_start_nofail(&OPS__mncompat_desc, mn, &range); } */
	/* C OPS__mncompat_range_start[4.19-4.20](coherence, no-sleep): static int __maybe_unused OPS__mncompat_range_start(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start_, unsigned long end_, bool blockable) { const struct mmu_notifier_range range = { .mm = mm, .start = start_, .end = end_, .blockable = blockable }; return OPS__mncompat_desc.invalidate_range_start(mn, &range); } */
#if HAS_RANGE && !MAY_SLEEP
	mirror_invalidate_range_start(start, end)
#elif HAS_RANGE
	mirror_sleepy_range_start(start, end, blockable)
#else
	ret = 0
#endif
#if HAS_RANGE && PAIRING
	;
	atomic {	/* ghosts */
		drv_started = (ret == 0 -> true : drv_started);
		drv_declined = (ret != 0)
	}
#endif
}

inline call_range_end(start, end)
{
	/* C OPS__mncompat_range_end[<5.0](deadlock): static void __maybe_unused OPS__mncompat_range_end(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start_, unsigned long end_) { const struct mmu_notifier_range range = { .mm = mm, .start = start_, .end = end_, .blockable = true }; OPS__mncompat_desc.invalidate_range_end(mn, &range); } */
#if HAS_RANGE && PAIRING
	/* pairing: the driver's range_end only after its range_start succeeded */
	atomic { assert(paired && drv_started); drv_started = false };
#endif
#if HAS_RANGE && !MAY_SLEEP
	mirror_invalidate_range_end(start, end)
#elif HAS_RANGE
	mirror_sleepy_range_end(start, end)
#else
	skip
#endif
}

/* The hook runs in atomic context, wherever the kernel calls it from. */
inline call_secondary_tlbs(start, end)
{
#if HAS_TLBS && !MAY_SLEEP
	mirror_invalidate_secondary_tlbs(start, end)
#elif HAS_TLBS
	mirror_sleepy_secondary_tlbs(start, end)
#else
	skip
#endif
}

inline call_release()
{
#if MAY_SLEEP
	mirror_sleepy_release()
#else
	mirror_release()
#endif
}

/*
 * __mncompat_range_start_nofail(): range_start where the kernel cannot
 * take a failure (it WARNs and goes on).
 */
inline __mncompat_range_start_nofail(start, end, blockable)	/* C(coherence): static __always_inline void __mncompat_range_start_nofail(const struct mncompat_mmu_notifier_desc *desc, struct mmu_notifier *mn, const struct mmu_notifier_range *range) { */
{
	call_range_start(start, end, blockable)	/* C(coherence): if (desc->invalidate_range_start) WARN_ONCE(desc->invalidate_range_start(mn, range), "mncompat: invalidate_range_start failed where the kernel cannot handle it\n"); } */
}

/* __mncompat_invalidate_page_end(): the end of what the call covers. */
inline __mncompat_invalidate_page_end(address)	/* C(coherence): static __always_inline unsigned long __mncompat_invalidate_page_end(unsigned long address) { */
{
	if
#ifndef MUTANT_PAGE_SIZE_END
	:: (address & (HPAGE_PMD_SIZE - 1)) == 0 ->	/* C(coherence): if (IS_ALIGNED(address, HPAGE_PMD_SIZE)) */
		r_end = address + HPAGE_PMD_SIZE	/* C(coherence): return address + HPAGE_PMD_SIZE; */
#endif
	:: else ->
		r_end = (address & PAGE_MASK) + PAGE_SIZE	/* C(coherence): return (address & PAGE_MASK) + PAGE_SIZE; } */
	fi
}

#ifdef MUTANT_TRAMPOLINE_SLEEPS
#define TRAMPOLINE_BLOCKABLE	true
#define TRAMPOLINE_CALLS_RANGE	1
#else
#define TRAMPOLINE_BLOCKABLE	false
#define TRAMPOLINE_CALLS_RANGE	(DESC_FLAGS & MNCOMPAT_RANGE_START_MAY_SLEEP) == 0
#endif

/*
 * __mncompat_invalidate_page(), compat's ops->invalidate_page trampoline
 * (kernels before 4.13, through OPS__mncompat_invalidate_page), called by
 * the kernel for the page at ADDRESS.
 */
inline __mncompat_invalidate_page(address)	/* C(coherence): static __always_inline void __mncompat_invalidate_page(const struct mncompat_mmu_notifier_desc *desc, struct mmu_notifier *mn, struct mm_struct *mm, unsigned long address) { */
{
	/* C OPS__mncompat_invalidate_page(coherence): static void __maybe_unused OPS__mncompat_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long address) { __mncompat_invalidate_page(&OPS__mncompat_desc, mn, mm, address); } */
#ifdef MUTANT_NO_TRAMPOLINE
	skip
#else
	/* C(coherence, no-sleep): const struct mmu_notifier_range range = { .mm = mm, .start = address & PAGE_MASK, .end = __mncompat_invalidate_page_end(address), .blockable = false }; */
	r_start = address & PAGE_MASK;
	__mncompat_invalidate_page_end(address);
#ifdef MUTANT_EMPTY_RANGE
	r_end = r_start;
#endif
	r_blockable = TRAMPOLINE_BLOCKABLE;
#if TRAMPOLINE_CALLS_RANGE	/* C(no-sleep, coherence): if (!(desc->flags & MNCOMPAT_RANGE_START_MAY_SLEEP)) */
	__mncompat_range_start_nofail(r_start, r_end, r_blockable);	/* C(coherence): __mncompat_range_start_nofail(desc, mn, &range); */
#endif
	call_secondary_tlbs(r_start, r_end);	/* C(coherence): if (desc->invalidate_secondary_tlbs) desc->invalidate_secondary_tlbs(mn, mm, range.start, range.end); */
#if TRAMPOLINE_CALLS_RANGE && !defined(MUTANT_TRAMPOLINE_NO_END)	/* C(no-sleep, deadlock): if (!(desc->flags & MNCOMPAT_RANGE_START_MAY_SLEEP) && desc->invalidate_range_end) */
	call_range_end(r_start, r_end)	/* C(deadlock): desc->invalidate_range_end(mn, &range); } */
#else
	skip
#endif
#endif /* MUTANT_NO_TRAMPOLINE */
}

#if defined(COMPAT_GATE) || defined(COMPAT_NOGATE)
/*
 * compat's pairing design (issue 33 item 2, in
 * compat/include/mncompat/mmu_notifier.h): mncompat_mmu_notifier_register()
 * registers, besides the driver's subscription (the table above, whose
 * range callbacks are compat's), a gate: a subscription whose table has
 * only invalidate_range_start. The kernel calls every range_start of the
 * mm's list in its order, gate first or driver first (the list's order
 * comes from the order of registration: gate_first, chosen once), and on
 * 5.12+ range_end on every table that has one after a failure (kernel.pml).
 *
 * What compat must guarantee, and all the model assumes of it (the states
 * below are one way to do it, not compat's code):
 *   G1  in each round of range_start calls (one task, one range), the
 *       driver's range_start runs exactly once, in whichever of the two
 *       subscriptions the kernel calls first;
 *   G2  where it failed, the gate's range_start returns -EAGAIN (the reaper
 *       backs off: B4), in whichever order the two are called;
 *   G3  the driver's subscription's range_start always returns 0, and the
 *       gate's table has no range_end (no 5.12+ WARN);
 *   G4  the driver's subscription's range_end calls the driver's range_end
 *       exactly when this round's driver range_start succeeded (5.12+ calls
 *       it after a failure too);
 *   G5  the record is kept per (mn, task, range): another task's round
 *       does not see it, and a record a round left without a range_end
 *       (4.19-5.11 after a failure) does not count for the same task's
 *       next round (the oom reaper's retry): that start clears it.
 * On 4.16-4.18 the reaper skips an mm while one of its tables lacks
 * MMU_INVALIDATE_DOES_NOT_BLOCK: the may-sleep table does, whatever the
 * gate's flags (the gate must not claim it either: its range_start runs
 * the driver's, which may sleep). Before 4.19 no range_start can fail.
 * A round's record: none, its first start ran the driver's (OK1, FAIL1),
 * both starts ran (OK2, FAIL2: finished, or stale where no range_end came).
 *
 * Without a gate (COMPAT_NOGATE: the table registered with the kernel's
 * plain calls) the table's range_start is the driver's answer, on a
 * non-blockable range with the task's stale record taken out first and a
 * failure noted (NOGATE_FAILED), and its range_end skips the driver's for
 * a non-blockable range noted as failed: the range_end 5.12+ calls after
 * the failure (and after its WARN, which compat cannot prevent without the
 * gate) does not reach the driver.
 */
#define REC_NONE	0
#define REC_OK1		1
#define REC_FAIL1	2
#define REC_OK2		3
#define REC_FAIL2	4
#define REC_NOGATE_FAILED 5
#ifdef MUTANT_RECORD_PER_MN
#define REC		gate_rec[0]
#else
#define REC		gate_rec[_pid]
#endif
#ifdef MUTANT_GATE_HAS_END
#define GATE_HAS_END	1
#else
/* C __mncompat_gate_ops[>=4.19](warn, no-sleep; reviewed: G3, the gate's table has range_start alone and no MMU_INVALIDATE_DOES_NOT_BLOCK): static const struct mmu_notifier_ops __maybe_unused __mncompat_gate_ops = { .invalidate_range_start = __mncompat_gate_range_start, }; */
#define GATE_HAS_END	0
#endif

/*
 * Either subscription's range_start: G1, G5; ret is the driver's result.
 * A record step is one step: no other task reads this task's record.
 */
inline compat_round_start(start, end, blockable)
{
	/*
	 * C __mncompat_note_started[>=4.19](pairing, b4; reviewed: G1 and G4,
	 * compat notes the range of a started round in one of 8 slots per
	 * table under its lock where the model keeps REC per task, and refuses
	 * the round with -EAGAIN when no slot is free, which the model with
	 * its two tasks never sees, and notes a failed start of a table
	 * without a gate with failed set, REC_NOGATE_FAILED in the model, the
	 * gate's records never failed): static inline bool
	 * __mncompat_note_started(struct __mncompat_pairing *p, struct
	 * mmu_notifier *mn, const struct mmu_notifier_range *range, bool
	 * failed) { struct __mncompat_started *s;
	 * lockdep_assert_held(&p->lock); for (s = p->started; s < p->started +
	 * 8; s++) { if (s->mn) continue; s->mn = mn; s->task = current;
	 * s->start = range->start; s->end = range->end; s->failed = failed;
	 * return true; } return false; }
	 */
	/*
	 * C __mncompat_take_started[>=4.19](pairing; reviewed: G5, a record is
	 * found by notifier, task and range, or by notifier and task alone for
	 * a stale one, and taken out as it is used, as REC goes back to
	 * REC_NONE): static inline bool __mncompat_take_started(struct
	 * __mncompat_pairing *p, const struct mmu_notifier *mn, struct
	 * task_struct *task, unsigned long start, unsigned long end, bool
	 * any_range, struct __mncompat_started *out) { struct
	 * __mncompat_started *s; lockdep_assert_held(&p->lock); for (s =
	 * p->started; s < p->started + 8; s++) { if (s->mn != mn || (task &&
	 * s->task != task) || (!any_range && (s->start != start || s->end !=
	 * end))) continue; *out = *s; s->mn = NULL; return true; } return
	 * false; }
	 */
	/*
	 * C __mncompat_end_noted[4.19-5.1](unmodelled: the late range_end of a
	 * range whose start succeeded and that another table's failure left
	 * without range_end on 4.19-5.11, or that unregister ends, the model
	 * has one device and no unregister): static inline void
	 * __mncompat_end_noted(struct __mncompat_pairing *p, struct
	 * mmu_notifier *mn, struct mm_struct *mm, const struct
	 * __mncompat_started *s) { const struct mmu_notifier_range range = {
	 * .blockable = false, .end = s->end, .mm = mm, .start = s->start };
	 * p->desc->invalidate_range_end(mn, &range); }
	 */
	/*
	 * C __mncompat_end_noted[>=5.2](unmodelled: the late range_end of a
	 * range whose start succeeded and that another table's failure left
	 * without range_end on 4.19-5.11, or that unregister ends, the model
	 * has one device and no unregister): static inline void
	 * __mncompat_end_noted(struct __mncompat_pairing *p, struct
	 * mmu_notifier *mn, struct mm_struct *mm, const struct
	 * __mncompat_started *s) { const struct mmu_notifier_range range = {
	 * .end = s->end, .event = MMU_NOTIFY_CLEAR, .flags = false ?
	 * MMU_NOTIFIER_RANGE_BLOCKABLE : 0, .mm = mm, .start = s->start };
	 * p->desc->invalidate_range_end(mn, &range); }
	 */
#ifdef MUTANT_START_TWICE
	call_range_start(start, end, blockable);
	REC = (ret == 0 -> REC_OK2 : REC_FAIL2)
#else
	if
	:: atomic { REC == REC_OK1 -> REC = REC_OK2; ret = 0 }
	:: atomic { REC == REC_FAIL1 -> REC = REC_FAIL2; ret = EAGAIN }
	:: else ->	/* a new round; a stale record (OK2, FAIL2) is cleared */
		call_range_start(start, end, blockable);
		REC = (ret == 0 -> REC_OK1 : REC_FAIL1)
	fi
#endif
}

/*
 * The gate's range_start: G2, it reports the driver's failure
 * (GATE_REPORTS: the kernel sees its result).
 */
inline compat_gate_range_start(start, end, blockable)
{
	/* C __mncompat_gate_range_start[4.19-4.20](b4, warn; reviewed: the gate's range_start, the 4.19-4.20 form): static int __maybe_unused __mncompat_gate_range_start(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start_, unsigned long end_, bool blockable) { const struct mmu_notifier_range range = { .blockable = blockable, .end = end_, .mm = mm, .start = start_ }; return __mncompat_gate_start(mn, &range); } */
	/* C __mncompat_gate_range_start[>=5.0](b4, warn; reviewed: the gate's range_start): static int __maybe_unused __mncompat_gate_range_start(struct mmu_notifier *mn, const struct mmu_notifier_range *range) { return __mncompat_gate_start(mn, range); } */
	/*
	 * C __mncompat_gate_start[>=4.19](pairing, b4; reviewed: G1 another
	 * way, the gate runs the driver's range_start on a non-blockable range
	 * and the driver's subscription on a blockable one, whichever the
	 * kernel calls first, so the other subscription's start changes
	 * nothing the device sees, and the gate does nothing until
	 * registration made it live): static inline int
	 * __mncompat_gate_start(struct mmu_notifier *gate_mn, const struct
	 * mmu_notifier_range *range) { struct __mncompat_gate *gate =
	 * container_of(gate_mn, struct __mncompat_gate, mn); struct
	 * __mncompat_pairing *p = gate->pairing; struct mmu_notifier *mn =
	 * gate->main; struct __mncompat_started stale; bool live, have_stale;
	 * int ret = 0; if (mncompat_range_blockable(range)) return 0;
	 * spin_lock(&p->lock); live = gate->live;
	 */
	/*
	 * C __mncompat_gate_start[>=4.19](unmodelled: G5 another way, a
	 * record of this task left by a round that no range_end closed, a
	 * 4.19-5.11 kernel after another table's failure, is ended late by
	 * the task's next non-blockable start where the model clears it, and
	 * the model has one device, a record noted as failed being dropped
	 * and not ended, which a live gate meets only after a gate-less
	 * window of mncompat_mmu_notifier_put and get, not in the model):
	 * have_stale = live && __mncompat_take_started(p, mn, current, 0, 0,
	 * true, &stale); spin_unlock(&p->lock); if (!live) return 0; if
	 * (have_stale && !stale.failed) __mncompat_end_noted(p, mn,
	 * range->mm, &stale);
	 */
	/*
	 * C __mncompat_gate_start[>=4.19](pairing, b4, warn; reviewed: G2 and
	 * G4, the driver's start noted, and on its failure the note taken out
	 * and -EAGAIN for the kernel from the gate, which has no range_end,
	 * as REC_FAIL and GATE_REPORTS, the no-slot refusal left out as with
	 * __mncompat_note_started, the record noted as not failed):
	 * spin_lock(&p->lock); if (!gate->live) { ret = 0; } else if
	 * (!__mncompat_note_started(p, mn, range, false)) { ret =
	 * -EAGAIN; } else if (p->desc->invalidate_range_start(mn, range)) {
	 * __mncompat_take_started(p, mn, current, range->start, range->end,
	 * false, &stale); ret = -EAGAIN; } spin_unlock(&p->lock); return ret; }
	 */
	compat_round_start(start, end, blockable)
}
#ifdef MUTANT_GATE_IGNORES_FAILURE
#define GATE_REPORTS	0
#else
#define GATE_REPORTS	1
#endif

/*
 * The driver's subscription's range_start: with the gate G3, it returns 0
 * whatever the driver's did (SUB_REPORTS 0: the kernel sees no failure
 * from it); without a gate (COMPAT_NOGATE) the driver's answer, which the
 * kernel sees (kernel_range_start), a failure on a non-blockable range
 * noted for the range_end.
 */
inline compat_sub_range_start(start, end, blockable)
{
	/* C OPS__mncompat_paired_start[4.19-4.20](pairing, warn; reviewed: the paired table's range_start trampoline, the 4.19-4.20 form): static int __maybe_unused OPS__mncompat_paired_start(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start_, unsigned long end_, bool blockable) { const struct mmu_notifier_range range = { .blockable = blockable, .end = end_, .mm = mm, .start = start_ }; return __mncompat_paired_start(&OPS__mncompat_pairing, mn, &range); } */
	/* C OPS__mncompat_paired_start[>=5.0](pairing, warn; reviewed: the paired table's range_start trampoline): static int __maybe_unused OPS__mncompat_paired_start(struct mmu_notifier *mn, const struct mmu_notifier_range *range) { return __mncompat_paired_start(&OPS__mncompat_pairing, mn, range); } */
	/*
	 * C __mncompat_gate_of[>=4.19](pairing; reviewed: the gate of the
	 * driver's subscription, one per registration, which the model has
	 * once): static inline struct __mncompat_gate
	 * *__mncompat_gate_of(struct __mncompat_pairing *p, const struct
	 * mmu_notifier *mn) { struct __mncompat_gate *gate;
	 * lockdep_assert_held(&p->lock); for (gate = p->gates; gate; gate =
	 * gate->next) if (gate->main == mn) return gate; return NULL; }
	 */
	/*
	 * C __mncompat_paired_start[>=4.19](unmodelled: the query of
	 * __mncompat_pairing_of, a range with no mm that no kernel passes,
	 * and the declaration of the stale record the branch without a gate
	 * takes out):
	 * static inline int __mncompat_paired_start(struct __mncompat_pairing
	 * *p, struct mmu_notifier *mn, const struct mmu_notifier_range *range)
	 * { struct __mncompat_gate *gate; struct __mncompat_started stale
	 * __maybe_unused; int ret = 0; if (unlikely(!range->mm)) { *(struct
	 * __mncompat_pairing **)range->start = p; return 0; }
	 */
	/*
	 * C __mncompat_paired_start[>=4.19](pairing, warn, no-sleep; reviewed:
	 * G1 and G3 another way, on a blockable range the driver's subscription
	 * runs the driver's range_start and passes its result on, which the
	 * glue's is 0 there, on a non-blockable one it returns 0 and the live
	 * gate runs the driver's, and without a gate the blockable branch
	 * below is this return): if (mncompat_range_blockable(range)) return
	 * p->desc->invalidate_range_start(mn, range); spin_lock(&p->lock); gate
	 * = __mncompat_gate_of(p, mn);
	 */
#ifdef COMPAT_NOGATE
	if
	:: blockable -> call_range_start(start, end, blockable)
	:: else ->
		/*
		 * C __mncompat_paired_start[>=4.19](unmodelled: a gate not yet
		 * live, a range during registration, which the model runs
		 * before any range): if (gate && !gate->live) { ret =
		 * p->desc->invalidate_range_start(mn, range); if (!ret)
		 * __mncompat_note_started(p, mn, range, false); }
		 */
		/*
		 * C __mncompat_paired_start[4.19-4.20](pairing, warn, b4;
		 * reviewed: no gate, the table registered with the kernel's
		 * plain calls as the may-sleep-nogate device, the driver's answer
		 * for the kernel and no record, as the step below stands for
		 * both forms, the record it makes on 5.0+ being looked at only by
		 * a range_end after a failure, which 4.19-4.20 kernels never
		 * call): else if (!gate) { ret =
		 * p->desc->invalidate_range_start(mn, range); if (ret)
		 * __mncompat_no_gate(p, ret); }
		 */
		/*
		 * C __mncompat_paired_start[>=5.0](pairing, warn, b4; reviewed:
		 * no gate, the table registered with the kernel's plain calls as
		 * the may-sleep-nogate device, a stale record of this task taken
		 * out, the driver's answer for the kernel, its failure noted as
		 * REC_NOGATE_FAILED for the range_end, the slots being per table
		 * under its lock where the model keeps REC per task): else if
		 * (!gate) { __mncompat_take_started(p, mn, current, 0, 0, true,
		 * &stale); ret = p->desc->invalidate_range_start(mn, range); if
		 * (ret) { __mncompat_no_gate(p, ret); __mncompat_note_started(p,
		 * mn, range, true); } }
		 */
		REC = REC_NONE;	/* the task's stale record taken out */
		call_range_start(start, end, blockable);
		/*
		 * C __mncompat_no_gate[>=4.19](no-sleep; reviewed: compat's
		 * message once where the driver's start failed without a gate,
		 * printk under the lock, which does not sleep, and no WARNING
		 * splat, the kernel's own 5.12+ WARN being the warn property, so
		 * the model prints nothing and the step here is the failure
		 * noted): static inline void __mncompat_no_gate(struct
		 * __mncompat_pairing *p, int ret) { pr_warn_once(
		 * "mncompat: %ps: a table whose range_start may fail, registered without compat's gate (use mncompat_mmu_notifier_register(), __mncompat_mmu_notifier_register() or mncompat_mmu_notifier_get()): its failed start (%d) makes 5.12+ kernels warn\n",
		 * p->desc->invalidate_range_start, ret); }
		 */
		REC = (ret != 0 -> REC_NOGATE_FAILED : REC_NONE)
	fi
#else
	/* C __mncompat_paired_start[>=4.19](pairing, warn; reviewed: G3, the subscription reports 0 where the gate is live, SUB_REPORTS 0, and without a gate it reports the driver's answer, kernel_range_start's COMPAT_NOGATE branch): spin_unlock(&p->lock); return ret; } */
	compat_round_start(start, end, blockable)
#endif
}
#ifdef MUTANT_SUB_REPORTS_FAILURE
#define SUB_REPORTS	1
#else
#define SUB_REPORTS	0
#endif

/*
 * The driver's subscription's range_end: with the gate G4 (and the round
 * is over); without it (COMPAT_NOGATE) the driver's range_end unless the
 * range is non-blockable and its start was noted as failed.
 */
inline compat_sub_range_end(start, end, blockable)
{
	/* C __mncompat_paired_range_end[4.19-4.20](pairing, deadlock; reviewed: the table's range_end, the 4.19-4.20 form, not told whether the range was blockable): void __weak __mncompat_paired_range_end(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start_, unsigned long end_) { const struct mmu_notifier_range range = { .blockable = false, .end = end_, .mm = mm, .start = start_ }; __mncompat_main_end(mn, &range, false, false); } */
	/* C __mncompat_paired_range_end[>=5.0](pairing, deadlock; reviewed: the table's range_end): void __weak __mncompat_paired_range_end(struct mmu_notifier *mn, const struct mmu_notifier_range *range) { __mncompat_main_end(mn, range, mncompat_range_blockable(range), true); } */
	/*
	 * C __mncompat_pairing_of[4.19-4.20](pairing; reviewed: the table's
	 * state found by a query through its range_start trampoline, the model
	 * has one table): static inline struct __mncompat_pairing
	 * *__mncompat_pairing_of(struct mmu_notifier *mn) { struct
	 * __mncompat_pairing *p = NULL; mn->ops->invalidate_range_start(mn,
	 * NULL, (unsigned long)&p, 0, true); return p; }
	 */
	/*
	 * C __mncompat_pairing_of[5.0-5.1](pairing; reviewed: the table's
	 * state found by a query through its range_start trampoline, the model
	 * has one table): static inline struct __mncompat_pairing
	 * *__mncompat_pairing_of(struct mmu_notifier *mn) { struct
	 * __mncompat_pairing *p = NULL; const struct mmu_notifier_range query
	 * = { .blockable = true, .start = (unsigned long)&p };
	 * mn->ops->invalidate_range_start(mn, &query); return p; }
	 */
	/*
	 * C __mncompat_pairing_of[>=5.2](pairing; reviewed: the table's state
	 * found by a query through its range_start trampoline, the model has
	 * one table): static inline struct __mncompat_pairing
	 * *__mncompat_pairing_of(struct mmu_notifier *mn) { struct
	 * __mncompat_pairing *p = NULL; const struct mmu_notifier_range query
	 * = { .event = MMU_NOTIFY_CLEAR, .flags = true ?
	 * MMU_NOTIFIER_RANGE_BLOCKABLE : 0, .start = (unsigned long)&p };
	 * mn->ops->invalidate_range_start(mn, &query); return p; }
	 */
	/*
	 * C __mncompat_main_end[>=4.19](pairing, deadlock; reviewed: G4
	 * another way, on a blockable range the driver's range_end always
	 * runs, its start ran and succeeded there, on a non-blockable one
	 * where the round's record is taken out and does not say failed, as
	 * REC_OK2, never where it says failed, as REC_NOGATE_FAILED, which
	 * only the table without a gate notes, and without a record where the
	 * range_end is not told the range, 4.19-4.20, whose kernels end no
	 * range after a failure, or no live gate speaks for the table, the
	 * may-sleep-nogate device, whose non-blockable start always fails in
	 * the model): static inline void __mncompat_main_end(struct
	 * mmu_notifier *mn, const struct mmu_notifier_range *range, bool
	 * blockable, bool known) { struct __mncompat_pairing *p =
	 * __mncompat_pairing_of(mn); struct __mncompat_gate *gate; struct
	 * __mncompat_started s; bool call; if (blockable) {
	 * p->desc->invalidate_range_end(mn, range); return; }
	 * spin_lock(&p->lock); gate = __mncompat_gate_of(p, mn); if
	 * (__mncompat_take_started(p, mn, current, range->start, range->end,
	 * false, &s)) call = !s.failed; else call = !known || !gate ||
	 * !gate->live; spin_unlock(&p->lock); if (call)
	 * p->desc->invalidate_range_end(mn, range); }
	 */
#ifdef COMPAT_NOGATE
	if
	:: atomic { !blockable && REC == REC_NOGATE_FAILED -> REC = REC_NONE }	/* reached only on a violation: after the 5.12+ WARN, which warn-goes-on lets go */
#ifdef MUTANT_NOGATE_END_IGNORES_FAILURE
		;
		call_range_end(start, end)
#endif
	:: else -> call_range_end(start, end)
	fi
#else
	if
	:: atomic { REC == REC_OK2 -> REC = REC_NONE };
		call_range_end(start, end)
#ifdef MUTANT_END_IGNORES_RECORD
	:: atomic { REC == REC_FAIL2 -> REC = REC_NONE };
		call_range_end(start, end)
#else
	:: atomic { REC == REC_FAIL2 -> REC = REC_NONE }
#endif
	fi
#endif
}
#endif /* COMPAT_GATE || COMPAT_NOGATE */
