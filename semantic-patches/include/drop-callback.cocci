// SPDX-License-Identifier: GPL-2.0
// Not a semantic patch of its own: mn-4.13-invalidate-page.cocci and
// mn-6.10-change-pte.cocci #include it, and its rules run before theirs.
// It drops a callback field that a kernel generation removed from the
// struct mmu_notifier_ops initializers; then the callback, when nothing
// else in the file uses it, with its forward declarations; then the
// static helpers only the callback used.  The including script binds
// dying to a mncocci.Dying: which field it is, which of the tables lose
// it (the facts gathered first help decide) and the notes.

// (Declared here too: spatch 1.1 reads an included file's rules with the
// virtual rules it declares itself.)
virtual patch, context, org, report

// The field, bound once: a constraint in Python on the field's name
// would run for every field of every table of every file.
@script:python dying_field@
f;
@@
coccinelle.f = cocci.make_ident(dying.field)

// A field set to NULL or 0 names no callback: it goes, and that is all
// (an absent field is the same thing on every kernel).
@drop_null depends on patch@
identifier ops;
identifier dying_field.f;
@@
struct mmu_notifier_ops ops = {
-	.f = NULL,
};

@drop_zero depends on patch@
identifier ops;
identifier dying_field.f;
@@
struct mmu_notifier_ops ops = {
-	.f = 0,
};

// The tables with the field, their range callbacks and where the field's
// callback is defined.
@tbl@
identifier ops;
identifier fn != NULL;
identifier dying_field.f;
position p, pt;
@@
struct mmu_notifier_ops ops@pt = {
	.f = fn@p,
};

@script:python@
p << tbl.p;
pt << tbl.pt;
ops << tbl.ops;
fn << tbl.fn;
@@
dying.table(p, pt, ops, fn)

@tblcb@
identifier tbl.ops, f = {invalidate_range_start, invalidate_range_end,
	invalidate_range};
expression E;
@@
struct mmu_notifier_ops ops = {
	.f = E,
};

@script:python@
p << tbl.p;
f << tblcb.f;
E << tblcb.E;
@@
dying.callback(p, f, E)

@tbldef@
identifier tbl.fn;
position pf;
@@
fn@pf(...) { ... }

@script:python@
fn << tbl.fn;
pf << tbldef.pf;
@@
dying.definition(fn, pf)

// The fields that go, and what their callbacks use.
@gone@
identifier ops;
identifier fn != NULL;
identifier dying_field.f;
position p : script:python() { dying.drops(p) };
@@
struct mmu_notifier_ops ops = {
	.f = fn@p,
};

// Run-time assignments to the field (not to the invalidate_page of
// cleancache_ops and frontswap_ops, which means something else).  The
// fields by name: a test in Python would run for every assignment.
@assigned@
identifier f = {invalidate_page, change_pte};
expression E, F;
position p;
{struct cleancache_ops, struct frontswap_ops} C;
{struct cleancache_ops *, struct frontswap_ops *} CP;
@@
(
C.f = F
|
CP->f = F
|
E.f@p = F
|
E->f@p = F
)

@script:python depends on !context@
p << assigned.p;
f << assigned.f;
@@
if dying.is_field(f):
    dying.assigned(p)

@gone_parsed@
identifier gone.fn;
position pf;
@@
fn@pf(...) { ... }

@script:python depends on !context && !gone_parsed@
p << gone.p;
fn << gone.fn;
@@
dying.undefined(p, fn)

@gone_ref depends on patch exists@
identifier gone.fn, h;
@@
fn(...) { <+... h ...+> }

@gone_call depends on patch exists@
identifier gone.fn, h;
@@
fn(...) { <+... h(...) ...+> }

@gone_call_defined depends on patch@
identifier gone_call.h;
@@
h(...) { ... }

@drop_field depends on patch@
identifier gone.ops, gone.fn;
identifier dying_field.f;
@@
struct mmu_notifier_ops ops = {
-	.f = fn,
};

// The callback, unless the file still uses it.
@fn_used depends on patch@
identifier gone.fn;
@@
fn

@script:python depends on patch && fn_used@
p << gone.p;
fn << gone.fn;
@@
dying.used_here(p, fn)

@script:python gone_ok depends on patch && !fn_used@
p << gone.p;
fn << gone.fn;
pf << gone_parsed.pf;
fn_ok;
@@
coccinelle.fn_ok = cocci.make_ident(dying.droppable(p, pf, fn))

@drop_fn depends on patch && !fn_used@
identifier gone_ok.fn_ok;
@@
- fn_ok(...) { ... }

@script:python depends on drop_fn@
p << gone.p;
fn << gone.fn;
@@
dying.removed(p, fn)

// The static helpers that only the removed callback used.
@helper_used depends on drop_fn@
identifier gone_ref.h;
@@
h

@helper_pos depends on drop_fn && !helper_used@
identifier gone_ref.h;
type T;
position ph;
@@
static T h@ph(...) { ... }

@script:python helper_ok@
p << gone.p;
h << gone_ref.h;
ph << helper_pos.ph;
h_ok;
@@
coccinelle.h_ok = cocci.make_ident(dying.helper_droppable(p, ph, h))

@drop_helper depends on drop_fn@
identifier helper_ok.h_ok;
type T;
@@
(
- static T h_ok(...) { ... }
|
- static inline T h_ok(...) { ... }
)

@script:python depends on drop_helper@
p << gone.p;
h << gone_ref.h;
@@
dying.removed(p, h, 'static helper only the removed callback used')

// The forward declarations of what went.
@drop_decl depends on drop_fn@
identifier f : script:python() { dying.was_dropped(f) };
type T;
@@
- T f(...);

// A function the file does not define, that only the removed callback
// called.
@call_used depends on drop_fn@
identifier gone_call.h;
@@
h

@script:python depends on drop_fn && !gone_call_defined && !call_used@
p << gone.p;
h << gone_call.h;
@@
dying.uncalled(p, h)
