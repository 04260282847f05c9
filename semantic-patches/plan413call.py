# SPDX-License-Identifier: GPL-2.0
"""The planner of mn-4.13-invalidate-page-call.cocci (Linux 4.13 removed
mmu_notifier_invalidate_page(mm, address)).

The script's rules gather the facts of a file here (add_call(),
add_statement(), add_op(), add_params(): the calls, the statements of
the functions that have one, the page-table helpers they call and their
parameters), then plan_file() decides, per function, where the
replacement goes:

  - plan_follow(): the follow_pte_pmd() shape (fs/dax.c): the helper
    starts the range, invalidate_range where the entry changed, the old
    call ends it;
  - plan_bracket(): invalidate_range_start before the statement that
    takes the page-table lock (or changes the entry), invalidate_range_end
    after the last call, and on every way out in between; the rmap shape
    (page and address parameters) or one bracket per loop iteration;
  - together(): where neither can be placed, the three calls at the old
    one, and a review item saying why.

The edits are then asked for per statement (is_ba() ... is_rb(),
texts_for()) and per function (has_decl(), has_follow(), ...).  The state
(cur, plan) lives here, as module attributes.  Tested by
tests/test_plan413call.py.
"""
import re

from mncocci import NONE, Step, line_col, lines_of, wrap
from mnlex import split_text_args

step = Step('4.13')
note = step.note

# Kernel helpers that take a page-table lock, or change a PTE or a PMD.
LOCKS = ('page_vma_mapped_walk', 'page_check_address', 'pte_offset_map_lock',
         'pmd_lock', 'pud_lock', 'huge_pte_lock', 'follow_pte',
         'follow_pte_pmd', 'get_locked_pte')
PTE_OPS = ('set_pte_at', 'ptep_clear_flush', 'ptep_clear_flush_notify',
           'ptep_get_and_clear', 'ptep_get_and_clear_full', 'pte_clear',
           'ptep_set_wrprotect', 'ptep_modify_prot_commit',
           'ptep_set_access_flags')
PMD_OPS = ('set_pmd_at', 'pmdp_huge_clear_flush',
           'pmdp_huge_clear_flush_notify', 'pmdp_invalidate',
           'pmdp_huge_get_and_clear', 'pmdp_set_wrprotect', 'pmd_clear')
HUGE_OPS = ('set_huge_pte_at', 'huge_ptep_clear_flush',
            'huge_ptep_get_and_clear', 'huge_ptep_set_wrprotect')
SETTERS = ('set_pte_at', 'set_pmd_at', 'set_huge_pte_at')

cur = {'calls': [], 'stmts': [], 'ops': [], 'params': {}, 'fline': {},
       'file': None}
plan = {'stmt': {}, 'decl': {}, 'follow': {}, 'dropdecl': {}}


class St:
    """A statement: its extent (1-based lines, 0-based columns, end
    column exclusive) and its text."""
    def __init__(self, f, sl, sc, el, ec):
        self.sl, self.sc, self.el, self.ec = sl, sc, el, ec
        ls = lines_of(f) or []
        if sl == el:
            self.text = ls[sl - 1][sc:ec]
        else:
            self.text = '\n'.join([ls[sl - 1][sc:]] + ls[sl:el - 1] +
                                  [ls[el - 1][:ec]])
        first = ls[sl - 1] if sl <= len(ls) else ''
        self.indent = first[:len(first) - len(first.lstrip())]
        self.parent = None
        self.kids = []

    def start(self):
        return (self.sl, self.sc)

    def end(self):
        return (self.el, self.ec)

    def contains(self, o):
        return self.start() <= o.start() and o.end() <= self.end() and \
            self is not o

    def has(self, pos):
        return self.start() <= pos < self.end()

    def word(self):
        m = re.match(r'\s*([A-Za-z_]\w*)', self.text)
        return m.group(1) if m else ''

    def is_loop(self):
        w = self.word()
        if w in ('while', 'for', 'do'):
            return True
        # iterator macros: NAME(...) { ... }
        return bool(re.match(r'\s*[A-Za-z_]\w*\s*\(', self.text)) and \
            self.text.rstrip().endswith('}') and \
            w not in ('if', 'switch', 'return')

    def label(self):
        m = re.match(r'\s*([A-Za-z_]\w*)\s*:(?!:)', self.text)
        if m and m.group(1) not in ('default', 'case'):
            return m.group(1)
        return None


def params_of(pl):
    """(type text, name) of each parameter of a parameter list."""
    out = []
    for a in split_text_args(pl):
        m = re.match(r'(.*?)([A-Za-z_]\w*)\s*$', a)
        if m:
            out.append((re.sub(r'\s+', ' ', m.group(1)).strip(), m.group(2)))
    return out


def assigned(name, text):
    return re.search(r'(^|[^\w.>])' + re.escape(name) +
                     r'\s*([-+*/|&^]?=(?!=)|\+\+|--)', text) is not None \
        or re.search(r'(\+\+|--)\s*' + re.escape(name) + r'\b', text) \
        is not None


def stmt_lines(indent, stmts):
    """Several statements as one text: the first line is indented by
    spatch, the others carry indent."""
    return ('\n' + indent).join(stmts)


def fresh(name, ftext):
    if re.search(r'\b' + name + r'\b', ftext):
        return 'mn_' + name
    return name


def kind_of(op):
    if op in LOCKS:
        return 'lock'
    if op in PTE_OPS:
        return 'pte'
    if op in PMD_OPS:
        return 'pmd'
    return 'huge'


def add_edit(s, kind, before=None, after=None, repl=None):
    e = plan['stmt'].setdefault(s.start(), {'before': [], 'after': [],
                                            'repl': None, 'kind': kind})
    if before:
        e['before'].extend(before)
    if after:
        e['after'] = after + e['after']
    if repl is not None:
        e['repl'] = repl
    e['indent'] = s.indent
    # the body of an if/else/loop without braces
    e['bare'] = s.parent is not None and \
        not s.parent.text.lstrip().startswith('{')


def plan_file():
    """Plan the edits of the file whose facts were collected."""
    plan['stmt'], plan['decl'], plan['follow'], plan['dropdecl'] = \
        {}, {}, {}, {}
    f = cur['file']
    calls, stmts, ops = cur['calls'], cur['stmts'], cur['ops']
    cur['calls'], cur['stmts'], cur['ops'] = [], [], []
    if not calls:
        return
    fns = []
    for c in calls:
        if c['F'] not in fns:
            fns.append(c['F'])
    for F in fns:
        fc = sorted([c for c in calls if c['F'] == F],
                    key=lambda c: (c['line'], c['col']))
        fs = [St(f, *s[1:]) for s in stmts if s[0] == F]
        fs.sort(key=lambda s: (s.start(), (-s.el, -s.ec)))
        for s in fs:
            for o in fs:
                if o.contains(s) and (s.parent is None or
                                      s.parent.contains(o)):
                    s.parent = o
        for s in fs:
            if s.parent:
                s.parent.kids.append(s)
        fo = [o for o in ops if o['F'] == F]
        plan_function(f, F, fc, fs, fo)


def top_of(s):
    while s.parent is not None:
        s = s.parent
    return s


def level_kids(fs, owner):
    """Statements directly in the block owner (None: the function body)
    in source order; a loop body compound is looked through."""
    if owner is None:
        return [s for s in fs if s.parent is None]
    body = [k for k in owner.kids if k.text.lstrip().startswith('{')]
    if body:
        return sorted(body[0].kids, key=lambda s: s.start())
    return sorted(owner.kids, key=lambda s: s.start())


def child_in(level, s):
    for k in level:
        if k is s or k.contains(s):
            return k
    return None


def plan_function(f, F, fc, fs, fo):
    # the whole function, parameters and declarations included
    ls = lines_of(f) or []
    fl = cur['fline'].get(F, fs[0].sl if fs else 1)
    el = max([s.el for s in fs] + [fl])
    ftext = '\n'.join(ls[fl - 1:el + 1])
    pl = params_of(cur['params'].get(F, ''))
    pnames = [n for t, n in pl]
    page = [n for t, n in pl if re.match(r'(const )?struct page \*$', t)]
    vma = [n for t, n in pl
           if re.match(r'(const )?struct vm_area_struct \*$', t)]
    ulong = [n for t, n in pl if t in ('unsigned long', 'ulong')]
    # each call must be a statement of its own
    for c in fc:
        c['st'] = None
        for s in fs:
            if s.start() == (c['line'], c['col']) and \
               re.match(r'mmu_notifier_invalidate_page\s*\(.*\)\s*;$',
                        s.text, re.S):
                c['st'] = s
        if c['st'] is None:
            note(c['pos'], "review: mmu_notifier_invalidate_page used other than as a statement "
                           "in %s: convert by hand" % F)
    fc = [c for c in fc if c['st'] is not None]
    if not fc:
        return
    M = fc[0]['M']
    sameM = all(c['M'] == M for c in fc)
    A = fc[0]['A']
    # the follow_pte_pmd() shape (fs/dax.c, seed 005)
    fpp = [o for o in fo if o['op'] == 'follow_pte_pmd' and
           len(o['args']) == 5]
    if fpp and sameM and len(fc) == 1 and \
       plan_follow(f, F, fc[0], fs, fo, fpp, ftext):
        return
    # the rmap shape (seed 006): page and address are parameters
    rmap = sameM and page and all(c['A'] in ulong for c in fc) and \
        all(c['A'] == A for c in fc)
    if rmap:
        plan_bracket(f, F, fc, fs, fo, None, ftext, page[0],
                     vma[0] if vma else None, A, M, pnames)
        return
    # a loop that computes the address: one bracket per iteration
    if sameM and all(c['A'] == A for c in fc) and \
       re.match(r'[A-Za-z_]\w*$', A):
        owner = None
        s = fc[0]['st']
        while s.parent is not None:
            s = s.parent
            if s.is_loop() and assigned(A, s.text) and \
               all(s.contains(c['st']) for c in fc):
                owner = s
                break
        if owner is not None or (A in pnames and not assigned(A, stmts_text(fs))):
            plan_bracket(f, F, fc, fs, fo, owner, ftext, None,
                         None, A, M, pnames)
            return
    for c in fc:
        together(c, F, fo, page[0] if page else None,
                 "the calls differ in mm or address, or the address is not a parameter or set in "
                 "a loop around the call")


def op_kinds(fo, lo, hi):
    return set(kind_of(o['op']) for o in fo if lo <= o['pos'] < hi)


def together(c, F, fo, P, why):
    s = c['st']
    kinds = op_kinds(fo, (0, 0), (c['line'], c['col']))
    M, A = c['M'], c['A']
    if 'huge' in kinds:
        rs, re_ = A, '%s + PAGE_SIZE' % A
        size = ("huge-page size: a hugetlb entry changed, the range covers PAGE_SIZE only (use "
                "huge_page_size(hstate_vma(vma)))")
    elif 'pmd' in kinds and 'pte' not in kinds:
        rs, re_ = '%s & PMD_MASK' % A, '(%s & PMD_MASK) + PMD_SIZE' % A
        size = "PMD-sized range"
    elif 'pte' in kinds and 'pmd' not in kinds:
        rs, re_ = A, '%s + PAGE_SIZE' % A
        size = "PTE-sized range"
    elif P:
        rs, re_ = A, '%s + (PAGE_SIZE << compound_order(%s))' % (A, P)
        size = ("huge-page size: the range covers the whole compound page from %s: right only "
                "if %s is its first address" % (A, A))
    else:
        rs, re_ = A, '%s + PAGE_SIZE' % A
        size = ("huge-page size: no PTE/PMD change seen before the call, the range covers "
                "PAGE_SIZE only (a THP mapped by a PMD needs PMD_SIZE)")
    ind = s.indent
    txt = stmt_lines(ind, [
        wrap(ind, 'mmu_notifier_invalidate_range_start', [M, rs, re_]),
        wrap(ind, 'mmu_notifier_invalidate_range', [M, rs, re_]),
        wrap(ind, 'mmu_notifier_invalidate_range_end', [M, rs, re_])])
    add_edit(s, 'r', repl=txt)
    note(c['pos'], "review: %s: placement: %s; invalidate_range_start/range/end are issued "
                   "together here, after the page-table change as invalidate_page was: move "
                   "invalidate_range_start before the page-table lock; %s" % (F, why, size))


def stmts_text(fs):
    return '\n'.join(s.text for s in fs if s.parent is None)


def stable_before(name, fs, t1):
    """name is not assigned in a statement before t1."""
    for s in fs:
        if s.parent is None and s.start() < t1.start() and \
           assigned(name, s.text):
            return False
    return True


def plan_bracket(f, F, fc, fs, fo, owner, ftext, P, V, A, M, pnames):
    level = level_kids(fs, owner)
    first = child_in(level, fc[0]['st'])
    last = child_in(level, fc[-1]['st'])
    if first is None or last is None:
        for c in fc:
            together(c, F, fo, P, "could not find the statement around the call")
        return
    i1 = level.index(first)
    t1 = None
    for k in level[:i1 + 1]:
        if any(k.has(o['pos']) for o in fo):
            t1 = k
            break
    if t1 is None:
        for c in fc:
            together(c, F, fo, P, "no page-table lock or entry change (%s, %s, ...) found before "
                                  "the call in %s" % (LOCKS[2], PTE_OPS[0], F))
        return
    hidden = [o for o in fo if kind_of(o['op']) == 'lock' and
              o['pos'] < t1.start() and not any(k.has(o['pos']) for k in fs)]
    if hidden:
        for c in fc:
            together(c, F, fo, P, "%s() takes the page-table lock in a declaration (line %d), "
                                  "before any statement: take it in a statement so "
                                  "invalidate_range_start can go before it"
                                  % (hidden[0]['op'], hidden[0]['pos'][0]))
        return
    if assigned(re.match(r'\w*', M).group(0), stmts_text(fs)):
        for c in fc:
            together(c, F, fo, P, "the mm (%s) changes inside %s" % (M, F))
        return
    t2 = last
    lo, hi = t1.start(), t2.end()
    issues = []
    start, end = fresh('start', ftext), fresh('end', ftext)
    ind = t1.indent
    before = []
    decl = None
    kinds = op_kinds(fo, lo, hi)
    if P:
        # seed 006: the worst case, the whole (huge) page, clamped
        whole = '%s + (PAGE_SIZE << compound_order(%s))' % (start, P)
        if V:
            span = 'min(%s->vm_end, %s)' % (V, whole)
        else:
            span = whole
            issues.append("clamp: no struct vm_area_struct parameter: %s is not clamped to "
                          "vma->vm_end" % end)
        if stable_before(A, fs, t1):
            decl = 'unsigned long %s = %s, %s;' % (start, A, end)
        else:
            decl = 'unsigned long %s, %s;' % (start, end)
            before.append('%s = %s;' % (start, A))
        before.append('%s = %s;' % (end, span))
        desc = "[%s, %s)" % (A, span.replace(start, A))
    else:
        decl = 'unsigned long %s, %s;' % (start, end)
        if 'huge' in kinds:
            before.append('%s = %s;' % (start, A))
            before.append('%s = %s + PAGE_SIZE;' % (end, start))
            issues.append("huge-page size: a hugetlb entry changes here: the bracket covers "
                          "PAGE_SIZE only (use huge_page_size(hstate_vma(vma)))")
            desc = "[%s, %s + PAGE_SIZE)" % (A, A)
        elif 'pmd' in kinds:
            before.append('%s = %s & PMD_MASK;' % (start, A))
            before.append('%s = %s + PMD_SIZE;' % (end, start))
            desc = "the PMD around %s" % A
        else:
            before.append('%s = %s;' % (start, A))
            before.append('%s = %s + PAGE_SIZE;' % (end, start))
            if 'pte' not in kinds:
                issues.append("huge-page size: no PTE/PMD change recognised: the bracket covers "
                              "PAGE_SIZE only")
            desc = "[%s, %s + PAGE_SIZE)" % (A, A)
    before.append(wrap(ind, 'mmu_notifier_invalidate_range_start',
                       [M, start, end]))
    add_edit(t1, 'b', before=[stmt_lines(ind, before)])
    endcall = wrap(t2.indent, 'mmu_notifier_invalidate_range_end',
                   [M, start, end])
    add_edit(t2, 'a', after=[endcall])
    # every way out of the bracket other than past t2
    loops_in = owner is not None
    for s in fs:
        if not (lo <= s.start() and s.end() <= hi):
            continue
        w = s.word()
        exits = w == 'return'
        if loops_in and w in ('break', 'continue'):
            p = s.parent
            inner = False
            while p is not None and p is not owner:
                if p.is_loop() or p.word() == 'switch':
                    inner = True
                    break
                p = p.parent
            exits = not inner
        if exits:
            add_edit(s, 'b', before=[wrap(s.indent,
                                          'mmu_notifier_invalidate_range_end',
                                          [M, start, end])])
    labels = {}
    for s in fs:
        if s.label():
            labels[s.label()] = s
    for s in fs:
        m = re.match(r'\s*goto\s+([A-Za-z_]\w*)', s.text)
        if not m:
            continue
        lab = labels.get(m.group(1))
        inside = lo <= s.start() and s.end() <= hi
        lin = lab is not None and lo <= lab.start() and lab.end() <= hi
        if lab is not None and lab.start() == lo and not inside:
            continue
        if inside and not lin:
            issues.append("goto %s at line %d leaves the bracket without invalidate_range_end: "
                          "add mmu_notifier_invalidate_range_end(%s, %s, %s) on that path"
                          % (m.group(1), s.sl, M, start, end))
        elif lin and not inside:
            issues.append("goto %s at line %d jumps into the bracket past invalidate_range_start"
                          % (m.group(1), s.sl))
    if t1.label():
        issues.append("invalidate_range_start is inserted before label %s: a goto to it skips the "
                      "start" % t1.label())
    # each call: the entry that changed
    trk = 'pte' in kinds and 'pmd' in kinds
    cs, ce = fresh('cstart', ftext), fresh('cend', ftext)
    if trk:
        decl = decl[:-1] + ', %s, %s;' % (cs, ce)
        setters = [o for o in fo if lo <= o['pos'] < hi and
                   kind_of(o['op']) in ('pte', 'pmd')]
        chosen = {}
        for o in setters:
            s = innermost(fs, o['pos'])
            blk = s.parent if s else None
            key = id(blk)
            if key not in chosen or chosen[key][0]['pos'] < o['pos']:
                chosen[key] = (o, s)
        for o, s in chosen.values():
            X = o['args'][1] if len(o['args']) > 1 else A
            if kind_of(o['op']) == 'pte':
                a = ['%s = %s;' % (cs, X), '%s = %s + PAGE_SIZE;' % (ce, cs)]
            else:
                a = ['%s = %s & PMD_MASK;' % (cs, X),
                     '%s = %s + PMD_SIZE;' % (ce, cs)]
            add_edit(s, 'a', after=[stmt_lines(s.indent, a)])
    hugecall = False
    for c in fc:
        cA = c['A']
        if trk:
            args = [M, cs, ce]
            size = "the last PTE (PAGE_SIZE) or PMD (PMD_SIZE) changed, tracked in %s/%s" % (cs, ce)
        elif 'pmd' in kinds:
            args = [c['M'], '%s & PMD_MASK' % cA, '(%s & PMD_MASK) + PMD_SIZE' % cA]
            size = "PMD_SIZE"
        elif 'huge' in kinds:
            args = [c['M'], cA, '%s + PAGE_SIZE' % cA]
            size = "PAGE_SIZE"
            hugecall = True
        else:
            args = [c['M'], cA, '%s + PAGE_SIZE' % cA]
            size = "PAGE_SIZE per PTE"
        add_edit(c['st'], 'r', repl=wrap(c['st'].indent,
                                         'mmu_notifier_invalidate_range',
                                         args))
    if hugecall:
        issues.append("huge-page size: a hugetlb entry changes: invalidate_range covers PAGE_SIZE "
                      "at each call, a hugetlb entry maps huge_page_size(hstate_vma(vma))")
    plan['decl'][F] = decl
    what = "each iteration of the loop at line %d" % owner.sl if owner else \
        "lines %d-%d" % (t1.sl, t2.el)
    note(fc[0]['pos'], "bracketed: %s: invalidate_range_start/end around %s, range %s; "
                       "invalidate_range at each call: %s" % (F, what, desc, size))
    for i in issues:
        note(fc[0]['pos'], "review: %s: %s" % (F, i))


def innermost(fs, pos):
    best = None
    for s in fs:
        if s.has(pos) and (best is None or best.contains(s)):
            best = s
    return best


def plan_follow(f, F, c, fs, fo, fpp, ftext):
    """seed 005: follow_pte_pmd(mm, addr, &start, &end, ...) starts the
    range; invalidate_range where the entry changed; the old call ends
    it."""
    o = fpp[0]
    if o['args'][0] != c['M'] or o['args'][1] != c['A'] or \
       o['pos'] >= (c['line'], c['col']):
        return False
    s = c['st']
    guard = s.parent
    if guard is not None and guard.text.lstrip().startswith('{') and \
       len(guard.kids) == 1:
        guard = guard.parent
    flag = None
    if guard is not None and guard.word() == 'if':
        m = re.match(r'\s*if\s*\(\s*([A-Za-z_]\w*)\s*\)\s*$',
                     guard.text[:guard.text.find('mmu_notifier')])
        if not m:
            return False
        flag = m.group(1)
    start, end = fresh('start', ftext), fresh('end', ftext)
    M = c['M']
    if flag:
        sets = [x for x in fs if re.match(r'\s*' + flag +
                                          r'\s*=\s*(true|1)\s*;$', x.text)]
        clears = [x for x in fs if re.match(r'\s*' + flag +
                                            r'\s*=\s*(false|0)\s*;$', x.text)]
        uses = len(re.findall(r'\b' + flag + r'\b', stmts_text(fs)))
        if not sets or uses != len(sets) + len(clears) + 1:
            return False
        for x in sets:
            add_edit(x, 'r', repl=wrap(x.indent,
                                       'mmu_notifier_invalidate_range',
                                       [M, start, end]))
        for x in clears:
            add_edit(x, 'd')
        add_edit(guard, 'r', repl=wrap(guard.indent,
                                       'mmu_notifier_invalidate_range_end',
                                       [M, start, end]))
        plan['dropdecl'][F] = flag
    else:
        setters = [x for x in fo if x['op'] in SETTERS and
                   o['pos'] < x['pos'] < (c['line'], c['col'])]
        if not setters:
            return False
        for x in setters:
            st = innermost(fs, x['pos'])
            add_edit(st, 'a', after=[wrap(st.indent,
                                          'mmu_notifier_invalidate_range',
                                          [M, start, end])])
        add_edit(s, 'r', repl=wrap(s.indent,
                                   'mmu_notifier_invalidate_range_end',
                                   [M, start, end]))
    plan['decl'][F] = 'unsigned long %s, %s;' % (start, end)
    plan['follow'][F] = (start, end)
    note(c['pos'], "bracketed: %s: follow_pte_pmd(..., &%s, &%s, ...) calls "
                   "invalidate_range_start for the PTE or PMD it locks (its 4.13-4.20 form), "
                   "invalidate_range under the page-table lock where the entry changed, "
                   "invalidate_range_end here" % (F, start, end))
    for x in fs:
        if o['pos'] < x.start() < (c['line'], c['col']) and \
           x.word() in ('return', 'break') and not x.has(o['pos']):
            note(c['pos'], "review: %s: %s at line %d skips invalidate_range_end after "
                           "follow_pte_pmd() succeeded" % (F, x.word(), x.sl))
    return True


def has_edit(p):
    return line_col(p) in plan['stmt']


def has_decl(F):
    return F in plan['decl']


def decl_of(F):
    return plan['decl'][F][:-1]


def has_follow(F):
    return F in plan['follow']


def follow_start(F):
    return plan['follow'][F][0]


def follow_end(F):
    return plan['follow'][F][1]


def has_dropdecl(F):
    return F in plan['dropdecl']


def is_dropped_flag(FL):
    return FL in plan['dropdecl'].values()


def in_call_fn(name):
    return any(c['F'] == name for c in cur['calls'])


def edit_of(p, k):
    e = plan['stmt'].get(line_col(p))
    if e is None:
        return False
    if k == 'ba':
        return e['repl'] is None and e['kind'] != 'd' and \
            bool(e['before']) and bool(e['after'])
    if k == 'b':
        return e['repl'] is None and e['kind'] != 'd' and \
            bool(e['before']) and not e['after']
    if k == 'a':
        return e['repl'] is None and e['kind'] != 'd' and \
            not e['before'] and bool(e['after'])
    if k == 'r':
        return e['repl'] is not None and not (e['bare'] and multi(e))
    if k == 'rb':
        return e['repl'] is not None and e['bare'] and multi(e)
    return e['kind'] == 'd' and e['repl'] is None


def is_ba(p):
    return edit_of(p, 'ba')


def is_b(p):
    return edit_of(p, 'b')


def is_a(p):
    return edit_of(p, 'a')


def is_r(p):
    return edit_of(p, 'r')


def is_rb(p):
    return edit_of(p, 'rb')


def multi(e):
    return len(e['before']) + len(e['after']) > 0 or \
        e['repl'].count(';') > 1


def is_d(p):
    return edit_of(p, 'd')


def texts_for(p):
    e = plan['stmt'][line_col(p)]
    ind = e['indent']

    def one(stmts):
        return stmt_lines(ind, stmts)[:-1] if stmts else ''
    r = ''
    if e['repl'] is not None:
        r = one(e['before'] + [e['repl']] + e['after'])
    return one(e['before']), one(e['after']), r


# ---------------------------------------------------------------------
# The facts, as the script's rules find them in the file (the file as it
# is, before any edit).
# ---------------------------------------------------------------------

def add_call(pc, M, A):
    """mmu_notifier_invalidate_page(M, A) at pc (a file's first call:
    forget the previous file)."""
    if cur['file'] != pc[0].file:
        cur.update({'calls': [], 'stmts': [], 'ops': [], 'params': {},
                    'fline': {}, 'file': pc[0].file})
    cur['calls'].append({'F': pc[0].current_element, 'line': int(pc[0].line),
                         'col': int(pc[0].column), 'M': M.replace(' ', ''),
                         'A': A, 'pos': pc})


def add_statement(p):
    """A statement of a function with a call, at p."""
    cur['stmts'].append((p[0].current_element, int(p[0].line),
                         int(p[0].column), int(p[0].line_end),
                         int(p[0].column_end)))


def add_op(p, f, es):
    """A page-table helper f called at p with the arguments es."""
    cur['ops'].append({'F': p[0].current_element, 'op': f,
                       'pos': (int(p[0].line), int(p[0].column)),
                       'args': [a.replace(' ', '') if i == 0 else a
                                for i, a in enumerate(split_text_args(str(es)))]})


def add_params(F, PL, pf):
    """F, a function with a call, is defined at pf with parameters PL."""
    cur['params'][F] = str(PL)
    cur['fline'][F] = int(pf[0].line)


def edit_texts(p):
    """texts_for(p) as identifiers to bind: NONE for an empty text."""
    return tuple(t or NONE for t in texts_for(p))
