# SPDX-License-Identifier: GPL-2.0
"""One C file as the module view (mnmodule.py) reads it: Source parses
its text (lex()) into the functions and function-like macros it
defines (Func: what each body calls, passes, locks, writes and reads)
and the struct mmu_notifier_ops tables it initializes (Table)."""
import re

from mnkernel import ALLOCATORS, ATOMIC_GFP, ATTRIBUTE_MACROS, FIELD_READERS, \
    FIELD_WRITERS, KEYWORDS, LOCK_OPS, SLEEPING_GFP, VM_FAULT_FIELDS
from mnlex import SCALAR_TYPES, TYPE_WORDS, called_group, decl_kind, \
    drop_unbalanced_branches, last_member, lex, opening, params_info, \
    params_of, split_args


# ---------------------------------------------------------------------
# Functions, macros, tables.
# ---------------------------------------------------------------------

class Func:
    """A function definition (or a function-like macro) and what its body
    does."""

    def __init__(self, name, path, line, static, params, macro=False):
        self.name = name
        self.path = path
        self.line = line
        self.static = static
        self.params = params
        self.macro = macro
        self.calls = []         # (name, line, argument tokens)
        self.indirect = []      # (text, line)
        self.passed = []        # (name, line): identifiers given as args
        self.writes = {}        # field -> first line
        self.reads = {}         # field -> first line
        self.locks = {}         # lock field -> net takes
        self.lock_lines = {}    # lock field -> line of the first take
        self.stores = 0         # writes through a pointer or an index
        self.returns = 0
        self.used = set()       # identifiers of the body
        self.gfp_sleep = None   # (call, line)
        self.eagain = None      # line of a "return -EAGAIN"
        self.gfp_unknown = None
        self.range_form = None  # read_body(): its address as a range
        self.empty = False      # no statement in its body
        self.generated = None   # the kernel macro that defines it, if one does
        self._flow = None       # read_flow(), when first asked
        self._ptoks = None      # the parameter list's tokens
        self._param_kinds = None
        self._body = None       # the body's tokens
        self._locals = None

    def where(self):
        return '%s:%d' % (self.path, self.line)

    @property
    def param_kinds(self):
        """parameter -> decl_kind() kind (read when first asked)."""
        if self._param_kinds is None:
            self._param_kinds = dict(params_info(self._ptoks or []))
        return self._param_kinds

    def _read_flow(self):
        if self._flow is None:
            self._flow = True
            read_flow(self)

    @property
    def store_roots(self):
        """variable written through -> first line"""
        self._read_flow()
        return self._store_roots

    @property
    def aliases(self):
        """local pointer -> the variable it was set from"""
        self._read_flow()
        return self._aliases

    @property
    def cond_calls(self):
        """calls in an if/while condition -> line"""
        self._read_flow()
        return self._cond_calls

    @property
    def locals(self):
        """local variable -> decl_kind() kind (read when first asked)."""
        if self._locals is None:
            self._locals = {}
            read_decls(self, self._body or [])
        return self._locals


ASSIGN_OPS = set('= += -= *= /= %= &= |= ^= <<= >>='.split())
DECL_START = TYPE_WORDS | SCALAR_TYPES | {'struct', 'union', 'enum'}
# x->member = name; (a function given to a member at run time)
MEMBER_SET = re.compile(r'(?:->|\.)\s*([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s*;')


def lvalue_root(toks, j):
    """toks[j] is the last token of an lvalue (x, x->f, x.a[i], *p):
    the variable it is reached through, or None."""
    root = None
    while j >= 0:
        t = toks[j]
        if t.t == ']':
            depth = 0
            while j >= 0:
                if toks[j].t == ']':
                    depth += 1
                elif toks[j].t == '[':
                    depth -= 1
                    if depth == 0:
                        break
                j -= 1
            j -= 1
            continue
        if t.t == ')':
            k = opening(toks, j)
            inner = [x for x in toks[k + 1:j] if x.kind == 'id']
            if inner:
                root = inner[0].t
            return root
        if t.kind == 'id':
            root = t.t
            if j >= 1 and toks[j - 1].t in ('->', '.'):
                j -= 2
                continue
            return root
        return root
    return root


def read_decls(f, toks):
    """The local variables declared in the body toks, into f.locals."""
    n = len(toks)
    i = 0
    while i < n:
        if i and toks[i - 1].t not in (';', '{', '}'):
            i += 1
            continue
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < n else None
        decl = t.t in DECL_START or (
            t.kind == 'id' and nxt is not None and
            (nxt.kind == 'id' or
             (nxt.t == '*' and i + 3 < n and toks[i + 2].kind == 'id' and
              toks[i + 3].t in (';', ',', '=', '['))))
        if not decl or t.t in ('return', 'goto', 'else', 'case', 'do'):
            i += 1
            continue
        # the declaration up to its ';' (initializers skipped)
        pieces, cur, depth, j = [], [], 0, i
        while j < n:
            x = toks[j]
            if x.t in '([{':
                depth += 1
            elif x.t in ')]}':
                depth -= 1
                if depth < 0:
                    break
            if depth == 0 and x.t in (';', ','):
                pieces.append(cur)
                cur = []
                if x.t == ';':
                    break
            else:
                cur.append(x)
            j += 1
        if not pieces:
            i += 1
            continue
        first = pieces[0]
        eq = [k for k, x in enumerate(first) if x.t == '=']
        head = first[:eq[0]] if eq else first
        d = decl_kind(head)
        if d is None or len([x for x in head if x.kind == 'id']) < 2:
            i = j + 1
            continue
        f._locals[d[0]] = d[1]
        name_at = max(k for k, x in enumerate(head) if x.t == d[0])
        prefix = [x for x in head[:name_at] if x.t != '*']
        for more in pieces[1:]:
            eq = [k for k, x in enumerate(more) if x.t == '=']
            d2 = decl_kind(prefix + (more[:eq[0]] if eq else more))
            if d2:
                f._locals[d2[0]] = d2[1]
        i = j + 1


def read_flow(f):
    """What f's body does with its variables, read when first asked
    (only the analysis of pins and checks needs it): the calls made in
    an if/while condition, the variables written through, the local
    pointers set from another variable."""
    toks = f._body or []
    n = len(toks)
    f._cond_calls, f._store_roots, f._aliases = {}, {}, {}
    incond = bytearray(n)
    for i, tok in enumerate(toks):
        if tok.t in ('if', 'while') and i + 1 < n and toks[i + 1].t == '(':
            k, depth = i + 1, 0
            while k < n:
                if toks[k].t == '(':
                    depth += 1
                elif toks[k].t == ')':
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            incond[i + 1:k] = b'\x01' * (k - i - 1)
    for i, tok in enumerate(toks):
        t = tok.t
        prv = toks[i - 1].t if i > 0 else ''
        nxt = toks[i + 1].t if i + 1 < n else ''
        if tok.kind == 'id' and nxt == '(' and t not in KEYWORDS and \
                prv not in ('.', '->'):
            if incond[i]:
                f._cond_calls.setdefault(t, tok.line)
            if FIELD_WRITERS.match(t):
                args, _ = split_args(toks, i + 1)
                r = [x.t for x in args[0] if x.kind == 'id'] if args else []
                if r:
                    f._store_roots.setdefault(r[0], tok.line)
            continue
        postfix = t in ('++', '--') and \
            prv not in ('', ';', '{', '}', '(', ',')
        if (t in ASSIGN_OPS or postfix) and i:
            # through a variable (x->f = ..., *p = ..., a[i]++), not the
            # variable itself (x = ..., i++)
            bare = toks[i - 1].kind == 'id' and \
                (i < 2 or toks[i - 2].t not in ('->', '.', '*'))
            r = None if bare else lvalue_root(toks, i - 1)
            if r:
                f._store_roots.setdefault(r, tok.line)
            if t == '=' and toks[i - 1].kind == 'id' and \
                    (i < 2 or toks[i - 2].t not in ('->', '.')):
                rv = [x for x in toks[i + 1:i + 4] if x.t not in ('&', '(')]
                if rv and rv[0].kind == 'id':
                    f._aliases.setdefault(toks[i - 1].t, rv[0].t)
        elif t in ('++', '--') and i + 1 < n:
            k = i + 1
            while k + 2 < n and toks[k].kind == 'id' and \
                    toks[k + 1].t in ('->', '.'):
                k += 2
            r = lvalue_root(toks, k) if k > i + 1 or toks[i - 1].t == '*' \
                else None
            if r:
                f._store_roots.setdefault(r, tok.line)


def read_body(f, toks, gfp_macros):
    """Fill f from the tokens of its body."""
    n = len(toks)
    f.empty = n == 0
    f._body = toks
    # range_form: the third parameter (a page callback's address), its
    # uses, and those that are range pairs.
    addr = f.params[2] if len(f.params) >= 3 and not f.macro else None
    addr_uses, pairs, paired = [], [], set()
    for i, tok in enumerate(toks):
        t = tok.t
        if tok.kind == 'id':
            f.used.add(t)
            if t == addr:
                addr_uses.append(id(tok))
        if t == 'return':
            f.returns += 1
            if i + 2 < n and toks[i + 1].t == '-' and toks[i + 2].t == 'EAGAIN':
                f.eagain = tok.line
        nxt = toks[i + 1].t if i + 1 < n else ''
        prv = toks[i - 1].t if i > 0 else ''
        if tok.kind == 'id' and nxt == '(' and t not in KEYWORDS:
            args, _ = split_args(toks, i + 1)
            if addr:
                pairs += range_pairs(addr, tok, args, paired, prv in ('.', '->'))
            if prv in ('.', '->'):
                f.indirect.append(('->' + t + '()', tok.line))
                continue
            f.calls.append((t, tok.line, args))
            for a in args:
                for k, at in enumerate(a):
                    if at.kind == 'id' and (k + 1 >= len(a) or
                                            a[k + 1].t != '('):
                        f.passed.append((at.t, at.line))
            if t in ALLOCATORS or t.startswith('alloc_'):
                text = ' '.join(x.t for a in args for x in a)
                words = set(re.findall(r'\w+', text))
                for w in list(words):
                    words |= gfp_macros.get(w, set())
                text = ' '.join(sorted(words))
                if SLEEPING_GFP.search(text) and not ATOMIC_GFP.search(text):
                    f.gfp_sleep = f.gfp_sleep or (t, tok.line)
                elif not ATOMIC_GFP.search(text) and not SLEEPING_GFP.search(text):
                    f.gfp_unknown = f.gfp_unknown or (t, tok.line)
            if FIELD_WRITERS.match(t) and args:
                m = last_member(args[0])
                if m:
                    f.writes.setdefault(m, tok.line)
            elif FIELD_READERS.match(t) and args:
                for a in args:
                    m = last_member(a)
                    if m:
                        f.reads.setdefault(m, tok.line)
            if t in LOCK_OPS and args:
                m = last_member(args[0]) or ' '.join(x.t for x in args[0])
                f.locks[m] = f.locks.get(m, 0) + LOCK_OPS[t]
                if LOCK_OPS[t] > 0:
                    f.lock_lines.setdefault(m, tok.line)
            continue
        if t == '(' and prv == ')' and called_group(toks, i - 1):
            f.indirect.append(('a call through a function pointer',
                               tok.line))
            continue
        if tok.kind == 'id' and prv in ('->', '.'):
            # x->f op= ..., x->f++, ++x->f
            write = nxt in ASSIGN_OPS or nxt in ('++', '--')
            if not write:
                j = i - 1
                while j >= 1 and toks[j].t in ('->', '.') and \
                        toks[j - 1].kind == 'id':
                    j -= 2
                if j >= 0 and toks[j].t in ('++', '--'):
                    write = True
            if write:
                f.writes.setdefault(t, tok.line)
            else:
                f.reads.setdefault(t, tok.line)
            continue
        if t == '*' and prv in (';', '{', '}', ')') and i + 2 < n and \
                toks[i + 1].kind == 'id' and toks[i + 2].t in ASSIGN_OPS:
            f.stores += 1
        elif t == ']' and nxt in ASSIGN_OPS:
            f.stores += 1
    # How a page callback uses its address when only as a range: one
    # range_pairs() tuple per argument pair; none when it uses
    # it any other way, not at all, or the body already names start or
    # end (the names the rewrite gives the range).
    if pairs and all(u in paired for u in addr_uses) and \
            'start' not in f.used and 'end' not in f.used:
        f.range_form = pairs


def range_pairs(addr, call, args, paired, indirect):
    """The range pairs among the arguments args of call: (line, callee,
    'end', k, indirect, names) for (addr, addr + PAGE_SIZE), (line, callee,
    'len', k, indirect, names) for (addr, PAGE_SIZE), k the index of addr
    among the arguments, indirect: a call through a member (callee is its
    name), names: each argument's identifier where it is one (a function
    handed on), else None; the addr tokens they hold go into paired (ids)."""
    names = tuple(a[0].t if len(a) == 1 and a[0].kind == 'id' else None for a in args)
    out = []
    for k in range(len(args) - 1):
        if [x.t for x in args[k]] != [addr]:
            continue
        second = [x.t for x in args[k + 1]]
        if second == [addr, '+', 'PAGE_SIZE']:
            out.append((call.line, call.t, 'end', k, indirect, names))
            paired.update([id(args[k][0]), id(args[k + 1][0])])
        elif second == ['PAGE_SIZE']:
            out.append((call.line, call.t, 'len', k, indirect, names))
            paired.add(id(args[k][0]))
    return out


class Table:
    def __init__(self, name, path, line, fields, static, macro=False):
        self.name = name
        self.path = path
        self.line = line
        self.fields = fields    # field -> (value, line)
        self.static = static
        self.macro = macro


COMPAT_ARGS = ('release', 'invalidate_range_start', 'invalidate_range_end',
               'arch_invalidate_secondary_tlbs')


class Source:
    """One file of a module."""

    def __init__(self, path, text):
        self.path = path
        self.text = text
        self.funcs = []
        self.macros = {}        # name -> Func (function-like)
        self.objmacros = {}     # name -> identifiers of the body
        self.tables = []
        self.vm_faults = []     # (name, line): vm_operations_struct fault handlers
        self.includes = []      # quoted includes
        self.guards = []        # (line, text) of LINUX_VERSION_CODE #ifs
        self.cpp = []           # (line, word, text)
        self._members = {}      # member -> names initializers give it (.m = f)
        self._all_members = None
        self.parse()

    @property
    def members(self):
        """member -> the names the file gives it (.m = f in an
        initializer, x->m = f; in a function)."""
        if self._all_members is None:
            self._all_members = dict((k, list(v)) for k, v in self._members.items())
            for m, v in MEMBER_SET.findall(self.text):
                self._all_members.setdefault(m, []).append(v)
        return self._all_members

    def parse(self):
        toks, directives = lex(self.text)
        for line, d in directives:
            if not d:
                continue
            w = d[0].t
            self.cpp.append((line, w, ' '.join(x.t for x in d[1:])))
            if w == 'include' and len(d) > 1 and d[1].kind == 'str' and \
                    d[1].t.startswith('"'):
                self.includes.append(d[1].t.strip('"'))
            elif w == 'define' and len(d) > 1 and d[1].kind == 'id':
                self.define(line, d[1:])
        toks = drop_unbalanced_branches(toks, directives)
        gfp = {k: v for k, v in self.objmacros.items()}
        for m in self.macros.values():
            read_body(m, m.body, gfp)
        self.toplevel(toks, gfp)

    def define(self, line, d):
        name = d[0].t
        # function-like: '(' right after the name (same column run)
        if len(d) > 1 and d[1].t == '(' and d[1].line == d[0].line:
            j = 2
            while j < len(d) and d[j].t != ')':
                j += 1
            params = [x.t for x in d[2:j] if x.kind == 'id']
            m = Func(name, self.path, line, True, params, macro=True)
            m.body = d[j + 1:]
            self.macros[name] = m
        else:
            self.objmacros[name] = set(x.t for x in d[1:] if x.kind == 'id')

    GENERATORS = ('INTERVAL_TREE_DEFINE', 'RB_DECLARE_CALLBACKS',
                  'RB_DECLARE_CALLBACKS_MAX')

    def generator_first(self, toks, head, i):
        """head..i-1 starts with a generator macro's call that no ';'
        ends (the macro's own text has none: INTERVAL_TREE_DEFINE(...)
        followed by the next definition): its functions read, and the
        first token after it returned; else head."""
        if i - head < 3 or toks[head].t not in self.GENERATORS or \
                toks[head + 1].t != '(':
            return head
        _, after = split_args(toks, head + 1)
        if after >= i:
            return head
        self.generated(toks[head:after])
        return after

    def toplevel(self, toks, gfp):
        n = len(toks)
        i = 0
        head = 0                # first token of the current declaration
        while i < n:
            t = toks[i].t
            if t in (';', '{'):
                head = self.generator_first(toks, head, i)
            if t == ';':
                self.statement(toks[head:i])
                head = i + 1
            elif t == '{':
                end = self.block_end(toks, i)
                hd = toks[head:i]
                if any(x.t == '=' for x in hd):
                    self.initializer(hd, toks[i:end + 1])
                    # up to the ';' after the initializer
                    i = end + 1
                    continue
                fn = self.function_head(hd)
                if fn:
                    read_body(fn, toks[i + 1:end], gfp)
                    self.funcs.append(fn)
                    i = end + 1
                    head = i
                    continue
                i = end + 1
                continue
            elif t == '}':
                # a stray closing brace (a macro that opens one)
                head = i + 1
            i += 1

    @staticmethod
    def block_end(toks, i):
        depth = 0
        for j in range(i, len(toks)):
            if toks[j].t == '{':
                depth += 1
            elif toks[j].t == '}':
                depth -= 1
                if depth == 0:
                    return j
        return len(toks) - 1

    def function_head(self, hd):
        """A Func when hd ends like a function definition's header."""
        j = len(hd) - 1
        while j >= 0:
            if hd[j].t != ')':
                return None
            k = opening(hd, j)
            if k < 1 or hd[k - 1].kind != 'id':
                return None
            name = hd[k - 1].t
            if name in ATTRIBUTE_MACROS or name.startswith('__attribute'):
                j = k - 2
                continue
            if name in KEYWORDS:
                return None
            static = any(x.t == 'static' for x in hd[:k - 1])
            fn = Func(name, self.path, hd[k - 1].line, static,
                      params_of(hd[k + 1:j]))
            fn._ptoks = hd[k + 1:j]
            return fn
        return None

    def initializer(self, hd, block):
        words = [x.t for x in hd]
        # .member = name in any initializer: the functions a call through
        # ->member() may reach (Module.targets())
        for k in range(len(block) - 4):
            if block[k].t == '.' and block[k + 1].kind == 'id' and \
                    block[k + 2].t == '=' and block[k + 3].kind == 'id' and \
                    block[k + 4].t in (',', '}'):
                self._members.setdefault(block[k + 1].t, []).append(block[k + 3].t)
        if 'vm_operations_struct' in words:
            for k in range(len(block) - 3):
                if block[k].t == '.' and block[k + 1].t in VM_FAULT_FIELDS \
                        and block[k + 2].t == '=' and \
                        block[k + 3].kind == 'id' and \
                        block[k + 3].t not in ('NULL',):
                    self.vm_faults.append((block[k + 3].t, block[k + 3].line))
            return
        if 'mmu_notifier_ops' not in words or '*' in words:
            return
        eq = words.index('=')
        name = None
        for x in reversed(hd[:eq]):
            if x.kind == 'id':
                name = x.t
                break
        fields = {}
        k = 0
        while k < len(block):
            if block[k].t == '.' and k + 2 < len(block) and \
                    block[k + 1].kind == 'id' and block[k + 2].t == '=':
                vals = []
                m = k + 3
                depth = 0
                while m < len(block):
                    if block[m].t in '([':
                        depth += 1
                    elif block[m].t in ')]':
                        depth -= 1
                    if depth == 0 and block[m].t in (',', '}'):
                        break
                    vals.append(block[m])
                    m += 1
                ids = [v.t for v in vals if v.kind == 'id']
                val = ids[-1] if ids else None
                fields.setdefault(block[k + 1].t, (val, block[k + 1].line))
                k = m
            k += 1
        self.tables.append(Table(name, self.path, hd[0].line, fields,
                                 'static' in words))

    def generated(self, st):
        """Functions a kernel macro defines (INTERVAL_TREE_DEFINE(),
        RB_DECLARE_CALLBACKS()), as if written here: what each calls, on
        the line of the macro."""
        name = st[0].t
        args, _ = split_args(st, 1)
        words = [[x.t for x in a if x.kind == 'id'] for a in args]
        line = st[0].line
        made = []
        if name == 'INTERVAL_TREE_DEFINE' and len(words) == 8 and \
                all(words[i] for i in (4, 5, 7)):
            # (ITSTRUCT, ITRB, ITTYPE, ITSUBTREE, ITSTART, ITLAST,
            # ITSTATIC, ITPREFIX): include/linux/interval_tree_generic.h
            start, last, prefix = words[4][-1], words[5][-1], words[7][-1]
            static = 'static' in words[6]
            for suffix, calls in (
                    ('_compute_max', [start, last]),
                    ('_insert', [last, start, 'rb_insert_augmented_cached']),
                    ('_remove', ['rb_erase_augmented_cached']),
                    ('_subtree_search', [start, last]),
                    ('_iter_first', [prefix + '_subtree_search', start, last]),
                    ('_iter_next', [prefix + '_subtree_search', start, last])):
                made.append((prefix + suffix, static, calls))
        elif name in ('RB_DECLARE_CALLBACKS', 'RB_DECLARE_CALLBACKS_MAX') and \
                len(words) >= 4 and words[1]:
            prefix = words[1][-1]
            made = [(prefix + s, True, words[-1][-1:] if name.endswith('MAX') else
                     words[-1][-1:])
                    for s in ('_propagate', '_copy', '_rotate')]
        for fname, static, calls in made:
            f = Func(fname, self.path, line, static, [])
            f.calls = [(c, line, []) for c in calls]
            f.generated = name
            self.funcs.append(f)

    def statement(self, st):
        if len(st) > 2 and st[1].t == '(' and st[0].t in self.GENERATORS:
            self.generated(st)
            return
        if len(st) > 2 and st[0].t in ('MNCOMPAT_MMU_NOTIFIER_OPS',
                                       'MNCOMPAT_MMU_NOTIFIER_GET_OPS') and \
                st[1].t == '(':
            args, _ = split_args(st, 1)
            vals = []
            for a in args:
                ids = [x.t for x in a if x.kind == 'id']
                vals.append(ids[-1] if ids else None)
            # GET_OPS: (ops, alloc_notifier, free_notifier, release, ...)
            extra = 2 if st[0].t.endswith('GET_OPS') else 0
            if len(vals) < 6 + extra:
                return
            fields = {}
            if extra:
                fields['alloc_notifier'] = (vals[1], st[0].line)
                fields['free_notifier'] = (vals[2], st[0].line)
            for f, v in zip(COMPAT_ARGS, vals[1 + extra:5 + extra]):
                if v and v != 'NULL':
                    fields[f] = (v, st[0].line)
            self.tables.append(Table(vals[0], self.path, st[0].line, fields,
                                     True, macro=True))


def read_text(path):
    with open(path, 'rb') as fh:
        data = fh.read()
    return data.decode('utf-8', errors='replace').replace('\r\n', '\n')
