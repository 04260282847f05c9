/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel: the order in which each generation changes the PTE of A and
 * calls the notifiers. One of
 *   GEN_PRE411  migration: invalidate_page after the page-table lock is
 *               dropped (try_to_unmap_one() before c7ab0d2fdc84)
 *   GEN_411     migration: invalidate_page under the lock (4.11-4.12)
 *   GEN_413     migration: range_start, PTE change, secondary-TLB hook,
 *               range_end (369ea8242c0f and on)
 * each with MADV_DONTNEED (the range bracket, every generation), or
 *   OOM_PRE414  the oom reaper unmaps without notifiers
 *   OOM_414     the reaper skips an mm with notifiers (4d4bbd8526a8)
 *   OOM_419     the reaper unmaps in a non-blocking range (93065ac753e4)
 * each with exit_mmap() after the victim's faults.
 *
 * Mutant: MUTANT_END_BEFORE_PTE  the range bracket calls range_end before
 * it changes the PTE.
 */

/* The PTE change, under the page-table lock; opens a notifier window. */
inline pte_change(new, changed)
{
	atomic {
		if
		:: pte != NONE && (new != MIG_ENTRY || IS_PAGE(pte)) ->
			pte = new;
			unnotified++;
			changed = true
		:: else
		fi
	}
}

inline notified(changed)
{
	if
	:: changed -> unnotified--
	:: else
	fi
}

/*
 * mmu_notifier_invalidate_range_start(); the PTE change; the secondary-TLB
 * hook, from under the lock (ptep_clear_flush_notify()) or after it
 * (range_end's invalidate_range() up to 6.5, the TLB flush from 6.6);
 * mmu_notifier_invalidate_range_end(). No table has both hook and range
 * callbacks on 6.6+, so where the hook sits against range_end never
 * matters.
 */
inline range_invalidation(new, changed, hooked)
{
#ifndef MUTANT_END_BEFORE_PTE
	call_range_start(true);
#else
	call_range_start(true);
	call_range_end();
#endif
	spin_lock(ptl);
	pte_change(new, changed);
	if
	:: call_secondary_tlbs(true); notified(changed); hooked = true
	:: skip
	fi;
	spin_unlock(ptl);
	if
	:: !hooked -> call_secondary_tlbs(true); notified(changed)
	:: else
	fi;
#ifndef MUTANT_END_BEFORE_PTE
	call_range_end()
#else
	skip
#endif
}

/* remove_migration_ptes(): the new page replaces the migration entry. */
inline remove_migration_ptes()
{
	spin_lock(ptl);
	if
	:: pte == MIG_ENTRY -> pte = PAGE_MIGRATED
	:: else
	fi;
	spin_unlock(ptl)
}

#ifndef OOM_CONFIG
/*
 * Migration of the page at A: try_to_unmap_one() (try_to_migrate_one()
 * since 5.14), then remove_migration_ptes().
 */
proctype migrate_page()
{
	bool changed, hooked;

#if defined(GEN_PRE411)
	spin_lock(ptl);
	pte_change(MIG_ENTRY, changed);
	spin_unlock(ptl);
	if
	:: changed -> __mncompat_invalidate_page()
	:: else
	fi;
	notified(changed);
#elif defined(GEN_411)
	spin_lock(ptl);
	pte_change(MIG_ENTRY, changed);
	if
	:: changed -> __mncompat_invalidate_page()
	:: else
	fi;
	notified(changed);
	spin_unlock(ptl);
#elif defined(GEN_413)
	range_invalidation(MIG_ENTRY, changed, hooked);
#else
#error "define one of GEN_PRE411, GEN_411, GEN_413"
#endif
	remove_migration_ptes()
}

/* MADV_DONTNEED of A: zap_page_range() in its notifier bracket. */
proctype madvise_dontneed()
{
	bool changed, hooked;

	range_invalidation(NONE, changed, hooked)
}

#else /* OOM_CONFIG */
/* The oom reaper on the victim's mm: __oom_reap_task_mm(). */
proctype oom_reaper()
{
	bool changed, hooked;

#if defined(OOM_PRE414)
	/* unmap_page_range() and tlb_finish_mmu(), no notifier call */
	spin_lock(ptl);
	pte_change(NONE, changed);
	spin_unlock(ptl);
	notified(changed);
#elif defined(OOM_414)
	/* mm_has_notifiers(): back off, exit_mmap() frees the mm */
	skip;
#elif defined(OOM_419)
	/* mmu_notifier_invalidate_range_start_nonblock(): mirror never blocks */
	range_invalidation(NONE, changed, hooked);
#else
#error "define one of OOM_PRE414, OOM_414, OOM_419"
#endif
	reaper_done = true
}

/*
 * exit_mmap() once the victim's threads are gone: mmu_notifier_release()
 * calls mirror_release() and unhooks the device, then the unmap.
 */
proctype exit_mmap()
{
	bool changed;

	faults_done == 2 && reaper_done;
	mirror_release();
	spin_lock(ptl);
	pte_change(NONE, changed);
	spin_unlock(ptl);
	notified(changed)
}
#endif /* OOM_CONFIG */
