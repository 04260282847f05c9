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
from mncocci import Step, may_fail_paired, module, sleep_of, wrap

step = Step('compat')
fields = {}
TRANSLATED = ['release', 'invalidate_range_start', 'invalidate_range_end',
              'arch_invalidate_secondary_tlbs']
MACRO = 'MNCOMPAT_MMU_NOTIFIER_OPS'
reg_inc_noted = set()

def note_reg_include(p, msg):
    """Say msg at the file's first converted registration only (the
    include rules match once per file, the registrations once each)."""
    if p[0].file not in reg_inc_noted:
        reg_inc_noted.add(p[0].file)
        step.note(p, msg)

def hook_left_out(p, tlbs, start, end):
    """The work of the hook tlbs that range_end end does not do (the
    module view's work items), [] when it does it all."""
    fx = module(p)
    m, f = fx.mod, fx.real(p[0].file)
    tlbs = str(tlbs)
    reached = m.names_reached(str(end), f) if end else set()
    if tlbs in reached or not m.resolve(tlbs, f):
        return []
    ew = m.work(str(end), f) if end else {}
    skip = tuple(str(x) for x in (start, end) if x)
    return [t for i, t in sorted(m.work(tlbs, f, skip=skip).items())
            if not m.covers(i, ew, reached)]

def sleep_text(p, fn):
    """(verdict, text) of how fn may sleep, through the whole module."""
    v, words = sleep_of(p, fn)
    if v == 'unknown':
        return v, '%s calls %s' % (fn, words)
    return v, words or '%s never sleeps' % fn

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
fields.setdefault((p[0].file, ops), []).append((f, E))

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
# A field set to NULL or 0 names no callback.
have = dict((f, e) for f, e in fields.get((p[0].file, ops), [])
            if str(e).strip() not in ('NULL', '0'))
start = have.get('invalidate_range_start')
end = have.get('invalidate_range_end')
tlbs = have.get('arch_invalidate_secondary_tlbs')
flags = '0'
judged = [(str(x),) + sleep_text(p, str(x)) for x in (start, end) if x]
sleepy = [j for j in judged if j[1] == 'sleeps']
unsure = [j for j in judged if j[1] == 'unknown']
if (tlbs and (start or end)) or sleepy or unsure:
    flags = 'MNCOMPAT_RANGE_START_MAY_SLEEP'
a = [ops] + [have.get(f, 'NULL') for f in TRANSLATED] + [flags]
a += ['.%s = %s' % (f, e) for f, e in fields.get((p[0].file, ops), [])
      if f not in TRANSLATED]
# The arguments as the macro call lays them out (spatch adds its name
# and the closing ");").
coccinelle.args = cocci.make_ident(wrap('', MACRO, a)[len(MACRO) + 1:-2])
# From 6.6 compat leaves the hook out of a table with range callbacks
# (the kernel refuses both): its work must then be range_end's.
lost = hook_left_out(p, tlbs, start, end) if tlbs and (start or end) else []
if step.mode == 'patch':
    why = ''
    if flags != '0' and not sleepy and not unsure:
        # Not a claim that anything sleeps: the routing before 4.13.
        why = ' (not because a range callback may sleep: %s; with the secondary-TLB hook %s the flag makes compat call only the hook from invalidate_page before 4.13, so each change is handled once there)' % (
            '; '.join(j[2] for j in judged), tlbs)
    step.note(p, "converted: %s -> MNCOMPAT_MMU_NOTIFIER_OPS(..., %s)%s" % (ops, flags, why))
else:
    step.note(p, "%s: declare it with MNCOMPAT_MMU_NOTIFIER_OPS (convert.sh --compat)" % ops)
if lost:
    step.note(p, "review: from 6.6 compat leaves %s out of %s (the kernel refuses a secondary-TLB hook next to range callbacks), and %s: %s. Nothing does it on 6.6+: call it from range_end (for [start, end), after the change)" % (
        tlbs, ops, ('%s does not do its work there' % end) if end else 'the table has no range_end to do its work',
        '; '.join(lost[:4])))
if sleepy and not tlbs:
    step.note(p, "review: %s may sleep (%s) and %s has no secondary-TLB hook: before 4.13, where the kernel calls invalidate_page under the page-table lock, no form of this table is safe and compat refuses to build it" % (' and '.join(j[0] for j in sleepy), '; '.join(j[2] for j in sleepy), ops))
elif unsure and not tlbs:
    step.note(p, "review: cannot tell whether %s sleeps (%s): %s is built as a table that may sleep, so without a secondary-TLB hook compat refuses to build it before 4.13; if those calls never sleep, pass 0 instead of MNCOMPAT_RANGE_START_MAY_SLEEP" % (' and '.join(j[0] for j in unsure), '; '.join(j[2] for j in unsure), ops))
if flags == '0' and (start or end):
    step.note(p, "before 4.13 compat calls %s from invalidate_page under the page-table lock with a non-blockable range: %s" % (' and '.join(str(x) for x in (start, end) if x), '; '.join(j[2] for j in judged)))
    fails = [d for d in module(p).defs(str(start), p[0].file) if d.get('eagain')] if start else []
    if fails:
        step.note(p, "review: %s returns -EAGAIN (%s:%d), but with flags 0 compat calls it before 4.13 from invalidate_page, where the kernel cannot take a failure (WARN, and nothing is invalidated): it never sleeps, so let it proceed when !mncompat_range_blockable()" % (start, fails[0]['file'], fails[0]['eagain']))

// The #include to replace, looked for before anything changes.
@has_inc@
@@
#include <mncompat/mmu_notifier.h>

@has_linux_inc@
@@
#include <linux/mmu_notifier.h>


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

// ---------------------------------------------------------------------
// The blockable test and the header.
// ---------------------------------------------------------------------

@bl depends on patch@
expression R;
@@
- mmu_notifier_range_blockable(R)
+ mncompat_range_blockable(R)

@inc depends on patch && (rep || bl)@
@@
- #include <linux/mmu_notifier.h>
+ #include <mncompat/mmu_notifier.h>

// No <linux/mmu_notifier.h> of its own (it came through a header of the
// driver): add compat's after the file's last #include.
@add_inc_angle depends on patch && (rep || bl) && !has_inc && !has_linux_inc@
@@
#include <...>
+#include <mncompat/mmu_notifier.h>

@add_inc_quote depends on patch && (rep || bl) && !has_inc && !has_linux_inc && !add_inc_angle@
@@
#include "..."
+#include <mncompat/mmu_notifier.h>

@script:python depends on patch && (add_inc_angle || add_inc_quote)@
p << tbl.p;
@@
step.note(p, "converted: added #include <mncompat/mmu_notifier.h> (the file had no #include <linux/mmu_notifier.h> of its own to replace)")

@script:python depends on patch && (rep || bl) && !has_inc && !has_linux_inc && !add_inc_angle && !add_inc_quote@
p << tbl.p;
@@
step.note(p, "review: no #include in this file to add #include <mncompat/mmu_notifier.h> after: add it")

// ---------------------------------------------------------------------
// Registration of a table whose range_start may fail and that has a
// range_end: since Linux 5.12 (c2655835fd8c) the kernel WARNs on that
// and calls range_end for every subscription, the failing one too;
// mncompat_mmu_notifier_register() keeps them paired on every kernel.
// Last in the file: regok drops the matches of a call it leaves alone,
// and no rule after it may depend on those.
// ---------------------------------------------------------------------

@reg@
expression A, B;
identifier f = {mmu_notifier_register, mmu_notifier_unregister};
position pr;
@@
f@pr(A, B)

@script:python regok@
pr << reg.pr;
f << reg.f;
@@
tbls = may_fail_paired(pr)
if not tbls:
    cocci.include_match(False)
elif step.mode == 'patch':
    step.note(pr, "converted: %s() -> mncompat_%s(): %s (range_start may fail, range_end kept): compat keeps start and end paired on both sides of Linux 5.12 (c2655835fd8c)" % (f, f, ', '.join(tbls)))

@regrep depends on patch@
expression reg.A, reg.B;
position reg.pr;
@@
(
- mmu_notifier_register@pr(A, B)
+ mncompat_mmu_notifier_register(A, B)
|
- mmu_notifier_unregister@pr(A, B)
+ mncompat_mmu_notifier_unregister(A, B)
)

// A file whose only change is its registration needs compat's header
// too (the rules above gave it to a file with a table or a blockable
// test already).
@inc_reg depends on patch && regrep && !inc && !add_inc_angle && !add_inc_quote@
@@
- #include <linux/mmu_notifier.h>
+ #include <mncompat/mmu_notifier.h>

@add_inc_reg depends on patch && regrep && !inc && !add_inc_angle && !add_inc_quote && !has_inc && !has_linux_inc@
@@
#include <...>
+#include <mncompat/mmu_notifier.h>

@add_inc_reg_quote depends on patch && regrep && !inc && !add_inc_angle && !add_inc_quote && !has_inc && !has_linux_inc && !add_inc_reg@
@@
#include "..."
+#include <mncompat/mmu_notifier.h>

@script:python depends on patch && (add_inc_reg || add_inc_reg_quote)@
pr << reg.pr;
@@
note_reg_include(pr, "converted: added #include <mncompat/mmu_notifier.h> for the registration (the file had no #include <linux/mmu_notifier.h> of its own to replace)")

@script:python depends on patch && regrep && !inc && !add_inc_angle && !add_inc_quote && !has_inc && !has_linux_inc && !add_inc_reg && !add_inc_reg_quote@
pr << reg.pr;
@@
note_reg_include(pr, "review: no #include in this file to add #include <mncompat/mmu_notifier.h> after, for mncompat_mmu_notifier_register(): add it")
