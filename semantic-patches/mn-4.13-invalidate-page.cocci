// SPDX-License-Identifier: GPL-2.0
/// Linux 4.13 (5f32b265400d) removed mmu_notifier_ops.invalidate_page.
/// A notifier that also has invalidate_range_start (or invalidate_range)
/// is already told about every change: drop the invalidate_page field,
/// the callback, its forward declarations and the static helpers only it
/// used (what 4.13 did to amdgpu, IB umem, IB hfi1 and KVM).  A notifier
/// with only invalidate_page gets invalidate_range_start/end callbacks
/// that run the old callback for each page of [start, end) (once, if the
/// callback ignores the address); with -D atomic it gets the
/// non-sleeping invalidate_range callback instead.  The old callback is
/// kept as the helper they call.  Generated callbacks use the 4.13
/// prototype; the later mn-*.cocci files move them forward.
///
// Confidence: Moderate
// Copyright: (C) 2024 mncompat authors
// Comments: Only struct mmu_notifier_ops initializers are changed;
//  cleancache_ops/frontswap_ops have an invalidate_page field with
//  another meaning.  Run-time assignments to ->invalidate_page, callbacks
//  spatch cannot parse (e.g. split by #if) and helpers defined in other
//  files are reported for review.  In patch mode the review notes go to
//  stderr as "FILE:LINE: [4.13] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, invalidate_page, invalidate_range

virtual patch
virtual context
virtual org
virtual report
virtual atomic

@initialize:python@
@@
import sys
mode = ['report']

def note(p, msg):
    msg = "[4.13] " + msg
    if mode[0] == 'patch':
        sys.stderr.write("%s:%s: %s\n" % (p[0].file, p[0].line, msg))
    elif mode[0] == 'org':
        coccilib.org.print_todo(p[0], msg)
    else:
        coccilib.report.print_report(p[0], msg)

def new_name(fn, what):
    if 'invalidate_page' in fn:
        return fn.replace('invalidate_page', 'invalidate_' + what)
    return fn + '_' + what

@script:python depends on patch@
@@
mode[0] = 'patch'

@script:python depends on org@
@@
mode[0] = 'org'

// ---------------------------------------------------------------------
// What is there: notifiers with invalidate_page and a range callback
// (covered), with invalidate_page only, and run-time assignments.
// ---------------------------------------------------------------------

@covered@
identifier ops, fn;
expression E;
position p;
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
	.\(invalidate_range_start\|invalidate_range\) = E,
};

@only@
identifier ops, fn;
position p != covered.p;
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
};

@only_parsed@
identifier only.fn, mn, mm, addr;
type T;
@@
T fn(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long addr)
{ ... }

@only_uses_addr exists@
identifier only.fn, mn, mm, addr;
type T;
@@
T fn(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long addr)
{ <+... addr ...+> }

@covered_parsed@
identifier covered.fn;
@@
fn(...) { ... }

@other_assign@
expression E, F;
position p;
{struct cleancache_ops, struct frontswap_ops} C;
{struct cleancache_ops *, struct frontswap_ops *} CP;
@@
(
C.invalidate_page = F
|
CP->invalidate_page = F
|
E.invalidate_page@p = F
|
E->invalidate_page@p = F
)

@script:python depends on !context@
p << other_assign.p;
@@
note(p, "review: run-time assignment to ->invalidate_page (gone since 4.13): convert by hand, or use a static struct mmu_notifier_ops")

@script:python depends on !context@
p << only.p;
fn << only.fn;
@@
if mode[0] != 'patch':
    note(p, "%s: only invalidate_page: convert to invalidate_range_start/end (may sleep) or invalidate_range (atomic)" % fn)

@script:python depends on !context@
p << covered.p;
fn << covered.fn;
@@
if mode[0] != 'patch':
    note(p, "%s: invalidate_page is covered by the range callbacks: remove it" % fn)

@script:python depends on !context && !covered_parsed@
p << covered.p;
fn << covered.fn;
@@
note(p, "review: %s is not defined in this file or could not be parsed (#if?): remove its definition by hand" % fn)

@depends on context@
identifier ops, fn;
@@
struct mmu_notifier_ops ops = {
*	.invalidate_page = fn,
};

// ---------------------------------------------------------------------
// (a) covered: drop the field, then the callback if nothing else uses it
// ---------------------------------------------------------------------

@covered_ref depends on patch exists@
identifier covered.fn, h;
@@
fn(...) { <+... h ...+> }

@covered_call depends on patch exists@
identifier covered.fn, h;
@@
fn(...) { <+... h(...) ...+> }

@covered_call_defined depends on patch@
identifier covered_call.h;
@@
h(...) { ... }

@drop_field depends on patch@
identifier covered.ops, covered.fn;
@@
struct mmu_notifier_ops ops = {
-	.invalidate_page = fn,
};

@fn_used depends on patch@
identifier covered.fn;
@@
fn

@drop_fn depends on patch && !fn_used@
identifier covered.fn;
@@
- fn(...) { ... }

@drop_fn_decl depends on patch && !fn_used@
identifier covered.fn;
type T;
@@
- T fn(...);

@script:python depends on drop_fn@
p << covered.p;
fn << covered.fn;
@@
note(p, "removed: %s (invalidate_page, covered by the range callbacks)" % fn)

@script:python depends on patch && fn_used@
p << covered.p;
fn << covered.fn;
@@
note(p, "review: %s is used elsewhere in this file: field dropped, function kept" % fn)

// static helpers that only the removed callback used go too
@helper_used depends on drop_fn@
identifier covered_ref.h;
@@
h

@drop_helper depends on drop_fn && !helper_used@
identifier covered_ref.h;
type T;
@@
(
- static T h(...) { ... }
|
- static inline T h(...) { ... }
)

@drop_helper_decl depends on drop_helper@
identifier covered_ref.h;
type T;
@@
- T h(...);

@script:python depends on drop_helper@
p << covered.p;
h << covered_ref.h;
@@
note(p, "removed: %s (static helper only the removed callback used)" % h)

@call_used depends on drop_fn@
identifier covered_call.h;
@@
h

@script:python depends on drop_fn && !covered_call_defined && !call_used@
p << covered.p;
h << covered_call.h;
@@
note(p, "review: %s is no longer called from this file: remove it where it is defined if nothing else uses it" % h)
