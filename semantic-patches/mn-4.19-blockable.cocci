// SPDX-License-Identifier: GPL-2.0
/// Linux 4.19 (93065ac753e4 "mm, oom: distinguish blockable mode for mmu
/// notifiers") made invalidate_range_start return int and take bool
/// blockable: the callbacks of the ops tables get both, "return 0", and
/// "if (!blockable) return -EAGAIN;" first (after the declarations)
/// unless they never sleep (followed through the whole module,
/// mnmodule.py).  A start that may fail in a table that also has
/// invalidate_range_end is right on 4.19-5.11 only (a failed start: no
/// range_end for anyone); since 5.12 (c2655835fd8c, also 5.10.y/5.11.y)
/// the kernel WARNs and calls range_end for every subscription, the
/// failing one too: with -D compat the note says how compat keeps them
/// paired, else it is an item needing review.
///
// Confidence: High
// Copyright: (C) 2024 mncompat authors
// Comments: Forward declarations are converted too.  Run-time assignments
//  to ->invalidate_range_start are reported.  In patch mode the notes go
//  to stderr as "FILE:LINE: [4.19] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, invalidate_range_start, blockable

virtual patch, context, org, report
virtual compat

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
# The planner (plan419.py): where the guard goes, the notes.
import plan419
step = plan419.step

// the range_start callbacks: of the ops tables, and those a table built
// at run time is given (x->invalidate_range_start = fn: a kmemdup()'d
// template, a table filled in by init code)
@ops@
identifier o;
identifier fn != NULL;
expression E;
position p;
@@
(
struct mmu_notifier_ops o = {
	.invalidate_range_start = fn@p,
};
|
E.invalidate_range_start = fn@p
|
E->invalidate_range_start = fn@p
)

// the table's range_end, if any: a start that may fail cannot also have
// an end on 5.12+ (see the note below)
@opsend@
identifier ops.o, ops.fn;
identifier fe != NULL;
position ops.p;
@@
struct mmu_notifier_ops o = {
	.invalidate_range_start = fn@p,
	.invalidate_range_end = fe,
};

@script:python@
fn << ops.fn;
fe << opsend.fe;
p << ops.p;
@@
plan419.table_end(p, fn, fe)

@cb@
identifier ops.fn, mn, mm, s, e;
position pf;
@@
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e)
{ ... }

@script:python depends on report || org@
fn << ops.fn;
pf << cb.pf;
@@
step.note(pf, "%s: invalidate_range_start needs the 4.19 prototype (int, bool blockable)" % fn)

// ok: the callbacks to convert (not those split by #if).
@script:python conv depends on patch@
fn << ops.fn;
pf << cb.pf;
ok;
@@
coccinelle.ok = cocci.make_ident(step.unsplit(pf, fn))

@cb_done@
identifier ops.fn;
@@
int fn(...) { ... }

@script:python depends on !context && !cb && !cb_done@
fn << ops.fn;
p << ops.p;
@@
step.note(p, "review: %s is not defined in this file or could not be parsed (#if?): give it the 4.19 prototype (int, bool blockable) by hand" % fn)

// callers of a callback that changes: they need the new argument
@direct@
identifier conv.ok;
expression list[4] es;
position pc;
@@
ok@pc(es)

@script:python@
fn << conv.ok;
pc << direct.pc;
@@
step.note(pc, "review: %s is called here with its pre-4.19 arguments: pass bool blockable (true where the caller may sleep) and use the int it returns" % fn)

// A table built at run time: its callback (a function named there) is
// converted above; what the tool cannot see is the rest of that table.
@rt@
expression E, F;
position p;
@@
(
E.invalidate_range_start@p = F
|
E->invalidate_range_start@p = F
)

@script:python depends on !context@
p << rt.p;
F << rt.F;
@@
plan419.run_time(p, F)

@depends on context@
identifier ops.fn, mn, mm, s, e;
@@
* void fn(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e)
  { ... }

// --- first statement of each callback, for the guard ----------------

@stmts depends on patch exists@
identifier conv.ok;
statement S;
position ps;
@@
ok(...) {
... when any
S@ps
... when any
}

@script:python@
fn << conv.ok;
ps << stmts.ps;
@@
plan419.statement(fn, ps)

// g: the callback that gets the guard (none where it never sleeps).
@script:python first@
fn << conv.ok;
ps << stmts.ps;
g;
@@
guarded = plan419.guard(fn, ps)
if guarded is None:
    cocci.include_match(False)
else:
    coccinelle.g = cocci.make_ident(guarded)

@guard depends on patch@
identifier first.g, cb.mn, cb.mm, cb.s, cb.e;
statement stmts.S;
position stmts.ps;
@@
void g(struct mmu_notifier *mn, struct mm_struct *mm,
	unsigned long s, unsigned long e)
{
... when any
+	if (!blockable)
+		return -EAGAIN;
S@ps
... when any
+	return 0;
}

@body depends on patch@
identifier conv.ok, cb.mn, cb.mm, cb.s, cb.e;
@@
- void
+ int
  ok(struct mmu_notifier *mn, struct mm_struct *mm,
     unsigned long s, unsigned long e
+    , bool blockable
  )
  {
  <...
- return;
+ return 0;
  ...>
  }

@proto depends on patch@
identifier conv.ok;
parameter list[4] PL;
@@
- void
+ int
  ok(PL
+ , bool blockable
  );

@script:python depends on body@
fn << conv.ok;
pf << cb.pf;
@@
plan419.note_converted(pf, fn)
