// SPDX-License-Identifier: GPL-2.0
/// Linux 4.13 (369ea8242c0f, a4d1a8852513, 5f32b265400d) removed
/// mmu_notifier_invalidate_page(mm, address).  Its callers must bracket
/// the page-table change with mmu_notifier_invalidate_range_start/end and
/// call mmu_notifier_invalidate_range() where invalidate_page was called,
/// with a THP-correct end: address + (PAGE_SIZE << compound_order(page)).
/// When the function gets the page and the address as parameters and the
/// mm is known on entry (the rmap walkers' shape), the bracket covers the
/// whole function body.  Otherwise start, range and end are issued
/// together where invalidate_page was (after the change, as before), and
/// the site is reported: move invalidate_range_start before the change.
///
// Confidence: Moderate
// Copyright: (C) 2024 mncompat authors
// Comments: In patch mode the review notes go to stderr as
//  "FILE:LINE: [4.13] ..." lines.  A goto out of the bracketed body is
//  not followed: check labels by hand (reported).
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, invalidate_page, invalidate_range

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import sys
mode = ['report']
first_stmt = {}
first_done = set()
entry_ok = set()

def note(p, msg):
    msg = "[4.13] " + msg
    if mode[0] == 'patch':
        sys.stderr.write("%s:%s: %s\n" % (p[0].file, p[0].line, msg))
    elif mode[0] == 'org':
        coccilib.org.print_todo(p[0], msg)
    else:
        coccilib.report.print_report(p[0], msg)

def key(p):
    return (p[0].file, p[0].line, p[0].column)

@script:python depends on patch@
@@
mode[0] = 'patch'

@script:python depends on org@
@@
mode[0] = 'org'

@calls@
expression M, A;
position pc;
@@
mmu_notifier_invalidate_page@pc(M, A)

@script:python depends on report || org@
pc << calls.pc;
@@
note(pc, "mmu_notifier_invalidate_page() is gone since 4.13: bracket with invalidate_range_start/end, call invalidate_range")

@depends on context@
expression M, A;
@@
* mmu_notifier_invalidate_page(M, A)

// ---------------------------------------------------------------------
// Whole-function bracket: page and address are parameters (page first),
// the mm is a parameter, param->vm_mm, or a local initialised on entry.
// ---------------------------------------------------------------------

@fl depends on patch exists@
identifier F, P, A;
expression M;
type T;
position pc;
@@
T F(..., struct page *P, ..., unsigned long A, ...)
{
<+...
mmu_notifier_invalidate_page@pc(M, A)
...+>
}

@fl_vparam depends on patch@
identifier fl.F, V;
type T2;
@@
F(..., T2 V, ...) { ... }

@fl_vlocal depends on patch exists@
identifier fl.F, V;
type T2;
expression E;
@@
F(...) {
... when any
T2 V = E;
... when any
}

@script:python@
pc << fl.pc;
M << fl.M;
V << fl_vparam.V;
@@
if M.replace(' ', '') in (V, V + '->vm_mm'):
    entry_ok.add(key(pc))

@script:python@
pc << fl.pc;
M << fl.M;
V << fl_vlocal.V;
@@
if M.replace(' ', '') in (V, V + '->vm_mm'):
    entry_ok.add(key(pc))

@stmts depends on patch exists@
identifier fl.F;
statement S;
position ps;
@@
F(...) {
... when any
S@ps
... when any
}

@script:python@
F << fl.F;
ps << stmts.ps;
@@
k = (ps[0].file, F)
l = (int(ps[0].line), int(ps[0].column))
if k not in first_stmt or l < first_stmt[k]:
    first_stmt[k] = l

@script:python fl_ok@
F << fl.F;
pc << fl.pc;
ps << stmts.ps;
ok;
@@
l = (int(ps[0].line), int(ps[0].column))
if key(pc) not in entry_ok or l != first_stmt[(ps[0].file, F)] or \
   (ps[0].file, F) in first_done:
    cocci.include_match(False)
else:
    first_done.add((ps[0].file, F))
    coccinelle.ok = cocci.make_ident(F)

@fl_start depends on patch@
identifier fl_ok.ok;
expression fl.M;
statement stmts.S;
position stmts.ps;
@@
ok(...) {
... when any
+	mmu_notifier_invalidate_range_start(M, mn_start, mn_end);
S@ps
... when any
}

@fl_call depends on fl_start@
identifier fl.P, fl.A, fl_ok.ok;
expression fl.M;
@@
ok(...) {
<...
- mmu_notifier_invalidate_page(M, A);
+ mmu_notifier_invalidate_range(M, A, A + (PAGE_SIZE << compound_order(P)));
...>
}

@fl_decl depends on fl_call@
identifier fl.P, fl.A, fl_ok.ok;
type T;
@@
T ok(...) {
+	unsigned long mn_start = A;
+	unsigned long mn_end = A + (PAGE_SIZE << compound_order(P));
...
}

@fl_end_ret depends on fl_call@
identifier fl_ok.ok;
expression fl.M;
@@
ok(...) {
<...
+	mmu_notifier_invalidate_range_end(M, mn_start, mn_end);
return ...;
...>
}

@fl_end_void depends on fl_call@
identifier fl_ok.ok;
expression fl.M;
@@
void ok(...) {
...
+	mmu_notifier_invalidate_range_end(M, mn_start, mn_end);
}

@fl_goto depends on fl_call exists@
identifier fl_ok.ok, l;
position pg;
@@
ok(...) { <+... goto l@pg; ...+> }

@script:python@
F << fl.F;
pc << fl.pc;
@@
note(pc, "bracketed: %s: invalidate_range_start/end around the function body, invalidate_range here with a THP-sized end: review" % F)

@script:python@
F << fl.F;
pg << fl_goto.pg;
@@
note(pg, "review: goto in %s: check that every path from invalidate_range_start reaches invalidate_range_end" % F)

// ---------------------------------------------------------------------
// Everything else: start, range and end where invalidate_page was.
// ---------------------------------------------------------------------

@withpage depends on patch exists@
identifier F, P;
type T;
expression M, A;
position pc;
@@
T F(..., struct page *P, ...) {
<...
- mmu_notifier_invalidate_page@pc(M, A);
+ mmu_notifier_invalidate_range_start(M, A, A + (PAGE_SIZE << compound_order(P)));
+ mmu_notifier_invalidate_range(M, A, A + (PAGE_SIZE << compound_order(P)));
+ mmu_notifier_invalidate_range_end(M, A, A + (PAGE_SIZE << compound_order(P)));
...>
}

@nopage depends on patch@
expression M, A;
position pc;
@@
- mmu_notifier_invalidate_page@pc(M, A);
+ mmu_notifier_invalidate_range_start(M, A, A + PAGE_SIZE);
+ mmu_notifier_invalidate_range(M, A, A + PAGE_SIZE);
+ mmu_notifier_invalidate_range_end(M, A, A + PAGE_SIZE);

@script:python@
pc << withpage.pc;
@@
note(pc, "review: could not bracket the page-table change: invalidate_range_start/range/end issued together here, after it (as invalidate_page was); move invalidate_range_start before the change")

@script:python@
pc << nopage.pc;
@@
note(pc, "review: could not bracket the page-table change and no struct page in scope: invalidate_range_start/range/end issued together here with a 4 KiB end; move invalidate_range_start before the change and size the range (THP?)")

@other_call depends on patch@
identifier f = {mmu_notifier_invalidate_page};
position pc;
@@
f@pc

@script:python@
pc << other_call.pc;
@@
note(pc, "review: mmu_notifier_invalidate_page used other than as a statement: convert by hand")
