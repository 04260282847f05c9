# SPDX-License-Identifier: GPL-2.0
"""The planner of mn-4.13-invalidate-page.cocci (Linux 4.13 removed
mmu_notifier_ops.invalidate_page).

The script imports this module in its @initialize:python@ and its rules
call into it: include/drop-callback.cocci through dying (an
InvalidatePage: the tables with .invalidate_page, which of them lose the
field and the notes of what goes), the constraints of the rules that
generate callbacks through the plan's questions (replaces(), loops(),
...), the script rules through the note_*() functions.  What becomes of
each table is decided here:

  - kind(p): gone (the table has range callbacks: the field goes), keep
    (-D compat: the callback stays as the secondary-TLB hook), only (no
    range callbacks: generated ones replace the field) or cppbad (#if
    makes that impossible: reported);
  - coverage(p): whether the range callbacks redo the callback's work
    after the page-table change (the module view, mnmodule.py); where
    not, plan_move() has a new range_end run it;
  - plan_file(): the callbacks to generate, per file, in plan.

The state the rules build (dying, plan, ...) lives here, as module
attributes; with_compat and hook_only (-D compat, -D atomic) are read
from spatch's command line on import.  Tested by tests/test_plan413.py.
"""
import os

import mnmodule

from mncocci import NONE, Dying, Step, cpp_branches, cpp_ctx, key, module, \
    sleep_of

step = Step('4.13')
note = step.note
# (Not named atomic and compat: spatch binds the names of the virtual
# rules in Python.)
hook_only = 'atomic' in step.defined
with_compat = 'compat' in step.defined


def new_name(fn, what):
    if 'invalidate_page' in fn:
        return fn.replace('invalidate_page', 'invalidate_' + what)
    return fn + '_' + what


def read_unguarded():
    """(ops, fn) -> 'dropped' or '-' for the invalidate_page fields whose
    version guards unguard.py took out (convert.sh; tests/run.sh for a
    case that says so): 'dropped' where a branch had no .invalidate_page
    (the vendor's own port to the later kernels)."""
    out = {}
    try:
        with open(os.environ.get('MNCOMPAT_UNGUARDED', '')) as f:
            for line in f:
                w = line.split()
                if len(w) == 3:
                    out[(w[0], w[1])] = w[2]
    except OSError:
        pass
    return out


unguarded = read_unguarded()


def vendor_port(p, kept):
    """What the vendor's branch without .invalidate_page (unguard.py
    merged it) did, by the verdict: kept, the post-change invalidation
    is still done without the field."""
    fd = dying.tables.get(key(p))
    if fd is None or unguarded.get((fd['ops'], fd['fn'])) != 'dropped':
        return ''
    if kept:
        return ("; the vendor's own branch without .invalidate_page (its port to the later "
                "kernels) was right")
    return ("; the vendor's own branch without .invalidate_page (its port to the later kernels) "
            "lost this post-change invalidation")


def may_sleep(p, fn):
    """Sleeps, or cannot tell (then it is treated as sleeping)."""
    return sleep_of(p, fn)[0] != 'atomic'


def how_it_sleeps(p, fn):
    v, words = sleep_of(p, fn)
    if v == 'unknown':
        return 'cannot tell: it calls ' + words
    return words or '%s never sleeps' % fn


def never_sleeps_text(p, fn):
    return '%s never sleeps: every call it makes was followed through the module' % fn

# ---------------------------------------------------------------------
# The tables with invalidate_page (their facts: dying.tables, keyed by
# the position of the field, and dying.defs; include/drop-callback.cocci
# gathers them) and what becomes of them.
# ---------------------------------------------------------------------


def cpp_problem(p):
    """Why callbacks generated next to the table of field p would not
    exist in exactly the configurations where its invalidate_page
    callback does, or None."""
    fd = dying.tables.get(key(p))
    if fd is None:
        return None
    f = p[0].file
    tctx = cpp_ctx(f, fd['table'])
    fctx = cpp_ctx(f, int(p[0].line))
    if tctx is None or fctx != tctx:
        return (".invalidate_page (line %s) is under an #if the table (line %d) is not"
                % (p[0].line, fd['table']))
    defs = dying.defs.get(fd['fn'], [])
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
    return ("%s is defined under #if (line %d) where the table (line %d) is not"
            % (fd['fn'], min(defs), fd['table']))


def forwards_to(p):
    """The table's range callbacks that its invalidate_page callback
    calls."""
    fd = dying.tables.get(key(p))
    if fd is None:
        return []
    called = set()
    for d in module(p).defs(fd['fn'], p[0].file):
        called |= set(d['calls'])
    return sorted(e for e in fd['cbs'] if e in called)


def keep_problem(p):
    """Why the invalidate_page callback of field p (-D compat, a table
    with range callbacks but no invalidate_range) cannot be kept as the
    non-sleeping secondary-TLB hook, or None."""
    fd = dying.tables.get(key(p))
    if fd is None:
        return "its table was not analysed"
    if fd['tlb']:
        return "the table already has invalidate_range"
    fw = forwards_to(p)
    if fw:
        return ("it calls the table's own %s, whose prototype the later steps change and which "
                "runs where it may sleep" % ' and '.join(fw))
    v = sleep_of(p, fd['fn'])[0]
    if v == 'sleeps':
        return ("it may sleep (%s) and the hook runs under the page-table lock"
                % how_it_sleeps(p, fd['fn']))
    if v == 'unknown':
        return ("the hook runs under the page-table lock and the tool %s"
                % how_it_sleeps(p, fd['fn']))
    return cpp_problem(p) or hook_unneeded(p)


def hook_unneeded(p):
    """Why no kernel needs the invalidate_page callback of field p as
    the hook, or None: the range callbacks cover its work and never sleep
    (before 4.13 compat calls them from invalidate_page with a
    non-blockable range; from 4.13 they bracket every change), so a hook
    would only do the work a second time on 3.19-6.5."""
    fd = dying.tables.get(key(p))
    c = coverage(p)
    if fd is None or c is None or c['verdict'] != 'covered':
        return None
    cbs = [f for f in (fd['startfn'], fd['end']) if f is not None]
    if any(may_sleep(p, f) for f in cbs):
        return None
    return ("no kernel needs it: the range callbacks already do its work (%s) and never sleep "
            "(%s), so before 4.13 compat runs them from invalidate_page, and a hook would do each "
            "change's work a second time on 3.19-6.5"
            % (c['why'], '; '.join(never_sleeps_text(p, f) for f in cbs)))


def keepable(p):
    return key(p) in dying.tables and keep_problem(p) is None


def kind(p):
    """What becomes of the table of the invalidate_page field at p: gone
    (it has range callbacks: the field goes), keep (-D compat: the
    callback stays as its secondary-TLB hook), only (it has no range
    callbacks: generated ones replace the field) or cppbad (they would
    not exist in the same configurations: reported, not converted)."""
    fd = dying.tables.get(key(p))
    if fd is None:
        return None
    if fd['cbs']:
        return 'keep' if with_compat and keepable(p) else 'gone'
    return 'cppbad' if cpp_problem(p) is not None else 'only'


def is_only(p):
    return kind(p) == 'only'


def cpp_bad(p):
    return kind(p) == 'cppbad'


def coverage(p):
    """What the module analysis says of the table of field p: None when
    the table has a secondary-TLB hook (it runs after the change) or was
    not found, else a dict with verdict covered, move or undecided."""
    fd = dying.tables.get(key(p))
    if fd is None or fd['tlb']:
        return None
    t = module(p).table(fd['ops'], p[0].file)
    if t is None or 'coverage' not in t:
        return None
    return t['coverage']


def lost_text(p, c):
    """The verdict is that range_end must run the old callback (or the
    tool cannot tell), but #if makes that impossible: what is lost."""
    return ("review: invalidate_page, not covered by the range callbacks (%s%s), and a range_end "
            "that runs it after the page-table change cannot be generated: %s. The post-change "
            "invalidation is lost: convert by hand"
            % ('cannot tell: ' if c['verdict'] == 'undecided' else '', c['why'], cpp_problem(p)))


def needs_move(p):
    c = coverage(p)
    return c is not None and c['verdict'] in ('move', 'undecided') and \
        cpp_problem(p) is None


class InvalidatePage(Dying):
    """A table with range callbacks loses invalidate_page (with -D compat
    not where the callback can stay as its secondary-TLB hook); the
    callback stays where range_end takes over its work."""

    def drops(self, p):
        return kind(p) == 'gone'

    def needed(self, p):
        return needs_move(p)

    def why_removed(self, p):
        fd = dying.tables.get(key(p))
        if fd is not None and fd['tlb']:
            return ('invalidate_page, covered by the invalidate_range hook, which runs after the '
                    'page-table change%s' % vendor_port(p, True))
        c = coverage(p)
        if c is None or c['verdict'] == 'covered':
            return 'invalidate_page, covered by the range callbacks%s%s' % (
                (': ' + c['why']) if c else '', vendor_port(p, True))
        return lost_text(p, c)

    def used_here(self, p, fn):
        if not needs_move(p):
            c = coverage(p)
            if c is not None and c['verdict'] != 'covered':
                note(p, "%s is used elsewhere in this file: field dropped, function kept (%s)"
                     % (fn, lost_text(p, c)))
                return
            note(p, "%s is used elsewhere in this file: field dropped, function kept%s"
                 % (fn, (' (covered by the range callbacks: ' + c['why'] + ')') if c else ''))

    def new_file(self):
        Dying.new_file(self)
        for v in plan.values():
            v.clear()
        # Names generated in another file do not clash (they are static
        # there): a file's names never depend on which files the same
        # spatch worker did before it (--jobs).
        generated.clear()


dying = InvalidatePage(step, 'invalidate_page',
                       assign='convert by hand, or use a static struct mmu_notifier_ops',
                       other_files=True)

# ---------------------------------------------------------------------
# What is generated, per file: the fields that change (repl: (table,
# field) -> (new field, new callback); end: table -> the range_end added
# after its range_start), the callbacks to generate (fns: name -> what
# it does; before: table -> the names generated before it, in order) and
# forward declarations ((table, name)).  The rules after "The edits"
# below do it.
# ---------------------------------------------------------------------

plan = {'repl': {}, 'end': {}, 'fns': {}, 'before': {}, 'fwd': set(),
        'drop_empty': set()}
made = {}
declared = set()
generated = set()


def gen_callback(name, ops, fn, once, resched, pre=None, says='replaces',
                 ranged=False):
    """Generate name before table ops (after those planned before): it
    runs fn for every page of [start, end) (once: for start only; ranged:
    once for [start, end), fn itself rewritten to take the range), with
    cond_resched() per page, after pre(mn, mm, start, end); says: its
    comment."""
    if name not in plan['fns']:
        plan['fns'][name] = {'fn': fn, 'once': once, 'resched': resched,
                             'pre': pre, 'says': says, 'ranged': ranged}
        plan['before'].setdefault(ops, []).append(name)


def replaces(ops, f):
    return (ops, f) in plan['repl']


def replaced_by(ops, f, i):
    """The new field (i = 0) or callback (i = 1) of field f of ops."""
    return plan['repl'][(ops, f)][i]


def gets_end(ops):
    return ops in plan['end']


def end_of(ops):
    """The range_end added after the range_start of table ops."""
    return plan['end'][ops]


def last_before(ops, name):
    """Is name the last callback generated before table ops?"""
    return plan['before'].get(ops, [None])[-1] == name


def follows(name):
    """The callback generated right before name, or None."""
    for names in plan['before'].values():
        if name in names[1:]:
            return names[names.index(name) - 1]
    return None


def forward_here(ops, name):
    return (ops, name) in plan['fwd']


def planned(name):
    return name in plan['fns']


def loops(name):
    return planned(name) and not plan['fns'][name]['once'] and \
        not plan['fns'][name]['ranged']


def ranged_call(name):
    return planned(name) and plan['fns'][name]['ranged']


def ranged_fn(fn):
    """Is fn rewritten to take [start, end) instead of one address?"""
    return any(v['fn'] == fn and v['ranged'] for v in plan['fns'].values())


def once(name):
    return planned(name) and plan['fns'][name]['once']


def says_replaces(name):
    return planned(name) and plan['fns'][name]['says'] == 'replaces'


def says_moved(name):
    return planned(name) and plan['fns'][name]['says'] == 'moved'


def callee(name):
    return plan['fns'][name]['fn']


def pre_call(name):
    return plan['fns'][name]['pre'] or NONE


def resched_call(name):
    return 'cond_resched' if plan['fns'][name]['resched'] else NONE


def is_none(name):
    return name == NONE


def move_note(p, fn, w):
    c = coverage(p)
    ranged = plan['fns'][w]['ranged']
    every = ("%s over [start, end) (%s)" % (fn, range_text(p, fn))) if ranged \
        else ("%s for every page of [start, end)" % fn)
    fd = dying.tables[key(p)]
    left = '; '.join(c.get('items', [])[:4])
    hook = ''
    if with_compat and keepable(p):
        hook = ('; with compat it is also the secondary-TLB hook, which 6.6+ leaves out of a '
                'table with range callbacks: there this range_end is what runs it')
    port = vendor_port(p, False)
    if c['verdict'] == 'move':
        note(p, "converted: %s -> %s (invalidate_range_end: runs %s after the page-table change; "
                "the range callbacks alone would not: %s%s%s%s)"
                % (fn, w, every, c['why'],
                   ('; not redone after the change: ' + left) if left else '', hook, port))
    else:
        note(p, "converted: %s -> %s (invalidate_range_end: runs %s after the page-table change, "
                "to be safe%s%s)" % (fn, w, every, hook, port))
        note(p, "review: %s: cannot tell whether %s's range callbacks drop what it dropped after "
                "the page-table change: %s. Its work now runs again from %s; if the range "
                "callbacks do cover it (range_start keeps the device from faulting the pages back "
                "in until range_end), that loop can go" % (fn, fd['ops'], c['why'], w))
    if not ranged:
        loop_review(p, fn)


def plan_move(p):
    """(a') A table whose range callbacks do not redo, after the
    page-table change, what invalidate_page did (or the analysis cannot
    tell): a new range_end runs the old one, if any, then fn for every
    page of the range (with cond_resched() when fn may sleep anyway)."""
    fd = dying.tables[key(p)]
    ops, fn = fd['ops'], fd['fn']
    if not needs_move(p) or (fd['end'] is None and fd['startfn'] is None):
        return
    w = wrapper_name(p, fn)
    generated.add(w)
    ranged = range_uses(p, fn) is not None
    pre = fd['end']
    if pre is not None and empty_everywhere(p, pre):
        # one empty definition per #if branch (the vendor's header for
        # each kernel, unsplit.py made them whole): nothing to call, and
        # no one prototype to call it with
        plan['drop_empty'].add(pre)
        note(p, "removed: %s (an empty range_end, defined once per #if branch: %s runs "
                "instead of it)" % (pre, w))
        pre = None
    gen_callback(w, ops, fn, False, may_sleep(p, fn), pre, 'moved',
                 ranged)
    if fd['end'] is not None:
        plan['repl'][(ops, 'invalidate_range_end')] = ('invalidate_range_end', w)
    else:
        plan['end'][ops] = w
    move_note(p, fn, w)


def only_note(p, fn, kind, n1, n2, once, ranged):
    """The notes of an invalidate_page-only table converted to the
    sleepable range callbacks (kind sleep: n1/n2) or to the non-sleeping
    hook (kind hook: n1)."""
    v, words = sleep_of(p, fn)
    how = "%s ignores its address, so each runs it once" % fn if once else \
        ("both run it once: start before the page-table change, end after it; "
         + range_text(p, fn)) if ranged else \
        "both run it for every page of the range: start before the page-table change, end after it"
    if kind == 'sleep':
        if not with_compat:
            note(p, "converted: %s -> %s/%s (invalidate_range_start/end, may sleep; %s)"
                 % (fn, n1, n2, how))
            return
        note(p, "converted: %s -> %s/%s (invalidate_range_start/end, may sleep; %s), not the "
                "non-sleeping hook: %s %s (%s)"
                % (fn, n1, n2, how, fn, 'may sleep' if v == 'sleeps' else 'is treated as sleeping',
                   how_it_sleeps(p, fn)))
        if v == 'sleeps':
            note(p, "review: %s may sleep: before 4.13 the kernel calls invalidate_page under the "
                    "page-table lock, where no form of this notifier is safe: compat refuses to "
                    "build its table for those kernels (MNCOMPAT_RANGE_START_MAY_SLEEP without a "
                    "secondary-TLB hook)" % fn)
        else:
            note(p, "review: %s: %s; converted as if it may sleep, so compat refuses to build its "
                    "table before 4.13. If those calls never sleep, it can be the secondary-TLB "
                    "hook (convert with --atomic)" % (fn, how_it_sleeps(p, fn)))
        return
    extra = '; it ignores its address, so it runs once' if once else \
        ('; ' + range_text(p, fn)) if ranged else ''
    if v == 'atomic':
        note(p, "converted: %s -> %s (invalidate_range, atomic: %s%s)"
             % (fn, n1, never_sleeps_text(p, fn), extra))
        return
    note(p, "converted: %s -> %s (invalidate_range, atomic%s)" % (fn, n1, extra))
    if v == 'sleeps':
        note(p, "review: %s may sleep (%s): invalidate_range (-D atomic) must not sleep"
             % (fn, how_it_sleeps(p, fn)))
    else:
        note(p, "review: cannot tell whether %s sleeps: it calls %s: invalidate_range (-D atomic) "
                "must not sleep, check that they never do" % (fn, words))


def empty_everywhere(p, fn):
    """Is fn defined more than once in the file (under #if branches) and
    empty in every definition?"""
    defs = [d for d in module(p).defs(fn, p[0].file)]
    return len(defs) > 1 and all(d.get('empty') for d in defs)


def drops_empty(fn):
    return fn in plan['drop_empty']


def plan_only(p):
    """(b) A table with only invalidate_page: range callbacks that run fn
    for each page of [start, end), or once when it ignores the address.
    Default: invalidate_range_start/end (may sleep, so the page loop has
    a cond_resched(): a range can be large); both run it, start while the
    pages are still there, end to drop what the secondary MMU may have
    re-established in between.  -D atomic: the non-sleeping
    invalidate_range, called under the page-table lock right after the
    CPU page table changed, as invalidate_page was since 4.11.  -D compat:
    invalidate_range when fn never sleeps (the module analysis followed
    every call), else the range callbacks."""
    ops, fn = dying.tables[key(p)]['ops'], dying.tables[key(p)]['fn']
    loop = uses_address(p, fn)
    ranged = loop and range_uses(p, fn) is not None
    if hook_only or (with_compat and not may_sleep(p, fn)):
        nr = new_name(fn, 'range')
        made.setdefault((p[0].file, nr), int(p[0].line))
        generated.add(nr)
        plan['repl'][(ops, 'invalidate_page')] = ('invalidate_range', nr)
        gen_callback(nr, ops, fn, not loop, False, ranged=ranged)
        only_note(p, fn, 'hook', nr, None, not loop, ranged)
    else:
        ns, ne = new_name(fn, 'range_start'), new_name(fn, 'range_end')
        generated.update([ns, ne])
        plan['repl'][(ops, 'invalidate_page')] = ('invalidate_range_start', ns)
        plan['end'][ops] = ne
        gen_callback(ns, ops, fn, not loop, True, ranged=ranged)
        gen_callback(ne, ops, fn, not loop, True, ranged=ranged)
        only_note(p, fn, 'sleep', ns, ne, not loop, ranged)
    if loop and not ranged:
        loop_review(p, fn)


def plan_keep(p):
    """(c) -D compat, invalidate_page next to range callbacks: the old
    callback becomes the invalidate_range hook (through a per-page
    wrapper, shared with an invalidate_page-only table that uses the same
    callback), so compat's trampoline has something non-sleeping to call
    from invalidate_page on kernels before 4.13.  The wrapper goes before
    the first table that uses it, a forward declaration before an earlier
    one."""
    ops, fn = dying.tables[key(p)]['ops'], dying.tables[key(p)]['fn']
    nr = new_name(fn, 'range')
    k = (p[0].file, nr)
    generated.add(nr)
    plan['repl'][(ops, 'invalidate_page')] = ('invalidate_range', nr)
    ranged = range_uses(p, fn) is not None
    if k not in made:
        made[k] = int(p[0].line)
        gen_callback(nr, ops, fn, False, False, ranged=ranged)
        if not ranged:
            loop_review(p, fn)
    elif made[k] > int(p[0].line) and k not in declared:
        declared.add(k)
        plan['fwd'].add((ops, nr))
    note(p, "converted: %s -> %s (invalidate_range, atomic: %s%s), kept next to the range "
            "callbacks: compat calls it from invalidate_page before 4.13"
            % (fn, nr, never_sleeps_text(p, fn), ('; ' + range_text(p, fn)) if ranged else ''))
    c = coverage(p)
    if c is not None and c['verdict'] == 'covered':
        note(p, "review: %s: the range callbacks already do its work (%s), but one may sleep, so "
                "before 4.13 compat needs the hook; on 4.13-6.5 the hook runs next to them: each "
                "change's work twice there. Harmless where it only drops pages, not where it "
                "counts events for user space; then make the range callbacks sleep-free and "
                "convert again" % (fn, c['why']))


def plan_file():
    """The plan of the file: (a') every table whose range_end takes over
    the old callback's work, (b) the invalidate_page-only ones, (c) the
    kept ones, each in the order of the file."""
    ps = [fd['p'] for _, fd in sorted(dying.tables.items(),
                                      key=lambda kv: (int(kv[0][1]), int(kv[0][2])))]
    for p in [p for p in ps if kind(p) == 'gone'] + \
            [p for p in ps if kind(p) == 'keep']:
        plan_move(p)
    for p in ps:
        if kind(p) == 'only':
            plan_only(p)
    for p in ps:
        if kind(p) == 'keep':
            plan_keep(p)


def wrapper_name(p, fn):
    """A name for the range_end that runs fn for every page: no function
    of the module has it, nor a callback generated here, nor one an
    invalidate_page-only table of the same callback will get."""
    only_too = any(t['fields'].get('invalidate_page') == fn and
                   not set(t['fields']) & {'invalidate_range_start',
                                           'invalidate_range_end',
                                           'invalidate_range'}
                   for t in module(p).tables())
    names = [fn + '_range_end'] if only_too else [new_name(fn, 'range_end'), fn + '_range_end']
    taken = module(p).names() | generated
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
    defs = module(p).defs(fn, p[0].file)
    if not defs:
        return True
    for d in defs:
        if len(d['params']) < 3 or d['params'][2] not in d['unused_params']:
            return True
    return False


def range_uses(p, fn):
    """The calls through which the invalidate_page callback fn uses its
    address, when it uses it only as a range ((address, address +
    PAGE_SIZE) or (address, PAGE_SIZE)) and only .invalidate_page fields
    name it: then fn itself is rewritten to take [start, end) and runs
    once per range.  Else None."""
    defs = module(p).defs(fn, p[0].file)
    if len(defs) != 1 or not defs[0].get('range_form'):
        return None
    if not module(p).page_field_only(fn):
        return None
    if range_reach(p, fn)[0] == 'first':
        return None
    return defs[0]['range_form']


def range_reach(p, fn):
    """What the calls that get the page callback fn's address as a range
    do with a whole range (mnmodule.Module.range_reach()): the worst
    verdict and its reason."""
    d = module(p).defs(fn, p[0].file)[0]
    return mnmodule.worst_reach(
        [('all', '')] +
        [('unknown', 'it calls ->%s(), which the tool cannot follow' % callee) if indirect
         else module(p).range_reach(callee, d['file'], k, kind, names)
         for _, callee, kind, k, indirect, names in d['range_form']])


range_reviewed = set()


def range_text(p, fn):
    a = module(p).defs(fn, p[0].file)[0]['params'][2]
    calls = ', '.join('%s() gets (%s, %s)'
                      % (c, a, ('%s + PAGE_SIZE' % a) if k == 'end' else 'PAGE_SIZE')
                      for _, c, k, _, _, _ in range_uses(p, fn))
    verdict, why = range_reach(p, fn)
    if verdict == 'unknown' and (p[0].file, fn) not in range_reviewed:
        range_reviewed.add((p[0].file, fn))
        note(p, "review: %s now hands its callees the whole range [start, end) instead of one "
                "page, and the tool cannot tell whether they act on all of it (%s): if one acts "
                "on start only, every page after the first stays mapped in the device" % (fn, why))
    return ("%s uses its address only as a range (%s), so it now takes [start, end) and runs once "
            "per range" % (fn, calls))


loop_reviewed = set()


def loop_review(p, fn):
    """One review item per page callback run in a per-page loop."""
    if (p[0].file, fn) in loop_reviewed:
        return
    loop_reviewed.add((p[0].file, fn))
    first = ''
    d = module(p).defs(fn, p[0].file)
    reach = range_reach(p, fn) if len(d) == 1 and d[0].get('range_form') else None
    if reach and reach[0] == 'first':
        first = ' (not given the range: %s)' % reach[1]
    note(p, "review: %s takes one page%s, and the generated code runs it for every page of [start, "
            "end); kernels hand these callbacks whole address spaces ([0, ULONG_MAX): the "
            "soft-dirty reset of /proc/PID/clear_refs; from 6.6 also x86's secondary-TLB hook, "
            "for every flush of more than 33 pages), where that loop does not end: give %s a "
            "range (one that uses its address only as (address, address + PAGE_SIZE) or (address, "
            "PAGE_SIZE), named only by .invalidate_page fields, is converted to take one)"
            % (fn, first, fn))


# ---------------------------------------------------------------------
# The notes of the script rules after the included ones.
# ---------------------------------------------------------------------

def note_not_kept(p, fn):
    """-D compat, the field at p (callback fn) goes: why fn is not kept
    as the secondary-TLB hook of its table, unless the table has one."""
    if dying.tables.get(key(p), {}).get('tlb'):
        return
    # A review item only when the tool could not tell: the rest is
    # decided, and the compat step says what it means for the table.
    unsure = sleep_of(p, fn)[0] == 'unknown' and not forwards_to(p)
    why = keep_problem(p)
    if why == hook_unneeded(p):
        note(p, "compat: %s is not kept as the secondary-TLB hook of its table: %s; it is "
             "removed as in plain conversion" % (fn, why))
    else:
        note(p, "%scompat: %s is not kept as the secondary-TLB hook of its table: %s. %s before "
             "4.13, where the kernel calls invalidate_page under the page-table lock, compat "
             "calls the table's range callbacks from it with a non-blockable range, or refuses "
             "to build the table if they may sleep"
             % ('review: ' if unsure else '', fn, why,
                'Its work moves to range_end (see the conversion);' if needs_move(p)
                else 'It is removed as in plain conversion:'))


def note_cppbad(p, fn):
    note(p, "review: %s: %s: callbacks generated next to the table would not exist in exactly "
         "the configurations where %s does: not converted, convert by hand"
         % (fn, cpp_problem(p), fn))


def note_end_only(p, fn):
    """The field at p goes from a table with range_end but no
    range_start: until range_end the device may use the pages."""
    fd = dying.tables.get(key(p))
    c = coverage(p)
    if fd is not None and not fd['start'] and (c is None or c['verdict'] == 'covered'):
        note(p, "%s: its table has invalidate_range_end but no invalidate_range_start: range_end "
             "drops the pages after the page-table change, as invalidate_page did (%s); until "
             "then the device may use them, as it could before invalidate_page was called"
             % (fn, c['why'] if c else 'range_end does the invalidation'))


def note_only_unparsed(p, fn):
    note(p, "review: %s is not defined in this file or could not be parsed (#if?): generated "
         "callbacks call it once per page" % fn)


def report_only(p, fn):
    """Report and org mode: a table with only invalidate_page."""
    if step.mode != 'patch':
        note(p, "%s: only invalidate_page: convert to invalidate_range_start/end (may sleep) or "
             "invalidate_range (atomic)" % fn)


def report_gone(p, fn):
    """Report and org mode: a table with range callbacks and
    invalidate_page."""
    if step.mode != 'patch':
        c = coverage(p)
        if c is not None and c['verdict'] != 'covered':
            note(p, "%s: invalidate_page: the range callbacks do not redo its work after the "
                 "page-table change (%s): run it from invalidate_range_end" % (fn, c['why']))
        else:
            note(p, "%s: invalidate_page is covered by the range callbacks: remove it" % fn)
