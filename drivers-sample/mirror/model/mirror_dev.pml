/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device: drivers-sample/mirror/mirror_dev.c, one inline or proctype
 * per function, named after it. The notes "C(...): ..." quote the C each
 * step stands for (tie.py checks them against the C, see README.md).
 * Every read-modify-write is a load and a store, as the CPU does it: under
 * mf->lock that is harmless, without it an update can be lost.
 *
 * Mutants (each must make spin reject, see `expected`):
 *   MUTANT_NO_ACTIVE_CHECK  mirror_fault_page() ignores mf->active
 *   MUTANT_NO_SEQ_RECHECK   mirror_fault_page() installs without comparing
 *                           mf->seq with the value it sampled
 *   MUTANT_SEQ_AFTER_DROP   the invalidation drops the range, unlocks, and
 *                           bumps mf->seq in a second critical section
 *   MUTANT_TLB_NO_SEQ       the fault of a TLB-only device trusts its
 *                           secondary-TLB hook alone: no sequence check
 *   MUTANT_UNLOCKED_RMW     mirror_invalidate_end() decrements mf->active
 *                           without taking mf->lock
 *   MUTANT_LOST_WAKE_UP     mirror_invalidate_end() never calls
 *                           wake_up_all(): a fault asleep on mf->idle stays
 *                           asleep
 *   MUTANT_EARLY_PUT        mirror_fault_page() puts its page reference
 *                           after installing the page: the entry holds none
 *   MUTANT_ROUND_TO_THP     mirror_unmap_range() rounds the range's start
 *                           up to a THP boundary, so a range that partly
 *                           covers a THP drops none of it
 *   MUTANT_UNMAP_FIRST_PAGE mirror_unmap_range() drops only the range's
 *                           first page
 */

/*
 * A critical section of mf->lock is one step for the other processes
 * (LOCKED, an atomic block): what it writes that others read without the
 * lock is either written once in it (mf->active, read by the fault's wait)
 * or only looked at by the monitor, which no intermediate state of a
 * section of this code can fail. So a load/store split under the lock
 * costs no states, and shows where a lock is missing.
 */
#define LOCKED	atomic
#ifdef MUTANT_UNLOCKED_RMW
#define END_LOCKED	/* no lock: the loads and stores interleave */
#define end_lock()	skip
#define end_unlock()	skip
#else
#define END_LOCKED	atomic
#define end_lock()	spin_lock(mf_lock)
#define end_unlock()	spin_unlock(mf_lock)
#endif

/* C(coherence): #define MIRROR_SKIP_INVALIDATION 0 */
/* C(unmodelled: batch size of the walk, see devpt_zap_locked): #define DEVPT_ZAP_BATCH 16 */

/* C mirror_log_range(unmodelled: statistics and the range log, all under mf->lock in mf->stats, byte counts saturating; digest: 299ef25ec3952d7a): */

/* C to_mirror(unmodelled: the model has one device; reviewed: the notifier is in mf->pt now): static inline struct mirror_file *to_mirror(struct mmu_notifier *mn) { return container_of(mn, struct mirror_file, pt.notifier); } */

/* mirror_put_entry(): a page leaves the device page table. */
inline mirror_put_entry(page)	/* C(pageref): static void mirror_put_entry(struct mirror_file *mf, struct page *page) { */
{
	put_page(page)		/* C(pageref): put_page(page); */
	/* C(unmodelled: statistics): mf->stats.mapped_pages--; atomic_long_dec(&mirror_global_mapped); } */
}

/*
 * devpt_zap_locked() (devpt.c, the device page table the samples share):
 * drop the entries of [start, end). The C walks the radix tree in batches
 * of DEVPT_ZAP_BATCH indices, then deletes them; under mf->lock the order
 * of its steps is not seen, and the model walks the entries there are
 * (FIRST_INDEX on) one by one.
 */
inline devpt_zap_locked(start, end)	/* C(coherence): unsigned long devpt_zap_locked(struct devpt *pt, unsigned long start, unsigned long end) { */
{
#ifdef MUTANT_ROUND_TO_THP
	um_first = ((start + HPAGE_PMD_SIZE - 1) & (255 - HPAGE_PMD_SIZE + 1)) >> PAGE_SHIFT;
#else
	um_first = start >> PAGE_SHIFT	/* C(coherence): unsigned long first = start >> PAGE_SHIFT, */
#endif
	;
#ifdef MUTANT_UNMAP_FIRST_PAGE
	um_last = um_first;
#else
	um_last = (end - 1) >> PAGE_SHIFT	/* C(coherence): last = (end - 1) >> PAGE_SHIFT; */
#endif
	;
	/*
	 * C(unmodelled: the batches of the walk, which under mf->lock no one sees
	 * them, and the count for the owner's statistics): unsigned long index[DEVPT_ZAP_BATCH], dropped = 0;
	 * struct radix_tree_iter iter; void __rcu **slot; unsigned int i, n;
	 */
	/* C(unmodelled: a lockdep check, the model's callers hold mf_lock): lockdep_assert_held(pt->lock); do { n = 0; */
	if
	:: um_first < FIRST_INDEX -> um_first = FIRST_INDEX
	:: else
	fi;
	do
	:: um_first <= um_last && um_first < FIRST_INDEX + NADDR -> /* C(coherence): radix_tree_for_each_slot(slot, &pt->tree, &iter, first) { if (iter.index > last) break; */
		if
		:: mf_pt[um_first - FIRST_INDEX] != NONE ->
			/* C(unmodelled: the batch): index[n++] = iter.index; if (n == DEVPT_ZAP_BATCH) break; } for (i = 0; i < n; i++) */
			/* C(coherence, pageref): put_page(radix_tree_delete(&pt->tree, index[i])); */
			um_old = mf_pt[um_first - FIRST_INDEX];
			mf_pt[um_first - FIRST_INDEX] = NONE;
			put_page(um_old)
		:: else
		fi;
		um_first++
	:: else -> um_first = 0; um_last = 0; um_old = 0; break
	od
	/* C(unmodelled: the count for the owner's statistics, and the next batch): dropped += n; if (n) first = index[n - 1] + 1; } while (n == DEVPT_ZAP_BATCH); return dropped; } */
}

/* mirror_unmap_range(): drop the device entries of [start, end). */
inline mirror_unmap_range(start, end)	/* C(coherence): static void mirror_unmap_range(struct mirror_file *mf, unsigned long start, unsigned long end) { unsigned long dropped; */
{
	/* C(unmodelled: a lockdep check, the model's callers hold mf_lock; reviewed: the walk moved into devpt_zap_locked): lockdep_assert_held(&mf->lock); */
	devpt_zap_locked(start, end)	/* C(coherence, pageref): dropped = devpt_zap_locked(&mf->pt, start, end); */
	/* C(unmodelled: statistics): mf->stats.mapped_pages -= dropped; atomic_long_sub(dropped, &mirror_global_mapped); } */
}

/* mirror_invalidate_locked(): a new sequence, then the range dropped. */
inline mirror_invalidate_locked(start, end)	/* C(coherence): static void mirror_invalidate_locked(struct mirror_file *mf, enum mirror_callback cb, unsigned long start, unsigned long end) { */
{
	/* C(unmodelled: a lockdep check, the model's callers hold mf_lock): lockdep_assert_held(&mf->lock); */
#ifndef MUTANT_SEQ_AFTER_DROP
	rmw = mf_seq;		/* C(coherence): mf->seq++; */
	mf_seq = rmw + 1;
	rmw = 0;
#endif
	/* C(unmodelled: statistics, see mirror_log_range): mirror_log_range(mf, cb, start, end); */
	/* C(coherence): if (MIRROR_SKIP_INVALIDATION) return; */
	mirror_unmap_range(start, end)	/* C(coherence): mirror_unmap_range(mf, start, end); } */
}

inline mutant_late_seq_bump()
{
#ifdef MUTANT_SEQ_AFTER_DROP
	LOCKED {
		spin_lock(mf_lock);
		rmw = mf_seq;
		mf_seq = rmw + 1;
		rmw = 0;
		spin_unlock(mf_lock)
	}
#else
	skip
#endif
}

/* mirror_invalidate_begin(): range_start. */
inline mirror_invalidate_begin(start, end)	/* C(coherence): void mirror_invalidate_begin(struct mirror_file *mf, unsigned long start, unsigned long end) { */
{
	LOCKED {
		spin_lock(mf_lock);	/* C(coherence): spin_lock(&mf->lock); */
		rmw = mf_active;	/* C(coherence, deadlock): mf->active++; */
		mf_active = rmw + 1;
		rmw = 0;
		mirror_invalidate_locked(start, end);	/* C(coherence): mirror_invalidate_locked(mf, MIRROR_CB_RANGE_START, start, end); */
		spin_unlock(mf_lock)	/* C(coherence): spin_unlock(&mf->lock); } */
	};
	mutant_late_seq_bump()
}

/* wake_up_all(&mf->idle): every fault asleep on the queue is woken. */
inline wake_up_all()
{
#ifndef MUTANT_LOST_WAKE_UP
	atomic {
		waiting[0] = false;
#if NFAULTS > 1
		waiting[1] = false
#endif
	}
#else
	skip
#endif
}

/* mirror_invalidate_end(): range_end. */
inline mirror_invalidate_end(start, end)	/* C(deadlock): void mirror_invalidate_end(struct mirror_file *mf, unsigned long start, unsigned long end) { bool idle; */
{
	END_LOCKED {
		end_lock();	/* C(deadlock, coherence): spin_lock(&mf->lock); */
		/* C(unmodelled: statistics, see mirror_log_range): mirror_log_range(mf, MIRROR_CB_RANGE_END, start, end); */
		rmw = mf_active;	/* C(deadlock, coherence): idle = --mf->active == 0; */
		mf_active = rmw - 1;
		idle = (rmw == 1);
		rmw = 0;
		end_unlock()	/* C(deadlock, coherence): spin_unlock(&mf->lock); */
	};
	if
	:: idle -> idle = false; wake_up_all()	/* C(deadlock): if (idle) wake_up_all(&mf->idle); } */
	:: else
	fi
}

/* mirror_invalidate(): the one-shot drop of the secondary-TLB hook. */
inline mirror_invalidate(start, end)	/* C(coherence): void mirror_invalidate(struct mirror_file *mf, enum mirror_callback cb, unsigned long start, unsigned long end) { */
{
	LOCKED {
		spin_lock(mf_lock);	/* C(coherence): spin_lock(&mf->lock); */
		mirror_invalidate_locked(start, end);	/* C(coherence): mirror_invalidate_locked(mf, cb, start, end); */
		spin_unlock(mf_lock)	/* C(coherence): spin_unlock(&mf->lock); } */
	};
	mutant_late_seq_bump()
}

/* mirror_release_all(): the mm is going away. */
inline mirror_release_all()	/* C(coherence): void mirror_release_all(struct mirror_file *mf) { */
{
	LOCKED {
		spin_lock(mf_lock);	/* C(coherence): spin_lock(&mf->lock); */
		rmw = mf_seq;		/* C(coherence): mf->seq++; */
		mf_seq = rmw + 1;
		rmw = 0;
		/* C(unmodelled: statistics, see mirror_log_range): mirror_log_range(mf, MIRROR_CB_RELEASE, 0, 0); */
		mirror_unmap_range(0, ULONG_MAX);	/* C(coherence, pageref): mirror_unmap_range(mf, 0, ULONG_MAX); */
		spin_unlock(mf_lock)	/* C(coherence): spin_unlock(&mf->lock); */
	}
	/* C(unmodelled: statistics): atomic_long_inc(&mirror_global_releases); } */
}

/*
 * get_user_pages_fast() of the page at slot I, which mirror_fault_page()
 * calls: may sleep; takes a reference; waits out a migration entry
 * (migration_entry_wait()); on an empty entry faults a fresh page in under
 * the page-table lock and looks again (MADV_DONTNEED'd anonymous memory),
 * or fails where GUP_FAULTS_IN is not defined (a reaped mm).
 */
inline get_user_pages_fast(i, page)
{
	might_sleep();
	do
	:: atomic {
		pte[i] != MIG_ENTRY -> page = pte[i];
		if
		:: IS_PAGE(page) -> get_page(page)
		:: else
		fi
	   };
#ifdef GUP_FAULTS_IN
		if
		:: page == NONE ->
			atomic {
				spin_lock(ptl);
				if
				:: pte[i] == NONE ->	/* a new page */
					page_ref[PAGE_REFAULT(i)] = 1;
					pte[i] = PAGE_REFAULT(i)
				:: else
				fi;
				spin_unlock(ptl)
			}
		:: else -> break
		fi
#else
		break
#endif
	od
}

/*
 * wait_event_killable(mf->idle, READ_ONCE(mf->active) == 0): the fault
 * puts itself on the queue (prepare_to_wait_event()) and tests the
 * condition (one step: a wake-up between them would only take it off the
 * queue again), then sleeps until a wake-up takes it off the queue. No
 * signal reaches a fault in the model: the wait ends by the condition.
 */
inline wait_event_idle(me)
{
	might_sleep();
	do
	:: atomic {
		if
		:: mf_active == 0 -> break
		:: else -> waiting[me] = true
		fi
	   };
	   !waiting[me]	/* schedule() */
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

/*
 * devpt_fault_begin() (devpt.c): a reference to the user page, then the
 * tree nodes for the insert; on an error nothing is held.
 */
inline devpt_fault_begin(i, page)	/* C(coherence): int devpt_fault_begin(unsigned long addr, struct page **page) { */
{
	get_user_pages_fast(i, page);	/* C(coherence, pageref, no-sleep): int ret = get_user_pages_fast(addr & PAGE_MASK, 1, 0, page); */
	if
	:: page == NONE	/* C(coherence): if (ret != 1) return ret < 0 ? ret : -EFAULT; */
	:: else ->
		/* radix_tree_preload(GFP_KERNEL): may sleep, may fail (-ENOMEM). */
		might_sleep();	/* C(no-sleep): ret = radix_tree_preload(GFP_KERNEL); */
		if
		:: skip
		:: put_page(page); page = NONE	/* C(pageref): if (ret) put_page(*page); */
		fi
	fi
	/* C(coherence; reviewed: the error or 0 the caller returns on, as the page tells the model): return ret; } */
}

/* devpt_store_locked() (devpt.c): under mf->lock, page replaces the entry. */
inline devpt_store_locked(i, page, old)	/* C(coherence, pageref): int devpt_store_locked(struct devpt *pt, unsigned long addr, struct page *page, struct page **old) { int ret; */
{
	/* C(unmodelled: a lockdep check, the model's callers hold mf_lock): lockdep_assert_held(pt->lock); */
	old = mf_pt[i];	/* C(coherence): *old = radix_tree_delete(&pt->tree, addr >> PAGE_SHIFT); */
	mf_pt[i] = NONE;
	mf_pt[i] = page	/* C(coherence, pageref): ret = radix_tree_insert(&pt->tree, addr >> PAGE_SHIFT, page); */
#ifdef MUTANT_EARLY_PUT
	;
	put_page(page)
#endif
	/* C(unmodelled: after the preload and the delete above the insert cannot fail): if (ret) put_page(page); return ret; } */
}

/* devpt_fault_end() (devpt.c): the preload ends, the page is put. */
inline devpt_fault_end(page)	/* C(pageref): void devpt_fault_end(struct page *page) { */
{
	/* C(unmodelled: the preload's per-CPU nodes): radix_tree_preload_end(); */
	put_page(page)	/* C(pageref): if (page) put_page(page); } */
}

/* mirror_fault_page(): fault the page at slot I into the device. */
proctype mirror_fault_page(byte me; byte i)	/* C(coherence): static int mirror_fault_page(struct mirror_file *mf, unsigned long addr) { */
{
	byte seq_seen, active_seen, page, old;	/* C(coherence): struct page *page, *old; unsigned long seq; int ret; */
	PROCESS_LOCALS;

retry:	/* C(coherence): for (;;) { */
#if FAULT_WAITS_FOR_IDLE
	wait_event_idle(me);	/* C(deadlock): ret = wait_event_killable(mf->idle, READ_ONCE(mf->active) == 0); */
#endif
	/* C(unmodelled: no signals in the model, a killed fault installs nothing): if (ret) return ret; */
	LOCKED {
		spin_lock(mf_lock);	/* C(coherence): spin_lock(&mf->lock); */
		seq_seen = mf_seq;	/* C(coherence): seq = mf->seq; */
		active_seen = mf_active;	/* C(coherence): ret = mf->active; */
		spin_unlock(mf_lock)	/* C(coherence): spin_unlock(&mf->lock); */
	};
#if FAULT_WAITS_FOR_IDLE
	if
	:: active_seen != 0 -> active_seen = 0; goto retry	/* C(coherence): if (ret) continue; */
	:: else
	fi;
#endif

	devpt_fault_begin(i, page);	/* C(coherence, pageref, no-sleep): ret = devpt_fault_begin(addr, &page); */
	if
	:: page == NONE -> goto out	/* C(coherence): if (ret) return ret; */
	:: else
	fi;
	LOCKED {
		spin_lock(mf_lock);	/* C(coherence): spin_lock(&mf->lock); */
		if
		:: FAULT_MUST_RETRY ->	/* C(coherence): if (mf->active || mf->seq != seq) { */
			/* An invalidation ran: the page may be stale. */
			spin_unlock(mf_lock);	/* C(coherence): spin_unlock(&mf->lock); */
			devpt_fault_end(page);	/* C(pageref): devpt_fault_end(page); */
			page = NONE;
			seq_seen = 0;
			goto retry	/* C(coherence): continue; } */
		:: else ->
			devpt_store_locked(i, page, old);	/* C(coherence, pageref): ret = devpt_store_locked(&mf->pt, addr, page, &old); */
			if
			:: old != NONE -> mirror_put_entry(old)	/* C(pageref): if (old) mirror_put_entry(mf, old); */
			:: else
			fi;
			old = NONE;
			/* C(unmodelled: statistics; reviewed: the insert moved into devpt_store_locked): if (!ret) { mf->stats.mapped_pages++; atomic_long_inc(&mirror_global_mapped); } */
			spin_unlock(mf_lock)	/* C(coherence): spin_unlock(&mf->lock); */
			/* C(unmodelled: the preload's per-CPU nodes, and no page to put): devpt_fault_end(NULL); */
			/* C(coherence): return ret; } } */
		fi
	};
out:
	faults_done++
}
