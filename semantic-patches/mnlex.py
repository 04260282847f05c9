# SPDX-License-Identifier: GPL-2.0
"""Reading C for the module view (mnmodule.py) and the semantic patches'
planners: the one tokenizer (lex(): tokens and preprocessor
directives), the #if branches that do not balance their braces
(drop_unbalanced_branches()), and helpers on token lists and on the
text of an argument list (split_args(), split_text_args(), params_of(),
...)."""
import bisect
import re


# ---------------------------------------------------------------------
# Reading C: tokens, preprocessor directives, #if branches.
# ---------------------------------------------------------------------

LEX = re.compile(r'''
    (?P<nl>\n)
  | (?P<ws>[ \t\r\f\v]+|\\\r?\n)
  | (?P<com>/\*.*?\*/|//[^\n]*)
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<op>->|\+\+|--|<<=|>>=|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|
        \|=|\^=|<<|>>|\.\.\.|\#\#|[{}()\[\];,.=<>+\-*/%&|^!~?:\#])
  | (?P<other>.)
''', re.S | re.X)


class Tok:
    __slots__ = ('t', 'line', 'kind')

    def __init__(self, t, line, kind):
        self.t = t
        self.line = line
        self.kind = kind

    def __repr__(self):
        return '%s@%d' % (self.t, self.line)


def lex(text):
    """Tokens of text and its preprocessor directives, each directive a
    (line, [tokens]) with its continuation lines joined."""
    toks, directives = [], []
    line = 1
    bol = True          # at the start of a line (only blanks so far)
    cur = None          # tokens of the directive being read
    for m in LEX.finditer(text):
        k = m.lastgroup
        s = m.group()
        if k == 'nl':
            if cur is not None:
                directives.append(cur)
                cur = None
            line += 1
            bol = True
            continue
        if k in ('ws', 'com'):
            line += s.count('\n')
            continue
        if k == 'op' and s == '#' and bol:
            cur = (line, [])
            bol = False
            continue
        bol = False
        tok = Tok(s, line, k)
        if cur is not None:
            cur[1].append(tok)
        else:
            toks.append(tok)
    if cur is not None:
        directives.append(cur)
    return toks, directives


def drop_unbalanced_branches(toks, directives):
    """Tokens of every #if branch, except where a branch of a chain does
    not balance its braces: then only its first branch (a function whose
    header is split by #if/#else would otherwise open twice, whether or
    not every branch opens it)."""
    events = []
    for line, d in directives:
        if not d:
            continue
        w = d[0].t
        if w in ('if', 'ifdef', 'ifndef', 'elif', 'else', 'endif'):
            events.append((line, w))
    if not events:
        return toks
    # chains: list of [branch start lines..., endif line]
    stack, chains = [], []
    for line, w in events:
        if w in ('if', 'ifdef', 'ifndef'):
            stack.append([line])
        elif w in ('elif', 'else') and stack:
            stack[-1].append(line)
        elif w == 'endif' and stack:
            c = stack.pop()
            c.append(line)
            chains.append(c)
    # (the tokens are in line order: each branch's are found by bisection)
    lines = [t.line for t in toks]
    drop = []
    for c in chains:
        if len(c) < 3:
            continue
        bal = []
        for a, b in zip(c, c[1:]):
            n = 0
            for t in toks[bisect.bisect_right(lines, a):bisect.bisect_left(lines, b)]:
                if t.t == '{':
                    n += 1
                elif t.t == '}':
                    n -= 1
            bal.append(n)
        # Alternatives that open or close a block (each branch its own
        # function header, say) are read as the first one alone.
        if any(x != 0 for x in bal):
            drop.append((c[1], c[-1]))
    if not drop:
        return toks
    return [t for t in toks if not any(a < t.line < b for a, b in drop)]


def last_member(toks):
    """The field an argument like &x->y.z or x->f names, or None."""
    for i in range(len(toks) - 1, 0, -1):
        if toks[i].kind == 'id' and toks[i - 1].t in ('->', '.'):
            return toks[i].t
    return None


def split_args(toks, i):
    """toks[i] is '(': the argument token lists and the index after ')'."""
    depth, args, cur = 0, [], []
    j = i
    while j < len(toks):
        t = toks[j].t
        if t in '([{':
            depth += 1
            if depth > 1:
                cur.append(toks[j])
        elif t in ')]}':
            depth -= 1
            if depth == 0:
                if cur or args:
                    args.append(cur)
                return args, j + 1
            cur.append(toks[j])
        elif t == ',' and depth == 1:
            args.append(cur)
            cur = []
        else:
            cur.append(toks[j])
        j += 1
    return args, j


def split_text_args(text):
    """The pieces of text (an argument or parameter list without its
    parentheses, as spatch prints it) between its commas outside
    brackets, each stripped of blanks, their text kept as it is; an
    empty last piece is left out.  Read with the lexer: a comma or a
    bracket in a string, a character constant or a comment splits
    nothing."""
    out, depth, start = [], 0, 0
    for m in LEX.finditer(text):
        t = m.group()
        if m.lastgroup != 'op':
            continue
        if t in ('(', '[', '{'):
            depth += 1
        elif t in (')', ']', '}'):
            depth -= 1
        elif t == ',' and depth == 0:
            out.append(text[start:m.start()].strip())
            start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def opening(toks, j):
    """toks[j] is a ')': the index of its '(' (-1 when there is none)."""
    depth = 0
    k = j
    while k >= 0:
        if toks[k].t == ')':
            depth += 1
        elif toks[k].t == '(':
            depth -= 1
            if depth == 0:
                break
        k -= 1
    return k


def called_group(toks, j):
    """toks[j] is the ')' of a group right before '(': is the group an
    expression called as a function ((*fp)(x), (s->cb)(x)), not a cast
    ((unsigned long)(x))?"""
    k = opening(toks, j)
    inner = toks[k + 1:j]
    if not inner:
        return False
    if inner[0].t == '*':
        return True
    return any(x.t in ('->', '.', '[', '(') for x in inner)


# Type words of a declaration that are no name of their own.
TYPE_WORDS = set('''const volatile struct union enum unsigned signed __user
__iomem __rcu static register inline extern auto restrict __restrict
__percpu'''.split())
# Scalar types: a pointer to one holds no page reference (a count, a
# page frame number), a variable of one owns no pages.
SCALAR_TYPES = set('''char short int long unsigned signed bool _Bool float
double u8 u16 u32 u64 s8 s16 s32 s64 __u8 __u16 __u32 __u64 __s8 __s16
__s32 __s64 size_t ssize_t loff_t pgoff_t gfp_t dma_addr_t phys_addr_t
resource_size_t uintptr_t atomic_t atomic64_t'''.split())


def decl_kind(toks):
    """(name, kind) of one declarator with its type (the tokens of a
    parameter, or of a variable without its initializer): kind is
    'array' (an array: storage of its own), 'value' (a struct or union
    held by value), 'scalar' (a number), 'scalar_ptr' (a pointer to
    one: it holds no page reference) or 'ptr'; None when toks declare
    no name."""
    ids = [x for x in toks if x.kind == 'id' and x.t not in TYPE_WORDS]
    if not ids:
        return None
    name = ids[-1].t
    words = [x.t for x in toks]
    stars = words.count('*')
    if '[' in words:
        return name, 'array'
    types = [x.t for x in ids[:-1]] + \
        [w for w in words if w in ('unsigned', 'signed')]
    scalar = bool(types) and all(t in SCALAR_TYPES or t.endswith('_t') and
                                 t not in ('pte_t', 'pmd_t', 'pud_t')
                                 for t in types) and 'struct' not in words \
        and 'union' not in words
    if stars:
        return name, 'scalar_ptr' if scalar and stars == 1 else 'ptr'
    return name, 'scalar' if scalar else 'value'


def params_info(toks):
    """(name, kind) of each parameter of a parameter list (decl_kind())."""
    out, cur, depth = [], [], 0
    for t in toks + [Tok(',', 0, 'op')]:
        if t.t in '([':
            depth += 1
        elif t.t in ')]':
            depth -= 1
        if t.t == ',' and depth == 0:
            if not (len(cur) == 1 and cur[0].t == 'void'):
                d = decl_kind(cur)
                if d:
                    out.append(d)
            cur = []
        else:
            cur.append(t)
    return out


def params_of(toks):
    """Parameter names of a parameter list (the tokens inside the
    parentheses)."""
    names, cur, depth = [], [], 0
    for t in toks + [Tok(',', 0, 'op')]:
        if t.t in '([':
            depth += 1
        elif t.t in ')]':
            depth -= 1
        if t.t == ',' and depth == 0:
            ids = [x.t for x in cur if x.kind == 'id' and x.t not in
                   ('const', 'volatile', 'struct', 'union', 'enum',
                    'unsigned', 'signed', '__user', '__iomem', '__rcu')]
            if ids and not (len(cur) == 1 and cur[0].t == 'void'):
                names.append(ids[-1])
            cur = []
        else:
            cur.append(t)
    return names
