/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device: drivers-sample/mirror/mirror_dev.c, one inline or proctype
 * per function, each named after it. covers: does the range passed in
 * contain A?
 *
 * Mutants (each must make spin reject, see `expected`):
 *   MUTANT_NO_ACTIVE_CHECK  mirror_fault_page() ignores mf->active
 *   MUTANT_NO_SEQ_RECHECK   mirror_fault_page() installs without comparing
 *                           mf->seq with the value it sampled
 *   MUTANT_SEQ_AFTER_DROP   the invalidation drops the range, unlocks, and
 *                           bumps mf->seq in a second critical section
 *   MUTANT_TLB_NO_SEQ       the fault of a TLB-only device trusts its
 *                           secondary-TLB hook alone: no sequence check
 */

/* mirror_unmap_range(): drop the device entries of the range. */
inline mirror_unmap_range(covers)
{
	if
	:: covers -> mf_pt = NONE
	:: else
	fi
}

/* mirror_invalidate_locked(): a new sequence, then the range dropped. */
inline mirror_invalidate_locked(covers)
{
#ifndef MUTANT_SEQ_AFTER_DROP
	mf_seq++;
#endif
	mirror_unmap_range(covers)
}

inline mutant_late_seq_bump()
{
#ifdef MUTANT_SEQ_AFTER_DROP
	spin_lock(mf_lock);
	mf_seq++;
	spin_unlock(mf_lock)
#else
	skip
#endif
}

/* mirror_invalidate_begin(): range_start. */
inline mirror_invalidate_begin(covers)
{
	spin_lock(mf_lock);
	mf_active++;
	mirror_invalidate_locked(covers);
	spin_unlock(mf_lock);
	mutant_late_seq_bump()
}

/* mirror_invalidate_end(): range_end; wake_up_all() is the fault's guard. */
inline mirror_invalidate_end()
{
	spin_lock(mf_lock);
	mf_active--;
	spin_unlock(mf_lock)
}

/* mirror_invalidate(): the one-shot drop of the secondary-TLB hook. */
inline mirror_invalidate(covers)
{
	spin_lock(mf_lock);
	mirror_invalidate_locked(covers);
	spin_unlock(mf_lock);
	mutant_late_seq_bump()
}

/* mirror_release_all(): the mm is going away. */
inline mirror_release_all()
{
	spin_lock(mf_lock);
	mf_seq++;
	mf_pt = NONE;
	spin_unlock(mf_lock)
}

/*
 * get_user_pages_fast() of A, which mirror_fault_page() calls: waits out a
 * migration entry (migration_entry_wait()); on an empty entry it faults a
 * fresh page in under the page-table lock and looks again (MADV_DONTNEED'd
 * anonymous memory), or fails where GUP_FAULTS_IN is not defined (a
 * reaped mm).
 */
inline get_user_pages_fast(page)
{
	do
	:: atomic { pte != MIG_ENTRY -> page = pte };
#ifdef GUP_FAULTS_IN
		if
		:: page == NONE ->
			spin_lock(ptl);
			if
			:: pte == NONE -> pte = PAGE_REFAULT
			:: else
			fi;
			spin_unlock(ptl)
		:: else -> break
		fi
#else
		break
#endif
	od
}

#if defined(MUTANT_TLB_NO_SEQ)
#define FAULT_MUST_RETRY	false
#elif defined(MUTANT_NO_SEQ_RECHECK)
#define FAULT_MUST_RETRY	(mf_active != 0)
#elif defined(MUTANT_NO_ACTIVE_CHECK)
#define FAULT_MUST_RETRY	(mf_seq != seq_seen)
#else
#define FAULT_MUST_RETRY	(mf_active != 0 || mf_seq != seq_seen)
#endif

#if defined(MUTANT_NO_ACTIVE_CHECK) || defined(MUTANT_TLB_NO_SEQ)
#define FAULT_WAITS_FOR_IDLE	0
#else
#define FAULT_WAITS_FOR_IDLE	1
#endif

/* mirror_fault_page(): fault A into the device page table. */
proctype mirror_fault_page()
{
	byte seq_seen, active_seen, page;

retry:
#if FAULT_WAITS_FOR_IDLE
	/* wait_event_killable(mf->idle, mf->active == 0) */
	mf_active == 0;
#endif
	spin_lock(mf_lock);
	seq_seen = mf_seq;
	active_seen = mf_active;
	spin_unlock(mf_lock);
#if FAULT_WAITS_FOR_IDLE
	if
	:: active_seen != 0 -> goto retry
	:: else
	fi;
#endif

	get_user_pages_fast(page);
	if
	:: page == NONE -> goto out	/* -EFAULT */
	:: else
	fi;

	/*
	 * radix_tree_preload() comes here, outside the lock; when it fails the
	 * fault ends without installing, as after a failed GUP: not modelled,
	 * an install that does not happen cannot be stale.
	 */
	spin_lock(mf_lock);
	if
	:: FAULT_MUST_RETRY ->
		/* An invalidation ran: the page may be stale. */
		spin_unlock(mf_lock);
		goto retry
	:: else ->
		mf_pt = page;	/* radix_tree_delete() + radix_tree_insert() */
		spin_unlock(mf_lock)
	fi;
out:
	faults_done++
}
