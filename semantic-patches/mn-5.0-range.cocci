// SPDX-License-Identifier: GPL-2.0
/// Linux 5.0 (5d6527a784f7, ac46d4f3c432) passes invalidate_range_start
/// and _end a const struct mmu_notifier_range * instead of (mm, start,
/// end[, blockable]): the callbacks of the ops tables take (mn, range) and
/// use range->mm/start/end (a local copy of a parameter they write) and
/// mmu_notifier_range_blockable(range); old callers are reported.  It
/// passes 4.20 too (4e15a073a168): the tables' .flags (4.16's
/// MMU_INVALIDATE_DOES_NOT_BLOCK) goes, but with -D compat, where the
/// compat step reads it and then drops it.
///
// Confidence: High
// Copyright: (C) 2024 mncompat authors
// Comments: invalidate_range_start must already have the 4.19 prototype
//  (int, bool blockable): run mn-4.19-blockable.cocci first; older ones
//  are reported.  In patch mode the notes go to stderr as
//  "FILE:LINE: [5.0] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, mmu_notifier_range, invalidate_range_start

virtual patch, context, org, report
virtual compat

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
from mncocci import Step
# The planner (plan50.py): which callbacks are converted, what replaces
# their parameters.
import plan50

step = Step('5.0')

@ops@
identifier o;
identifier fn != NULL;
expression E;
position p;
@@
(
struct mmu_notifier_ops o = {
	.\(invalidate_range_start\|invalidate_range_end\) = fn@p,
};
|
E.\(invalidate_range_start\|invalidate_range_end\) = fn@p
|
E->\(invalidate_range_start\|invalidate_range_end\) = fn@p
)

// 4.19-form start (int, 5 parameters) or end (void, 4 parameters)
@sig@
identifier ops.fn, mn, mm, s, e, b;
position pf;
@@
(
int fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	  unsigned long s, unsigned long e, bool b) { ... }
|
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e) { ... }
)

@sig_done@
identifier ops.fn, mn, r;
@@
fn(struct mmu_notifier *mn, const struct mmu_notifier_range *r) { ... }

@script:python depends on !context && !sig && !sig_done@
fn << ops.fn;
p << ops.p;
@@
step.note(p, "review: %s is not defined in this file or could not be parsed (#if?), or has a prototype this script does not know: give it the 5.0 prototype (mn, const struct mmu_notifier_range *) by hand" % fn)

@ops_start@
identifier o;
identifier fn != NULL;
expression E;
@@
(
struct mmu_notifier_ops o = {
	.invalidate_range_start = fn,
};
|
E.invalidate_range_start = fn
|
E->invalidate_range_start = fn
)

@old_start depends on !context@
identifier ops_start.fn, mn, mm, s, e;
position pf;
@@
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e) { ... }

@script:python depends on !context@
fn << ops_start.fn;
pf << old_start.pf;
@@
step.note(pf, "review: %s still has the pre-4.19 invalidate_range_start prototype: run mn-4.19-blockable.cocci first" % fn)

@script:python depends on report || org@
fn << ops.fn;
pf << sig.pf;
@@
step.note(pf, "%s: 5.0 passes const struct mmu_notifier_range *" % fn)

@script:python@
fn << ops_start.fn;
@@
plan50.a_start(fn)

@sig_void@
identifier ops.fn, mn, mm, s, e;
position pf;
@@
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e) { ... }

@script:python@
pf << sig_void.pf;
@@
plan50.old_void(pf)

@clash exists@
identifier ops.fn, r = {range};
type T;
position pc;
@@
fn(...) {
<+...
T r@pc;
...+>
}

@script:python@
pc << clash.pc;
fn << ops.fn;
@@
plan50.clash(fn)
step.note(pc, "review: %s has a local named range, which the 5.0 parameter needs: not converted, rename it and run again" % fn)

// ok: the callbacks to convert (not one split by #if, with a local named
// range, or a start callback that still has the pre-4.19 prototype).
@script:python cb depends on patch@
fn << ops.fn;
pf << sig.pf;
mm << sig.mm;
s << sig.s;
e << sig.e;
ok;
@@
ok = step.unsplit(pf, fn)
if plan50.convert(fn, pf, mm, s, e):
    coccinelle.ok = cocci.make_ident(ok)
else:
    cocci.include_match(False)

// callers of a callback that changes: they need a struct mmu_notifier_range
@direct@
identifier cb.ok;
expression list[4] es4;
expression list[5] es5;
position pc;
@@
\(ok@pc(es4)\|ok@pc(es5)\)

@script:python@
fn << cb.ok;
pc << direct.pc;
@@
step.note(pc, "review: %s is called here with its pre-5.0 arguments: pass a const struct mmu_notifier_range * (mmu_notifier_range_init())" % fn)

@old_calls@
expression M, S, E;
position pc;
@@
\(mmu_notifier_invalidate_range_start@pc\|mmu_notifier_invalidate_range_end@pc\|mmu_notifier_invalidate_range_only_end@pc\)(M, S, E)

@script:python depends on !context@
pc << old_calls.pc;
@@
step.note(pc, "review: 5.0 callers pass a struct mmu_notifier_range (mmu_notifier_range_init(), then invalidate_range_start/end(&range)): convert by hand")

@depends on context@
identifier ops.fn, mn, mm, s, e;
@@
* fn(struct mmu_notifier *mn, struct mm_struct *mm,
     unsigned long s, unsigned long e, ...) { ... }

// --- the parameters: a local copy of those the body writes, else ------
// --- range->start/end/mm (in the definition with the old prototype: ---
// --- a vendor's file may define the new one too, under #if) ----------

@w depends on patch exists@
identifier cb.ok;
identifier x : script:python(ok) { plan50.is_param(ok, x) };
expression E;
assignment operator aop;
identifier sig.mn, sig.mm;
@@
ok(struct mmu_notifier *mn, struct mm_struct *mm, ...) {
<+...
(
x aop E
|
x++
|
x--
|
 &x
)
...+>
}

@script:python@
ok << cb.ok;
x << w.x;
@@
plan50.write(ok, x)

@depends on patch@
identifier cb.ok;
identifier x : script:python(ok) { plan50.replaced(ok, x) };
fresh identifier F = script:python(ok, x) { plan50.range_field(ok, x) };
identifier sig.mn, sig.mm;
@@
ok(struct mmu_notifier *mn, struct mm_struct *mm, ...) {
<...
- x
+ range->F
...>
}

@depends on patch@
identifier cb.ok, sig.b, sig.mn, sig.mm;
@@
ok(struct mmu_notifier *mn, struct mm_struct *mm, ...) {
<...
- b
+ mmu_notifier_range_blockable(range)
...>
}

@depends on patch@
identifier cb.ok, sig.e, sig.mn, sig.mm;
position p : script:python(ok, e) { plan50.is_written(ok, e) };
@@
ok@p(struct mmu_notifier *mn, struct mm_struct *mm, ...) {
+	unsigned long e = range->end;
...
}

@depends on patch@
identifier cb.ok, sig.s, sig.mn, sig.mm;
position p : script:python(ok, s) { plan50.is_written(ok, s) };
@@
ok@p(struct mmu_notifier *mn, struct mm_struct *mm, ...) {
+	unsigned long s = range->start;
...
}

@depends on patch@
identifier cb.ok, sig.mm, sig.mn;
position p : script:python(ok, mm) { plan50.is_written(ok, mm) };
@@
ok@p(struct mmu_notifier *mn, struct mm_struct *mm, ...) {
+	struct mm_struct *mm = range->mm;
...
}

@hdr_start depends on patch@
identifier cb.ok, sig.mn, sig.mm, sig.s, sig.e, sig.b;
@@
int ok(struct mmu_notifier *mn,
-	struct mm_struct *mm, unsigned long s, unsigned long e, bool b
+	const struct mmu_notifier_range *range
 ) { ... }

@hdr_end depends on patch@
identifier cb.ok, sig.mn, sig.mm, sig.s, sig.e;
@@
void ok(struct mmu_notifier *mn,
-	struct mm_struct *mm, unsigned long s, unsigned long e
+	const struct mmu_notifier_range *range
 ) { ... }

@proto_start depends on hdr_start@
identifier cb.ok;
parameter P1;
parameter list[4] PL;
@@
int ok(P1,
-	PL
+	const struct mmu_notifier_range *range
 );

@proto_end depends on hdr_end@
identifier cb.ok;
parameter P1;
parameter list[3] PL;
@@
void ok(P1,
-	PL
+	const struct mmu_notifier_range *range
 );

@script:python depends on hdr_start || hdr_end@
fn << cb.ok;
pf << sig.pf;
@@
step.note(pf, "converted: %s: (mn, const struct mmu_notifier_range *range)" % fn)

// --- 4.20: ops->flags gone ---------------------------------------------

@flags depends on patch && !compat@
identifier o;
expression E;
position pfl;
@@
struct mmu_notifier_ops o = {
-	.flags@pfl = E,
};

@script:python@
o << flags.o;
E << flags.E;
pfl << flags.pfl;
@@
step.note(pfl, "%s: .flags = %s goes (4.16-4.19's ops->flags, gone in 4.20, 4e15a073a168)" % (o, E))
