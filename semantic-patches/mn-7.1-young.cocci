// SPDX-License-Identifier: GPL-2.0
/// Linux 7.1 (1fc7dc675e26 "mm: change to return bool for the MMU
/// notifier's young flag check") made mmu_notifier_ops.clear_flush_young,
/// clear_young and test_young return bool: an int callback no longer
/// builds.  Each young callback of a table (and its prototypes) returns
/// bool; its literal "return 0;"/"return 1;" become false/true (any other
/// int value already meant young when non-zero).  The same release took
/// the ptep/pmdp_clear_(flush_)young_notify() macros out of
/// <linux/mmu_notifier.h> (5a970006786a, into mm/internal.h): a call
/// becomes the primary test-and-clear ORed with the notifier's, as
/// upstream open-coded its users (page_idle, DAMON); and 6.16
/// (49c69504f4d3) removed the !CONFIG_MMU_NOTIFIER leftovers
/// ptep_clear_flush_notify() and pmdp/pudp_huge_clear_flush_notify()
/// (their CONFIG_MMU_NOTIFIER forms went in 6.6, ec8832d007cb: the TLB
/// flush calls the secondary-TLB hook): calls become the plain forms.
///
// Confidence: High
// Copyright: (C) 2026 mncompat authors
// Comments: Untyped run-time assignments to a young field, callbacks not
//  defined in the file or split by #if/#else, and a *_young_notify() call
//  whose vma or address is not a plain variable or field (it would be
//  evaluated twice) are reported.  With -D compat a callback gets compat's
//  return type for its field (mncompat_clear_young_t and the others:
//  bool from 7.1 on, int before) and keeps its returns.  In patch mode
//  the notes go to stderr as "FILE:LINE: [7.1] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, clear_flush_young, clear_young, test_young

virtual patch, context, org, report
virtual compat

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
from mncocci import Step
import plan71

step = Step('7.1')
plan71.start(step)

// The young callbacks of the file's tables.
@ops@
identifier o, fn != NULL;
identifier f = {clear_flush_young, clear_young, test_young};
position p;
@@
struct mmu_notifier_ops o = {
	.f = fn@p,
};

@script:python@
p << ops.p;
f << ops.f;
fn << ops.fn;
@@
plan71.table(p, f, fn)

@depends on context@
identifier o, fn != NULL;
identifier f = {clear_flush_young, clear_young, test_young};
@@
struct mmu_notifier_ops o = {
*	.f = fn,
};

// Run-time assignments: typed ones name a callback like a table does.
@rt_typed@
struct mmu_notifier_ops *OP;
struct mmu_notifier_ops OS;
identifier fn != NULL;
identifier f = {clear_flush_young, clear_young, test_young};
position p;
@@
(
OP->f@p = fn
|
OS.f@p = fn
)

@script:python@
p << rt_typed.p;
f << rt_typed.f;
fn << rt_typed.fn;
@@
plan71.table(p, f, fn)

@rt@
expression E, F;
identifier f = {clear_flush_young, clear_young, test_young};
position p != rt_typed.p;
@@
(
E.f@p = F
|
E->f@p = F
)

@script:python depends on !context@
p << rt.p;
f << rt.f;
F << rt.F;
@@
plan71.assigned(p, f, F)

// Which callbacks this step converts: those the tables name, defined
// here with an int return, not split by #if/#else.
@has_def@
identifier ops.fn;
@@
fn(...) { ... }

@script:python depends on !context && !has_def@
p << ops.p;
fn << ops.fn;
@@
plan71.undefined(p, fn)

@has_def_rt@
identifier rt_typed.fn;
@@
fn(...) { ... }

@script:python depends on !context && !has_def_rt@
p << rt_typed.p;
fn << rt_typed.fn;
@@
plan71.undefined(p, fn)

@defs@
identifier fn;
parameter list PL;
position pf;
@@
int fn@pf(PL) { ... }

@script:python todo@
fn << defs.fn;
pf << defs.pf;
fn2;
T;
@@
if plan71.converts(fn, pf):
    coccinelle.fn2 = fn
    coccinelle.T = cocci.make_type(plan71.return_type(fn))
else:
    cocci.include_match(False)

@depends on patch@
identifier todo.fn2;
type todo.T;
parameter list PL;
@@
- int fn2(PL)
+ T fn2(PL)
  { ... }

@depends on patch@
identifier todo.fn2;
type todo.T;
parameter list PL;
@@
- int fn2(PL);
+ T fn2(PL);

@depends on patch && !compat@
identifier todo.fn2;
typedef bool;
@@
bool fn2(...) {
<...
(
- return 0;
+ return false;
|
- return 1;
+ return true;
)
...>
}

// The *_young_notify() macros: the primary test-and-clear ORed with the
// notifier's for the same range (both are always evaluated, as in the
// macro), when the vma and the address can be named twice.
@notify@
expression V, A, P;
identifier m = {ptep_clear_flush_young_notify, pmdp_clear_flush_young_notify,
	ptep_clear_young_notify, pmdp_clear_young_notify};
position pc;
@@
m@pc(V, A, P)

@script:python depends on !context@
m << notify.m;
pc << notify.pc;
V << notify.V;
A << notify.A;
@@
plan71.notify_call(pc, m, V, A)

@depends on context@
identifier m = {ptep_clear_flush_young_notify, pmdp_clear_flush_young_notify,
	ptep_clear_young_notify, pmdp_clear_young_notify};
expression V, A, P;
@@
* m(V, A, P)

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
statement S;
@@
if (
- ptep_clear_flush_young_notify(V, A, P)
+ ptep_clear_flush_young(V, A, P) | mmu_notifier_clear_flush_young(V->vm_mm, A, A + PAGE_SIZE)
  ) S

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
@@
- ptep_clear_flush_young_notify(V, A, P)
+ (ptep_clear_flush_young(V, A, P) | mmu_notifier_clear_flush_young(V->vm_mm, A, A + PAGE_SIZE))

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
statement S;
@@
if (
- pmdp_clear_flush_young_notify(V, A, P)
+ pmdp_clear_flush_young(V, A, P) | mmu_notifier_clear_flush_young(V->vm_mm, A, A + PMD_SIZE)
  ) S

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
@@
- pmdp_clear_flush_young_notify(V, A, P)
+ (pmdp_clear_flush_young(V, A, P) | mmu_notifier_clear_flush_young(V->vm_mm, A, A + PMD_SIZE))

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
statement S;
@@
if (
- ptep_clear_young_notify(V, A, P)
+ ptep_test_and_clear_young(V, A, P) | mmu_notifier_clear_young(V->vm_mm, A, A + PAGE_SIZE)
  ) S

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
@@
- ptep_clear_young_notify(V, A, P)
+ (ptep_test_and_clear_young(V, A, P) | mmu_notifier_clear_young(V->vm_mm, A, A + PAGE_SIZE))

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
statement S;
@@
if (
- pmdp_clear_young_notify(V, A, P)
+ pmdp_test_and_clear_young(V, A, P) | mmu_notifier_clear_young(V->vm_mm, A, A + PMD_SIZE)
  ) S

@depends on patch@
expression V : script:python() { plan71.plain(V) };
expression A : script:python() { plan71.plain(A) };
expression P;
@@
- pmdp_clear_young_notify(V, A, P)
+ (pmdp_test_and_clear_young(V, A, P) | mmu_notifier_clear_young(V->vm_mm, A, A + PMD_SIZE))

// The !CONFIG_MMU_NOTIFIER leftovers: the plain forms.
@stubs@
expression V, A, P;
identifier m = {ptep_clear_flush_notify, pmdp_huge_clear_flush_notify,
	pudp_huge_clear_flush_notify};
position pc;
@@
m@pc(V, A, P)

@script:python depends on !context@
m << stubs.m;
pc << stubs.pc;
@@
plan71.stub_call(pc, m)

@depends on patch@
expression V, A, P;
@@
(
- ptep_clear_flush_notify(V, A, P)
+ ptep_clear_flush(V, A, P)
|
- pmdp_huge_clear_flush_notify(V, A, P)
+ pmdp_huge_clear_flush(V, A, P)
|
- pudp_huge_clear_flush_notify(V, A, P)
+ pudp_huge_clear_flush(V, A, P)
)
