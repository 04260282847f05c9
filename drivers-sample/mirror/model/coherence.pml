/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coherence protocol of drivers-sample/mirror, for spin: the CPU
 * page-table entries of one address A (or of the two pages of a THP), the
 * device's entries for them in mf->pt, the page references, and the kernel
 * paths of one generation racing device faults (threads in
 * MIRROR_IOC_MAP). run.sh builds one verifier per line of `expected`:
 *   -D GEN_PRE411 | GEN_411 | GEN_413             migration, MADV_DONTNEED
 *      [-D THP: a PMD-mapped THP instead of one page]
 *   -D OOM_PRE414 | OOM_414 | OOM_416 | OOM_419 | OOM_512 | OOM_66
 *                                                 oom reaper, exit_mmap()
 *   -D DEVICE_RANGE | DEVICE_TLB | DEVICE_MAY_SLEEP | DEVICE_MAY_SLEEP_GATE |
 *      DEVICE_MAY_SLEEP_NOGATE
 *   -D MUTANT_...  (at most one, see the other .pml files)
 *
 * Properties (verify.sh tells them apart by what the failed assertion
 * names):
 *   coherence   (coherent) once every PTE change has been followed by the
 *               notifier call the kernel makes for it, the device maps each
 *               address to the page the CPU page table maps it to, or not
 *               at all (between a change and that call the kernel
 *               tolerates stale TLB entries itself, the CPU's too);
 *   pageref     (page_refs) no page is freed (its reference count 0) while
 *               the CPU or the device maps it, and no reference is put
 *               twice;
 *   no-sleep    (preempt_count) nothing sleeps in atomic context (a
 *               spinlock held, the page-table lock, the secondary-TLB hook)
 *               or where the kernel passed a range that must not block;
 *   deadlock    pan's invalid-end-state check: a fault waiting forever
 *               for mf->active to drop, or asleep with no wake-up coming;
 *   warn        (no_warning) the kernel does not WARN: on 5.12+, a table
 *               whose range_start failed has no range_end;
 *   pairing     (paired) the driver's range_end runs only for a range its
 *               range_start succeeded on, in the same task;
 *   b4          (reaper_backs_off) the kernel goes on with a range (the
 *               reaper unmaps) only when the driver's range_start did not
 *               decline it.
 */

/* Entries of pte[] and mf_pt[]: a page id, no mapping, a migration entry. */
#define NONE		0
#define PAGE_OLD(i)	(1 + 3 * (i))	/* mapped at the start, device has it */
#define PAGE_MIGRATED(i) (2 + 3 * (i))	/* migration target */
#define PAGE_REFAULT(i)	(3 + 3 * (i))	/* fresh page after MADV_DONTNEED */
#define MIG_ENTRY	9		/* not present, faults wait */
#define IS_PAGE(p)	((p) != NONE && (p) != MIG_ENTRY)

/*
 * Addresses, in units small enough for a byte: a page is 2 units, a THP (a
 * PMD) 2 pages. Slot i of pte[] and mf_pt[] is the page at ADDR(i): the
 * THP's at a PMD boundary, A (one page) not. Ranges are [start, end) as
 * the kernel passes them.
 */
#define PAGE_SHIFT	1
#define PAGE_SIZE	2
#define PAGE_MASK	254
#define HPAGE_PMD_SIZE	4
#define ULONG_MAX	255
#define EAGAIN		11

#if defined(OOM_PRE414) || defined(OOM_414) || defined(OOM_416) || \
	defined(OOM_419) || defined(OOM_512) || defined(OOM_66)
#define OOM_CONFIG
#else
#define GUP_FAULTS_IN	/* MADV_DONTNEED'd anonymous memory refaults */
#endif

#ifdef THP
#define NADDR		2	/* head and tail page of one THP */
#define NFAULTS		1	/* a fault of the tail page */
#define FAULT_SLOT	1
#else
#define NADDR		1
#define NFAULTS		2	/* two faults of A */
#define FAULT_SLOT	0
#endif
#define NPAGES		(1 + 3 * NADDR)
#ifdef THP
#define ADDR_BASE	4
#else
#define ADDR_BASE	6
#endif
#define ADDR(i)		(ADDR_BASE + PAGE_SIZE * (i))
#define FIRST_INDEX	(ADDR_BASE >> PAGE_SHIFT)

byte pte[NADDR];	/* the CPU page table */
/* C struct mirror_file(unmodelled: the model has one device): struct mirror_file { */
bool mf_lock;		/* C struct mirror_file(coherence, no-sleep): spinlock_t lock; */
byte mf_pt[NADDR];	/* C struct mirror_file(coherence, pageref; reviewed: the radix tree of devpt.h with mf->lock as its lock, the same map, and the notifier and mm the model leaves out as it did): struct devpt pt; */
byte mf_seq;		/* C struct mirror_file(coherence): unsigned long seq; */
byte mf_active;		/* C struct mirror_file(coherence, deadlock): unsigned int active; */
bool waiting[NFAULTS];	/* C struct mirror_file(deadlock): wait_queue_head_t idle; */
bool sleep_lock;	/* C struct mirror_file(no-sleep): struct mutex sleep_lock; */
/* C struct mirror_file(unmodelled: statistics, the struct's end now after the flag below): struct mirror_stats stats; */
/* C struct mirror_file(unmodelled: set and read only by the DEVPT_REGISTER_GET test knob, one file per mm, a build the tie does not read): bool opened; }; */
bool ptl;		/* the page-table lock */
byte page_ref[NPAGES];	/* page reference counts */

#ifdef DEVICE_MAY_SLEEP_GATE
#define DEVICE_MAY_SLEEP
#define COMPAT_GATE
#endif
#ifdef DEVICE_MAY_SLEEP_NOGATE
#define DEVICE_MAY_SLEEP
#define COMPAT_NOGATE
#if !defined(GEN_413) && !defined(OOM_419) && !defined(OOM_512) && \
	!defined(OOM_66)
#error "may-sleep-nogate: compat pairs the may-sleep table from 4.19 only"
#endif
#endif
#if defined(COMPAT_GATE) || defined(COMPAT_NOGATE)
/* compat's records of the rounds (mirror_notifier.pml), per _pid */
#define NPIDS		8
byte gate_rec[NPIDS];
#endif
#ifdef COMPAT_GATE
bool gate_first;	/* the mm's list calls the gate first */
#endif

/* The pairing and b4 properties are checked where a range_start may fail
 * (the 4.19+ reaper) or compat pairs start and end itself (the gate). */
#if defined(OOM_CONFIG) || defined(COMPAT_GATE)
#define PAIRING		1
#else
#define PAIRING		0
#endif

/* Ghost: PTE changes whose notifier call has not yet returned. */
byte unnotified;
byte faults_done;
bool reaper_done;

/* Names in the assertions of two properties (always 1). */
hidden byte coherent = 1;
hidden byte page_refs = 1;
hidden byte no_warning = 1;
hidden byte paired = 1;
hidden byte reaper_backs_off = 1;

/*
 * What every process has: its context (preempt_count: spinlocks held and
 * atomic sections; nonblocking: in a call the kernel made with a range
 * that must not block) and the locals of the C functions it may run.
 */
#define PROCESS_LOCALS	byte preempt_count; bool nonblocking; \
	byte rmw, um_first, um_last, um_old, r_start, r_end, ret, kret; \
	bool idle, r_blockable, changed, hooked, drv_started, drv_declined; \
	byte held[NADDR]

inline spin_lock(l)
{
	atomic { !l -> l = true; preempt_count++ }
}

inline spin_unlock(l)
{
	atomic { l = false; preempt_count-- }
}

/* might_sleep(): the kernel's check, as CONFIG_DEBUG_ATOMIC_SLEEP does. */
inline might_sleep()
{
	assert(preempt_count == 0 && !nonblocking)
}

inline mutex_lock(m)
{
	might_sleep();
	atomic { !m -> m = true }
}

inline mutex_unlock(m)
{
	m = false
}

/* get_page() and put_page() of page P. */
inline get_page(p)
{
	page_ref[p]++
}

inline put_page(p)
{
	atomic { assert(page_refs && page_ref[p] > 0); page_ref[p]-- }
}

#include "mirror_dev.pml"
#include "mirror_notifier.pml"
#include "kernel.pml"

#define STALE(i)	(mf_pt[i] != NONE && mf_pt[i] != pte[i])
#define FREED(i)	((mf_pt[i] != NONE && page_ref[mf_pt[i]] == 0) || \
			 (IS_PAGE(pte[i]) && page_ref[pte[i]] == 0))
#if NADDR > 1
#define ANY_STALE	(STALE(0) || STALE(1))
#define ANY_FREED	(FREED(0) || FREED(1))
#else
#define ANY_STALE	STALE(0)
#define ANY_FREED	FREED(0)
#endif

active proctype monitor()
{
end:	if
	:: atomic { (unnotified == 0 && ANY_STALE) ->
		assert(!coherent) }	/* reached only on a violation */
	:: atomic { ANY_FREED ->
		assert(!page_refs) }	/* reached only on a violation */
	fi
}	/* the monitor's end: reached only on a violation */

init {
	atomic {
		pte[0] = PAGE_OLD(0);
		mf_pt[0] = PAGE_OLD(0);
		page_ref[PAGE_OLD(0)] = 2;	/* the CPU's and the device's */
#if NADDR > 1
		pte[1] = PAGE_OLD(1);
		mf_pt[1] = PAGE_OLD(1);
		page_ref[PAGE_OLD(1)] = 2;
#endif
#ifdef COMPAT_GATE
		if
		:: gate_first = true
		:: skip
		fi;
#endif
		run mirror_fault_page(0, FAULT_SLOT);
#if NFAULTS > 1
		run mirror_fault_page(1, FAULT_SLOT);
#endif
#if defined(OOM_CONFIG)
		run oom_reaper();
		run exit_mmap();
#elif defined(THP)
		run thp_event();
#else
		run migrate_page();
		run madvise_dontneed();
#endif
	}
}
