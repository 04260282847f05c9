// SPDX-License-Identifier: GPL-2.0
/// Linux 4.13 (5f32b265400d) removed mmu_notifier_ops.invalidate_page.
/// A table with range callbacks loses the field, and the callback with its
/// declarations and helpers when the range callbacks redo its work after
/// the page-table change (else a new range_end runs it for every page); a
/// table with only invalidate_page gets range callbacks that run it for
/// every page (-D atomic: one invalidate_range).  -D compat: the forms
/// <mncompat/mmu_notifier.h> needs.  Details: semantic-patches/README.md.
///
// Confidence: Moderate
// Copyright: (C) 2024 mncompat authors
// Comments: Only struct mmu_notifier_ops initializers are changed;
//  cleancache_ops/frontswap_ops have an invalidate_page field with
//  another meaning.  Run-time assignments to ->invalidate_page, callbacks
//  spatch cannot parse (e.g. split by #if) and helpers defined in other
//  files are reported for review.  In patch mode the notes go to stderr
//  as "FILE:LINE: [4.13] ..." lines.  What the callbacks reach is judged
//  over the whole module (mnmodule.py).  The removal is
//  include/drop-callback.cocci, shared with the 6.10 script: spatch before
//  1.3.1 looks it up from the current directory (run it from
//  semantic-patches/, or give spatch the copy flatten.sh makes).
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, invalidate_page, invalidate_range

#include "include/drop-callback.cocci"

virtual patch, context, org, report
virtual atomic
virtual compat

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
# The planner (plan413.py): what becomes of each table, the callbacks to
# generate, the notes.  dying: what include/drop-callback.cocci asks.
import plan413
dying = plan413.dying

// ---------------------------------------------------------------------
// After the included rules (the tables with invalidate_page, and for
// those with range callbacks that lose it (gone): the field, the
// callback and its helpers): the other tables and what the conversion
// says of them.
// ---------------------------------------------------------------------

@script:python depends on compat@
p << gone.p;
fn << gone.fn;
@@
plan413.note_not_kept(p, fn)

@cppbad@
identifier ops;
identifier fn != NULL;
position p : script:python() { plan413.cpp_bad(p) };
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
};

@only@
identifier ops;
identifier fn != NULL;
position p : script:python() { plan413.is_only(p) };
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
};

@script:python depends on !context@
p << cppbad.p;
fn << cppbad.fn;
@@
plan413.note_cppbad(p, fn)

@script:python depends on !context@
p << gone.p;
fn << gone.fn;
@@
plan413.note_end_only(p, fn)

@only_parsed@
identifier only.fn, mn, mm, addr;
type T;
@@
T fn(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long addr)
{ ... }

@script:python depends on patch && !only_parsed@
p << only.p;
fn << only.fn;
@@
plan413.note_only_unparsed(p, fn)

@script:python depends on !context@
p << only.p;
fn << only.fn;
@@
plan413.report_only(p, fn)

@script:python depends on !context@
p << gone.p;
fn << gone.fn;
@@
plan413.report_gone(p, fn)

@depends on context@
identifier ops, fn;
@@
struct mmu_notifier_ops ops = {
*	.invalidate_page = fn,
};

// ---------------------------------------------------------------------
// The plan (plan_file) and the notes that say it.
// ---------------------------------------------------------------------

@script:python depends on patch && tbl@
@@
plan413.plan_file()

// ---------------------------------------------------------------------
// The edits: the fields; each generated callback before its table (the
// last one) or before the next one generated there, as an empty body
// with a placeholder (spatch then lays the header out as a definition's);
// its comment; its body.
// ---------------------------------------------------------------------

@depends on patch@
identifier ops;
identifier G : script:python(ops) { plan413.replaces(ops, G) };
expression V;
fresh identifier F = script:python(ops, G) { plan413.replaced_by(ops, G, 0) };
fresh identifier N = script:python(ops, G) { plan413.replaced_by(ops, G, 1) };
@@
struct mmu_notifier_ops ops = {
-	.G = V,
+	.F = N,
};

@depends on patch@
identifier ops : script:python() { plan413.gets_end(ops) };
identifier S;
fresh identifier N = script:python(ops) { plan413.end_of(ops) };
@@
struct mmu_notifier_ops ops = {
	.invalidate_range_start = S,
+	.invalidate_range_end = N,
};

@depends on patch@
identifier ops, f;
identifier N : script:python(ops) { plan413.last_before(ops, N) };
@@
+static void N(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{ __mncompat_body(); }
+
 struct mmu_notifier_ops ops = {
 	.f = N,
 };

@depends on patch@
identifier M : script:python() { plan413.follows(M) is not None };
fresh identifier N = script:python(M) { plan413.follows(M) };
@@
+static void N(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{ __mncompat_body(); }
+
 static void M(...) { __mncompat_body(); }

// Each one gets a prototype that a rule after the bodies drops again:
// spatch then merges the blank lines around the place it went in (two
// blank lines before a table become one).
@depends on patch@
identifier N : script:python() { plan413.planned(N) };
@@
+static void N(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
 static void N(...) { __mncompat_body(); }

@depends on patch disable prototypes@
identifier N : script:python() { plan413.says_replaces(N) };
@@
+/* Replaces invalidate_page, removed in Linux 4.13. */
 static void N(...) { __mncompat_body(); }

@depends on patch disable prototypes@
identifier N : script:python() { plan413.says_moved(N) };
@@
+/* Replaces invalidate_page (4.13): its work, after the page-table change. */
 static void N(...) { __mncompat_body(); }

// P: the old range_end or none; R: cond_resched or none.
@depends on patch@
identifier N : script:python() { plan413.loops(N) };
fresh identifier G = script:python(N) { plan413.callee(N) };
fresh identifier P = script:python(N) { plan413.pre_call(N) };
fresh identifier R = script:python(N) { plan413.resched_call(N) };
@@
 N(...) {
-	__mncompat_body();
+	unsigned long address = start;
+
+	P(mn, mm, start, end);
+	while (address < end) {
+		G(mn, mm, address);
+		address += PAGE_SIZE;
+		R();
+	}
 }

@depends on patch@
identifier N : script:python() { plan413.ranged_call(N) };
fresh identifier G = script:python(N) { plan413.callee(N) };
fresh identifier P = script:python(N) { plan413.pre_call(N) };
@@
 N(...) {
-	__mncompat_body();
+	P(mn, mm, start, end);
+	G(mn, mm, start, end);
 }

// The callback itself, where it takes its address only as a range:
// (address, PAGE_SIZE) first, then (address, address + PAGE_SIZE) and
// the parameter.
@depends on patch@
identifier N : script:python() { plan413.ranged_fn(N) };
identifier mn, mm, a, g;
type T1, T2;
expression list es1, es2;
@@
 N(T1 mn, T2 mm, unsigned long a) {
 <...
 g(es1,
- a
+ start
 ,
- PAGE_SIZE
+ end - start
 , es2)
 ...>
 }

@depends on patch@
identifier N : script:python() { plan413.ranged_fn(N) };
identifier mn, mm, a;
type T1, T2;
@@
 N(T1 mn, T2 mm,
-  unsigned long a
+  unsigned long start, unsigned long end
 ) {
 <...
(
- a + PAGE_SIZE
+ end
|
- a
+ start
)
 ...>
 }

@depends on patch@
identifier N : script:python() { plan413.ranged_fn(N) };
identifier mn, mm, a;
type T, T1, T2;
@@
 T N(T1 mn, T2 mm,
-  unsigned long a
+  unsigned long start, unsigned long end
 );

@depends on patch@
identifier N : script:python() { plan413.once(N) };
fresh identifier G = script:python(N) { plan413.callee(N) };
@@
 N(...) {
-	__mncompat_body();
+	G(mn, mm, start);
 }

@depends on patch@
identifier N : script:python() { plan413.planned(N) };
identifier X : script:python() { plan413.is_none(X) };
@@
 N(...) {
 <...
- X(...);
 ...>
 }

@depends on patch@
identifier N : script:python() { plan413.planned(N) };
type T;
@@
- T N(...);

// An old range_end that is empty in each of its definitions (one per
// #if branch) goes: the generated range_end does not call it.
@depends on patch@
identifier E : script:python() { plan413.drops_empty(E) };
type T;
@@
- T E(...) { }

// Last: the comment rules above would change a prototype too.
@depends on patch@
identifier ops, f;
identifier N : script:python(ops) { plan413.forward_here(ops, N) };
@@
+static void N(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
 struct mmu_notifier_ops ops = {
 	.f = N,
 };
