// SPDX-License-Identifier: GPL-2.0
/// Linux 6.10 (997308f9ae72 "mm/mmu_notifier: remove unused
/// mmu_notifier_change_pte") removed mmu_notifier_ops.change_pte and
/// set_pte_at_notify(): no kernel path called change_pte in a useful way
/// any more (KSM and wp-fault COW always bracket it with
/// invalidate_range_start/end, which already invalidated the page).
/// Drop the change_pte field from every struct mmu_notifier_ops
/// initializer, the callback, its forward declarations and the static
/// helpers only it used; set_pte_at_notify() becomes set_pte_at();
/// calls of mmu_notifier_change_pte() are removed.
///
// Confidence: High
// Copyright: (C) 2024 mncompat authors
// Comments: Run-time assignments to ->change_pte, callbacks split by
//  #if/#else and helpers defined in other files are reported.  In patch
//  mode the notes go to stderr as "FILE:LINE: [6.10] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, change_pte, set_pte_at_notify

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
import sys
import os


def _sp_dir():
    """The directory of this script, where mnmodule.py is."""
    d = os.environ.get('MNCOMPAT_SP_DIR')
    if d:
        return d
    try:
        with open('/proc/self/cmdline', 'rb') as fh:
            argv = fh.read().decode(errors='replace').split('\0')
        for i, a in enumerate(argv):
            if a == '--sp-file' and i + 1 < len(argv):
                return os.path.dirname(os.path.abspath(argv[i + 1]))
            if a.startswith('--sp-file='):
                return os.path.dirname(os.path.abspath(a.split('=', 1)[1]))
            if a.endswith('.cocci'):
                return os.path.dirname(os.path.abspath(a))
    except OSError:
        pass
    return '.'


sys.path.insert(0, _sp_dir())

def M(p):
    """The module of the file of p (mnmodule.py, imported when first
    needed: most files never ask)."""
    import mnmodule
    return mnmodule.facts_for(p[0].file)

mode = ['report']

def note(p, msg):
    msg = "[6.10] " + msg
    if mode[0] == 'patch':
        sys.stderr.write("%s:%s: %s\n" % (p[0].file, p[0].line, msg))
    elif mode[0] == 'org':
        coccilib.org.print_todo(p[0], msg)
    else:
        coccilib.report.print_report(p[0], msg)

def split_by_cpp(pos):
    """True when a #if/#else/#endif sits between the line of pos (a
    function name) and the closing brace of that function in column 0:
    spatch then saw only one branch and must not delete the function."""
    try:
        with open(pos[0].file, errors='replace') as f:
            lines = f.read().split('\n')
    except OSError:
        return True
    cpp = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b')
    for line in lines[int(pos[0].line) - 1:]:
        if cpp.match(line):
            return True
        if line.startswith('}'):
            return False
    return True

@script:python depends on patch@
@@
mode[0] = 'patch'

@script:python depends on org@
@@
mode[0] = 'org'

@chg@
identifier ops, fn;
position p;
@@
struct mmu_notifier_ops ops = {
	.change_pte = fn@p,
};

@rt@
expression E, F;
position p;
@@
(
E.change_pte@p = F
|
E->change_pte@p = F
)

@script:python depends on !context@
p << rt.p;
@@
note(p, "review: run-time assignment to ->change_pte (gone since 6.10): remove it")

@script:python depends on report || org@
p << chg.p;
fn << chg.fn;
@@
note(p, "%s: change_pte is gone since 6.10: remove it" % fn)

@calls@
position pc;
expression M, A, P;
@@
mmu_notifier_change_pte@pc(M, A, P)

@script:python depends on !context@
pc << calls.pc;
@@
note(pc, "review: mmu_notifier_change_pte() is gone since 6.10" + (": call removed" if mode[0] == 'patch' else ""))

@spn@
position pc;
expression M, A, PT, PTE;
@@
set_pte_at_notify@pc(M, A, PT, PTE)

@script:python depends on report || org@
pc << spn.pc;
@@
note(pc, "set_pte_at_notify() is gone since 6.10: use set_pte_at()")

@depends on context@
identifier ops, fn;
@@
struct mmu_notifier_ops ops = {
*	.change_pte = fn,
};

@chg_defined@
identifier chg.fn;
@@
fn(...) { ... }

@script:python depends on !context && !chg_defined@
p << chg.p;
fn << chg.fn;
@@
note(p, "review: %s is not defined in this file or could not be parsed (#if?): remove its definition by hand" % fn)

@depends on patch@
expression M, A, PT, PTE;
@@
- set_pte_at_notify(M, A, PT, PTE)
+ set_pte_at(M, A, PT, PTE)

@depends on patch@
expression M, A, P;
@@
- mmu_notifier_change_pte(M, A, P);

@chg_ref depends on patch exists@
identifier chg.fn, h;
@@
fn(...) { <+... h ...+> }

@chg_call depends on patch exists@
identifier chg.fn, h;
@@
fn(...) { <+... h(...) ...+> }

@chg_call_defined depends on patch@
identifier chg_call.h;
@@
h(...) { ... }

@drop_field depends on patch@
identifier chg.ops, chg.fn;
@@
struct mmu_notifier_ops ops = {
-	.change_pte = fn,
};

@fn_used depends on patch@
identifier chg.fn;
@@
fn

@chg_fnpos depends on patch && !fn_used@
identifier chg.fn;
position pf;
@@
fn@pf(...) { ... }

@script:python chg_ok@
fn << chg.fn;
pf << chg_fnpos.pf;
p << chg.p;
fn_ok;
@@
if split_by_cpp(pf):
    note(p, "review: %s is split by #if/#else: field dropped, remove the function by hand" % fn)
    cocci.include_match(False)
else:
    coccinelle.fn_ok = cocci.make_ident(fn)

@drop_fn depends on patch && !fn_used@
identifier chg_ok.fn_ok;
@@
- fn_ok(...) { ... }

@drop_fn_decl depends on drop_fn@
identifier chg.fn;
type T;
@@
- T fn(...);

@script:python depends on drop_fn@
p << chg.p;
fn << chg.fn;
@@
note(p, "removed: %s (change_pte, gone since 6.10)" % fn)

@script:python depends on patch && fn_used@
p << chg.p;
fn << chg.fn;
@@
note(p, "review: %s is used elsewhere in this file: field dropped, function kept" % fn)

// static helpers that only the removed callback used go too
@helper_used depends on drop_fn@
identifier chg_ref.h;
@@
h

@helper_pos depends on drop_fn && !helper_used@
identifier chg_ref.h;
type T;
position ph;
@@
static T h@ph(...) { ... }

@script:python helper_ok@
h << chg_ref.h;
ph << helper_pos.ph;
p << chg.p;
h_ok;
@@
if split_by_cpp(ph):
    note(p, "review: %s is now unused but split by #if/#else (line %s): remove it by hand" % (h, ph[0].line))
    cocci.include_match(False)
else:
    coccinelle.h_ok = cocci.make_ident(h)

@drop_helper depends on drop_fn@
identifier helper_ok.h_ok;
type T;
@@
(
- static T h_ok(...) { ... }
|
- static inline T h_ok(...) { ... }
)

@drop_helper_decl depends on drop_helper@
identifier chg_ref.h;
type T;
@@
- T h(...);

@script:python depends on drop_helper@
p << chg.p;
h << chg_ref.h;
@@
note(p, "removed: %s (static helper only the removed callback used)" % h)

@call_used depends on drop_fn@
identifier chg_call.h;
@@
h

@script:python depends on drop_fn && !chg_call_defined && !call_used@
p << chg.p;
h << chg_call.h;
@@
# Only a function of this module can be removed by its authors; one
# still called from another file of the module is still needed.
if not h.isupper():
    found, elsewhere = M(p).helper(h, p[0].file)
    if found and not elsewhere:
        note(p, "review: %s (%s:%d) is no longer called anywhere in the module: remove it if nothing outside the module uses it" % (h, found[0], found[1]))

