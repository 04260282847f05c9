# SPDX-License-Identifier: GPL-2.0
"""The protocol skeleton of C code, for tie.py.

C text (the preprocessor's output, or the fragments of C the model's notes
carry) is parsed into functions and tables, and each is rendered as a list
of lines in one canonical form:

  - one statement per line, its nesting depth instead of braces (so brace
    style and re-indenting change nothing), one declarator per line;
  - comments and whitespace gone, expressions printed with the least
    parentheses their precedence needs;
  - parameters and locals renamed to $0, $1, ... in order of first use (so
    renaming a local changes nothing); members and callees keep their names;
  - constants folded: an `if (0)` is dropped, an `if (1)` keeps its branch,
    `0 ? a : b`, __builtin_choose_expr() and
    __builtin_types_compatible_p(typeof(NULL), void *) are decided, and
    what follows a return, continue, break or goto in a block is dropped
    (so turning MIRROR_SKIP_INVALIDATION on removes the unmap it guards);
  - a table's designated initialisers sorted by member, NULL and 0 members
    dropped (an absent callback).

Each line keeps the origin of its first token (FILE:LINE in the C, the note
that carried it in the model) so that a difference can be reported where it
is.
"""
import re

TOKEN_RE = re.compile(r'''
    (?P<ws>\s+)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<chr>'(?:\\.|[^'\\\n])*')
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|
        \#\#|[][(){}.,;:?~!<>=+\-*/%&|^\#])
''', re.X | re.S)

TYPE_WORDS = {
    'void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed',
    'unsigned', '_Bool', 'bool', 'struct', 'union', 'enum', 'const',
    'volatile', 'static', 'inline', 'extern', 'register', 'restrict',
    'typeof', '__typeof__', 'u8', 'u16', 'u32', 'u64', 's8', 's16', 's32',
    's64', 'size_t', 'ssize_t', 'uintptr_t', 'gfp_t', 'pgoff_t',
    'spinlock_t', 'wait_queue_head_t', 'atomic_t', 'atomic_long_t',
}
KEYWORDS = {'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'default',
            'return', 'break', 'continue', 'goto', 'sizeof'}


class ParseError(Exception):
    pass


class Tok:
    __slots__ = ('kind', 'text', 'origin')

    def __init__(self, kind, text, origin):
        self.kind, self.text, self.origin = kind, text, origin

    def __repr__(self):
        return 'Tok(%r)' % self.text


def tokenize(text, origin):
    """Tokens of TEXT; origin(offset) gives each token's origin."""
    out = []
    pos = 0
    while pos < len(text):
        m = TOKEN_RE.match(text, pos)
        if not m:
            raise ParseError('cannot read %r' % text[pos:pos + 20])
        kind = m.lastgroup
        if kind not in ('ws', 'comment'):
            out.append(Tok(kind, m.group(kind), origin(pos)))
        pos = m.end()
    return out


def tokenize_cpp(output):
    """Tokens of the preprocessor's output, each with origin (FILE, LINE)
    from its line markers."""
    toks = []
    fname, line = '?', 1
    for raw in output.split('\n'):
        m = re.match(r'#\s*(\d+)\s+"([^"]*)"', raw)
        if m:
            line, fname = int(m.group(1)), m.group(2)
            continue
        if raw.startswith('#'):
            line += 1
            continue
        here = (fname, line)
        toks.extend(tokenize(raw, lambda _pos, h=here: h))
        line += 1
    return toks


# ---------------------------------------------------------------- parsing

class Node:
    """An expression: kind is id, lit, type, unary, post, binary, ternary,
    call, index, member, cast, init, sizeof."""
    __slots__ = ('kind', 'a', 'b', 'c', 'origin')

    def __init__(self, kind, a=None, b=None, c=None, origin=None):
        self.kind, self.a, self.b, self.c, self.origin = kind, a, b, c, origin


BINARY = {
    ',': 1, '=': 2, '+=': 2, '-=': 2, '*=': 2, '/=': 2, '%=': 2, '&=': 2,
    '|=': 2, '^=': 2, '<<=': 2, '>>=': 2, '?': 3, '||': 4, '&&': 5,
    '|': 6, '^': 7, '&': 8, '==': 9, '!=': 9, '<': 10, '>': 10, '<=': 10,
    '>=': 10, '<<': 11, '>>': 11, '+': 12, '-': 12, '*': 13, '/': 13,
    '%': 13,
}
UNARY_PREC = 14
POSTFIX_PREC = 15


# what ends a declarator in a declaration (at bracket depth 0)
DECLARATOR_END = ('=', ',', ';')


class Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    # token helpers
    def peek(self, k=0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def text(self, k=0):
        t = self.peek(k)
        return t.text if t else None

    def next(self):
        t = self.peek()
        if t is None:
            raise ParseError('unexpected end of text')
        self.i += 1
        return t

    def expect(self, text):
        t = self.next()
        if t.text != text:
            raise ParseError('expected %r, found %r (%s)' %
                             (text, t.text, origin_str(t.origin)))
        return t

    def accept(self, text):
        if self.text() == text:
            self.i += 1
            return True
        return False

    def balanced(self):
        """Tokens from an opening bracket to its match (excluded both)."""
        opening = self.next().text
        closing = {'(': ')', '[': ']', '{': '}'}[opening]
        depth, out = 1, []
        while True:
            t = self.next()
            if t.text in '([{':
                depth += 1
            elif t.text in ')]}':
                depth -= 1
                if depth == 0:
                    if t.text != closing:
                        raise ParseError('unbalanced %r' % t.text)
                    return out
            out.append(t)

    # types
    def at_type(self, k=0):
        t = self.peek(k)
        return t is not None and t.kind == 'id' and t.text in TYPE_WORDS

    def until(self, stop, what):
        """The tokens up to (not including) a token in STOP at depth 0;
        WHAT names them in the error when the text ends first."""
        out, depth = [], 0
        while True:
            t = self.peek()
            if t is None:
                raise ParseError('unterminated ' + what)
            if depth == 0 and t.text in stop:
                return out
            if t.text in '([{':
                depth += 1
            elif t.text in ')]}':
                depth -= 1
            out.append(self.next())

    def type_name(self, stop):
        """A type name up to (not including) a token in STOP at depth 0."""
        out = self.until(stop, 'type name')
        return Node('type', ' '.join(x.text for x in out),
                    origin=out[0].origin if out else None)

    # expressions
    def expr(self, min_prec=1):
        left = self.unary()
        while True:
            op = self.text()
            prec = BINARY.get(op)
            if prec is None or prec < min_prec:
                return left
            t = self.next()
            if op == '?':
                mid = self.expr(1)
                self.expect(':')
                right = self.expr(3)
                left = Node('ternary', left, mid, right, t.origin)
            elif prec == 2:
                left = Node('binary', op, left, self.expr(2), t.origin)
            else:
                left = Node('binary', op, left, self.expr(prec + 1),
                            t.origin)

    def unary(self):
        t = self.peek()
        if t is None:
            raise ParseError('expression expected')
        if t.text in ('!', '~', '-', '+', '*', '&', '++', '--'):
            self.next()
            return Node('unary', t.text, self.unary(), origin=t.origin)
        if t.text in ('sizeof', '_Alignof'):
            self.next()
            if self.text() == '(' and self.at_type(1):
                self.next()
                ty = self.type_name(')')
                self.expect(')')
                return Node('sizeof', t.text, ty, origin=t.origin)
            return Node('sizeof', t.text, self.unary(), origin=t.origin)
        if t.text == '(' and self.at_type(1):
            self.next()
            ty = self.type_name(')')
            self.expect(')')
            if self.text() == '{':
                return self.postfix(Node('cast', ty, self.initializer(),
                                         origin=t.origin))
            return Node('cast', ty, self.unary(), origin=t.origin)
        return self.postfix(self.primary())

    def primary(self):
        t = self.next()
        if t.kind == 'id':
            if t.text in ('typeof', '__typeof__'):
                self.expect('(')
                if self.at_type():
                    inner = self.type_name(')')
                else:
                    inner = self.expr()
                self.expect(')')
                return Node('call', Node('id', t.text, origin=t.origin),
                            [inner], origin=t.origin)
            return Node('id', t.text, origin=t.origin)
        if t.kind in ('num', 'chr'):
            return Node('lit', t.text, origin=t.origin)
        if t.kind == 'str':
            text = t.text
            while self.peek() is not None and self.peek().kind == 'str':
                text = text[:-1] + self.next().text[1:]
            return Node('lit', text, origin=t.origin)
        if t.text == '(':
            e = self.expr()
            self.expect(')')
            return e
        if t.text == '{':
            self.i -= 1
            return self.initializer()
        raise ParseError('unexpected %r (%s)' % (t.text, origin_str(t.origin)))

    def postfix(self, e):
        while True:
            t = self.peek()
            if t is None:
                return e
            if t.text == '(':
                self.next()
                args = []
                if not self.accept(')'):
                    while True:
                        if self.at_type():
                            args.append(self.type_name(',)'))
                        else:
                            args.append(self.expr(2))
                        if self.accept(')'):
                            break
                        self.expect(',')
                e = Node('call', e, args, origin=e.origin)
            elif t.text == '[':
                self.next()
                idx = self.expr()
                self.expect(']')
                e = Node('index', e, idx, origin=e.origin)
            elif t.text in ('.', '->'):
                self.next()
                e = Node('member', t.text, e, self.next().text, e.origin)
            elif t.text in ('++', '--'):
                self.next()
                e = Node('post', t.text, e, origin=e.origin)
            else:
                return e

    def initializer(self):
        """A brace initialiser: items (designator or None, value)."""
        start = self.expect('{')
        items = []
        while not self.accept('}'):
            desig = None
            if self.text() == '.' and self.peek(1).kind == 'id':
                self.next()
                name = self.next()
                desig = Node('id', '.' + name.text, origin=name.origin)
                self.expect('=')
            elif self.text() == '[':
                self.next()
                desig = Node('index', None, self.expr(), origin=start.origin)
                self.expect(']')
                self.expect('=')
            if self.text() == '{':
                value = self.initializer()
            else:
                value = self.expr(2)
            items.append((desig, value))
            if not self.accept(','):
                self.expect('}')
                break
        return Node('init', items, origin=start.origin)

    # statements
    def condition(self):
        """"( EXPR )", as after if, while and switch."""
        self.expect('(')
        e = self.expr()
        self.expect(')')
        return e

    def block(self):
        self.expect('{')
        out = []
        while not self.accept('}'):
            out.append(self.statement())
        return out

    def is_declaration(self):
        t0, t1 = self.peek(), self.peek(1)
        if t0 is None or t0.kind != 'id' or t0.text in KEYWORDS:
            return False
        if t0.text in TYPE_WORDS:
            return True
        if t1 is not None and t1.kind == 'id':
            return True
        # "type *name": a pointer declaration, never a useful product
        return (t1 is not None and t1.text == '*' and
                self.peek(2) is not None and self.peek(2).kind == 'id' and
                self.text(3) in (';', '=', ',', '['))

    def declaration(self):
        """Declarators of one declaration: (type, stars+name+suffix, name,
        initialiser or None, origin)."""
        base, first = split_declarator(self.until(DECLARATOR_END,
                                                  'declaration'))
        decls = []
        declarator = first
        while True:
            init = None
            if self.accept('='):
                init = self.initializer() if self.text() == '{' else \
                    self.expr(2)
            decls.append((base, declarator, init))
            if self.accept(';'):
                return decls
            self.expect(',')
            declarator = self.until(DECLARATOR_END, 'declaration')

    def statement(self):
        t = self.peek()
        if t is None:
            raise ParseError('statement expected')
        w = t.text
        o = t.origin
        if w == '{':
            return ('block', self.block(), o)
        if w == ';':
            self.next()
            return ('empty', None, o)
        if w == 'if':
            self.next()
            cond = self.condition()
            then = self.statement()
            other = None
            if self.accept('else'):
                other = self.statement()
            return ('if', (cond, then, other), o)
        if w == 'for':
            self.next()
            self.expect('(')
            clauses = []
            for end in (';', ';', ')'):
                if self.accept(end):
                    clauses.append(None)
                    continue
                if end == ';' and not clauses and self.is_declaration():
                    clauses.append(('decl', self.declaration()))
                    continue
                clauses.append(self.expr())
                self.expect(end)
            return ('for', (clauses, self.statement()), o)
        if w in ('while', 'switch'):
            self.next()
            cond = self.condition()
            return (w, (cond, self.statement()), o)
        if w == 'do':
            self.next()
            body = self.statement()
            self.expect('while')
            cond = self.condition()
            self.expect(';')
            return ('do', (body, cond), o)
        if w == 'case':
            self.next()
            e = self.expr(3)
            self.expect(':')
            return ('case', e, o)
        if w == 'default' and self.text(1) == ':':
            self.next()
            self.next()
            return ('default', None, o)
        if w == 'return':
            self.next()
            e = None if self.text() == ';' else self.expr()
            self.expect(';')
            return ('return', e, o)
        if w in ('break', 'continue'):
            self.next()
            self.expect(';')
            return (w, None, o)
        if w == 'goto':
            self.next()
            label = self.next().text
            self.expect(';')
            return ('goto', label, o)
        if t.kind == 'id' and self.text(1) == ':' and w not in KEYWORDS:
            self.next()
            self.next()
            return ('label', w, o)
        if t.kind == 'id' and self.text(1) == '(' and w not in KEYWORDS:
            # NAME(...) { ... }: an iterator macro (radix_tree_for_each_slot)
            j = matching(self.toks, self.i + 1, '(', ')')
            if j + 1 < len(self.toks) and self.toks[j + 1].text == '{':
                self.next()
                self.expect('(')
                self.i -= 1
                args = Parser(self.balanced())
                arglist = []
                while args.peek() is not None:
                    arglist.append(args.expr(2))
                    args.accept(',')
                return ('iter', (w, arglist, self.statement()), o)
        if self.is_declaration():
            return ('decl', self.declaration(), o)
        e = self.expr()
        self.expect(';')
        return ('expr', e, o)


def split_declarator(toks):
    """(type tokens, declarator tokens) of "TYPE [*]NAME[SUFFIX]"."""
    k = len(toks) - 1
    while k >= 0 and toks[k].text == ']':
        while toks[k].text != '[':
            k -= 1
        k -= 1
    if k < 0 or toks[k].kind != 'id':
        raise ParseError('no declarator name in %s' %
                         ' '.join(t.text for t in toks))
    j = k
    while j > 0 and toks[j - 1].text == '*':
        j -= 1
    return toks[:j], toks[j:]


def declarator_name(declarator):
    for t in declarator:
        if t.kind == 'id':
            return t.text
    return None


def top_level(toks):
    """Objects defined in a translation unit: {name: (kind, head, body)}
    with kind 'function' (head tokens, body tokens), 'table' (head
    tokens, initialiser tokens) or 'struct' (named "struct TAG": head
    tokens, member list tokens). Prototypes and other declarations are
    skipped."""
    objects = {}
    i, n = 0, len(toks)
    while i < n:
        start = i
        depth = 0
        while i < n:
            x = toks[i].text
            if depth == 0 and x == ';':
                break
            if depth == 0 and x == '{':
                prev = toks[i - 1].text if i > start else ''
                if prev == ')':
                    break
                if prev == '=':
                    break
                if i - start == 2 and toks[start].text in ('struct',
                                                           'union'):
                    break
            if x in '([{':
                depth += 1
            elif x in ')]}':
                depth -= 1
            i += 1
        if i >= n:
            break
        head = toks[start:i]
        if toks[i].text == ';':
            i += 1
            continue
        # a body or an initialiser: find its end
        j = matching(toks, i, '{', '}')
        body = toks[i:j + 1]
        if len(head) == 2 and head[0].text in ('struct', 'union'):
            objects['%s %s' % (head[0].text, head[1].text)] = \
                ('struct', head, body)
            i = j + 1
            while i < n and toks[i].text != ';':
                i += 1
            i += 1
        elif head and head[-1].text == ')':
            name = function_name(head)
            if name:
                objects[name] = ('function', head, body)
            i = j + 1
        else:
            # "... NAME = { ... };"
            name = head[-2].text if len(head) >= 2 else None
            if name:
                objects[name] = ('table', head[:-1], body)
            i = j + 1
            while i < n and toks[i].text != ';':
                i += 1
            i += 1
    return objects


def function_name(head):
    """The name before the parameter list that ends HEAD."""
    k = matching(head, len(head) - 1, ')', '(', -1)
    return head[k - 1].text if k > 0 and head[k - 1].kind == 'id' else None


def matching(toks, i, opening, closing, step=1):
    """From toks[i] on, in STEP's direction: the index of the CLOSING
    token that brings the OPENING ones back to depth 0 (len(toks), or -1
    going back, when there is none)."""
    depth = 0
    while 0 <= i < len(toks):
        if toks[i].text == opening:
            depth += 1
        elif toks[i].text == closing:
            depth -= 1
            if depth == 0:
                return i
        i += step
    return i


# ---------------------------------------------------------------- folding

def int_value(node):
    if node is None or node.kind != 'lit':
        return None
    m = re.fullmatch(r'(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*', node.a)
    if not m:
        return None
    return int(m.group(1), 0)


def lit(value, origin):
    return Node('lit', str(int(value)), origin=origin)


def fold(e):
    """E with its constant parts decided."""
    if e is None or not isinstance(e, Node):
        return e
    k = e.kind
    if k == 'unary':
        e.b = fold(e.b)
        v = int_value(e.b)
        if v is not None and e.a in ('!', '~', '-', '+'):
            return lit({'!': not v, '~': ~v, '-': -v, '+': v}[e.a], e.origin)
        return e
    if k == 'binary':
        e.b, e.c = fold(e.b), fold(e.c)
        x, y = int_value(e.b), int_value(e.c)
        if e.a == '&&' and (x == 0 or (y == 0 and side_effect_free(e.b))):
            return lit(0, e.origin)
        if e.a == '||' and x not in (None, 0):
            return lit(1, e.origin)
        if x is not None and y is not None:
            ops = {'&&': lambda: x and y, '||': lambda: x or y,
                   '&': lambda: x & y, '|': lambda: x | y,
                   '^': lambda: x ^ y, '==': lambda: x == y,
                   '!=': lambda: x != y, '<': lambda: x < y,
                   '>': lambda: x > y, '<=': lambda: x <= y,
                   '>=': lambda: x >= y, '+': lambda: x + y,
                   '-': lambda: x - y, '*': lambda: x * y,
                   '<<': lambda: x << y, '>>': lambda: x >> y}
            if e.a in ops:
                return lit(ops[e.a](), e.origin)
        return e
    if k == 'ternary':
        e.a, e.b, e.c = fold(e.a), fold(e.b), fold(e.c)
        v = int_value(e.a)
        if v is not None:
            return e.b if v else e.c
        return e
    if k == 'call':
        e.a = fold(e.a)
        e.b = [fold(x) for x in e.b]
        if e.a.kind == 'id':
            name = e.a.a
            if name == '__builtin_choose_expr' and len(e.b) == 3:
                v = int_value(e.b[0])
                if v is not None:
                    return e.b[1] if v else e.b[2]
            if name == '__builtin_types_compatible_p' and len(e.b) == 2:
                v = void_pointer_test(e.b[0], e.b[1])
                if v is not None:
                    return lit(v, e.origin)
        return e
    if k in ('index', 'cast'):
        e.a, e.b = fold(e.a), fold(e.b)
        return e
    if k in ('member', 'post', 'sizeof'):
        e.b = fold(e.b)
        return e
    if k == 'init':
        e.a = [(d, fold(v)) for d, v in e.a]
        return e
    return e


def side_effect_free(e):
    return e.kind in ('id', 'lit')


def void_pointer_test(a, b):
    """__builtin_types_compatible_p(typeof(X), void *): 1 for X = NULL, 0
    for X a function name (a callback argument of compat's macros)."""
    if b.kind != 'type' or b.a.replace(' ', '') != 'void*':
        return None
    if a.kind == 'type':
        m = re.fullmatch(r'(?:typeof|__typeof__) \( (.*) \)', a.a)
        if not m:
            return None
        x = Node('id', m.group(1)) if re.fullmatch(r'\w+', m.group(1)) \
            else None
        if x is None:
            return 1 if m.group(1).replace(' ', '') in (
                '((void*)0)', '(void*)0') else None
    elif a.kind == 'call' and a.a.kind == 'id' and \
            a.a.a in ('typeof', '__typeof__') and len(a.b) == 1:
        x = a.b[0]
    else:
        return None
    if x.kind == 'id':
        return 1 if x.a == 'NULL' else 0
    if x.kind == 'cast' and x.a.a.replace(' ', '') == 'void*' and \
            int_value(x.b) == 0:
        return 1
    return None


def fold_statements(stmts):
    """Statements with constant conditions decided and unreachable
    statements (after a jump, before the next label) dropped."""
    out = []
    dead = False
    for s in stmts:
        kind = s[0]
        if kind in ('label', 'case', 'default'):
            dead = False
        if dead:
            continue
        for x in fold_statement(s):
            out.append(x)
            if x[0] in ('return', 'break', 'continue', 'goto'):
                dead = True
    return out


def fold_statement(s):
    kind, v, o = s
    if kind == 'block':
        return [('block', fold_statements(v), o)]
    if kind == 'if':
        cond, then, other = v
        cond = fold(cond)
        c = int_value(cond)
        if c is not None:
            branch = then if c else other
            if branch is None:
                return []
            return fold_statement(branch) if branch[0] != 'block' else \
                fold_statements(branch[1])
        then = folded_block(then)
        if other is not None:
            other = folded_block(other)
        return [('if', (cond, then, other), o)]
    if kind == 'for':
        clauses, body = v
        clauses = [c if (c is None or isinstance(c, tuple)) else fold(c)
                   for c in clauses]
        return [('for', (clauses, folded_block(body)), o)]
    if kind == 'while':
        cond, body = v
        cond = fold(cond)
        if int_value(cond) == 0:
            return []
        return [('while', (cond, folded_block(body)), o)]
    if kind == 'do':
        body, cond = v
        cond = fold(cond)
        if int_value(cond) == 0:
            return fold_statements(as_list(body))
        return [('do', (folded_block(body), cond), o)]
    if kind == 'switch':
        e, body = v
        return [('switch', (fold(e), folded_block(body)), o)]
    if kind == 'iter':
        name, args, body = v
        return [('iter', (name, [fold(a) for a in args],
                          folded_block(body)), o)]
    if kind in ('return', 'expr', 'case'):
        return [(kind, fold(v), o)]
    if kind == 'decl':
        return [('decl', [(b, d, fold(i)) for b, d, i in v], o)]
    if kind == 'empty':
        return []
    return [s]


def as_list(s):
    return s[1] if s[0] == 'block' else [s]


def folded_block(s):
    """Statement S, folded, as a block (at S's origin)."""
    return ('block', fold_statements(as_list(s)), s[2])


# -------------------------------------------------------------- rendering

class Names:
    """Canonical names of parameters and locals: $0, $1, ... by first use."""

    def __init__(self, local_names):
        self.local = set(local_names)
        self.map = {}

    def __call__(self, name):
        if name not in self.local:
            return name
        if name not in self.map:
            self.map[name] = '$%d' % len(self.map)
        return self.map[name]


def render(e, names, prec=0):
    """E as canonical text; parentheses only where PREC needs them."""
    k = e.kind
    if k == 'id':
        return names(e.a)
    if k == 'lit':
        v = int_value(e)
        return str(v) if v is not None else e.a
    if k == 'type':
        return e.a
    if k == 'unary':
        s = e.a + render(e.b, names, UNARY_PREC)
        return paren(s, UNARY_PREC, prec)
    if k == 'sizeof':
        inner = render(e.b, names, 0)
        return '%s(%s)' % (e.a, inner)
    if k == 'cast':
        s = '(%s)%s' % (e.a.a, render(e.b, names, UNARY_PREC))
        return paren(s, UNARY_PREC, prec)
    if k == 'post':
        return render(e.b, names, POSTFIX_PREC) + e.a
    if k == 'member':
        return render(e.b, names, POSTFIX_PREC) + e.a + e.c
    if k == 'index':
        return '%s[%s]' % (render(e.a, names, POSTFIX_PREC),
                           render(e.b, names, 0))
    if k == 'call':
        return '%s(%s)' % (render(e.a, names, POSTFIX_PREC),
                           ', '.join(render(a, names, 2) for a in e.b))
    if k == 'binary':
        p = BINARY[e.a]
        if p == 2:
            s = '%s %s %s' % (render(e.b, names, p + 1), e.a,
                              render(e.c, names, p))
        elif e.a == ',':
            s = '%s, %s' % (render(e.b, names, p), render(e.c, names, p + 1))
        else:
            s = '%s %s %s' % (render_operand(e.b, names, p, e.a), e.a,
                              render_operand(e.c, names, p + 1, e.a))
        return paren(s, p, prec)
    if k == 'ternary':
        s = '%s ? %s : %s' % (render(e.a, names, 4), render(e.b, names, 1),
                              render(e.c, names, 3))
        return paren(s, 3, prec)
    if k == 'init':
        items = []
        for d, v in sorted_items(e.a):
            val = render(v, names, 2)
            if d is None:
                items.append(val)
            elif d.kind == 'id':
                items.append('%s = %s' % (d.a, val))
            else:
                items.append('[%s] = %s' % (render(d.b, names, 0), val))
        return '{ %s }' % ', '.join(items) if items else '{ }'
    raise ParseError('cannot render %s' % k)


def render_operand(e, names, prec, parent):
    """An operand of binary operator PARENT: an operand of a shift or
    bitwise operator that is itself another binary operation gets
    parentheses, needed or not, so that `(end - 1) >> PAGE_SHIFT` reads as
    it is written."""
    if e.kind == 'binary' and BINARY[parent] in (6, 7, 8, 11) and \
            BINARY[e.a] > 4 and e.a != parent:
        return '(%s)' % render(e, names, 0)
    return render(e, names, prec)


def sorted_items(items):
    """Designated initialisers by member, NULL and 0 members dropped."""
    if items and all(d is not None and d.kind == 'id' for d, _ in items):
        kept = [(d, v) for d, v in items if not is_null(v)]
        return sorted(kept, key=lambda dv: dv[0].a)
    return items


def is_null(v):
    return (v.kind == 'id' and v.a == 'NULL') or int_value(v) == 0


def paren(s, own, outer):
    return '(%s)' % s if own < outer else s


def tokens_text(toks, names):
    out = []
    prev = None
    for t in toks:
        text = t.text
        if t.kind == 'id' and prev not in ('.', '->'):
            text = names(text)
        out.append(text)
        prev = t.text
    return join_tokens(out)


def join_tokens(words):
    s = ' '.join(words)
    s = re.sub(r' ?([(\[]) ?', r'\1', s)
    s = re.sub(r' ([)\],;])', r'\1', s)
    s = re.sub(r'(\*+) ', r'\1', s)
    return s


class Line:
    __slots__ = ('depth', 'text', 'origin', 'shown')

    def __init__(self, depth, text, origin, shown):
        self.depth, self.text, self.origin, self.shown = \
            depth, text, origin, shown

    def key(self):
        return '%s%s' % ('  ' * self.depth, self.text)


def local_names(head, stmts):
    """Parameter and local variable names of a function."""
    names = set()
    # parameters: the last identifier of each parameter declaration
    depth = 0
    params = []
    cur = []
    for t in head[head_param_start(head):]:
        if t.text == '(':
            depth += 1
            if depth == 1:
                continue
        elif t.text == ')':
            depth -= 1
            if depth == 0:
                params.append(cur)
                break
        if depth == 1 and t.text == ',':
            params.append(cur)
            cur = []
            continue
        cur.append(t)
    for p in params:
        ids = [t.text for t in p if t.kind == 'id' and
               t.text not in TYPE_WORDS]
        if len(ids) >= 2 or (ids and any(t.text in TYPE_WORDS for t in p)):
            names.add(ids[-1])

    def walk(ss):
        for s in ss:
            kind, v, _ = s
            if kind == 'decl':
                for _, d, _ in v:
                    names.add(declarator_name(d))
            elif kind == 'block':
                walk(v)
            elif kind == 'if':
                walk(as_list(v[1]))
                if v[2] is not None:
                    walk(as_list(v[2]))
            elif kind == 'for':
                if v[0][0] and isinstance(v[0][0], tuple):
                    for _, d, _ in v[0][0][1]:
                        names.add(declarator_name(d))
                walk(as_list(v[1]))
            elif kind in ('while', 'switch'):
                walk(as_list(v[1]))
            elif kind == 'do':
                walk(as_list(v[0]))
            elif kind == 'iter':
                walk(as_list(v[2]))
    walk(stmts)
    return names


def head_param_start(head):
    return max(0, matching(head, len(head) - 1, ')', '(', -1))


def render_statements(stmts, depth, names, out):
    for s in stmts:
        kind, v, o = s
        if kind == 'block':
            out.append(Line(depth, '{', o, '{'))
            render_statements(v, depth + 1, names, out)
        elif kind == 'expr':
            out.append(Line(depth, render(v, names) + ';', o, None))
        elif kind == 'decl':
            for base, d, init in v:
                text = '%s %s' % (tokens_text(base, names),
                                  tokens_text(d, names))
                if init is not None:
                    text += ' = ' + render(init, names, 2)
                out.append(Line(depth, text + ';', d[0].origin if d else o,
                                None))
        elif kind == 'if':
            cond, then, other = v
            out.append(Line(depth, 'if (%s)' % render(cond, names), o, None))
            render_statements(as_list(then), depth + 1, names, out)
            if other is not None:
                out.append(Line(depth, 'else', other[2], None))
                render_statements(as_list(other), depth + 1, names, out)
        elif kind == 'for':
            clauses, body = v
            parts = []
            for c in clauses:
                if c is None:
                    parts.append('')
                elif isinstance(c, tuple):
                    parts.append(', '.join(
                        '%s %s%s' % (tokens_text(b, names),
                                     tokens_text(d, names),
                                     '' if i is None else
                                     ' = ' + render(i, names, 2))
                        for b, d, i in c[1]))
                else:
                    parts.append(render(c, names))
            text = 'for (%s; %s; %s)' % tuple(parts)
            out.append(Line(depth, 'for (;;)' if text == 'for (; ; )' else
                            text, o, None))
            render_statements(as_list(body), depth + 1, names, out)
        elif kind == 'while':
            out.append(Line(depth, 'while (%s)' % render(v[0], names), o,
                            None))
            render_statements(as_list(v[1]), depth + 1, names, out)
        elif kind == 'do':
            out.append(Line(depth, 'do', o, None))
            render_statements(as_list(v[0]), depth + 1, names, out)
            out.append(Line(depth, 'while (%s);' % render(v[1], names), o,
                            None))
        elif kind == 'switch':
            out.append(Line(depth, 'switch (%s)' % render(v[0], names), o,
                            None))
            render_statements(as_list(v[1]), depth + 1, names, out)
        elif kind == 'iter':
            name, args, body = v
            out.append(Line(depth, '%s(%s)' % (
                name, ', '.join(render(a, names, 2) for a in args)), o,
                None))
            render_statements(as_list(body), depth + 1, names, out)
        elif kind == 'case':
            out.append(Line(depth, 'case %s:' % render(v, names), o, None))
        elif kind == 'default':
            out.append(Line(depth, 'default:', o, None))
        elif kind == 'label':
            out.append(Line(depth, '%s:' % v, o, None))
        elif kind == 'return':
            text = 'return;' if v is None else 'return %s;' % render(v, names)
            out.append(Line(depth, text, o, None))
        elif kind in ('break', 'continue'):
            out.append(Line(depth, kind + ';', o, None))
        elif kind == 'goto':
            out.append(Line(depth, 'goto %s;' % v, o, None))
        elif kind == 'empty':
            pass
        else:
            raise ParseError('cannot render statement %s' % kind)


def skeleton(kind, head, body):
    """The canonical lines of one object (see the module's docstring):
    twice, with canonical names (to compare) and with the source's own
    names (to show)."""
    result = []
    for canonical in (True, False):
        if kind == 'function':
            p = Parser(body)
            stmts = fold_statements(p.block())
            if p.peek() is not None:
                raise ParseError('text after the function body')
            locs = local_names(head, stmts)
            names = Names(locs if canonical else ())
            lines = [Line(0, tokens_text(head, names), head_origin(head),
                          None)]
            render_statements(stmts, 1, names, lines)
        elif kind == 'struct':
            p = Parser(body[1:-1])
            names = Names(())
            lines = [Line(0, tokens_text(head, names), head_origin(head),
                          None)]
            while p.peek() is not None:
                for base, d, init in p.declaration():
                    lines.append(Line(1, '%s %s;' % (tokens_text(base, names),
                                                     tokens_text(d, names)),
                                      d[0].origin, None))
        else:
            p = Parser(body)
            init = fold(p.initializer())
            names = Names(())
            lines = [Line(0, tokens_text(head, names) + ' =',
                          head_origin(head), None)]
            for d, v in sorted_items(init.a):
                label = d.a if d is not None and d.kind == 'id' else '?'
                lines.append(Line(1, '%s = %s,' % (label, render(v, names, 2)),
                                  d.origin if d is not None else v.origin,
                                  None))
        result.append(lines)
    canon, shown = result
    for c, s in zip(canon, shown):
        c.shown = s.key().strip()
    return canon


def head_origin(head):
    k = head_param_start(head)
    if k > 0:
        return head[k - 1].origin
    for t in reversed(head):
        if t.kind == 'id':
            return t.origin
    return head[0].origin if head else None


def referenced_names(lines):
    """Identifiers a skeleton mentions (to follow calls and tables)."""
    found = set()
    for line in lines:
        text = re.sub(r'\b(?:struct|union|enum)\s+\w+', '', line.text)
        text = re.sub(r'"(?:\\.|[^"\\])*"', '', text)
        for m in re.finditer(r'(?<![.>$\w])([A-Za-z_]\w*)', text):
            found.add(m.group(1))
    return found


def origin_str(origin):
    if isinstance(origin, tuple):
        return '%s:%s' % origin
    return str(origin)
