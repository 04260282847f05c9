#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Whole-module facts for the semantic patches (convert.sh).

A notifier callback is judged by what it reaches, and a driver module is
more than the file that holds its ops table: a helper in another file
may take a mutex, the fault path that waits for range_start's counter
may be in a third.  This reads every .c/.h of the module and answers,
per callback:

  - may it sleep?  Calls are followed through every function and
    function-like macro of the module; a known sleeping kernel call
    (mutex_lock, down_read, a GFP_KERNEL allocation, ...) decides "yes"
    with the place that sleeps; a call that is neither the module's nor a
    known non-sleeping kernel helper (a function of another module, a
    call through a function pointer) makes it "unknown", naming the call.
  - for a table that had invalidate_page next to range callbacks: do the
    range callbacks still drop, after the page-table change, what
    invalidate_page dropped?  Yes when range_end does the same work, or
    when range_start does it and blocks re-faults until range_end (a
    field both raise and lower that a function outside the callbacks
    reads, or a lock range_start leaves held for range_end that such a
    function takes).  "move" when neither, "undecided" when what the
    callbacks reach cannot be seen.
  - LINUX_VERSION_CODE guards around notifier code that disagree with
    the version compat's probes name (compat/probes/*.c "Upstream:").

What it cannot see: calls through function pointers it does not follow
(callbacks passed as an argument are followed), functions of other
modules or of the kernel beyond the lists of mnkernel.py, code in #if branches
that do not balance their braces (only the first branch is read then).

Usage:
  mnmodule.py facts --base DIR [--work DIR] --out FILE.json [--list FILE] REL...
      the facts convert.sh gives the semantic patches: RELs are the
      files to convert (relative to --base; read from --work when there,
      which holds their current contents); every other file of their
      modules is read from --base.  --list: a file with more RELs, one
      a line.
  mnmodule.py guards [--base DIR] FILE...
      the LINUX_VERSION_CODE guards around notifier code whose version
      is none of those compat's probes name, as FILE:LINE: [guard] notes.
  mnmodule.py explain FILE...
      print what the analysis sees (functions, sleep verdicts, tables).

From a .cocci script: facts_for(path) gives the facts of the module of
a file spatch is working on, computed when first asked for (convert.sh
says where the module is: MNCOMPAT_MODULE_BASE, MNCOMPAT_MODULE_WORK and
the step map MNCOMPAT_STEP_MAP; without them, the file on its own).

The parts, one module each: mnkernel.py (what kernel calls do), mnlex.py
(the tokenizer, #if branches, token helpers), mnsource.py (one file's
functions, macros and tables), mnguards.py (the version guards); this
one holds the module (the call graph, the sleep and coverage analysis),
which files make it, the facts the scripts look up and the command
line.
"""
import functools
import json
import os
import re
import sys

from mnguards import guard_notes, probe_versions
from mnkernel import ALLOCATORS, FAULT_IN, FIELD_READERS, FIELD_WRITERS, \
    KEYWORDS, ONE_FILE, PINS, SLEEP_WHY, UNPINS, atomic_call, bookkeeping, twin_names
from mnlex import split_args
from mnsource import Source, read_text


def assigned_from(toks, i):
    """The variable the statement around toks[i] sets with a plain '='
    from an expression that holds toks[i] (x = ..., or a declaration's
    x = ... among several), else None."""
    depth, j = 0, i
    while j > 0:
        t = toks[j - 1].t
        if t in (')', ']'):
            depth += 1
        elif t in ('(', '['):
            depth = max(depth - 1, 0)   # (one around toks[i]: a grouping)
        elif depth == 0 and t in (';', '{', '}', ','):
            break
        j -= 1
    k = next((n for n in range(j, i) if toks[n].t == '='), None)
    if k is None or k == j or toks[k - 1].kind != 'id':
        return None
    return toks[k - 1].t


# range_reach() verdicts, best first.
RANGE_ORDER = ('all', 'unknown', 'first')


def worst_reach(verdicts):
    """The worst of range_reach() (verdict, why) pairs (None for none)."""
    return max(verdicts, key=lambda v: RANGE_ORDER.index(v[0]), default=None)


COMPARISONS = ('<', '<=', '>', '>=', '==', '!=')
# Calls that only report a value: a bound handed to one is not acted on.
LOGGING = re.compile(r'(printk|pr_\w+|dev_(dbg|info|notice|warn|err|crit)\w*|trace_\w+|'
                     r'WARN\w*|BUG_ON|seq_printf|snprintf|sprintf|scnprintf)$')


# ---------------------------------------------------------------------
# The module.
# ---------------------------------------------------------------------

class Module:
    def __init__(self, sources):
        self.sources = sources
        self.by_name = {}
        for s in sources:
            for f in s.funcs:
                self.by_name.setdefault(f.name, []).append(f)
            for name, m in s.macros.items():
                self.by_name.setdefault(name, []).append(m)
        self.tables = [t for s in sources for t in s.tables]
        self.callbacks = set()
        for t in self.tables:
            for v, _ in t.fields.values():
                if v:
                    self.callbacks.add(v)
        self._sleep = {}

    def targets(self, text, path):
        """The module's functions a call through ->member() (text) may
        reach: every name the module gives that member (.member = f in
        an initializer, x->member = f), when each is a function of the
        module; else None (it cannot tell)."""
        if not text.startswith('->') or not text.endswith('()'):
            return None
        member = text[2:-2]
        names = set()
        for s in self.sources:
            names.update(s.members.get(member, []))
        names.discard('NULL')
        if not names or member in ('invalidate_range_start', 'invalidate_range_end',
                                   'invalidate_page', 'invalidate_range', 'release'):
            return None
        out = []
        for n in sorted(names):
            defs = [d for d in self.resolve(n, path) if not d.macro]
            if not defs:
                return None
            out.extend(defs)
        return out

    def resolve(self, name, path):
        """The definitions a call of name in path reaches."""
        defs = self.by_name.get(name)
        if not defs:
            return []
        here = [d for d in defs if d.path == path]
        if here:
            return here
        vis = [d for d in defs if not d.static or d.path.endswith('.h')]
        return vis or defs

    def funcs(self, name, path=None):
        return self.resolve(name, path) if path else \
            self.by_name.get(name, [])

    # --- does a callee act on a whole range? ---------------------------

    def range_reach(self, name, path, pos, kind, given=(), seen=frozenset()):
        """What the function name, called from path with a range as its
        arguments pos and pos + 1 (start and end when kind is 'end', start
        and a length when 'len'), does with the range: ('all', why) when it
        loops up to the bound or hands the range on to a function that acts
        on all of it (a kernel function does); ('first', why) when the
        bound is unused or only tested, so that only the page at start is
        acted on; ('unknown', why) otherwise (the worst of what it hands the
        range on to decides).  given: the call's arguments
        that name something (an identifier each, else None), to follow a
        function handed on and called through its parameter."""
        if (name, path, pos) in seen:
            return 'unknown', '%s() calls itself with it' % name
        seen = seen | {(name, path, pos)}
        defs = self.resolve(name, path)
        if not defs:
            return 'all', "%s() is the kernel's" % name
        return worst_reach(self._range_reach_of(f, pos, kind, given, seen) for f in defs)

    def _range_reach_of(self, f, pos, kind, given, seen):
        if f.macro or len(f.params) <= pos + 1:
            return 'unknown', 'cannot read %s() (%s)' % (f.name, f.where())
        start, bound = f.params[pos], f.params[pos + 1]
        toks = f._body or []
        opens = []          # (what, index of its '(') of the open parentheses
        loops, handed, other = [], [], []
        bounds = {bound}    # and the variables set from it (last = end - 1)
        # a parameter: the function the caller handed in, if it named one
        passed_in = dict((p, given[n]) for n, p in enumerate(f.params)
                         if n < len(given) and given[n])
        for i, tok in enumerate(toks):
            t = tok.t
            if t == '(':
                prv = toks[i - 1] if i else None
                if prv is not None and prv.t in ('if', 'for', 'while', 'switch'):
                    opens.append((prv.t, i))
                elif prv is not None and prv.kind == 'id' and prv.t not in KEYWORDS:
                    member = i >= 2 and toks[i - 2].t in ('.', '->')
                    opens.append(('->' if member else 'call', i))
                else:
                    opens.append(('(', i))
                continue
            if t == ')' and opens:
                opens.pop()
                continue
            if tok.kind != 'id' or t not in bounds or (i and toks[i - 1].t in ('.', '->')):
                continue
            kinds = [w for w, _ in opens]
            where = '%s:%d' % (f.path, tok.line)
            if 'for' in kinds or 'while' in kinds:
                loops.append(('all', '%s() loops up to %s (%s)' % (f.name, bound, where)))
                continue
            calls = [(w, k) for w, k in opens if w in ('call', '->')]
            if calls:
                w, k = calls[-1]
                callee = toks[k - 1].t
                args, _ = split_args(toks, k)
                j = next((n for n, a in enumerate(args) if any(x is tok for x in a)), None)
                prev = [x.t for x in args[j - 1]] if j else None
                arg = [x.t for x in args[j]] if j is not None else []
                if callee in f.params:
                    w, callee = ('call', passed_in[callee]) if callee in passed_in else \
                        ('->', callee)
                names = tuple(passed_in.get(a[0].t, a[0].t)
                              if len(a) == 1 and a[0].kind == 'id' else None for a in args)
                if w == 'call' and LOGGING.match(callee):
                    continue    # a message or a trace point, not the device
                if w == 'call' and prev == [start] and arg == [t]:
                    handed.append(self.range_reach(callee, f.path, j - 1, kind, names, seen))
                elif w == 'call' and prev == [start] and kind == 'end' and \
                        arg == [t, '-', start]:
                    handed.append(self.range_reach(callee, f.path, j - 1, 'len', names, seen))
                elif w == 'call' and not self.resolve(callee, f.path):
                    # the kernel's (writeq() of the bound to the device, ...)
                    handed.append(('all', "%s() hands %s to %s(), the kernel's (%s)" % (
                        f.name, bound, callee, where)))
                else:
                    handed.append(('unknown', '%s() hands %s to %s%s() (%s)' % (
                        f.name, bound, '->' if w == '->' else '', callee, where)))
                continue
            if 'if' in kinds or 'switch' in kinds:
                # start against the bound: a sanity test; the bound against
                # anything else (the device's own ranges): what it drops
                # is what overlaps the range
                near = [x.t for x in toks[max(i - 2, 0):i + 3]]
                if start in near and any(c in near for c in COMPARISONS):
                    continue
                loops.append(('all', '%s() tests what overlaps up to %s (%s)' % (
                    f.name, bound, where)))
                continue
            alias = assigned_from(toks, i)
            if alias:
                bounds.add(alias)
                continue
            other.append(('unknown', '%s() uses %s (%s)' % (f.name, bound, where)))
        # What it hands the range to decides (a walk over the device's
        # objects in the range may call, for each, code that acts on start
        # only); else a loop up to the bound; else any other use.
        if handed:
            return worst_reach(handed)
        for got in loops + other:
            return got
        return 'first', ('%s() acts on %s only: it does not use %s%s' % (
            f.name, start, bound, ' but to test it' if bound in f.used else ''))

    # --- may it sleep? -------------------------------------------------

    def sleep(self, name, path):
        """(verdict, chain, why, unknown) for the function name as seen
        from path: verdict 'sleeps' (chain: names from name to the
        sleeping call, why: where and how), 'unknown' (unknown: the
        calls it cannot follow) or 'atomic'."""
        key = (name, path)
        if key in self._sleep:
            return self._sleep[key]
        defs = self.resolve(name, path)
        if not defs:
            return ('unknown', [name], '', ['%s() (not in this module)' % name])
        best = None
        unknown = []
        # breadth first over the module's functions
        seen = set()
        queue = [(d, [d.name]) for d in defs]
        while queue:
            f, chain = queue.pop(0)
            if id(f) in seen:
                continue
            seen.add(id(f))
            for c, line, _ in f.calls:
                if c in SLEEP_WHY and best is None:
                    best = (chain + [c], '%s() in %s:%d %s (%s)' % (
                        f.name, f.path, line, SLEEP_WHY[c], c))
            if f.gfp_sleep and best is None:
                c, line = f.gfp_sleep
                best = (chain + [c], '%s() in %s:%d allocates with a sleeping gfp (%s)' % (
                    f.name, f.path, line, c))
            if best is not None:
                break
            for c, line, _ in f.calls:
                if c in SLEEP_WHY:
                    continue
                sub = self.resolve(c, f.path)
                if sub:
                    for s in sub:
                        queue.append((s, chain + [c]))
                elif c in ALLOCATORS or c.startswith('alloc_'):
                    if f.gfp_unknown and f.gfp_unknown[0] == c:
                        unknown.append('%s() in %s:%d (gfp flags it cannot read)'
                                       % (c, f.path, line))
                elif not atomic_call(c) and not c.isupper() and \
                        not c.startswith('__builtin') and not ONE_FILE:
                    unknown.append('%s() (%s:%d)' % (c, f.path, line))
            for p, line in f.passed:
                for s in self.resolve(p, f.path):
                    if not s.macro:
                        queue.append((s, chain + [p]))
            for text, line in f.indirect:
                tg = self.targets(text, f.path)
                if tg:
                    for s in tg:
                        queue.append((s, chain + ['%s -> %s' % (text, s.name)]))
                elif not ONE_FILE:
                    unknown.append('%s (%s:%d)' % (text, f.path, line))
        if best is not None:
            r = ('sleeps', best[0], best[1], [])
        elif unknown:
            u = []
            for x in unknown:
                if x not in u:
                    u.append(x)
            r = ('unknown', [name], '', u)
        else:
            r = ('atomic', [name], '', [])
        self._sleep[key] = r
        return r

    # --- what a function reaches ----------------------------------------

    def reach(self, name, path):
        """Every function (with the definitions) reachable from name."""
        out = {}
        stack = [(d, None) for d in self.resolve(name, path)]
        while stack:
            f, _ = stack.pop()
            if id(f) in out:
                continue
            out[id(f)] = f
            for c, _, _ in f.calls:
                for s in self.resolve(c, f.path):
                    stack.append((s, None))
            for p, _ in f.passed:
                for s in self.resolve(p, f.path):
                    stack.append((s, None))
            for text, _ in f.indirect:
                for s in self.targets(text, f.path) or []:
                    stack.append((s, None))
        return list(out.values())

    def work(self, name, path, skip=()):
        """The work items name does, through the module's functions:
        ('call', kernel or unknown function), ('ind', member call),
        ('field', written field), ('store', function with a store)."""
        items = {}
        for f in self.reach(name, path):
            if f.name in skip:
                continue
            for c, line, _ in f.calls:
                if self.resolve(c, f.path) or bookkeeping(c) or \
                        FIELD_WRITERS.match(c) or FIELD_READERS.match(c):
                    continue
                items.setdefault(('call', c), '%s() (%s:%d)' % (c, f.path, line))
            for text, line in f.indirect:
                if self.targets(text, f.path):
                    continue
                items.setdefault(('ind', text), '%s (%s:%d)' % (text, f.path, line))
            for fld, line in f.writes.items():
                items.setdefault(('field', fld), '->%s (%s:%d)' % (fld, f.path, line))
            if f.stores:
                items.setdefault(('store', f.name), 'stores in %s() (%s)' % (f.name, f.where()))
        return items

    def names_reached(self, name, path):
        return set(f.name for f in self.reach(name, path))

    def covers(self, item, work, reached):
        kind, what = item
        if kind in ('call', 'ind'):
            if item in work:
                return True
            if kind == 'call':
                return any(('call', x) in work or x in reached
                           for x in twin_names(what))
            return False
        if kind == 'field':
            return item in work
        if kind == 'store':
            return what in reached
        return False

    def blocks(self, start, end, path, page):
        """How range_start keeps re-faults out until range_end, or None;
        (None, reason) when it cannot tell."""
        sf = self.reach(start, path)
        ef = self.reach(end, path)
        cbs = self.callbacks | {page}
        swrites = {}
        for f in sf:
            for fld, line in f.writes.items():
                swrites.setdefault(fld, (f, line))
        ewrites = {}
        for f in ef:
            for fld, line in f.writes.items():
                ewrites.setdefault(fld, (f, line))
        both = [x for x in swrites if x in ewrites]
        inside = set(id(f) for f in sf) | set(id(f) for f in ef)
        # only the fault path's reads hold re-faults off: statistics,
        # debugfs and ioctl getters that read the counter do not
        fp = self.fault_funcs() or {}
        readers, others = {}, {}
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                if f.name in cbs or id(f) in inside:
                    continue
                for fld in both:
                    if fld not in f.reads:
                        continue
                    if id(f) in fp:
                        readers.setdefault(fld, f)
                    else:
                        others.setdefault(fld, f)
        # a check the fault path makes through a helper it calls in a
        # condition (KVM's mmu_notifier_retry(): if (...) goto out)
        checks = {}
        for g in fp.values():
            for c, cline in g.cond_calls.items():
                for d in self.resolve(c, g.path):
                    if d.name in cbs or id(d) in inside:
                        continue
                    for fld in both:
                        if fld in d.reads and fld not in readers:
                            checks.setdefault(fld, (d, g, cline))
        for fld in both:
            if fld in readers or fld in checks:
                sfn, sline = swrites[fld]
                efn, eline = ewrites[fld]
                if fld in readers:
                    r = readers[fld]
                    who = '%s() in %s:%d checks it' % (r.name, r.path, r.reads[fld])
                else:
                    r, g, cline = checks[fld]
                    who = ('%s() in %s:%d checks it, called by the fault path\'s %s() in the '
                           'condition at %s:%d' % (r.name, r.path, r.reads[fld], g.name,
                                                   g.path, cline))
                return ('%s() raises ->%s (%s:%d), %s() lowers it (%s:%d) '
                        'and %s'
                        % (sfn.name, fld, sfn.path, sline, efn.name, efn.path,
                           eline, who), None)
        # a lock range_start leaves held and range_end releases
        held = {}
        for f in sf:
            for lk, nn in f.locks.items():
                if nn > 0:
                    held[lk] = f
        for f in ef:
            for lk, nn in f.locks.items():
                if nn < 0 and lk in held:
                    for s in self.sources:
                        for g in s.funcs:
                            if g.name in cbs or id(g) in inside or \
                                    id(g) not in fp:
                                continue
                            if g.locks.get(lk, 0) > 0 or lk in g.lock_lines:
                                return ('%s() takes %s and leaves it held until '
                                        '%s() releases it; %s() in %s:%d takes it too'
                                        % (held[lk].name, lk, f.name, g.name, g.path,
                                           g.lock_lines.get(lk, g.line)), None)
        if both:
            fld = both[0]
            if fld in others:
                r = others[fld]
                return (None, '%s raises ->%s and %s lowers it, but the fault path '
                        '(the code that maps pages into the device) never reads it: '
                        'only %s() in %s:%d does, which maps nothing (statistics, a '
                        'getter) and holds no re-fault off (is the fault path in '
                        'another module?)'
                        % (start, fld, end, r.name, r.path, r.reads[fld]))
            return (None, '%s raises ->%s and %s lowers it, but nothing in this '
                    'module outside the notifier callbacks reads it '
                    '(is the fault path in another module?)'
                    % (start, fld, end))
        return (None, None)

    def transient(self, f):
        """(call, line) when f takes user pages with get_user_pages() or the
        like only to drop them again before it returns (it stores nothing
        anywhere: a pin for one copy), else None.  Such a pin maps nothing
        into the device: it re-establishes nothing range_start dropped."""
        if f.stores or f.writes:
            return None
        pins = [(c, line) for c, line, _ in f.calls if PINS.match(c)]
        if not pins or not any(c in UNPINS for c, _, _ in f.calls):
            return None
        # pages handed to the caller through a parameter (struct page
        # **page: the pin outlives the call; its put_page() is only the
        # error path): no transient pin.  After the first argument, so
        # that an address parameter does not count (an older form's
        # address in a later place only makes this more careful).
        params = set(f.params)
        for c, _, args in f.calls:
            if PINS.match(c) and any(t.kind == 'id' and t.t in params
                                     for a in args[1:] for t in a):
                return None
        if any(FAULT_IN.match(c) and not PINS.match(c) for c, _, _ in f.calls):
            return None
        return pins[0]

    def callers(self, f):
        """The calls of f in the module: [(caller, argument tokens)]."""
        if not hasattr(self, '_callers'):
            self._callers = {}
            for s in self.sources:
                for g in s.funcs:
                    for c, _, args in g.calls:
                        for d in self.resolve(c, g.path):
                            self._callers.setdefault(id(d), []).append((g, args))
        return self._callers.get(id(f), [])

    @staticmethod
    def arg_root(arg):
        """The variable an argument (x, &x, &x->f[i], x->y) is rooted at."""
        ids = [x for x in arg if x.t not in ('&', '(', '*')]
        return ids[0].t if ids and ids[0].kind == 'id' else None

    def owned_by_caller(self, f, param, seen, depth=0):
        """Where the object f's parameter param points to lives, when on
        every path it is a variable on a caller's stack (a struct or an
        array held by value): [(owner, variable)], or None when a caller
        passes anything else (a field of a longer-lived object, a
        pointer variable, a global) or f has no caller in the module."""
        if depth > 6 or param not in f.params:
            return None
        k = f.params.index(param)
        calls = self.callers(f)
        if not calls:
            return None
        out = []
        for g, args in calls:
            if k >= len(args):
                return None
            root = self.arg_root(args[k])
            if root is None:
                return None
            root = g.aliases.get(root, root) if g.locals.get(root) == 'ptr' else root
            if g.locals.get(root) in ('value', 'array'):
                out.append((g, root))
            elif root in g.params and (id(g), root) not in seen:
                seen.add((id(g), root))
                up = self.owned_by_caller(g, root, seen, depth + 1)
                if up is None:
                    return None
                out.extend(up)
            elif (id(g), root) in seen:
                continue
            else:
                return None
        return out

    def keeps_to(self, f, allowed):
        """Does f store only into its own scalar or by-value locals, into
        scalar pointers' targets and into the variables allowed (and
        local pointers set from them)?"""
        for r in f.store_roots:
            kind = f.locals.get(r) or f.param_kinds.get(r)
            if r in allowed or kind in ('scalar', 'value', 'array', 'scalar_ptr'):
                continue
            if kind == 'ptr' and r in f.locals and f.aliases.get(r) in allowed:
                continue
            return False
        return True

    def object_users(self, owner, var):
        """The module's functions the stack object var of owner is handed
        to (with the parameter that receives it), through every level:
        [(function, parameter)]; None where it goes where this cannot
        follow (a function that stores it elsewhere)."""
        out, todo, seen = [], [(owner, var)], set()
        while todo:
            g, v = todo.pop()
            for c, _, args in g.calls:
                for k, a in enumerate(args):
                    r = self.arg_root(a)
                    r = g.aliases.get(r, r) if g.locals.get(r) == 'ptr' else r
                    if r != v:
                        continue
                    for d in self.resolve(c, g.path):
                        if k >= len(d.params) or (id(d), k) in seen:
                            continue
                        seen.add((id(d), k))
                        p = d.params[k]
                        if not self.keeps_to(d, {p}):
                            return None
                        out.append((d, p))
                        todo.append((d, p))
        return out

    def scoped_pin(self, f):
        """(call, line, owner, variable, releaser) when f pins user pages
        into an object that lives on a caller's stack (a batch for one
        copy) and that the caller has released through the module before
        it returns: no fault path, the pages are dropped when the call
        that took them returns.  Else None."""
        pins = [(c, line) for c, line, _ in f.calls if PINS.match(c)]
        if not pins or f.name in self.callbacks:
            return None
        if any(FAULT_IN.match(c) and not PINS.match(c) for c, _, _ in f.calls):
            return None
        params = [p for p in f.params if p in f.store_roots and
                  f.param_kinds.get(p) not in ('scalar', 'scalar_ptr', 'value')]
        params += [f.aliases[r] for r in f.store_roots
                   if f.locals.get(r) == 'ptr' and f.aliases.get(r) in f.params]
        if not params or not self.keeps_to(f, set(params)):
            return None
        owners = []
        for p in set(params):
            o = self.owned_by_caller(f, p, set())
            if not o:
                return None
            owners.extend(o)
        for g, var in owners:
            users = self.object_users(g, var)
            if users is None:
                return None
            rel = [d for d, _ in users if any(c in UNPINS for c, _, _ in d.calls)]
            if not rel and not any(c in UNPINS for c, _, _ in g.calls):
                return None
        g, var = owners[0]
        users = self.object_users(g, var) or []
        rel = [d for d, _ in users if any(c in UNPINS for c, _, _ in d.calls)]
        return (pins[0][0], pins[0][1], g, var, rel[0] if rel else g)

    def is_transient(self, f):
        return self.transient(f) or self.scoped_pin(f)

    def pins(self):
        """The transient pins: [(function, call, path, line, how)]: how
        they are released before the call that took them returns."""
        out = []
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                t = self.transient(f)
                if t:
                    out.append((f.name, t[0], f.path, t[1],
                                'releases them before it returns'))
                    continue
                t = self.scoped_pin(f)
                if t:
                    c, line, g, var, rel = t
                    out.append((f.name, c, f.path, line,
                                'puts them in %s()\'s local %s, which %s() releases '
                                'before %s() returns' % (g.name, var, rel.name, g.name)))
        return out

    def vm_fault_handlers(self):
        """The functions a vm_operations_struct of the module names as
        its fault handlers (.fault, .page_mkwrite, ...) that map user
        pages: those that reach get_user_pages() or the like.  A handler
        that maps the driver's own pages (a counter page, a buffer of its
        own: virt_to_page(), vmalloc_to_page()) maps nothing of the mm's
        into the device."""
        out = []
        for s in self.sources:
            for name, _ in s.vm_faults:
                for f in self.resolve(name, s.path):
                    if any(FAULT_IN.match(c) for g in self.reach(f.name, f.path)
                           for c, _, _ in g.calls):
                        out.append(f)
        return out

    def own_page_faults(self):
        """The fault handlers of the module that map no user page:
        [(function, path, line)]."""
        mapping = set(id(f) for f in self.vm_fault_handlers())
        out = []
        for s in self.sources:
            for name, _ in s.vm_faults:
                for f in self.resolve(name, s.path):
                    if id(f) not in mapping:
                        out.append((f.name, f.path, f.line))
        return out

    def faults_in(self):
        """Where the module maps user pages in (get_user_pages() and the
        like, not a transient pin; a vm_operations_struct fault
        handler): [(function, call, path, line)]."""
        out = []
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                if self.is_transient(f):
                    continue
                for c, line, _ in f.calls:
                    if FAULT_IN.match(c):
                        out.append((f.name, c, f.path, line))
        for f in self.vm_fault_handlers():
            out.append((f.name, 'its vm_operations_struct fault handler',
                        f.path, f.line))
        return out

    def fault_funcs(self):
        """The fault path, the code that maps pages into the device, as
        {id: Func}: the functions that map user pages in (faults_in()),
        what they call, and the functions that call them (up to the
        top; their own bodies, not what else they call); never a
        notifier callback.  None when the module maps no user pages."""
        roots = {}
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                if f.name in self.callbacks or self.is_transient(f):
                    continue
                if any(FAULT_IN.match(c) for c, _, _ in f.calls):
                    roots[id(f)] = f
        for f in self.vm_fault_handlers():
            roots[id(f)] = f
        if not roots:
            return None
        path = {}
        for f in roots.values():
            for g in self.reach(f.name, f.path):
                if g.name not in self.callbacks:
                    path[id(g)] = g
        names = set(f.name for f in roots.values())
        grown = True
        while grown:
            grown = False
            for s in self.sources:
                for f in s.funcs + list(s.macros.values()):
                    if id(f) in path or f.name in self.callbacks:
                        continue
                    if any(c in names for c, _, _ in f.calls) or \
                            any(x in names for x, _ in f.passed):
                        path[id(f)] = f
                        names.add(f.name)
                        grown = True
        return path

    def fault_path_reads(self):
        """The fields the fault path (fault_funcs()) reads (None: no fault
        path)."""
        fp = self.fault_funcs()
        if fp is None:
            return None
        fields = set()
        for f in fp.values():
            fields.update(f.reads)
        return fields

    def coverage(self, table, path):
        """For a table with invalidate_page and range callbacks: do
        range_start/range_end still drop, after the page-table change,
        what invalidate_page dropped?  A dict: verdict (covered, move or
        undecided), why (how it was decided), items (the work of
        invalidate_page that nothing redoes after the change)."""
        page = table.fields['invalidate_page'][0]
        start = table.fields.get('invalidate_range_start', (None,))[0]
        end = table.fields.get('invalidate_range_end', (None,))[0]
        res = {'page': page, 'start': start, 'end': end, 'items': []}
        if not self.resolve(page, path):
            res.update(verdict='undecided',
                       why='%s is not defined in this module' % page)
            return res
        from_page = self.names_reached(page, path)
        if end and end in from_page:
            res.update(verdict='covered', why='%s forwards to %s, which runs '
                       'after the page-table change' % (page, end))
            return res
        if end and page in self.names_reached(end, path):
            res.update(verdict='covered',
                       why='%s runs %s after the page-table change' % (end, page))
            return res
        # (what range_start does when invalidate_page calls it is
        # invalidate_page's work too: range_start does it before the
        # change only)
        pw = self.work(page, path, skip=(end,) if end else ())
        # A field invalidate_page writes matters to the protocol only if
        # the fault path reads it (a sequence count); statistics do not.
        proto = self.fault_path_reads()
        if proto is not None:
            pw = dict((k, v) for k, v in pw.items()
                      if k[0] != 'field' or k[1] in proto)
        if not pw:
            res.update(verdict='covered', why='%s does no work the device\'s '
                       'page protocol depends on (only locks, debugging, '
                       'counters no fault path reads)' % page)
            return res
        ew = self.work(end, path) if end else {}
        reached_e = self.names_reached(end, path) if end else set()
        sw = self.work(start, path) if start else {}
        reached_s = self.names_reached(start, path) if start else set()
        how, unsure = None, None
        faults = sorted(self.faults_in(),
                        key=lambda x: (not x[1].startswith(('get_user', 'pin_user')), x))
        pins = self.pins()
        if start and not faults and pins:
            p = pins[0]
            how = ('nothing in this module maps user pages back in: its only '
                   'get_user_pages() is a transient pin (%s() takes pages with %s() '
                   'at %s:%d and %s; no fault handler maps them into the device), '
                   'which re-establishes nothing it dropped' % p)
        elif start and not faults:
            own = self.own_page_faults()
            how = ('nothing in this module maps user pages back in (no '
                   'get_user_pages() or the like) to re-establish what it dropped%s'
                   % ('; %s() (%s:%d), its vm_operations_struct fault handler, maps the '
                      'driver\'s own pages, not the mm\'s' % own[0] if own else ''))
        elif start and end:
            how, unsure = self.blocks(start, end, path, page)
        by_end, by_start, left = [], [], []
        for item, text in sorted(pw.items()):
            if end and self.covers(item, ew, reached_e):
                by_end.append(text)
            elif start and how and self.covers(item, sw, reached_s):
                by_start.append(text)
            else:
                left.append(text)
        res['items'] = left
        if not left:
            parts = []
            if by_end:
                parts.append('%s does its work after the change (%s)' % (
                    end, ', '.join(by_end[:3])))
            if by_start:
                parts.append('%s does %s before the change and %s' % (
                    start, ', '.join(by_start[:3]), how))
            res.update(verdict='covered', why='; '.join(parts))
            return res
        blind = []
        for fn in (start, end):
            if not fn:
                continue
            for f in self.reach(fn, path):
                for text, line in f.indirect:
                    if not self.targets(text, f.path):
                        blind.append('%s in %s() (%s:%d)' % (text, f.name, f.path, line))
        if unsure:
            res.update(verdict='undecided', why=unsure)
        elif blind:
            res.update(verdict='undecided', why='the range callbacks call through '
                       'function pointers the tool cannot follow: %s'
                       % ', '.join(blind[:3]))
        else:
            what = ['%s does not redo it' % end if end else 'there is no range_end']
            if start and how:
                what = ['%s holds re-faults off until range_end (%s), but neither range '
                        'callback does all of it' % (start, how)]
            elif start and faults:
                f = faults[0]
                via = f[1] if f[1].startswith('its ') else '%s()' % f[1]
                what.append('%s does not keep the device from faulting pages back in '
                            'until range_end (%s() maps user pages in with %s at '
                            '%s:%d; no counter or lock of range_start\'s is checked '
                            'there)' % (start, f[0], via, f[2], f[3]))
            elif start:
                what.append('%s does not do the same work as far as the tool can see' % start)
            res.update(verdict='move', why='; '.join(what))
        return res

    # --- facts for the scripts -------------------------------------------

    def fact_of(self, f):
        v, chain, why, unknown = self.sleep(f.name, f.path)
        return {
            'file': f.path, 'line': f.line, 'static': f.static,
            'macro': f.macro, 'params': f.params,
            'unused_params': [p for p in f.params if p not in f.used],
            'sleep': v, 'chain': chain, 'why': why, 'unknown': unknown[:4],
            'calls': sorted(set(c for c, _, _ in f.calls) |
                            set(p for p, _ in f.passed
                                if self.resolve(p, f.path))),
            'returns': f.returns, 'eagain': f.eagain,
            'range_form': f.range_form, 'empty': f.empty,
        }


def build(paths, shown=None):
    """A Module of the files paths (shown: path -> name for notes)."""
    shown = shown or {}
    sources = []
    for p in paths:
        try:
            text = read_text(p)
        except OSError:
            continue
        sources.append(Source(shown.get(p, p), text))
    return Module(sources)


# ---------------------------------------------------------------------
# Which files make a module.
# ---------------------------------------------------------------------

def c_files(d):
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    return [n for n in names if n.endswith(('.c', '.h')) and
            os.path.isfile(os.path.join(d, n))]


@functools.lru_cache(maxsize=8)
def whole_tree(base, limit=400):
    """Every .c/.h under base (relative names) when base is one driver
    (a Kbuild or Makefile at its top, at most limit files), else None.
    Read once per base and process (a kernel tree's top has a Makefile:
    finding that it is not one driver walks a few thousand directories)."""
    if not any(os.path.isfile(os.path.join(base, n))
               for n in ('Kbuild', 'Makefile', 'Kbuild.in', 'Makefile.am')):
        return None
    out = []
    for root, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.'))
        for n in sorted(files):
            if n.endswith(('.c', '.h')):
                out.append(os.path.relpath(os.path.join(root, n), base))
                if len(out) > limit:
                    return None
    return tuple(out)


def module_of(rel, base, tree):
    """The relative names of the files of rel's module."""
    if tree is not None:
        return tree
    d = os.path.dirname(rel)
    out = [os.path.join(d, n) if d else n
           for n in c_files(os.path.join(base, d) if d else base)]
    return out


def include_dirs(rel):
    d = os.path.dirname(rel)
    return [d, os.path.join(d, 'include'), os.path.join(d, '..', 'include'),
            os.path.join(d, '..')]


# ---------------------------------------------------------------------
# Facts: what the .cocci scripts look up.
# ---------------------------------------------------------------------

def module_facts(mod, refs_only=False):
    refs = {}
    for s in mod.sources:
        for f in s.funcs + list(s.macros.values()):
            for c, _, _ in f.calls:
                refs.setdefault(c, set()).add(s.path)
            for p, _ in f.passed:
                refs.setdefault(p, set()).add(s.path)
        for t in s.tables:
            for v, _ in t.fields.values():
                if v:
                    refs.setdefault(v, set()).add(s.path)
    out = {'refs': dict((k, sorted(v)) for k, v in refs.items())}
    if refs_only:
        return out
    out['funcs'] = dict((name, [mod.fact_of(f) for f in defs])
                        for name, defs in mod.by_name.items())
    out['tables'] = []
    for t in mod.tables:
        d = {'name': t.name, 'file': t.path, 'line': t.line,
             'fields': dict((k, v[0]) for k, v in t.fields.items()),
             'macro': t.macro}
        if 'invalidate_page' in t.fields and t.fields['invalidate_page'][0] \
                and ('invalidate_range_start' in t.fields or
                     'invalidate_range_end' in t.fields):
            d['coverage'] = mod.coverage(t, t.path)
        out['tables'].append(d)
    return out


class Facts:
    """The facts of one module, as the .cocci scripts ask for them:
    computed on first use (the module is parsed only when a question
    needs more than a look at the text of its files)."""

    def __init__(self, pairs, step_map=None):
        self.pairs = pairs          # (path to read, name in notes)
        self.map = step_map or {}
        self._mod = None
        self._texts = None
        self._refs = None
        self._tables = None
        self._facts = {}
        self._page_field_only = {}

    @property
    def mod(self):
        if self._mod is None:
            self._mod = build([p for p, _ in self.pairs], dict(self.pairs))
        return self._mod

    def texts(self):
        if self._texts is None:
            self._texts = []
            for p, name in self.pairs:
                try:
                    self._texts.append((name, read_text(p)))
                except OSError:
                    pass
        return self._texts

    def helper(self, name, here):
        """Where the module defines the function name (file, line), or
        None, and whether a file of the module other than here still
        names it; from the text alone."""
        here = self.real(here)
        defn = re.compile(r'^[A-Za-z_][^;=()]*\b%s\s*\([^;]*$' % re.escape(name), re.M)
        word = re.compile(r'\b%s\b' % re.escape(name))
        found, elsewhere = None, False
        for fname, text in self.texts():
            for m in defn.finditer(text):
                if found is not None:
                    break
                after = text[m.start():m.start() + 2000]
                brace, semi = after.find('{'), after.find(';')
                if brace >= 0 and (semi < 0 or brace < semi):
                    found = (fname, text.count('\n', 0, m.start()) + 1)
            if fname == here or elsewhere:
                continue
            for w in word.finditer(text):
                start = text.rfind('\n', 0, w.start()) + 1
                end = text.find('\n', w.end())
                line = text[start:end if end >= 0 else len(text)]
                # a definition or a prototype at the start of a line is
                # not a use
                if not re.match(r'^[A-Za-z_][^;=()]*\b%s\s*\(' % re.escape(name), line):
                    elsewhere = True
                    break
        return found, elsewhere

    def real(self, path):
        p = path[2:] if path.startswith('./') else path
        return self.map.get(os.path.basename(p), self.map.get(p, path))

    def fact(self, f):
        if id(f) not in self._facts:
            self._facts[id(f)] = self.mod.fact_of(f)
        return self._facts[id(f)]

    def defs(self, name, path=None):
        if path is None:
            return [self.fact(f) for f in self.mod.by_name.get(name, [])]
        return [self.fact(f) for f in self.mod.resolve(name, self.real(path))]

    def defined(self, name):
        return bool(self.mod.by_name.get(name))

    def range_reach(self, name, path, pos, kind, given=()):
        """Module.range_reach() of name as called from path."""
        return self.mod.range_reach(name, self.real(path), pos, kind, given)

    def sleep(self, name, path):
        """('sleeps'|'unknown'|'atomic', chain, why, unknown calls) of name
        as called from path; a name that is not the module's: unknown."""
        return self.mod.sleep(name, self.real(path))

    def tables(self):
        if self._tables is None:
            self._tables = []
            for t in self.mod.tables:
                d = {'name': t.name, 'file': t.path, 'line': t.line,
                     'fields': dict((k, v[0]) for k, v in t.fields.items()),
                     'macro': t.macro, 'obj': t}
                self._tables.append(d)
        return self._tables

    def table(self, name, path):
        real = self.real(path)
        found = [t for t in self.tables() if t['name'] == name and t['file'] == real] or \
            [t for t in self.tables() if t['name'] == name]
        if not found:
            return None
        t = found[0]
        f = t['fields']
        if 'coverage' not in t and f.get('invalidate_page') and \
                ('invalidate_range_start' in f or 'invalidate_range_end' in f):
            t['coverage'] = self.mod.coverage(t['obj'], t['file'])
        return t

    def names(self):
        return set(self.mod.by_name)

    def page_field_only(self, name):
        """Is name, in the whole module, only ever the value of
        .invalidate_page fields: its one definition, its prototypes and
        those fields are every place the text names it (no call, no other
        field, no assignment)?  Then its address can become a range."""
        if name not in self._page_field_only:
            self._page_field_only[name] = self._only_in_page_fields(name)
        return self._page_field_only[name]

    def _only_in_page_fields(self, name):
        defs = self.mod.by_name.get(name, [])
        fields = 0
        for t in self.mod.tables:
            for k, (v, _) in t.fields.items():
                if v == name:
                    if k != 'invalidate_page':
                        return False
                    fields += 1
        word = re.compile(r'\b%s\b' % re.escape(name))
        proto = re.compile(r'\b%s\s*\([^;{()]*\)\s*;' % re.escape(name))
        named = protos = 0
        for _, text in self.texts():
            named += len(word.findall(text))
            protos += len(proto.findall(text))
        return len(defs) == 1 and fields > 0 and \
            named == 1 + fields + protos

    def refs(self, name):
        if self._refs is None:
            self._refs = module_facts(self.mod, refs_only=True)['refs']
        return self._refs.get(name, [])


_cache = {}


def step_map():
    if 'map' not in _cache:
        smap = {}
        mpath = os.environ.get('MNCOMPAT_STEP_MAP')
        if mpath:
            try:
                with open(mpath) as fh:
                    for ln in fh:
                        # the real name may have TABs
                        parts = ln.rstrip('\n').split('\t', 1)
                        if len(parts) == 2:
                            smap[parts[0]] = parts[1]
            except OSError:
                pass
        _cache['map'] = smap
    return _cache['map']


def module_key(rel, tree):
    return '.' if tree is not None else (os.path.dirname(rel) or '.')


def work_or_base(rel, base, work):
    """The path of rel: its converted copy under work where there is one,
    else the file under base."""
    if work and os.path.exists(os.path.join(work, rel)):
        return os.path.join(work, rel)
    return os.path.join(base, rel)


def module_paths(rels, base, work):
    """The files of the module of rels (relative to base) as (path, name)
    pairs: every file of their module, read from work where it has them,
    and the headers they include with quotes that are under base."""
    tree = whole_tree(base)
    members = set(rels)
    for rel in rels:
        members.update(module_of(rel, base, tree))
    for rel in list(members):
        try:
            text = read_text(work_or_base(rel, base, work))
        except OSError:
            continue
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            for d in include_dirs(rel):
                cand = os.path.normpath(os.path.join(d, inc))
                if not cand.startswith('..') and \
                        os.path.isfile(os.path.join(base, cand)):
                    members.add(cand)
                    break
    return [(work_or_base(rel, base, work), rel) for rel in sorted(members)]


def build_module(rels, base, work):
    pairs = module_paths(rels, base, work)
    return build([p for p, _ in pairs], dict(pairs))


def facts_for(path):
    """The Facts of the module of the file spatch is working on.  Under
    convert.sh (MNCOMPAT_MODULE_BASE, _WORK and MNCOMPAT_STEP_MAP): the
    module of the real file the step copy stands for, built on first use;
    else the file on its own."""
    base = os.environ.get('MNCOMPAT_MODULE_BASE')
    if os.environ.get('MNCOMPAT_TEST_ONE_FILE'):
        base = None
    if base:
        smap = step_map()
        p = path[2:] if path.startswith('./') else path
        real = smap.get(os.path.basename(p), smap.get(p))
        if real is not None:
            if 'tree' not in _cache:
                _cache['tree'] = whole_tree(base)
            key = ('m', module_key(real, _cache['tree']))
            if key not in _cache:
                _cache[key] = Facts(module_paths(
                    [real], base, os.environ.get('MNCOMPAT_MODULE_WORK')), smap)
            return _cache[key]
    key = ('f', path)
    if key not in _cache:
        _cache[key] = Facts([(path, path)])
    return _cache[key]


# ---------------------------------------------------------------------
# Command line.
# ---------------------------------------------------------------------

def cmd_facts(args):
    base, work, out, rels = '.', None, None, []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ('--base', '--work', '--out', '--list') and \
                i + 1 < len(args):
            if a == '--list':
                with open(args[i + 1]) as fh:
                    rels.extend(x[2:] if x.startswith('./') else x
                                for x in fh.read().split('\n') if x)
            elif a == '--base':
                base = args[i + 1]
            elif a == '--work':
                work = args[i + 1]
            else:
                out = args[i + 1]
            i += 2
            continue
        rels.append(a[2:] if a.startswith('./') else a)
        i += 1
    if not out:
        sys.exit('usage: mnmodule.py facts --base DIR [--work DIR] --out FILE REL...')
    tree = whole_tree(base)
    files, modules, groups = {}, {}, {}
    for rel in rels:
        key = module_key(rel, tree)
        groups.setdefault(key, []).append(rel)
        files[rel] = key
    for key, members in sorted(groups.items()):
        modules[key] = module_facts(build_module(members, base, work))
    tmp = out + '.tmp'
    with open(tmp, 'w') as fh:
        json.dump({'files': files, 'modules': modules}, fh)
    os.replace(tmp, out)


def cmd_explain(args):
    mod = build(args)
    for s in mod.sources:
        print('== %s' % s.path)
        for f in s.funcs + list(s.macros.values()):
            v, chain, why, unknown = mod.sleep(f.name, f.path)
            print('  %s%s:%d %s %s %s' % ('macro ' if f.macro else '', f.name,
                                          f.line, v, why, '; '.join(unknown[:3])))
        for t in s.tables:
            print('  table %s:%d %s' % (t.name, t.line,
                                        dict((k, v[0]) for k, v in t.fields.items())))
            if 'invalidate_page' in t.fields and (
                    'invalidate_range_start' in t.fields or
                    'invalidate_range_end' in t.fields):
                print('    coverage: %s' % mod.coverage(t, t.path))
    probes = probe_versions(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         '..', 'compat', 'probes'))
    for s in mod.sources:
        for line, text in guard_notes(s, probes):
            print('%s:%d: %s' % (s.path, line, text))


def cmd_guards(args):
    """FILE... (--base DIR: names relative to it): print each guard note
    as FILE:LINE: [guard] review: ..."""
    base = None
    if len(args) > 1 and args[0] == '--base':
        base, args = args[1], args[2:]
    probes = probe_versions(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         '..', 'compat', 'probes'))
    for rel in args:
        p = os.path.join(base, rel) if base else rel
        try:
            src = Source(rel, read_text(p))
        except OSError:
            continue
        for line, text in guard_notes(src, probes):
            print('%s:%d: [guard] %s' % (rel, line, text))


def main(argv):
    if len(argv) < 2 or argv[1] not in ('facts', 'explain', 'guards'):
        sys.exit(__doc__.split('Usage:')[1].split('From a')[0])
    if argv[1] == 'facts':
        cmd_facts(argv[2:])
    elif argv[1] == 'guards':
        cmd_guards(argv[2:])
    else:
        cmd_explain(argv[2:])


if __name__ == '__main__':
    main(sys.argv)
