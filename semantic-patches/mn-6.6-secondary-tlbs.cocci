// SPDX-License-Identifier: GPL-2.0
/// Linux 6.6 (1af5a8109904 "mmu_notifiers: rename invalidate_range
/// notifier") renamed mmu_notifier_ops.invalidate_range to
/// arch_invalidate_secondary_tlbs and removed
/// mmu_notifier_invalidate_range() and _only_end(): the field and the
/// callback are renamed as upstream did, the calls moved to their
/// successors (reported: a following TLB flush may already do it).
///
// Confidence: High
// Copyright: (C) 2024 mncompat authors
// Comments: Run-time assignments to ->invalidate_range are reported.  In
//  patch mode the notes go to stderr as "FILE:LINE: [6.6] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, invalidate_range, arch_invalidate_secondary_tlbs

virtual patch, context, org, report
virtual compat

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
from mncocci import Step, own_switch

step = Step('6.6')

def new_name(fn):
    if 'arch_invalidate_secondary_tlbs' in fn:
        return fn
    return fn.replace('invalidate_range', 'arch_invalidate_secondary_tlbs')

def switched(p):
    """The line of .arch_invalidate_secondary_tlbs in another branch of
    the module's own #if around p (mncocci.own_switch()), without compat
    (whose table takes the 6.6 form on every kernel), else 0."""
    if 'compat' in step.defined:
        return 0
    return own_switch(p[0].file, int(p[0].line), 'arch_invalidate_secondary_tlbs')

// A table that already switches between the two fields in the module's
// own #if (NVIDIA uvm's conftest macros): left as it is, a note says so.
@ops@
identifier o, fn;
position p : script:python() { switched(p) == 0 };
@@
struct mmu_notifier_ops o = {
	.invalidate_range = fn@p,
};

@own@
identifier o, fn;
position p : script:python() { switched(p) != 0 };
@@
struct mmu_notifier_ops o = {
	.invalidate_range = fn@p,
};

@script:python depends on !context@
p << own.p;
o << own.o;
@@
step.note(p, "%s: .invalidate_range in this branch of the module's own #if, .arch_invalidate_secondary_tlbs in another (line %d): the module's own switch between kernel APIs, left as it is" % (o, switched(p)))

@depends on context@
identifier o, fn;
@@
struct mmu_notifier_ops o = {
*	.invalidate_range = fn,
};

// A table with the hook and range callbacks: 6.6 refuses to register it
// (__mmu_notifier_register(): WARN, -EINVAL). compat leaves the hook out
// of such a table there (convert.sh --compat); without compat, say so.
@both depends on !compat@
identifier o;
identifier fn != NULL;
expression E;
position p;
@@
struct mmu_notifier_ops o = {
	.invalidate_range = fn@p,
	.\(invalidate_range_start\|invalidate_range_end\) = E,
};

@script:python depends on !context@
p << both.p;
o << both.o;
fn << both.fn;
@@
step.note(p, "review: %s has invalidate_range (%s) and range callbacks: from 6.6 the hook is arch_invalidate_secondary_tlbs and mmu_notifier_register() refuses such a table (WARN, -EINVAL). Do %s's work from invalidate_range_end instead and drop the hook, or convert with --compat (which leaves the hook out of such a table on 6.6+)" % (o, fn, fn))

@rt_typed_m depends on patch@
struct mmu_notifier_ops *OP;
struct mmu_notifier_ops OS;
expression F;
position p;
@@
(
OP->invalidate_range@p = F
|
OS.invalidate_range@p = F
)

@script:python@
p << rt_typed_m.p;
@@
step.note(p, "converted: run-time assignment ->invalidate_range -> ->arch_invalidate_secondary_tlbs")

@rt@
expression E, F;
position p != rt_typed_m.p;
@@
(
E.invalidate_range@p = F
|
E->invalidate_range@p = F
)

@calls@
expression M, S, E;
position pc;
@@
mmu_notifier_invalidate_range@pc(M, S, E)

@only_end@
expression R;
position pc;
@@
mmu_notifier_invalidate_range_only_end@pc(R)

@script:python depends on !context@
p << rt.p;
@@
step.note(p, "review: run-time assignment to ->invalidate_range: the field is arch_invalidate_secondary_tlbs since 6.6")

@script:python depends on report || org@
p << ops.p;
fn << ops.fn;
@@
step.note(p, "%s: invalidate_range is arch_invalidate_secondary_tlbs since 6.6" % fn)

@script:python depends on !context@
pc << calls.pc;
@@
step.note(pc, "review: mmu_notifier_invalidate_range() is gone since 6.6: now mmu_notifier_arch_invalidate_secondary_tlbs(); drop it if a CPU TLB flush of the range follows (the flush calls it)")

@script:python depends on report || org@
pc << only_end.pc;
@@
step.note(pc, "mmu_notifier_invalidate_range_only_end() is gone since 6.6: use mmu_notifier_invalidate_range_end()")

@depends on context@
expression M, S, E;
@@
* mmu_notifier_invalidate_range(M, S, E)

@ops_def@
identifier ops.fn;
@@
fn(...) { ... }

@script:python depends on !context && !ops_def@
fn << ops.fn;
p << ops.p;
@@
if fn != 'NULL':
    step.note(p, "review: %s is not defined in this file or could not be parsed (#if?): rename its definition by hand if the name has invalidate_range in it" % fn)

// The changes: this one first (spatch keeps positions only until then).
@rt_typed depends on patch@
struct mmu_notifier_ops *OP;
struct mmu_notifier_ops OS;
expression F;
position rt_typed_m.p;
@@
(
- OP->invalidate_range@p = F
+ OP->arch_invalidate_secondary_tlbs = F
|
- OS.invalidate_range@p = F
+ OS.arch_invalidate_secondary_tlbs = F
)

@script:python nn depends on patch@
fn << ops.fn;
fn2;
@@
coccinelle.fn2 = cocci.make_ident(new_name(fn))

@ren_field depends on patch@
identifier ops.o, ops.fn, nn.fn2;
@@
struct mmu_notifier_ops o = {
-	.invalidate_range = fn,
+	.arch_invalidate_secondary_tlbs = fn2,
};

@script:python depends on ren_field@
p << ops.p;
fn << ops.fn;
fn2 << nn.fn2;
@@
step.note(p, "converted: .invalidate_range = %s -> .arch_invalidate_secondary_tlbs = %s" % (fn, fn2))

// A field set to 0 names no callback (NULL is the identifier above): the
// field is renamed all the same.
@ren_zero depends on patch@
identifier o;
position p;
@@
struct mmu_notifier_ops o = {
-	.invalidate_range@p = 0,
+	.arch_invalidate_secondary_tlbs = 0,
};

@script:python@
p << ren_zero.p;
@@
step.note(p, "converted: .invalidate_range = 0 -> .arch_invalidate_secondary_tlbs = 0")

// rename the callback everywhere in the file when its name changes
@rename_def depends on ren_field@
identifier ops.fn, nn.fn2;
parameter list PL;
type T;
@@
T
- fn(PL)
+ fn2(PL)
  { ... }

@rename_decl depends on ren_field@
identifier ops.fn, nn.fn2;
parameter list PL;
type T;
@@
T
- fn(PL);
+ fn2(PL);

@rename_use depends on ren_field@
identifier ops.fn, nn.fn2;
@@
- fn
+ fn2

@depends on patch@
expression M, S, E;
@@
- mmu_notifier_invalidate_range(M, S, E)
+ mmu_notifier_arch_invalidate_secondary_tlbs(M, S, E)

@depends on patch@
expression R;
@@
- mmu_notifier_invalidate_range_only_end(R)
+ mmu_notifier_invalidate_range_end(R)
