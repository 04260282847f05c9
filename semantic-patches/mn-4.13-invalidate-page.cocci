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
import re
import sys
mode = ['report']
made = {}
declared = set()

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

# What the callbacks call, for "may it sleep?" (following the calls to
# functions of this file) and "does it call the table's range callback?".
SLEEPERS = set('''mutex_lock mutex_lock_interruptible mutex_lock_killable
mutex_lock_nested down down_read down_write down_interruptible
down_killable down_read_killable down_write_killable msleep
msleep_interruptible usleep_range ssleep schedule schedule_timeout
cond_resched wait_for_completion wait_for_completion_timeout
wait_for_completion_interruptible wait_event wait_event_interruptible
wait_event_timeout wait_event_killable synchronize_rcu synchronize_srcu
synchronize_sched flush_work flush_workqueue flush_delayed_work
cancel_work_sync cancel_delayed_work_sync vfree vmalloc vzalloc
might_sleep mmap_read_lock mmap_write_lock lock_page wait_on_page_locked
copy_from_user copy_to_user get_user put_user get_user_pages
pin_user_pages'''.split())
facts = {'file': None, 'calls': {}, 'gfp': set(), 'defs': {}}
fields = {}

def fact_file(f):
    if facts['file'] != f:
        facts.update({'file': f, 'calls': {}, 'gfp': set(), 'defs': {},
                      'chain': None})
        fields.clear()

def sleep_chains():
    """name -> the call chain by which that function of this file may
    sleep (a list of names ending with a sleeper)."""
    if facts.get('chain') is not None:
        return facts['chain']
    chain = {}
    for fn, callees in facts['calls'].items():
        for c in sorted(callees):
            if c in SLEEPERS:
                chain[fn] = [c]
                break
        if fn not in chain and fn in facts['gfp']:
            chain[fn] = ['a GFP_KERNEL allocation']
    changed = True
    while changed:
        changed = False
        for fn, callees in facts['calls'].items():
            if fn in chain:
                continue
            for c in sorted(callees):
                if c in chain:
                    chain[fn] = [c] + chain[c]
                    changed = True
                    break
    facts['chain'] = chain
    return chain

def sleep_chain(fn, seen=None):
    """How fn may sleep, preferring a path through the file's own
    functions: a list of names ending with a sleeper, or None."""
    chain = sleep_chains()
    if fn not in chain:
        return None
    seen = (seen or set()) | {fn}
    for c in sorted(facts['calls'].get(fn, ())):
        if c in chain and c not in seen and c in facts['calls']:
            return [c] + sleep_chain(c, seen)
    return chain[fn]

def how_it_sleeps(fn):
    return ' -> '.join([fn] + sleep_chain(fn))

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

def forwards_to(p):
    """The table's range callbacks that its invalidate_page callback
    calls."""
    fd = fields.get(key(p))
    if fd is None:
        return []
    called = facts['calls'].get(fd['fn'], set())
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
    if sleep_chain(fd['fn']):
        return "it may sleep (%s) and the hook runs under the page-table lock" % how_it_sleeps(fd['fn'])
    cp = cpp_problem(p)
    if cp:
        return cp
    return None

def keepable(p):
    return key(p) in fields and keep_problem(p) is None

def cpp_bad(p):
    fd = fields.get(key(p))
    return fd is not None and not fd['cbs'] and cpp_problem(p) is not None

def is_sleeper_name(n):
    return n in SLEEPERS or n == 'GFP_KERNEL' or n in sleep_chains()

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

// Facts: the calls each function makes (-D atomic/compat: may a
// callback sleep, does it call the table's range callback?), every table
// with invalidate_page and its range callbacks, the callback definitions.
@allcalls depends on patch && (atomic || compat)@
identifier f;
expression list es;
position p;
@@
f@p(es)

@script:python@
p << allcalls.p;
f << allcalls.f;
es << allcalls.es;
@@
fact_file(p[0].file)
facts['calls'].setdefault(p[0].current_element, set()).add(f)
if 'GFP_KERNEL' in str(es):
    facts['gfp'].add(p[0].current_element)

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
@@
fact_file(p[0].file)
fields[key(p)] = {'fn': fn, 'table': int(pt[0].line), 'cbs': set(),
                  'tlb': False, 'start': False}

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

// What is there: notifiers with invalidate_page and a range callback
// (covered), with invalidate_page only, and run-time assignments.
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

@script:python depends on compat@
p << covered.p;
fn << covered.fn;
@@
if not fields.get(key(p), {}).get('tlb'):
    note(p, "review: compat: %s is not kept as the secondary-TLB hook of its table: %s. It is removed as in plain conversion: before 4.13, where the kernel calls invalidate_page under the page-table lock, compat calls the table's range callbacks from it with a non-blockable range, or refuses to build the table if they may sleep" % (fn, keep_problem(p)))

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
if fd is not None and not fd['start']:
    note(p, "review: %s: its table has invalidate_range_end but no invalidate_range_start: invalidate_page is removed and range_end does the invalidation (as out-of-tree drivers of this shape did for 4.13); between the page-table change and invalidate_range_end the device may still use the old page: add an invalidate_range_start that stops it if that window matters" % fn)

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

// -D compat: an invalidate_page-only callback that may sleep gets the
// sleepable range callbacks, not the non-sleeping hook.
@only_may_sleep depends on patch && compat exists@
identifier only.fn;
identifier sl : script:python() { is_sleeper_name(sl) };
@@
fn(...) { <+... sl ...+> }

@only_sleeps depends on patch && atomic exists@
identifier only.fn;
identifier sl : script:python() { is_sleeper_name(sl) };
position q;
@@
fn(...) { <+... sl@q ...+> }

@script:python depends on only_sleeps@
q << only_sleeps.q;
fn << only.fn;
sl << only_sleeps.sl;
@@
why = sl + ((' -> ' + ' -> '.join(sleep_chain(sl))) if sleep_chain(sl) else '')
note(q, "review: %s may sleep (%s -> %s): invalidate_range (-D atomic) must not sleep" % (fn, fn, why))

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
if split_by_cpp(pf):
    note(p, "review: %s is split by #if/#else: field dropped, remove the function by hand" % fn)
    cocci.include_match(False)
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
if not h.isupper():
    note(p, "review: %s is no longer called from this file: remove it where it is defined if nothing else uses it" % h)

// ---------------------------------------------------------------------
// (b) invalidate_page only: generate range callbacks that call the old
// callback for each page of [start, end), or once when it ignores the
// address.  Default: invalidate_range_start/end (may sleep, so the page
// loop has a cond_resched(): a range can be large); both run it,
// start while the pages are still allocated, end to drop what the
// secondary MMU may have re-established in between.  -D atomic: the
// non-sleeping invalidate_range, called under the page-table lock right
// after the CPU page table changed, as invalidate_page was since 4.11.
// ---------------------------------------------------------------------

@script:python only_names depends on patch@
fn << only.fn;
ns;
ne;
nr;
@@
coccinelle.ns = cocci.make_ident(new_name(fn, 'range_start'))
coccinelle.ne = cocci.make_ident(new_name(fn, 'range_end'))
coccinelle.nr = cocci.make_ident(new_name(fn, 'range'))

// (A separate rule: inheriting a position into only_names would keep
// drop_generated_proto below from matching.)
@script:python depends on patch && (atomic || compat && !only_may_sleep)@
p << only.p;
fn << only.fn;
@@
made.setdefault((p[0].file, new_name(fn, 'range')), int(p[0].line))

@only_start_loop depends on patch && (!atomic && !compat || compat && only_may_sleep) && (!only_parsed || only_uses_addr)@
identifier only.ops, only.fn, only_names.ns;
@@
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13: review. */
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
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
-	.invalidate_page = fn,
+	.invalidate_range_start = ns,
 };

@only_start_once depends on patch && (!atomic && !compat || compat && only_may_sleep) && only_parsed && !only_uses_addr@
identifier only.ops, only.fn, only_names.ns;
@@
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13: review. */
+static void ns(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	fn(mn, mm, start);
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_page = fn,
+	.invalidate_range_start = ns,
 };

@only_end_loop depends on patch && (!atomic && !compat || compat && only_may_sleep) && (!only_parsed || only_uses_addr)@
identifier only.ops, only.fn, only_names.ns, only_names.ne;
@@
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13: review. */
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
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
	.invalidate_range_start = ns,
+	.invalidate_range_end = ne,
 };

@only_end_once depends on patch && (!atomic && !compat || compat && only_may_sleep) && only_parsed && !only_uses_addr@
identifier only.ops, only.fn, only_names.ns, only_names.ne;
@@
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13: review. */
+static void ne(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	fn(mn, mm, start);
+}
+
 struct mmu_notifier_ops ops = {
	.invalidate_range_start = ns,
+	.invalidate_range_end = ne,
 };

@only_atomic_loop depends on patch && (atomic || compat && !only_may_sleep) && (!only_parsed || only_uses_addr)@
identifier only.ops, only.fn, only_names.nr;
@@
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13: review. */
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
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
-	.invalidate_page = fn,
+	.invalidate_range = nr,
 };

@only_atomic_once depends on patch && (atomic || compat && !only_may_sleep) && only_parsed && !only_uses_addr@
identifier only.ops, only.fn, only_names.nr;
@@
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
+/* Replaces invalidate_page, removed in Linux 4.13: review. */
+static void nr(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end)
+{
+	fn(mn, mm, start);
+}
+
 struct mmu_notifier_ops ops = {
-	.invalidate_page = fn,
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
+/* Replaces invalidate_page, removed in Linux 4.13: review. */
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
note(p, "converted: %s -> %s (invalidate_range, atomic: must not sleep), kept next to the range callbacks: compat calls it from invalidate_page before 4.13: review that %s never sleeps" % (fn, nr, fn))

// The prototypes above only work around a spatch 1.1 layout bug (the
// brace of a lone generated definition lands on the header line).
@drop_generated_proto depends on patch@
identifier f = {only_names.ns, only_names.ne, only_names.nr};
type T;
@@
- T f(...);

@drop_keep_proto depends on patch@
identifier keep_new.ng;
type T;
@@
- T ng(...);

@keep_fwd depends on patch@
identifier keep.ops, keep_new.nf;
@@
+static void nf(struct mmu_notifier *mn, struct mm_struct *mm, unsigned long start, unsigned long end);
+
 struct mmu_notifier_ops ops = {
	.invalidate_range = nf,
 };

@script:python depends on patch && !atomic && !compat@
p << only.p;
fn << only.fn;
ns << only_names.ns;
ne << only_names.ne;
@@
note(p, "converted: %s -> %s/%s (invalidate_range_start/end, may sleep; both run the old callback per page): review if %s relied on running atomically under the page-table lock (then use -D atomic)" % (fn, ns, ne, fn))

@script:python depends on patch && compat && only_may_sleep@
p << only.p;
fn << only.fn;
ns << only_names.ns;
ne << only_names.ne;
@@
note(p, "converted: %s -> %s/%s (invalidate_range_start/end, may sleep; both run the old callback per page), not the non-sleeping hook: %s may sleep (%s)" % (fn, ns, ne, fn, how_it_sleeps(fn) if sleep_chain(fn) else fn + ' -> ' + 'a sleeping call'))
note(p, "review: %s may sleep: before 4.13 the kernel calls invalidate_page under the page-table lock, where no form of this notifier is safe: compat refuses to build its table for those kernels (MNCOMPAT_RANGE_START_MAY_SLEEP without a secondary-TLB hook)" % fn)

@script:python depends on patch && (atomic || compat && !only_may_sleep)@
p << only.p;
fn << only.fn;
nr << only_names.nr;
@@
note(p, "converted: %s -> %s (invalidate_range, atomic: must not sleep): review that %s never sleeps" % (fn, nr, fn))

@script:python depends on patch && !only_parsed@
p << only.p;
fn << only.fn;
@@
note(p, "review: %s is not defined in this file or could not be parsed (#if?): generated callbacks call it once per page" % fn)
