/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The coherence protocol of drivers-sample/mirror, for spin: one address A
 * of the opener's mm, its CPU page-table entry (pte), the device's entry
 * for it in mf->pt (mf_pt), and the kernel paths of one generation racing
 * two device faults of A (two threads in MIRROR_IOC_MAP). run.sh builds
 * one verifier per line of `expected`:
 *   -D GEN_PRE411 | GEN_411 | GEN_413 | OOM_PRE414 | OOM_414 | OOM_419
 *   -D DEVICE_RANGE | DEVICE_TLB | DEVICE_MAY_SLEEP
 *   -D MUTANT_...  (at most one, see mirror_dev.pml, mirror_notifier.pml,
 *                   kernel.pml)
 *
 * Property (proctype coherence): once every PTE change of A has been
 * followed by the notifier call the kernel makes for it, the device maps A
 * to the page the CPU page table maps it to, or not at all. Between a PTE
 * change and that call the kernel itself tolerates stale TLB entries (the
 * CPU's too), so the check is off there: it holds after every completed
 * invalidation and wherever the CPU and the device can both read A.
 * No deadlock: pan's invalid-end-state check.
 */

/* Values of pte and mf_pt: a page id, no mapping, or a migration entry. */
#define NONE		0
#define PAGE_OLD	1	/* mapped at the start, device has it */
#define PAGE_MIGRATED	2	/* migration target */
#define PAGE_REFAULT	3	/* fresh page after MADV_DONTNEED */
#define MIG_ENTRY	9	/* migration entry: not present, faults wait */
#define IS_PAGE(p)	((p) != NONE && (p) != MIG_ENTRY)

byte pte = PAGE_OLD;
/* struct mirror_file, for A */
byte mf_pt = PAGE_OLD;	/* mf->pt: the device mapped A earlier */
byte mf_seq;		/* mf->seq */
byte mf_active;		/* mf->active */
bool mf_lock;		/* mf->lock (spinlock) */
bool ptl;		/* the page-table lock of A */

/* Ghost: PTE changes of A whose notifier call has not yet returned. */
byte unnotified;

byte faults_done;
bool reaper_done;

inline spin_lock(l)
{
	atomic { !l -> l = true }
}

inline spin_unlock(l)
{
	l = false
}

#if defined(OOM_PRE414) || defined(OOM_414) || defined(OOM_419)
#define OOM_CONFIG
#else
#define GUP_FAULTS_IN	/* MADV_DONTNEED'd anonymous memory refaults */
#endif

#include "mirror_dev.pml"
#include "mirror_notifier.pml"
#include "kernel.pml"

active proctype coherence()
{
end:	atomic {
		(unnotified == 0 && mf_pt != NONE && mf_pt != pte) ->
			assert(false)
	}
}

init {
	atomic {
		run mirror_fault_page();
		run mirror_fault_page();
#ifdef OOM_CONFIG
		run oom_reaper();
		run exit_mmap();
#else
		run migrate_page();
		run madvise_dontneed();
#endif
	}
}
