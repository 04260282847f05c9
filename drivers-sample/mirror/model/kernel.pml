/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel: the order in which each generation changes the CPU page
 * table and calls the notifiers, and in what context. One of
 *   GEN_PRE411  migration: invalidate_page after the page-table lock is
 *               dropped (try_to_unmap_one() before c7ab0d2fdc84)
 *   GEN_411     migration: invalidate_page under the lock (4.11-4.12):
 *               atomic context
 *   GEN_413     migration: range_start, PTE change, secondary-TLB hook,
 *               range_end (369ea8242c0f and on)
 * each with MADV_DONTNEED (the range bracket, every generation), or with
 * THP defined, a PMD-mapped THP that is either migrated whole (pre-4.13:
 * one invalidate_page for the PMD, 4.13+: one range over it) or has its
 * tail page MADV_DONTNEED'd (the PMD split in its own bracket, then the
 * tail zapped: a range that partly covers the THP); or
 *   OOM_PRE414  the oom reaper unmaps without notifiers
 *   OOM_414     the reaper skips an mm with notifiers (4d4bbd8526a8)
 *   OOM_416     4.16-4.18 (5ff7091f5a2c): it reaps an mm whose tables all
 *               carry MMU_INVALIDATE_DOES_NOT_BLOCK, in a range bracket
 *               that must not block, and skips any other
 *   OOM_419     4.19-5.11: the reaper unmaps in a non-blocking range
 *               (93065ac753e4): a range_start that returns -EAGAIN makes
 *               it back off, with no range_end for anyone (every
 *               range_start is still called), and try again later
 *   OOM_512     5.12-6.5 (c2655835fd8c, also in 5.10.y and 5.11.y
 *               stable updates): the same, but the kernel WARNs when a
 *               table whose range_start failed has a range_end, and calls
 *               range_end on every subscription that has one, the failing
 *               one included, before it backs off
 *   OOM_66      6.6+: the same as OOM_512; compat leaves the hook out of
 *               a table with range callbacks (the may-sleep table has
 *               range callbacks alone)
 * each with exit_mmap() after the victim's faults.
 *
 * The secondary-TLB hook is called in atomic context wherever it is called
 * from (under the page-table lock, or from the TLB flush): its contract.
 * The kernel keeps the pages it unmaps (the mapping's reference moves to
 * it) until its notifier call returned, then puts them.
 *
 * Mutants: MUTANT_END_BEFORE_PTE  the range bracket calls range_end before
 * it changes the PTE; MUTANT_WARN_GOES_ON  the 5.12+ WARN is not checked
 * (a WARN is a splat, the kernel goes on): what follows it.
 */

/*
 * The CPU page table of slots LO..HI changes to NEW in one step under the
 * page-table lock (one PTE, or the PMD of a THP); opens a notifier window.
 */
inline pte_change(lo, hi, new)
{
	atomic {
		if
		:: pte[lo] != NONE && (new != MIG_ENTRY || IS_PAGE(pte[lo])) ->
			held[lo] = pte[lo];
			pte[lo] = new;
#if NADDR > 1
			if
			:: hi > lo ->
				held[hi] = pte[hi];
				pte[hi] = new
			:: else
			fi;
#endif
			unnotified++;
			changed = true
		:: else
		fi
	}
}

/* The notifier call for the change returned: the old pages are put. */
inline notified()
{
	if
	:: changed ->
		unnotified--;
		changed = false;
		if
		:: IS_PAGE(held[0]) -> put_page(held[0])
		:: else
		fi;
		held[0] = NONE;
#if NADDR > 1
		if
		:: IS_PAGE(held[1]) -> put_page(held[1])
		:: else
		fi;
		held[1] = NONE
#endif
	:: else
	fi
}

/* The hook in atomic context, when the page-table lock is not held. */
inline atomic_secondary_tlbs(start, end)
{
	preempt_count++;
	call_secondary_tlbs(start, end);
	preempt_count--
}

#if defined(OOM_512) || defined(OOM_66)
#define START_FAILURE_ENDS_ALL	1
#else
#define START_FAILURE_ENDS_ALL	0
#endif

/*
 * One subscription's range_start returned RET (where REPORTS; compat's
 * driver subscription returns 0 whatever RET says): a failure makes the
 * call's result (kret) -EAGAIN; on 5.12+ the kernel WARNs
 * (WARN_ON(ops->invalidate_range_end)) when the table has a range_end.
 */
inline start_result(has_end, reports)
{
	atomic {	/* the kernel's locals */
		if
		:: ret != 0 && (reports) ->
			kret = EAGAIN
#if START_FAILURE_ENDS_ALL && !defined(MUTANT_WARN_GOES_ON)
			;
			assert(no_warning && !(has_end))
#endif
		:: else
		fi;
		ret = 0
	}
}

/*
 * range_end on every subscription of the mm that has one (BLOCKABLE: what
 * the range says, as the 5.0+ form tells range_end).
 */
inline kernel_range_end(start, end, blockable)
{
#if defined(COMPAT_GATE) || defined(COMPAT_NOGATE)
	compat_sub_range_end(start, end, blockable)	/* the gate has none */
#else
	call_range_end(start, end)
#endif
}

/*
 * __mmu_notifier_invalidate_range_start(): every subscription's
 * range_start, in the mm's list order (the driver's table alone, or with
 * compat's gate, either first); kret is -EAGAIN when one failed. On 5.12+
 * a failure then calls range_end on every subscription that has one.
 */
inline kernel_range_start(start, end, blockable)
{
	/* kret is 0 here: the caller that backs off resets it */
#ifdef COMPAT_GATE
	/*
	 * the table and compat's gate, as devpt_register() (devpt.c)
	 * registers them through mncompat_mmu_notifier_register()
	 */
	/*
	 * C devpt_register(unmodelled: the model has one device on one mm,
	 * its table in mf_pt, set up now by devpt_init): int devpt_register(struct devpt *pt, spinlock_t
	 * *lock, const struct mmu_notifier_ops *ops) { int ret; if
	 * (!current->mm) return -EINVAL; devpt_init(pt, lock, current->mm);
	 * pt->notifier.ops = ops;
	 */
	/*
	 * C devpt_init(unmodelled: the model has one device on one mm, its
	 * table in mf_pt): void devpt_init(struct devpt *pt, spinlock_t *lock,
	 * struct mm_struct *mm) { pt->lock = lock; INIT_RADIX_TREE(&pt->tree,
	 * GFP_ATOMIC); pt->mm = mm; }
	 */
	/*
	 * C mncompat_mmu_notifier_register[<4.19](coherence; reviewed: before
	 * 4.19 no range_start can fail and compat registers no gate, the
	 * may-sleep rows apply there): static inline int
	 * mncompat_mmu_notifier_register(struct mmu_notifier *mn, struct
	 * mm_struct *mm) { return mmu_notifier_register(mn, mm); }
	 */
	/*
	 * C __mncompat_ops_paired[>=4.19](warn, pairing, b4; reviewed: a table
	 * is paired where compat made its range_end the paired one, the
	 * may-sleep table from 4.19, the test of __mncompat_is_paired moved
	 * here unchanged for mncompat_mmu_notifier_get): static inline bool
	 * __mncompat_ops_paired(const struct mmu_notifier_ops *ops) { return
	 * ops && ops->invalidate_range_end == __mncompat_paired_range_end; }
	 */
	/*
	 * C __mncompat_is_paired[>=4.19](warn, pairing, b4; reviewed: the
	 * same test as before, now through __mncompat_ops_paired of the
	 * subscription's table): static inline bool __mncompat_is_paired(const
	 * struct mmu_notifier *mn) { return __mncompat_ops_paired(mn->ops); }
	 */
	/*
	 * C __mncompat_unlist_gate[>=4.19](unmodelled: the undoing of a
	 * registration that failed, the model's registration does not fail;
	 * digest: 951baa1e2d9202fd):
	 */
	/*
	 * C __mncompat_new_gate[>=4.19](warn, pairing, b4; reviewed: the
	 * gate allocated and listed for the driver's subscription, not
	 * yet live, as __mncompat_register_paired did it before, which
	 * calls it at its driver-first step below, the
	 * allocation failure left out as the model's registration does
	 * not fail): static inline struct __mncompat_gate
	 * *__mncompat_new_gate(struct __mncompat_pairing *p, struct
	 * mmu_notifier *mn, struct mm_struct *mm) { struct __mncompat_gate
	 * *gate = kzalloc(sizeof(*gate), GFP_KERNEL); if (!gate) return
	 * NULL; gate->mn.ops = &__mncompat_gate_ops; gate->main = mn;
	 * gate->mm = mm; gate->pairing = p; spin_lock(&p->lock);
	 * gate->next = p->gates; p->gates = gate; spin_unlock(&p->lock);
	 * return gate; }
	 */
	/*
	 * C __mncompat_register_one[>=4.19](warn, pairing, b4; reviewed:
	 * mmu_notifier_register here, __mmu_notifier_register where the
	 * caller holds the mmap lock, either one subscription added at
	 * the head of the mm's list before the model's first range):
	 * static __always_inline int __mncompat_register_one(struct
	 * mmu_notifier *mn, struct mm_struct *mm, bool mmap_locked) {
	 * return mmap_locked ? __mmu_notifier_register(mn, mm) :
	 * mmu_notifier_register(mn, mm); }
	 */
	/*
	 * C __mncompat_free_new_gate[>=4.19](unmodelled: the undoing of a
	 * registration that failed, the model's registration does not
	 * fail): static inline void __mncompat_free_new_gate(struct
	 * __mncompat_pairing *p, struct __mncompat_gate *gate) {
	 * spin_lock(&p->lock); __mncompat_unlist_gate(p, gate);
	 * spin_unlock(&p->lock); kfree(gate); }
	 */
	/*
	 * C mncompat_mmu_notifier_register[>=4.19](warn, pairing, b4;
	 * reviewed: a paired table gets the gate, any other table plain
	 * mmu_notifier_register as before, the new false saying the caller
	 * does not hold the mmap lock, which changes only which kernel call
	 * registers each subscription): static inline int
	 * mncompat_mmu_notifier_register(struct mmu_notifier *mn, struct
	 * mm_struct *mm) { if (__mncompat_is_paired(mn)) return
	 * __mncompat_register_paired(mn, mm, false); return
	 * mmu_notifier_register(mn, mm); }
	 */
	/* C devpt_register(coherence, warn, pairing, b4; reviewed: the registration is compat's now, the table and the gate, this branch, its result now returned through a local, the test knobs that register under the mmap lock being builds the tie does not read): ret = mncompat_mmu_notifier_register(&pt->notifier, pt->mm); return ret; } */
	if
	:: gate_first ->
		compat_gate_range_start(start, end, blockable);
		start_result(GATE_HAS_END, GATE_REPORTS);
		compat_sub_range_start(start, end, blockable);
		start_result(HAS_RANGE, SUB_REPORTS)
	:: else ->	/*
		 * C __mncompat_register_paired[>=4.19](warn, pairing, b4;
		 * reviewed: the gate registered first, so the kernel, adding at
		 * the head of the mm's list, calls the driver's subscription
		 * first, this branch, the model checking both orders, and live
		 * once both are registered, before the model's first range, the
		 * failure paths left out as the model's registration does not
		 * fail, the gate's allocation and listing now in
		 * __mncompat_new_gate and each registration in
		 * __mncompat_register_one, the same steps as before): static
		 * __always_inline int __mncompat_register_paired(struct
		 * mmu_notifier *mn, struct mm_struct *mm, bool mmap_locked) {
		 * struct __mncompat_pairing *p = __mncompat_pairing_of(mn); struct
		 * __mncompat_gate *gate; int ret; gate = __mncompat_new_gate(p,
		 * mn, mm); if (!gate) return -ENOMEM; ret =
		 * __mncompat_register_one(&gate->mn, mm, mmap_locked); if (ret)
		 * goto free; ret = __mncompat_register_one(mn, mm, mmap_locked);
		 * if (ret) goto unregister; spin_lock(&p->lock); gate->live =
		 * true; spin_unlock(&p->lock); return 0; unregister:
		 * mmu_notifier_unregister(&gate->mn, mm); free:
		 * __mncompat_free_new_gate(p, gate); return ret; }
		 */
		compat_sub_range_start(start, end, blockable);
		start_result(HAS_RANGE, SUB_REPORTS);
		compat_gate_range_start(start, end, blockable);
		start_result(GATE_HAS_END, GATE_REPORTS)
	fi
#else
	/*
	 * the one table the driver registered: the may-sleep-nogate device,
	 * compat's paired table registered with the kernel's own
	 * mmu_notifier_register() or __mmu_notifier_register() (no gate:
	 * compat's trampolines, COMPAT_NOGATE); the may-sleep device, the
	 * table as compat's -DMNCOMPAT_NO_START_END_PAIRING knob builds it
	 * (the driver's callbacks, the 5.12+ counterexample; before 4.19 every
	 * build); or range and tlb, whose tables compat does not pair (the
	 * registration's tie notes are at the COMPAT_GATE branch above)
	 */
#ifdef COMPAT_NOGATE
	compat_sub_range_start(start, end, blockable);
#else
	call_range_start(start, end, blockable);
#endif
	start_result(HAS_RANGE, 1)
#endif
#if START_FAILURE_ENDS_ALL
	;
	if
	:: kret != 0 -> kernel_range_end(start, end, blockable)
	:: else
	fi
#endif
}

/*
 * mmu_notifier_invalidate_range_start() (the _nonblock() form where
 * BLOCKABLE is false: a failure makes the caller back off, kret says so);
 * the change of slots LO..HI; the secondary-TLB hook, from
 * under the lock (ptep_clear_flush_notify()) or after it (range_end's
 * invalidate_range() up to 6.5, the TLB flush from 6.6);
 * mmu_notifier_invalidate_range_end(). No table has both hook and range
 * callbacks on 6.6+, so where the hook sits against range_end never
 * matters.
 */
inline range_invalidation(lo, hi, new, start, end, blockable)
{
	kernel_range_start(start, end, blockable);
	if
	:: kret != 0	/* -EAGAIN: back off */
#if PAIRING
	:: kret == 0 && drv_declined ->	/* b4: the driver declined, the kernel goes on */
		assert(reaper_backs_off && !drv_declined)	/* reached only on a violation */
#endif
	:: else ->
#ifdef MUTANT_END_BEFORE_PTE
		kernel_range_end(start, end, blockable);
#endif
		spin_lock(ptl);
		pte_change(lo, hi, new);
		if
		:: call_secondary_tlbs(start, end); notified(); hooked = true
		:: skip
		fi;
		spin_unlock(ptl);
		if
		:: !hooked -> atomic_secondary_tlbs(start, end); notified()
		:: else -> hooked = false
		fi;
#ifndef MUTANT_END_BEFORE_PTE
		kernel_range_end(start, end, blockable)
#else
		skip
#endif
	fi
}

/* remove_migration_ptes(): the new pages replace the migration entries. */
inline remove_migration_ptes(lo, hi)
{
	spin_lock(ptl);
	atomic {
		if
		:: pte[lo] == MIG_ENTRY ->
			pte[lo] = PAGE_MIGRATED(lo);
			page_ref[PAGE_MIGRATED(lo)] = 1
		:: else
		fi;
#if NADDR > 1
		if
		:: hi > lo && pte[hi] == MIG_ENTRY ->
			pte[hi] = PAGE_MIGRATED(hi);
			page_ref[PAGE_MIGRATED(hi)] = 1
		:: else
		fi
#endif
	};
	spin_unlock(ptl)
}

#ifndef OOM_CONFIG
/*
 * try_to_unmap_one() (try_to_migrate_one() since 5.14) of slots LO..HI
 * mapped at ADDRESS, for migration: the generation's order.
 */
inline unmap_for_migration(lo, hi, address, end)
{
#if defined(GEN_PRE411)
	spin_lock(ptl);
	pte_change(lo, hi, MIG_ENTRY);
	spin_unlock(ptl);
	if
	:: changed -> __mncompat_invalidate_page(address)
	:: else
	fi;
	notified()
#elif defined(GEN_411)
	spin_lock(ptl);
	pte_change(lo, hi, MIG_ENTRY);
	if
	:: changed -> __mncompat_invalidate_page(address)
	:: else
	fi;
	notified();
	spin_unlock(ptl)
#elif defined(GEN_413)
	range_invalidation(lo, hi, MIG_ENTRY, address, end, true)
#else
#error "define one of GEN_PRE411, GEN_411, GEN_413"
#endif
}
#endif

#if !defined(OOM_CONFIG) && !defined(THP)
/* Migration of the page at A, then remove_migration_ptes(). */
proctype migrate_page()
{
	PROCESS_LOCALS;

	unmap_for_migration(0, 0, ADDR(0), ADDR(0) + PAGE_SIZE);
	remove_migration_ptes(0, 0)
}

/* MADV_DONTNEED of A: zap_page_range() in its notifier bracket. */
proctype madvise_dontneed()
{
	PROCESS_LOCALS;

	range_invalidation(0, 0, NONE, ADDR(0), ADDR(0) + PAGE_SIZE, true)
}
#endif

#ifdef THP
/*
 * One event on the THP at ADDR(0): its migration, or MADV_DONTNEED of its
 * tail page (zap_pmd_range() splits the PMD first: __split_huge_pmd()
 * brackets the split, which leaves the same pages mapped).
 */
proctype thp_event()
{
	PROCESS_LOCALS;

	if
	:: skip;	/* migration */
		unmap_for_migration(0, 1, ADDR(0), ADDR(0) + HPAGE_PMD_SIZE);
		remove_migration_ptes(0, 1)
	:: skip;	/* MADV_DONTNEED of the tail */
		kernel_range_start(ADDR(0), ADDR(0) + HPAGE_PMD_SIZE, true);
		kernel_range_end(ADDR(0), ADDR(0) + HPAGE_PMD_SIZE, true);
		range_invalidation(1, 1, NONE, ADDR(1), ADDR(1) + PAGE_SIZE,
				   true)
	fi
}
#endif

#ifdef OOM_CONFIG
/* The oom reaper on the victim's mm: __oom_reap_task_mm(). */
proctype oom_reaper()
{
	PROCESS_LOCALS;

#if defined(OOM_PRE414)
	/* unmap_page_range() and tlb_finish_mmu(), no notifier call */
	spin_lock(ptl);
	pte_change(0, 0, NONE);
	spin_unlock(ptl);
	notified();
#elif defined(OOM_414)
	/* mm_has_notifiers(): back off, exit_mmap() frees the mm */
	skip;
#elif defined(OOM_416)
	/* mm_has_blockable_invalidate_notifiers(): every table must promise */
#if TABLE_DOES_NOT_BLOCK
	nonblocking = true;
	range_invalidation(0, 0, NONE, ADDR(0), ADDR(0) + PAGE_SIZE, true);
	nonblocking = false;
#else
	skip;
#endif
#elif defined(OOM_419) || defined(OOM_512) || defined(OOM_66)
	/*
	 * mmu_notifier_invalidate_range_start_nonblock(); after a back-off
	 * oom_reap_task() tries again (MAX_OOM_REAP_RETRIES: twice here),
	 * then leaves the mm to exit_mmap()
	 */
	nonblocking = true;
	range_invalidation(0, 0, NONE, ADDR(0), ADDR(0) + PAGE_SIZE, false);
	if
	:: kret != 0 ->
		kret = 0;
		range_invalidation(0, 0, NONE, ADDR(0), ADDR(0) + PAGE_SIZE,
				   false);
		kret = 0
	:: else
	fi;
	nonblocking = false;
#else
#error "define one of OOM_PRE414, OOM_414, OOM_416, OOM_419, OOM_512, OOM_66"
#endif
	reaper_done = true
}

/*
 * exit_mmap() once the victim's threads are gone: mmu_notifier_release()
 * calls the table's release and unhooks the device, then the unmap.
 */
proctype exit_mmap()
{
	PROCESS_LOCALS;

	faults_done == NFAULTS && reaper_done;
	call_release();
	spin_lock(ptl);
	pte_change(0, 0, NONE);
	spin_unlock(ptl);
	notified()
}
#endif /* OOM_CONFIG */
