// SPDX-License-Identifier: GPL-2.0
/// Move a driver on the newest MMU-notifier API onto
/// <mncompat/mmu_notifier.h>, so that it builds and stays coherent on
/// every kernel generation: each static struct mmu_notifier_ops table
/// becomes MNCOMPAT_MMU_NOTIFIER_OPS(...), mmu_notifier_range_blockable()
/// mncompat_range_blockable(), and the #include follows.  Run it after the
/// series (convert.sh --compat does).
///
// Confidence: Moderate
// Copyright: (C) 2024 mncompat authors
// Comments: Non-static tables are reported (the macro defines a static
//  one).  Fields other than the four translated ones go into the macro
//  as trailing designated initialisers.  In patch mode the notes go to
//  stderr as "FILE:LINE: [compat] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, mncompat, MNCOMPAT_MMU_NOTIFIER_OPS

virtual patch, context, org, report

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
# The planner (plancompat.py): the macro's arguments, the registrations
# to convert, the notes.
import plancompat
step = plancompat.step

// ---------------------------------------------------------------------
// The tables and their fields.
// ---------------------------------------------------------------------

@oldtbl@
identifier ops, f = {invalidate_page, invalidate_range, change_pte};
expression E;
position p;
@@
struct mmu_notifier_ops ops@p = {
	.f = E,
};

@script:python depends on !context@
p << oldtbl.p;
ops << oldtbl.ops;
f << oldtbl.f;
@@
step.note(p, "review: %s still has .%s: run the series first (convert.sh --compat does), not converted" % (ops, f))

@tbl@
identifier ops;
initializer I;
position p != oldtbl.p;
@@
(
static const struct mmu_notifier_ops ops@p = I;
|
static struct mmu_notifier_ops ops@p = I;
)

@fld@
identifier tbl.ops, f;
expression E;
position tbl.p;
@@
struct mmu_notifier_ops ops@p = {
	.f = E,
};

@script:python@
p << tbl.p;
ops << tbl.ops;
f << fld.f;
E << fld.E;
@@
plancompat.field(p, ops, f, E)

@global_tbl@
identifier ops;
position p != {tbl.p, oldtbl.p};
@@
struct mmu_notifier_ops ops@p = { ... };

@script:python depends on !context@
p << global_tbl.p;
ops << global_tbl.ops;
@@
step.note(p, "review: %s is not static: MNCOMPAT_MMU_NOTIFIER_OPS defines a static table, not converted" % ops)

// args: the macro's arguments as one identifier (spatch prints it as it
// is).
@script:python mk@
p << tbl.p;
ops << tbl.ops;
args;
@@
coccinelle.args = cocci.make_ident(plancompat.macro_args(p, ops))

// The #include to replace, looked for before anything changes.
@has_inc@
@@
#include <mncompat/mmu_notifier.h>

@has_linux_inc@
@@
#include <linux/mmu_notifier.h>


// A table for mmu_notifier_get() (its alloc_notifier and free_notifier):
// MNCOMPAT_MMU_NOTIFIER_GET_OPS, for which compat also emulates get/put
// before 5.4 (macro_args() lays its arguments out so).  First: rep then
// finds it replaced.
@getsel@
identifier tbl.ops;
expression A, F;
position pg;
@@
struct mmu_notifier_ops ops@pg = { .alloc_notifier = A, .free_notifier = F, };

@repget depends on patch@
identifier tbl.ops;
identifier mk.args;
initializer I;
position getsel.pg;
declarer name MNCOMPAT_MMU_NOTIFIER_GET_OPS;
@@
(
- static const struct mmu_notifier_ops ops@pg = I;
+ MNCOMPAT_MMU_NOTIFIER_GET_OPS(args);
|
- static struct mmu_notifier_ops ops@pg = I;
+ MNCOMPAT_MMU_NOTIFIER_GET_OPS(args);
)

@rep depends on patch@
identifier tbl.ops;
identifier mk.args;
initializer I;
declarer name MNCOMPAT_MMU_NOTIFIER_OPS;
@@
(
- static const struct mmu_notifier_ops ops = I;
+ MNCOMPAT_MMU_NOTIFIER_OPS(args);
|
- static struct mmu_notifier_ops ops = I;
+ MNCOMPAT_MMU_NOTIFIER_OPS(args);
)

@depends on context@
identifier ops;
initializer I;
@@
(
* static const struct mmu_notifier_ops ops = I;
|
* static struct mmu_notifier_ops ops = I;
)

// A table built at run time (a kmemdup()'d template, fields filled in by
// init code): MNCOMPAT_MMU_NOTIFIER_OPS cannot declare it.
@rtc@
expression E, F;
identifier f = {invalidate_range_start, invalidate_range_end, invalidate_range,
                arch_invalidate_secondary_tlbs};
position prt;
@@
(
E.f@prt = F
|
E->f@prt = F
)

@script:python depends on patch@
prt << rtc.prt;
f << rtc.f;
F << rtc.F;
@@
plancompat.run_time(prt, f, F)

// ---------------------------------------------------------------------
// The blockable test and the header.
// ---------------------------------------------------------------------

@bl depends on patch@
expression R;
@@
- mmu_notifier_range_blockable(R)
+ mncompat_range_blockable(R)

@inc depends on patch && (rep || repget || bl)@
@@
- #include <linux/mmu_notifier.h>
+ #include <mncompat/mmu_notifier.h>

// No <linux/mmu_notifier.h> of its own (it came through a header of the
// driver): add compat's after the file's last #include.
@add_inc_angle depends on patch && (rep || repget || bl) && !has_inc && !has_linux_inc@
@@
#include <...>
+#include <mncompat/mmu_notifier.h>

@add_inc_quote depends on patch && (rep || repget || bl) && !has_inc && !has_linux_inc && !add_inc_angle@
@@
#include "..."
+#include <mncompat/mmu_notifier.h>

@script:python depends on patch && (add_inc_angle || add_inc_quote)@
p << tbl.p;
@@
step.note(p, "converted: added #include <mncompat/mmu_notifier.h> (the file had no #include <linux/mmu_notifier.h> of its own to replace)")

@script:python depends on patch && (rep || repget || bl) && !has_inc && !has_linux_inc && !add_inc_angle && !add_inc_quote@
p << tbl.p;
@@
step.note(p, "review: no #include in this file to add #include <mncompat/mmu_notifier.h> after: add it")

// ---------------------------------------------------------------------
// Registration of a table whose range_start may fail and that has a
// range_end: since Linux 5.12 (c2655835fd8c) the kernel WARNs on that
// and calls range_end for every subscription, the failing one too;
// compat's registration keeps them paired on every kernel, in each of
// the kernel's forms: mmu_notifier_register(), __mmu_notifier_register()
// (the caller holds the mmap lock), mmu_notifier_get()/_put(), and
// mmu_notifier_unregister().  Last in the file: regok drops the matches
// of a call it leaves alone, and no rule after it may depend on those.
// ---------------------------------------------------------------------

@reg@
expression A, B;
identifier f = {mmu_notifier_register, __mmu_notifier_register,
                mmu_notifier_unregister, mmu_notifier_get};
position pr;
@@
f@pr(A, B)

@script:python regok@
pr << reg.pr;
f << reg.f;
@@
if not plancompat.registration(pr, f):
    cocci.include_match(False)

@regrep depends on patch@
expression reg.A, reg.B;
position reg.pr;
@@
(
- mmu_notifier_register@pr(A, B)
+ mncompat_mmu_notifier_register(A, B)
|
- __mmu_notifier_register@pr(A, B)
+ __mncompat_mmu_notifier_register(A, B)
|
- mmu_notifier_unregister@pr(A, B)
+ mncompat_mmu_notifier_unregister(A, B)
|
- mmu_notifier_get@pr(A, B)
+ mncompat_mmu_notifier_get(A, B)
)

@put@
expression A;
position pr;
@@
mmu_notifier_put@pr(A)

@script:python putok@
pr << put.pr;
@@
if not plancompat.registration(pr, 'mmu_notifier_put'):
    cocci.include_match(False)

@putrep depends on patch@
expression put.A;
position put.pr;
@@
- mmu_notifier_put@pr(A)
+ mncompat_mmu_notifier_put(A)

// The deferred frees of the last puts (and, where compat emulates
// get/put, their work items): compat's form exists on every kernel,
// mmu_notifier_synchronize() not on 5.0-5.3.
@syncrep depends on patch@
position ps;
@@
- mmu_notifier_synchronize@ps()
+ mncompat_mmu_notifier_synchronize()

@script:python depends on syncrep@
ps << syncrep.ps;
@@
plancompat.note_sync(ps)

// A file whose only change is its registration needs compat's header
// too (the rules above gave it to a file with a table or a blockable
// test already).
@inc_reg depends on patch && (regrep || putrep || syncrep) && !inc && !add_inc_angle && !add_inc_quote@
@@
- #include <linux/mmu_notifier.h>
+ #include <mncompat/mmu_notifier.h>

@add_inc_reg depends on patch && (regrep || putrep || syncrep) && !inc && !add_inc_angle && !add_inc_quote && !has_inc && !has_linux_inc@
@@
#include <...>
+#include <mncompat/mmu_notifier.h>

@add_inc_reg_quote depends on patch && (regrep || putrep || syncrep) && !inc && !add_inc_angle && !add_inc_quote && !has_inc && !has_linux_inc && !add_inc_reg@
@@
#include "..."
+#include <mncompat/mmu_notifier.h>

@script:python depends on patch && (add_inc_reg || add_inc_reg_quote)@
@@
plancompat.note_reg_include(None, "converted: added #include <mncompat/mmu_notifier.h> for the registration (the file had no #include <linux/mmu_notifier.h> of its own to replace)")

@script:python depends on patch && (regrep || putrep || syncrep) && !inc && !add_inc_angle && !add_inc_quote && !has_inc && !has_linux_inc && !add_inc_reg && !add_inc_reg_quote@
@@
plancompat.note_reg_include(None, "review: no #include in this file to add #include <mncompat/mmu_notifier.h> after, for compat's registration: add it")
