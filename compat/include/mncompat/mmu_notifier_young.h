/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <mncompat/mmu_notifier_young.h>: the young (accessed-bit) callbacks and
 * the *_notify() page-table helpers on every kernel, included by
 * <mncompat/mmu_notifier.h>.
 *
 * The driver writes each young callback once, in the newest form, with
 * compat's return type, and puts it in its table with compat's field
 * macro:
 *
 *   static mncompat_clear_flush_young_t
 *   my_clear_flush_young(struct mmu_notifier *mn, struct mm_struct *mm,
 *                        unsigned long start, unsigned long end);
 *   static mncompat_clear_young_t
 *   my_clear_young(struct mmu_notifier *mn, struct mm_struct *mm,
 *                  unsigned long start, unsigned long end);
 *   static mncompat_test_young_t
 *   my_test_young(struct mmu_notifier *mn, struct mm_struct *mm,
 *                 unsigned long address);
 *
 *   MNCOMPAT_MMU_NOTIFIER_OPS(my_ops, ..., flags,
 *                             MNCOMPAT_CLEAR_FLUSH_YOUNG(my_clear_flush_young)
 *                             MNCOMPAT_CLEAR_YOUNG(my_clear_young)
 *                             MNCOMPAT_TEST_YOUNG(my_test_young));
 *
 * (the field macros carry their own trailing comma, or are empty: no comma
 * between them, as with SET_SYSTEM_SLEEP_PM_OPS(); they work in a plain
 * struct mmu_notifier_ops initialiser too).
 *
 * The return type is the kernel's, decided per callback by its own probe:
 * bool from 7.1 on (1fc7dc675e26, which changed all three), int before.
 * Return a truth value (true/false or 1/0): both fit either type. The types
 * carry __maybe_unused, because the field macro leaves a callback out where
 * the kernel has none (clear_young before 4.3, test_young before 2.6.38):
 * the kernel would never call it. The table then points straight at the
 * driver's function on every kernel that has the callback (no trampoline).
 * clear_flush_young took one address before 3.18 (57128468080a): there
 * MNCOMPAT_CLEAR_FLUSH_YOUNG() is a build error naming the reason (below
 * the kit's 4.4 floor; no trampoline).
 *
 * The wrappers mmu_notifier_clear_flush_young() etc. call functions the
 * kernel does not export; a module cannot use them on any kernel.
 *
 * The *_notify() helpers (the page-table young-bit and clear-flush
 * operations that also tell the notifiers) left <linux/mmu_notifier.h>:
 * ptep/pmdp_clear_flush_young_notify() and ptep/pmdp_clear_young_notify()
 * in 7.1 (moved to mm/internal.h), ptep_clear_flush_notify(),
 * pmdp_huge_clear_flush_notify() and pudp_huge_clear_flush_notify() with
 * CONFIG_MMU_NOTIFIER in 6.6 (their !CONFIG_MMU_NOTIFIER stubs later).
 * Where the kernel lacks them, compat defines them as the kernel had them
 * (with and without CONFIG_MMU_NOTIFIER), so code that names them still
 * compiles. They call mm functions most architectures do not export (x86
 * exports none of them, nor __mmu_notifier_clear_flush_young()): a module
 * that calls them links only where those are exported, as before.
 */
#ifndef _MNCOMPAT_MMU_NOTIFIER_YOUNG_H
#define _MNCOMPAT_MMU_NOTIFIER_YOUNG_H

#include <linux/compiler.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <mncompat_config.h>

/* Return types of the young callbacks: the kernel's, may be unused. */
#ifdef MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_BOOL
#define mncompat_clear_flush_young_t	__maybe_unused bool
#else
#define mncompat_clear_flush_young_t	__maybe_unused int
#endif
#ifdef MNCOMPAT_HAVE_CLEAR_YOUNG_BOOL
#define mncompat_clear_young_t		__maybe_unused bool
#else
#define mncompat_clear_young_t		__maybe_unused int
#endif
#ifdef MNCOMPAT_HAVE_TEST_YOUNG_BOOL
#define mncompat_test_young_t		__maybe_unused bool
#else
#define mncompat_test_young_t		__maybe_unused int
#endif

/*
 * The table fields: ".field = fn," where the kernel has the callback,
 * nothing (__MNCOMPAT_NO_FIELD) where it has none.
 */
#define __MNCOMPAT_NO_FIELD(...)
#if defined(MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_RANGE)
#define MNCOMPAT_CLEAR_FLUSH_YOUNG(fn)	.clear_flush_young = (fn),
#elif defined(MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_ADDR)
#define MNCOMPAT_CLEAR_FLUSH_YOUNG(fn)					\
	__MNCOMPAT_NO_FIELD(fn)						\
	.clear_flush_young =						\
		mncompat_clear_flush_young_takes_one_address_before_3_18_no_trampoline,
#else
#define MNCOMPAT_CLEAR_FLUSH_YOUNG(fn)	__MNCOMPAT_NO_FIELD(fn)
#endif
#ifdef MNCOMPAT_HAVE_CLEAR_YOUNG
#define MNCOMPAT_CLEAR_YOUNG(fn)	.clear_young = (fn),
#else
#define MNCOMPAT_CLEAR_YOUNG(fn)	__MNCOMPAT_NO_FIELD(fn)
#endif
#ifdef MNCOMPAT_HAVE_TEST_YOUNG
#define MNCOMPAT_TEST_YOUNG(fn)		.test_young = (fn),
#else
#define MNCOMPAT_TEST_YOUNG(fn)		__MNCOMPAT_NO_FIELD(fn)
#endif

/*
 * ptep/pmdp_clear_flush_young_notify(): clear the young bit and flush,
 * then ask the notifiers (the range the entry maps); true if either saw
 * the page young. An int, as the kernel's macros gave.
 */
#ifndef MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_NOTIFY
#ifdef CONFIG_MMU_NOTIFIER
#define __mncompat_young_notify(clear, notify, vma_, address_, entry_, size_) \
	({								\
		struct vm_area_struct *__mncompat_vma = (vma_);	\
		unsigned long __mncompat_address = (address_);	\
		int __mncompat_young = !!clear(__mncompat_vma,		\
					       __mncompat_address,	\
					       (entry_));		\
									\
		__mncompat_young |= !!notify(__mncompat_vma->vm_mm,	\
					     __mncompat_address,	\
					     __mncompat_address + (size_)); \
		__mncompat_young;					\
	})
#define ptep_clear_flush_young_notify(vma_, address_, ptep_)		\
	__mncompat_young_notify(ptep_clear_flush_young,			\
				mmu_notifier_clear_flush_young,		\
				vma_, address_, ptep_, PAGE_SIZE)
#define pmdp_clear_flush_young_notify(vma_, address_, pmdp_)		\
	__mncompat_young_notify(pmdp_clear_flush_young,			\
				mmu_notifier_clear_flush_young,		\
				vma_, address_, pmdp_, PMD_SIZE)
#else
#define ptep_clear_flush_young_notify	ptep_clear_flush_young
#define pmdp_clear_flush_young_notify	pmdp_clear_flush_young
#endif
#endif

/* ptep/pmdp_clear_young_notify(): the same without the flush (4.3). */
#ifndef MNCOMPAT_HAVE_CLEAR_YOUNG_NOTIFY
#ifdef CONFIG_MMU_NOTIFIER
#define ptep_clear_young_notify(vma_, address_, ptep_)			\
	__mncompat_young_notify(ptep_test_and_clear_young,		\
				mmu_notifier_clear_young,		\
				vma_, address_, ptep_, PAGE_SIZE)
#define pmdp_clear_young_notify(vma_, address_, pmdp_)			\
	__mncompat_young_notify(pmdp_test_and_clear_young,		\
				mmu_notifier_clear_young,		\
				vma_, address_, pmdp_, PMD_SIZE)
#else
#define ptep_clear_young_notify		ptep_test_and_clear_young
#define pmdp_clear_young_notify		pmdp_test_and_clear_young
#endif
#endif

/*
 * ptep_clear_flush_notify() and its pmd and pud forms: where the TLB
 * flush itself calls the secondary-TLB hook (6.6+, the hook named
 * arch_invalidate_secondary_tlbs), the plain clear and flush is what they
 * were; with neither (no kernel known) compat defines nothing.
 */
#if !defined(MNCOMPAT_HAVE_CLEAR_FLUSH_NOTIFY) &&			\
	(defined(MNCOMPAT_HAVE_ARCH_INVALIDATE_SECONDARY_TLBS) ||	\
	 !defined(CONFIG_MMU_NOTIFIER))
#define ptep_clear_flush_notify		ptep_clear_flush
#define pmdp_huge_clear_flush_notify	pmdp_huge_clear_flush
#define pudp_huge_clear_flush_notify	pudp_huge_clear_flush
#endif

#endif /* _MNCOMPAT_MMU_NOTIFIER_YOUNG_H */
