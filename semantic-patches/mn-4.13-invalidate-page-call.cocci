// SPDX-License-Identifier: GPL-2.0
/// Linux 4.13 (369ea8242c0f, a4d1a8852513, 5f32b265400d) removed
/// mmu_notifier_invalidate_page(mm, address).  Bracket the page-table
/// change with mmu_notifier_invalidate_range_start/end and call
/// mmu_notifier_invalidate_range() for the entry that changed, as 4.13 did
/// in mm/rmap.c and fs/dax.c; where that cannot be placed, the three are
/// issued together at the old call and the note says what is missing.
/// The walker shapes it knows: semantic-patches/README.md.
///
// Confidence: Moderate
// Copyright: (C) 2024 mncompat authors
// Comments: In patch mode the notes go to stderr as "FILE:LINE: [4.13]
//  ..." lines.  Page-table locks and entry changes are recognised by the
//  kernel's function names (pte_offset_map_lock, set_pte_at, ...).  The
//  analysis reads the file; positions are those of the file before this
//  script changed it.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, invalidate_page, invalidate_range

virtual patch, context, org, report

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
# The planner (plan413call.py): the facts of the file, where the
# replacement calls go, the edits and the notes.
import plan413call
step = plan413call.step

@calls@
expression M, A;
position pc;
@@
mmu_notifier_invalidate_page@pc(M, A)

@script:python depends on report || org@
pc << calls.pc;
@@
step.note(pc, "mmu_notifier_invalidate_page() is gone since 4.13: bracket with invalidate_range_start/end, call invalidate_range")

@depends on context@
expression M, A;
@@
* mmu_notifier_invalidate_page(M, A)

// ---------------------------------------------------------------------
// Facts, from the file as it is: the calls, the statements, page-table
// helpers and the parameters of the functions that have a call.
// ---------------------------------------------------------------------

@script:python depends on patch@
pc << calls.pc;
M << calls.M;
A << calls.A;
@@
plan413call.add_call(pc, M, A)

@fst depends on patch@
statement S;
position p : script:python() { plan413call.in_call_fn(p[0].current_element) };
@@
S@p

@script:python depends on patch@
p << fst.p;
@@
plan413call.add_statement(p)

@fops depends on patch@
identifier f = {page_vma_mapped_walk, page_check_address, pte_offset_map_lock,
	pmd_lock, pud_lock, huge_pte_lock, follow_pte, follow_pte_pmd,
	get_locked_pte, set_pte_at, ptep_clear_flush, ptep_clear_flush_notify,
	ptep_get_and_clear, ptep_get_and_clear_full, pte_clear,
	ptep_set_wrprotect, ptep_modify_prot_commit, ptep_set_access_flags,
	set_pmd_at, pmdp_huge_clear_flush, pmdp_huge_clear_flush_notify,
	pmdp_invalidate, pmdp_huge_get_and_clear, pmdp_set_wrprotect,
	pmd_clear, set_huge_pte_at, huge_ptep_clear_flush,
	huge_ptep_get_and_clear, huge_ptep_set_wrprotect};
expression list es;
position p : script:python() { plan413call.in_call_fn(p[0].current_element) };
@@
f@p(es)

@script:python depends on patch@
p << fops.p;
f << fops.f;
es << fops.es;
@@
plan413call.add_op(p, f, es)

@fparams depends on patch@
identifier F : script:python() { plan413call.in_call_fn(F) };
parameter list PL;
type T;
position pf;
@@
T F@pf(PL) { ... }

@script:python depends on patch@
F << fparams.F;
PL << fparams.PL;
pf << fparams.pf;
@@
plan413call.add_params(F, PL, pf)

@other_call depends on patch@
identifier f = {mmu_notifier_invalidate_page};
position pc != calls.pc;
@@
f@pc

@script:python@
pc << other_call.pc;
@@
step.note(pc, "review: mmu_notifier_invalidate_page used other than in a call: convert by hand")

@script:python depends on patch && calls@
@@
plan413call.plan_file()

// ---------------------------------------------------------------------
// The edits: one rule for every statement (spatch allows positions only
// before the first change), then the declarations.
// ---------------------------------------------------------------------

@est depends on patch@
statement S;
position p : script:python() { plan413call.has_edit(p) };
@@
S@p

@script:python etext@
p << est.p;
tb;
ta;
tr;
@@
b, a, r = plan413call.edit_texts(p)
coccinelle.tb = cocci.make_ident(b)
coccinelle.ta = cocci.make_ident(a)
coccinelle.tr = cocci.make_ident(r)

@edit depends on patch@
statement S;
position est.p;
position q1 : script:python() { plan413call.is_ba(q1) };
position q2 : script:python() { plan413call.is_b(q2) };
position q3 : script:python() { plan413call.is_a(q3) };
position q4 : script:python() { plan413call.is_r(q4) };
position q5 : script:python() { plan413call.is_d(q5) };
position q6 : script:python() { plan413call.is_rb(q6) };
identifier etext.tb, etext.ta, etext.tr;
@@
(
+ tb;
S@p@q1
+ ta;
|
+ tb;
S@p@q2
|
S@p@q3
+ ta;
|
- S@p@q4
+ tr;
|
- S@p@q5
|
- S@p@q6
+ {
+ tr;
+ }
)

@decl depends on edit@
identifier F : script:python() { plan413call.has_decl(F) };
fresh identifier D = script:python(F) { plan413call.decl_of(F) };
@@
F(...) {
+ D;
...
}

@follow depends on edit@
identifier F : script:python() { plan413call.has_follow(F) };
fresh identifier S = script:python(F) { plan413call.follow_start(F) };
fresh identifier E = script:python(F) { plan413call.follow_end(F) };
expression M, A, P1, P2, P3;
@@
F(...) { <...
- follow_pte_pmd(M, A, P1, P2, P3)
+ follow_pte_pmd(M, A, &S, &E, P1, P2, P3)
...> }

@dropdecl depends on edit@
identifier F : script:python() { plan413call.has_dropdecl(F) };
identifier FL : script:python() { plan413call.is_dropped_flag(FL) };
expression E;
@@
F(...) {
... when any
(
- bool FL;
|
- bool FL = E;
)
... when any
}
