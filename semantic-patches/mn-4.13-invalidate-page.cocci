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
/// -D compat (for drivers built with <mncompat/mmu_notifier.h>, whose
/// pre-4.13 trampoline can only call a non-sleeping hook from
/// invalidate_page): as -D atomic, and a notifier with invalidate_page
/// and invalidate_range_start but no invalidate_range keeps the old
/// callback as its invalidate_range instead of dropping it.
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
virtual compat

@initialize:python@
@@
import os
import re
import sys


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

mode = ['report']
flags = {'atomic': False, 'compat': False}
made = {}
declared = set()
generated = set()
# A name no code has: an identifier output that makes a rule match nothing.
NONE = '__mncompat_none'

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

def new_name(fn, what):
    if 'invalidate_page' in fn:
        return fn.replace('invalidate_page', 'invalidate_' + what)
    return fn + '_' + what

# The module (every .c/.h of the driver, mnmodule.py): may a callback
# sleep, what it calls, how its table's range callbacks cover it.
def M(p):
    """The module of the file of p (mnmodule.py, imported when first
    needed: most files never ask)."""
    import mnmodule
    return mnmodule.facts_for(p[0].file)

def sleep_of(p, fn):
    return M(p).sleep(fn, p[0].file)

def may_sleep(p, fn):
    """Sleeps, or cannot tell (then it is treated as sleeping)."""
    return sleep_of(p, fn)[0] != 'atomic'

def how_it_sleeps(p, fn):
    v, chain, why, unknown = sleep_of(p, fn)
    if v == 'sleeps':
        return '%s; %s' % (' -> '.join(chain), why)
    if v == 'unknown':
        return "cannot tell: it calls %s, neither this module's nor a known non-sleeping kernel helper" % ', '.join(unknown)
    return '%s never sleeps' % fn

def never_sleeps_text(p, fn):
    return '%s never sleeps: every call it makes was followed through the module' % fn

fields = {}
facts = {'file': None, 'defs': {}}

def fact_file(f):
    if facts['file'] != f:
        facts.update({'file': f, 'defs': {}})
        fields.clear()

CPP = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)')

def cpp_ctx(f, line):
    """The #if branches around a line: a tuple of (line of the #if,
    branch number)."""
    stack = []
    try:
        with open(f, errors='replace') as fh:
            lines = fh.read().split('\n')
    except OSError:
        return None
    for i, l in enumerate(lines[:line - 1]):
        m = CPP.match(l)
        if not m:
            continue
        d = m.group(1)
        if d in ('if', 'ifdef', 'ifndef'):
            stack.append([i + 1, 0])
        elif d in ('elif', 'else') and stack:
            stack[-1][1] += 1
        elif d == 'endif' and stack:
            stack.pop()
    return tuple(tuple(x) for x in stack)

def cpp_branches(f, ifline):
    """Number of branches of the #if at ifline and whether one of them
    is an #else (the branches then cover every configuration)."""
    try:
        with open(f, errors='replace') as fh:
            lines = fh.read().split('\n')
    except OSError:
        return 0, False
    depth, n, has_else = 0, 1, False
    for l in lines[ifline:]:
        m = CPP.match(l)
        if not m:
            continue
        d = m.group(1)
        if d in ('if', 'ifdef', 'ifndef'):
            depth += 1
        elif d == 'endif':
            if depth == 0:
                return n, has_else
            depth -= 1
        elif depth == 0:
            n += 1
            has_else = has_else or d == 'else'
    return n, has_else

def cpp_problem(p):
    """Why callbacks generated next to the table of field p would not
    exist in exactly the configurations where its invalidate_page
    callback does, or None."""
    fd = fields.get(key(p))
    if fd is None:
        return None
    f = p[0].file
    tctx = cpp_ctx(f, fd['table'])
    fctx = cpp_ctx(f, int(p[0].line))
    if tctx is None or fctx != tctx:
        return ".invalidate_page (line %s) is under an #if the table (line %d) is not" % (p[0].line, fd['table'])
    defs = facts['defs'].get(fd['fn'], [])
    if not defs:
        return None
    ctxs = set(cpp_ctx(f, d) for d in defs)
    if tctx in ctxs:
        return None
    # defined in every branch of one #if/#else right inside the table's
    if all(c[:len(tctx)] == tctx and len(c) == len(tctx) + 1 for c in ctxs):
        ifs = set(c[-1][0] for c in ctxs)
        if len(ifs) == 1:
            n, has_else = cpp_branches(f, list(ifs)[0])
            if has_else and len(ctxs) == n:
                return None
    return "%s is defined under #if (line %d) where the table (line %d) is not" % (fd['fn'], min(defs), fd['table'])

def calls_of(p, fn):
    out = set()
    for d in M(p).defs(fn, p[0].file):
        out |= set(d['calls'])
    return out

def forwards_to(p):
    """The table's range callbacks that its invalidate_page callback
    calls."""
    fd = fields.get(key(p))
    if fd is None:
        return []
    called = calls_of(p, fd['fn'])
    return sorted(e for e in fd['cbs'] if e in called)

def keep_problem(p):
    """Why the invalidate_page callback of field p (-D compat, a table
    with range callbacks but no invalidate_range) cannot be kept as the
    non-sleeping secondary-TLB hook, or None."""
    fd = fields.get(key(p))
    if fd is None:
        return "its table was not analysed"
    if fd['tlb']:
        return "the table already has invalidate_range"
    fw = forwards_to(p)
    if fw:
        return "it calls the table's own %s, whose prototype the later steps change and which runs where it may sleep" % ' and '.join(fw)
    v = sleep_of(p, fd['fn'])[0]
    if v == 'sleeps':
        return "it may sleep (%s) and the hook runs under the page-table lock" % how_it_sleeps(p, fd['fn'])
    if v == 'unknown':
        return "the hook runs under the page-table lock and the tool %s" % how_it_sleeps(p, fd['fn'])
    cp = cpp_problem(p)
    if cp:
        return cp
    return None

def keepable(p):
    return key(p) in fields and keep_problem(p) is None

def cpp_bad(p):
    fd = fields.get(key(p))
    return fd is not None and not fd['cbs'] and cpp_problem(p) is not None

def coverage(p):
    """What the module analysis says of the table of field p: None when
    the table has a secondary-TLB hook (it runs after the change) or was
    not found, else a dict with verdict covered, move or undecided."""
    fd = fields.get(key(p))
    if fd is None or fd['tlb']:
        return None
    t = M(p).table(fd['ops'], p[0].file)
    if t is None or 'coverage' not in t:
        return None
    return t['coverage']

def needs_move(p):
    c = coverage(p)
    return c is not None and c['verdict'] in ('move', 'undecided') and \
        cpp_problem(p) is None

def move_note(p, fn, w):
    c = coverage(p)
    fd = fields[key(p)]
    left = '; '.join(c.get('items', [])[:4])
    hook = ''
    if flags['compat'] and keepable(p):
        hook = '; with compat it is also the secondary-TLB hook, which 6.6+ leaves out of a table with range callbacks: there this range_end is what runs it'
    if c['verdict'] == 'move':
        note(p, "converted: %s -> %s (invalidate_range_end: runs %s for every page of [start, end) after the page-table change; the range callbacks alone would not: %s%s%s)" % (
            fn, w, fn, c['why'], ('; not redone after the change: ' + left) if left else '', hook))
    else:
        note(p, "converted: %s -> %s (invalidate_range_end: runs %s for every page of [start, end) after the page-table change, to be safe%s)" % (fn, w, fn, hook))
        note(p, "review: %s: cannot tell whether %s's range callbacks drop what it dropped after the page-table change: %s. Its work now runs again from %s; if the range callbacks do cover it (range_start keeps the device from faulting the pages back in until range_end), that loop can go" % (
            fn, fd['ops'], c['why'], w))

def only_note(p, fn, kind, n1, n2, once):
    """The notes of an invalidate_page-only table converted to the
    sleepable range callbacks (kind sleep: n1/n2) or to the non-sleeping
    hook (kind hook: n1)."""
    if n1 == NONE:
        return
    v = sleep_of(p, fn)[0]
    how = "%s ignores its address, so each runs it once" % fn if once else \
        "both run it for every page of the range: start before the page-table change, end after it"
    if kind == 'sleep':
        if not flags['compat']:
            note(p, "converted: %s -> %s/%s (invalidate_range_start/end, may sleep; %s)" % (fn, n1, n2, how))
            return
        note(p, "converted: %s -> %s/%s (invalidate_range_start/end, may sleep; %s), not the non-sleeping hook: %s %s (%s)" % (
            fn, n1, n2, how, fn, 'may sleep' if v == 'sleeps' else 'is treated as sleeping', how_it_sleeps(p, fn)))
        if v == 'sleeps':
            note(p, "review: %s may sleep: before 4.13 the kernel calls invalidate_page under the page-table lock, where no form of this notifier is safe: compat refuses to build its table for those kernels (MNCOMPAT_RANGE_START_MAY_SLEEP without a secondary-TLB hook)" % fn)
        else:
            note(p, "review: %s: %s; converted as if it may sleep, so compat refuses to build its table before 4.13. If those calls never sleep, it can be the secondary-TLB hook (convert with --atomic)" % (fn, how_it_sleeps(p, fn)))
        return
    extra = '; it ignores its address, so it runs once' if once else ''
    if v == 'atomic':
        note(p, "converted: %s -> %s (invalidate_range, atomic: %s%s)" % (fn, n1, never_sleeps_text(p, fn), extra))
    elif v == 'sleeps':
        note(p, "converted: %s -> %s (invalidate_range, atomic%s)" % (fn, n1, extra))
        note(p, "review: %s may sleep (%s): invalidate_range (-D atomic) must not sleep" % (fn, how_it_sleeps(p, fn)))
    else:
        note(p, "converted: %s -> %s (invalidate_range, atomic%s)" % (fn, n1, extra))
        note(p, "review: cannot tell whether %s sleeps: it calls %s, neither this module's nor a known non-sleeping kernel helper: invalidate_range (-D atomic) must not sleep, check that they never do" % (fn, ', '.join(sleep_of(p, fn)[3])))

def wrapper_name(p, fn):
    """A name for the range_end that runs fn for every page: no function
    of the module has it, nor a callback generated here, nor one an
    invalidate_page-only table of the same callback will get."""
    only_too = any(t['fields'].get('invalidate_page') == fn and
                   not set(t['fields']) & {'invalidate_range_start',
                                           'invalidate_range_end',
                                           'invalidate_range'}
                   for t in M(p).tables())
    names = [fn + '_range_end'] if only_too else [new_name(fn, 'range_end'), fn + '_range_end']
    taken = M(p).names() | generated
    for n in names:
        if n not in taken:
            return n
    k = 2
    while '%s%d' % (names[-1], k) in taken:
        k += 1
    return '%s%d' % (names[-1], k)

def uses_address(p, fn):
    """Does the invalidate_page callback fn use its address parameter?
    Unknown (not defined in the module): yes."""
    defs = M(p).defs(fn, p[0].file)
    if not defs:
        return True
    for d in defs:
        if len(d['params']) < 3 or d['params'][2] not in d['unused_params']:
            return True
    return False

@script:python depends on patch@
@@
mode[0] = 'patch'

@script:python depends on org@
@@
mode[0] = 'org'

@script:python depends on atomic@
@@
flags['atomic'] = True

@script:python depends on compat@
@@
flags['compat'] = True

// ---------------------------------------------------------------------
// What is there: notifiers with invalidate_page and a range callback
// (covered), with invalidate_page only, and run-time assignments.
// Every table with invalidate_page, its range callbacks and the
// definitions of its callback; the rest (what the callbacks call, in
// every file of the module) comes from mnmodule.py.
// ---------------------------------------------------------------------

@tbl@
identifier ops, fn;
position p, pt;
@@
struct mmu_notifier_ops ops@pt = {
	.invalidate_page = fn@p,
};

@script:python@
p << tbl.p;
pt << tbl.pt;
fn << tbl.fn;
ops << tbl.ops;
@@
fact_file(p[0].file)
fields[key(p)] = {'fn': fn, 'ops': ops, 'table': int(pt[0].line),
                  'cbs': set(), 'tlb': False, 'start': False, 'end': None,
                  'startfn': None}

@tblcb@
identifier tbl.ops, f = {invalidate_range_start, invalidate_range_end,
	invalidate_range};
identifier E;
@@
struct mmu_notifier_ops ops = {
	.f = E,
};

@script:python@
p << tbl.p;
f << tblcb.f;
E << tblcb.E;
@@
fd = fields[key(p)]
fd['cbs'].add(E)
fd['tlb'] = fd['tlb'] or f == 'invalidate_range'
fd['start'] = fd['start'] or f in ('invalidate_range_start', 'invalidate_range')
if f == 'invalidate_range_end':
    fd['end'] = E
if f == 'invalidate_range_start':
    fd['startfn'] = E

@tbldef@
identifier tbl.fn;
position pf;
@@
fn@pf(...) { ... }

@script:python@
fn << tbl.fn;
pf << tbldef.pf;
@@
facts['defs'].setdefault(fn, [])
if int(pf[0].line) not in facts['defs'][fn]:
    facts['defs'][fn].append(int(pf[0].line))

@has_tlb_hook@
identifier ops, fn;
expression E;
position p;
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
	.invalidate_range = E,
};

@keep depends on compat@
identifier ops, fn;
expression E;
position p : script:python() { keepable(p) };
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
	.\(invalidate_range_start\|invalidate_range_end\) = E,
};

@covered@
identifier ops, fn;
expression E;
position p != keep.p;
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
	.\(invalidate_range_start\|invalidate_range\|invalidate_range_end\) = E,
};

// Tables whose range callbacks do not drop again, after the page-table
// change, what invalidate_page dropped (or the analysis cannot tell):
// range_end gets the old callback for every page.
@movetbl depends on patch@
identifier ops, fn;
position p : script:python() { needs_move(p) };
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
};

@script:python depends on compat@
p << covered.p;
fn << covered.fn;
@@
if not fields.get(key(p), {}).get('tlb'):
    # A review item only when the tool could not tell: the rest is
    # decided, and the compat step says what it means for the table.
    unsure = sleep_of(p, fn)[0] == 'unknown' and not forwards_to(p)
    note(p, "%scompat: %s is not kept as the secondary-TLB hook of its table: %s. %s before 4.13, where the kernel calls invalidate_page under the page-table lock, compat calls the table's range callbacks from it with a non-blockable range, or refuses to build the table if they may sleep" % (
        'review: ' if unsure else '', fn, keep_problem(p),
        'Its work moves to range_end (see the conversion);' if needs_move(p) else 'It is removed as in plain conversion:'))

@cppbad@
identifier ops, fn;
position p : script:python() { cpp_bad(p) };
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
};

@only@
identifier ops, fn;
position p != {covered.p, keep.p, cppbad.p};
@@
struct mmu_notifier_ops ops = {
	.invalidate_page = fn@p,
};

@script:python depends on !context@
p << cppbad.p;
fn << cppbad.fn;
@@
note(p, "review: %s: %s: callbacks generated next to the table would not exist in exactly the configurations where %s does: not converted, convert by hand" % (fn, cpp_problem(p), fn))

@script:python depends on !context@
p << covered.p;
fn << covered.fn;
@@
fd = fields.get(key(p))
c = coverage(p)
if fd is not None and not fd['start'] and (c is None or c['verdict'] == 'covered'):
    note(p, "%s: its table has invalidate_range_end but no invalidate_range_start: range_end drops the pages after the page-table change, as invalidate_page did (%s); until then the device may use them, as it could before invalidate_page was called" % (
        fn, c['why'] if c else 'range_end does the invalidation'))

@only_parsed@
identifier only.fn, mn, mm, addr;
type T;
@@
T fn(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long addr)
{ ... }

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
    c = coverage(p)
    if c is not None and c['verdict'] != 'covered':
        note(p, "%s: invalidate_page: the range callbacks do not redo its work after the page-table change (%s): run it from invalidate_range_end" % (fn, c['why']))
    else:
        note(p, "%s: invalidate_page is covered by the range callbacks: remove it" % fn)

@script:python depends on !context && !covered_parsed@
p << covered.p;
fn << covered.fn;
@@
if not needs_move(p):
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

// ---------------------------------------------------------------------
// (a') moved: range_end runs the old callback for every page of the
// range, after the page-table change; the existing range_end, if any,
// first.  With cond_resched() when the old callback may sleep anyway.
// ---------------------------------------------------------------------

@script:python move_e@
p << movetbl.p;
fn << movetbl.fn;
nw;
oe;
@@
fd = fields[key(p)]
if fd['end'] is None or may_sleep(p, fn):
    coccinelle.nw = cocci.make_ident(NONE)
    coccinelle.oe = cocci.make_ident(NONE)
else:
    w = wrapper_name(p, fn)
    generated.add(w)
    coccinelle.nw = cocci.make_ident(w)
    coccinelle.oe = cocci.make_ident(fd['end'])

@script:python move_er@
p << movetbl.p;
fn << movetbl.fn;
nw;
oe;
@@
fd = fields[key(p)]
if fd['end'] is None or not may_sleep(p, fn):
    coccinelle.nw = cocci.make_ident(NONE)
    coccinelle.oe = cocci.make_ident(NONE)
else:
    w = wrapper_name(p, fn)
    generated.add(w)
    coccinelle.nw = cocci.make_ident(w)
    coccinelle.oe = cocci.make_ident(fd['end'])

@script:python move_n@
p << movetbl.p;
fn << movetbl.fn;
nw;
ost;
@@
fd = fields[key(p)]
if fd['end'] is not None or fd['startfn'] is None or may_sleep(p, fn):
    coccinelle.nw = cocci.make_ident(NONE)
    coccinelle.ost = cocci.make_ident(NONE)
else:
    w = wrapper_name(p, fn)
    generated.add(w)
    coccinelle.nw = cocci.make_ident(w)
    coccinelle.ost = cocci.make_ident(fd['startfn'])

@script:python move_nr@
p << movetbl.p;
fn << movetbl.fn;
nw;
ost;
@@
fd = fields[key(p)]
if fd['end'] is not None or fd['startfn'] is None or not may_sleep(p, fn):
    coccinelle.nw = cocci.make_ident(NONE)
    coccinelle.ost = cocci.make_ident(NONE)
else:
    w = wrapper_name(p, fn)
    generated.add(w)
    coccinelle.nw = cocci.make_ident(w)
    coccinelle.ost = cocci.make_ident(fd['startfn'])

@move_gen_e depends on patch@
identifier movetbl.ops, movetbl.fn, move_e.nw, move_e.oe;
@@
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page (4.13): its work, after the page-table change. */
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	oe(mn, mm, start, end);
+	while (address < end) {
+		fn(mn, mm, address);
+		address += PAGE_SIZE;
+	}
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_range_end = oe,
+	.invalidate_range_end = nw,
 };

@move_gen_er depends on patch@
identifier movetbl.ops, movetbl.fn, move_er.nw, move_er.oe;
@@
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page (4.13): its work, after the page-table change. */
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	oe(mn, mm, start, end);
+	while (address < end) {
+		fn(mn, mm, address);
+		address += PAGE_SIZE;
+		cond_resched();
+	}
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_range_end = oe,
+	.invalidate_range_end = nw,
 };

@move_gen_n depends on patch@
identifier movetbl.ops, movetbl.fn, move_n.nw, move_n.ost;
@@
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page (4.13): its work, after the page-table change. */
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	while (address < end) {
+		fn(mn, mm, address);
+		address += PAGE_SIZE;
+	}
+}
+
 struct mmu_notifier_ops ops = {
	.invalidate_range_start = ost,
+	.invalidate_range_end = nw,
 };

@move_gen_nr depends on patch@
identifier movetbl.ops, movetbl.fn, move_nr.nw, move_nr.ost;
@@
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page (4.13): its work, after the page-table change. */
+static void nw(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	while (address < end) {
+		fn(mn, mm, address);
+		address += PAGE_SIZE;
+		cond_resched();
+	}
+}
+
 struct mmu_notifier_ops ops = {
	.invalidate_range_start = ost,
+	.invalidate_range_end = nw,
 };

@script:python@
p << movetbl.p;
fn << movetbl.fn;
nw << move_e.nw;
@@
if str(nw) != NONE:
    move_note(p, fn, nw)

@script:python@
p << movetbl.p;
fn << movetbl.fn;
nw << move_er.nw;
@@
if str(nw) != NONE:
    move_note(p, fn, nw)

@script:python@
p << movetbl.p;
fn << movetbl.fn;
nw << move_n.nw;
@@
if str(nw) != NONE:
    move_note(p, fn, nw)

@script:python@
p << movetbl.p;
fn << movetbl.fn;
nw << move_nr.nw;
@@
if str(nw) != NONE:
    move_note(p, fn, nw)

@fn_used depends on patch@
identifier covered.fn;
@@
fn

@covered_fnpos depends on patch && !fn_used@
identifier covered.fn;
position pf;
@@
fn@pf(...) { ... }

@script:python covered_ok@
fn << covered.fn;
pf << covered_fnpos.pf;
p << covered.p;
fn_ok;
@@
others = [r for r in M(p).refs(fn) if r != M(p).real(p[0].file)]
coccinelle.fn_ok = cocci.make_ident(NONE)
if needs_move(p):
    pass
elif split_by_cpp(pf):
    note(p, "review: %s is split by #if/#else: field dropped, remove the function by hand" % fn)
elif others:
    note(p, "%s is still used in %s: field dropped, function kept" % (fn, ', '.join(others)))
else:
    coccinelle.fn_ok = cocci.make_ident(fn)

@drop_fn depends on patch && !fn_used@
identifier covered_ok.fn_ok;
@@
- fn_ok(...) { ... }

@drop_fn_decl depends on drop_fn@
identifier covered.fn;
type T;
@@
- T fn(...);

@script:python depends on drop_fn@
p << covered.p;
fn << covered.fn;
@@
c = coverage(p)
note(p, "removed: %s (invalidate_page, covered by the range callbacks%s)" % (fn, (': ' + c['why']) if c else ''))

@script:python depends on patch && fn_used@
p << covered.p;
fn << covered.fn;
@@
if not needs_move(p):
    c = coverage(p)
    note(p, "%s is used elsewhere in this file: field dropped, function kept%s" % (fn, (' (covered by the range callbacks: ' + c['why'] + ')') if c else ''))

// static helpers that only the removed callback used go too
@helper_used depends on drop_fn@
identifier covered_ref.h;
@@
h

@helper_pos depends on drop_fn && !helper_used@
identifier covered_ref.h;
type T;
position ph;
@@
static T h@ph(...) { ... }

@script:python helper_ok@
h << covered_ref.h;
ph << helper_pos.ph;
p << covered.p;
h_ok;
@@
if split_by_cpp(ph):
    note(p, "review: %s is now unused but split by #if/#else (line %s): remove it by hand" % (h, ph[0].line))
    coccinelle.h_ok = cocci.make_ident(NONE)
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
# Only a function of this module can be removed by its authors; one
# called from another file of the module is still needed.
if not h.isupper():
    found, elsewhere = M(p).helper(h, p[0].file)
    if found and not elsewhere:
        note(p, "review: %s (%s:%d) is no longer called anywhere in the module: remove it if nothing outside the module uses it" % (h, found[0], found[1]))

// ---------------------------------------------------------------------
// (b) invalidate_page only: generate range callbacks that call the old
// callback for each page of [start, end), or once when it ignores the
// address.  Default: invalidate_range_start/end (may sleep, so the page
// loop has a cond_resched(): a range can be large); both run it,
// start while the pages are still allocated, end to drop what the
// secondary MMU may have re-established in between.  -D atomic: the
// non-sleeping invalidate_range, called under the page-table lock right
// after the CPU page table changed, as invalidate_page was since 4.11.
// -D compat: invalidate_range when the callback never sleeps (the
// module analysis followed every call), else the range callbacks.
// ---------------------------------------------------------------------

@script:python only_sleep_loop depends on patch@
p << only.p;
fn << only.fn;
gf;
ns;
ne;
@@
hook = flags['atomic'] or (flags['compat'] and not may_sleep(p, fn))
if hook or not uses_address(p, fn):
    coccinelle.gf = cocci.make_ident(NONE)
    coccinelle.ns = cocci.make_ident(NONE)
    coccinelle.ne = cocci.make_ident(NONE)
else:
    coccinelle.gf = cocci.make_ident(fn)
    coccinelle.ns = cocci.make_ident(new_name(fn, 'range_start'))
    coccinelle.ne = cocci.make_ident(new_name(fn, 'range_end'))
    generated.update([new_name(fn, 'range_start'), new_name(fn, 'range_end')])

@script:python only_sleep_once depends on patch@
p << only.p;
fn << only.fn;
gf;
ns;
ne;
@@
hook = flags['atomic'] or (flags['compat'] and not may_sleep(p, fn))
if hook or uses_address(p, fn):
    coccinelle.gf = cocci.make_ident(NONE)
    coccinelle.ns = cocci.make_ident(NONE)
    coccinelle.ne = cocci.make_ident(NONE)
else:
    coccinelle.gf = cocci.make_ident(fn)
    coccinelle.ns = cocci.make_ident(new_name(fn, 'range_start'))
    coccinelle.ne = cocci.make_ident(new_name(fn, 'range_end'))
    generated.update([new_name(fn, 'range_start'), new_name(fn, 'range_end')])

@script:python only_hook_loop depends on patch@
p << only.p;
fn << only.fn;
gf;
nr;
@@
hook = flags['atomic'] or (flags['compat'] and not may_sleep(p, fn))
if not hook or not uses_address(p, fn):
    coccinelle.gf = cocci.make_ident(NONE)
    coccinelle.nr = cocci.make_ident(NONE)
else:
    coccinelle.gf = cocci.make_ident(fn)
    made.setdefault((p[0].file, new_name(fn, 'range')), int(p[0].line))
    coccinelle.nr = cocci.make_ident(new_name(fn, 'range'))
    generated.add(new_name(fn, 'range'))

@script:python only_hook_once depends on patch@
p << only.p;
fn << only.fn;
gf;
nr;
@@
hook = flags['atomic'] or (flags['compat'] and not may_sleep(p, fn))
if not hook or uses_address(p, fn):
    coccinelle.gf = cocci.make_ident(NONE)
    coccinelle.nr = cocci.make_ident(NONE)
else:
    coccinelle.gf = cocci.make_ident(fn)
    made.setdefault((p[0].file, new_name(fn, 'range')), int(p[0].line))
    coccinelle.nr = cocci.make_ident(new_name(fn, 'range'))
    generated.add(new_name(fn, 'range'))

@only_start_loop depends on patch@
identifier only.ops, only_sleep_loop.gf, only_sleep_loop.ns;
@@
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13. */
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	while (address < end) {
+		gf(mn, mm, address);
+		address += PAGE_SIZE;
+		cond_resched();
+	}
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_page = gf,
+	.invalidate_range_start = ns,
 };

@only_start_once depends on patch@
identifier only.ops, only_sleep_once.gf, only_sleep_once.ns;
@@
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13. */
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	gf(mn, mm, start);
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_page = gf,
+	.invalidate_range_start = ns,
 };

@only_end_loop depends on patch@
identifier only.ops, only_sleep_loop.gf, only_sleep_loop.ns, only_sleep_loop.ne;
@@
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13. */
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	while (address < end) {
+		gf(mn, mm, address);
+		address += PAGE_SIZE;
+		cond_resched();
+	}
+}
+
 struct mmu_notifier_ops ops = {
	.invalidate_range_start = ns,
+	.invalidate_range_end = ne,
 };

@only_end_once depends on patch@
identifier only.ops, only_sleep_once.gf, only_sleep_once.ns, only_sleep_once.ne;
@@
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13. */
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	gf(mn, mm, start);
+}
+
 struct mmu_notifier_ops ops = {
	.invalidate_range_start = ns,
+	.invalidate_range_end = ne,
 };

@only_atomic_loop depends on patch@
identifier only.ops, only_hook_loop.gf, only_hook_loop.nr;
@@
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13. */
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	while (address < end) {
+		gf(mn, mm, address);
+		address += PAGE_SIZE;
+	}
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_page = gf,
+	.invalidate_range = nr,
 };

@only_atomic_once depends on patch@
identifier only.ops, only_hook_once.gf, only_hook_once.nr;
@@
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13. */
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	gf(mn, mm, start);
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_page = gf,
+	.invalidate_range = nr,
 };

// ---------------------------------------------------------------------
// (c) -D compat, invalidate_page next to invalidate_range_start: the
// old callback becomes the invalidate_range hook (through a per-page
// wrapper, shared with an invalidate_page-only table that uses the same
// callback), so compat's trampoline has something non-sleeping to call
// from invalidate_page on kernels before 4.13.
// ---------------------------------------------------------------------

@script:python keep_names depends on patch@
fn << keep.fn;
nr;
@@
coccinelle.nr = cocci.make_ident(new_name(fn, 'range'))

@keep_field depends on patch@
identifier keep.ops, keep.fn, keep_names.nr;
@@
struct mmu_notifier_ops ops = {
-	.invalidate_page = fn,
+	.invalidate_range = nr,
};

// ng: the wrapper to generate here; nf: one to declare here because it
// is generated further down (before a later invalidate_page-only table).
// A name no table refers to stands for "none": keep_gen or keep_fwd then
// do nothing (cocci.include_match(False) here would also stop
// drop_generated_proto below).
@script:python keep_new depends on patch@
p << keep.p;
fn << keep.fn;
nr << keep_names.nr;
ng;
nf;
@@
key = (p[0].file, str(nr))
none = str(nr) + '__mncompat_none'
coccinelle.ng = cocci.make_ident(none)
coccinelle.nf = cocci.make_ident(none)
generated.add(str(nr))
if key not in made:
    made[key] = int(p[0].line)
    coccinelle.ng = cocci.make_ident(str(nr))
elif made[key] > int(p[0].line) and key not in declared:
    declared.add(key)
    coccinelle.nf = cocci.make_ident(str(nr))

@keep_gen depends on patch@
identifier keep.ops, keep.fn, keep_new.ng;
@@
+static void ng(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13. */
+static void ng(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	unsigned long address = start;
+
+	while (address < end) {
+		fn(mn, mm, address);
+		address += PAGE_SIZE;
+	}
+}
+
 struct mmu_notifier_ops ops = {
	.invalidate_range = ng,
 };

@script:python depends on keep_field@
p << keep.p;
fn << keep.fn;
nr << keep_names.nr;
@@
note(p, "converted: %s -> %s (invalidate_range, atomic: %s), kept next to the range callbacks: compat calls it from invalidate_page before 4.13" % (fn, nr, never_sleeps_text(p, fn)))

// The prototypes above only work around a spatch 1.1 layout bug (the
// brace of a lone generated definition lands on the header line).
@drop_generated_proto depends on patch@
identifier f : script:python() { f in generated };
type T;
@@
- T f(...);

@keep_fwd depends on patch@
identifier keep.ops, keep_new.nf;
@@
+static void nf(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
 struct mmu_notifier_ops ops = {
	.invalidate_range = nf,
 };

@script:python@
p << only.p;
fn << only.fn;
ns << only_sleep_loop.ns;
ne << only_sleep_loop.ne;
@@
only_note(p, fn, 'sleep', str(ns), str(ne), False)

@script:python@
p << only.p;
fn << only.fn;
ns << only_sleep_once.ns;
ne << only_sleep_once.ne;
@@
only_note(p, fn, 'sleep', str(ns), str(ne), True)

@script:python@
p << only.p;
fn << only.fn;
nr << only_hook_loop.nr;
@@
only_note(p, fn, 'hook', str(nr), None, False)

@script:python@
p << only.p;
fn << only.fn;
nr << only_hook_once.nr;
@@
only_note(p, fn, 'hook', str(nr), None, True)

@script:python depends on patch && !only_parsed@
p << only.p;
fn << only.fn;
@@
note(p, "review: %s is not defined in this file or could not be parsed (#if?): generated callbacks call it once per page" % fn)
