#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Function definitions whose header an #if/#else splits, made whole per
branch, before the series runs (convert.sh does it; tests/run.sh for a
case whose spec says "unsplit").

Usage: unsplit.py C-FILE...

A vendor who keeps one source for several kernels may write a
callback's header twice, under #if/#else, each branch opening the body
that follows the #endif (XPMEM's range_end, the Dune port of 2022), or
put the #if inside the header's parameter list.  No C parser sees a
function there: spatch reads one branch, and the braces of the file do
not balance in the others.  The conditions need not be versions: the
rewrite is the preprocessor's own, so the compiler sees the same code
in every configuration.  Each such definition becomes one whole
definition per branch of the chain, under the chain's own directives:

    #if C                           #if C
    int f(new args)                 int f(new args)
    {                               {
            a = ...;                        a = ...;
    #else                    ->             body;
    void f(old args)                }
    {                               #else
    #endif                          void f(old args)
            body;                   {
    }                                       body;
                                    }
                                    #endif

An #elif chain gets a definition per branch too.  Inside each copy of
an #if/#else, an #if on the very same condition (#if C ... #else ...
#endif, or its #ifdef form) is resolved as that branch knows it.  The
file is changed in place; one note per definition made whole is printed
on stdout as "FILE:LINE: [guard] ..." (not a review item).
"""

import re
import sys

CPP = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$')


# What strip_code() takes out of a line, found by one search each: a
# comment's start, a // comment, a string or character constant (an
# unterminated one, or one a backslash continues, runs to the line's end).
NOT_CODE = re.compile(r'/\*|//|"(?:[^"\\]|\\.)*(?:"|\\?$)|\'(?:[^\'\\]|\\.)*(?:\'|\\?$)')


def strip_code(line, in_comment):
    """The code of a line without comments, strings and character
    constants, and whether a comment is still open after it."""
    out, i, n = [], 0, len(line)
    while i < n:
        if in_comment:
            k = line.find('*/', i)
            if k < 0:
                return ''.join(out), True
            i, in_comment = k + 2, False
            continue
        m = NOT_CODE.search(line, i)
        if not m:
            out.append(line[i:])
            break
        out.append(line[i:m.start()])
        if m.group() == '//':
            break
        in_comment = m.group() == '/*'
        i = m.end()
    return ''.join(out), in_comment


def code_lines(lines, lo, hi):
    """lines[lo:hi] without preprocessor lines (a directive, or a line a
    #define's backslash continues): a #define under #if/#else is no
    header, whatever its text ends with."""
    out, cont = [], False
    for ln in lines[lo:hi]:
        if cont or re.match(r'^\s*#', ln):
            cont = ln.rstrip().endswith('\\')
            continue
        out.append(ln)
    return out


def code_text(lines, lo, hi):
    """The code of code_lines(lines, lo, hi), comments and strings out,
    one line per line."""
    out, com = [], False
    for ln in code_lines(lines, lo, hi):
        code, com = strip_code(ln, com)
        out.append(code)
    return '\n'.join(out)


DIRECTIVE = re.compile(r'\s*#')


def braces(lines):
    """The brace delta of each line (directive lines count 0)."""
    out, com = [], False
    for ln in lines:
        if not com:
            if DIRECTIVE.match(ln):
                out.append(0)
                continue
            # (nothing for strip_code() to take out: most lines)
            if '/' not in ln and '"' not in ln and "'" not in ln:
                out.append(ln.count('{') - ln.count('}'))
                continue
        code, com = strip_code(ln, com)
        out.append(code.count('{') - code.count('}'))
    return out


def chains(lines):
    """The #if chains: [if line, branch lines..., endif line] and the
    condition text of each, in the order of their #if; nested ones too."""
    out, stack = [], []
    for i, ln in enumerate(lines):
        m = CPP.match(ln)
        if not m:
            continue
        w = m.group(1)
        if w in ('if', 'ifdef', 'ifndef'):
            stack.append({'marks': [i], 'words': [w],
                          'cond': ' '.join(m.group(2).split())})
        elif w in ('elif', 'else') and stack:
            stack[-1]['marks'].append(i)
            stack[-1]['words'].append(w)
        elif w == 'endif' and stack:
            c = stack.pop()
            c['marks'].append(i)
            c['depth'] = len(stack)
            out.append(c)
    out.sort(key=lambda c: c['marks'][0])
    return out


def statement_start(lines, delta, i):
    """The first line of the declaration or statement that the chain at
    line i is part of: a function header split by it, a macro call whose
    arguments it splits (i itself when it starts in the chain)."""
    k = i
    while k > 0:
        prev = lines[k - 1]
        if not prev.strip() or CPP.match(prev):
            break
        code, _ = strip_code(prev, False)
        s = code.strip()
        if not s or s.endswith((';', '}', '{', '*/', ':')) or \
                prev.rstrip().endswith('*/') or delta[k - 1] != 0:
            break
        k -= 1
    return k


NEGATED = (('<', '>='), ('>', '<='), ('==', '!='))


def negation(cond):
    """The condition that is true where cond is false, as a vendor
    writes it (A < B / A >= B, A > B / A <= B), or None."""
    for x, y in NEGATED:
        for p, q in ((x, y), (y, x)):
            parts = cond.split(' %s ' % p)
            if len(parts) == 2:
                return '%s %s %s' % (parts[0], q, parts[1])
    return None


def cond_of(d):
    """(word, condition) of chain d, #ifdef/#ifndef as #if [!]defined."""
    w, c = d['words'][0], d['cond']
    if w == 'ifdef':
        return 'defined(%s)' % c
    if w == 'ifndef':
        return '!defined(%s)' % c
    return c


def same_cond(c, d):
    """1 when chain d is an #if on the condition of chain c, -1 on its
    negation, else 0 (only chains of at most two branches)."""
    if len(d['marks']) > 3:
        return 0
    cc, dc = cond_of(c), cond_of(d)
    if cc == dc:
        return 1
    neg = {negation(cc), '!' + cc, cc[1:] if cc.startswith('!') else None}
    return -1 if dc in neg else 0


def resolve(lines, lo, hi, c, branch, all_chains):
    """lines[lo:hi] with every chain on c's condition (or its negation)
    resolved as branch (0: c's condition holds, 1: it does not)."""
    drop, keep_marks = set(), set()
    for d in all_chains:
        a, z = d['marks'][0], d['marks'][-1]
        rel = same_cond(c, d) if lo <= a and z < hi and len(c['marks']) == 3 else 0
        if not rel:
            continue
        keep_marks.update(d['marks'])
        holds = (branch == 0) == (rel == 1)
        if holds:
            # the first branch stays, the #else branch goes
            if len(d['marks']) == 3:
                drop.update(range(d['marks'][1], z))
        else:
            first_end = d['marks'][1] if len(d['marks']) == 3 else z
            drop.update(range(a, first_end))
    return [lines[k] for k in range(lo, hi) if k not in drop and k not in keep_marks]


def first_branch_deltas(lines, delta, all_chains):
    """delta with the lines of every branch but the first of each chain
    counted 0: the braces as one configuration sees them."""
    out = list(delta)
    for c in all_chains:
        for k in range(c['marks'][1], c['marks'][-1]):
            out[k] = 0
    return out


def unsplit(text):
    """The text with each split definition or statement made whole per
    branch, and [(line, name)] of those it made whole."""
    lines = text.split('\n')
    done = []
    tried = set()
    while True:
        delta = braces(lines)
        all_chains = chains(lines)
        one = first_branch_deltas(lines, delta, all_chains)
        depth, d = [], 0
        for x in one:
            depth.append(d)
            d += x
        found = None
        for c in all_chains:
            marks = c['marks']
            a, z = marks[0], marks[-1]
            if len(marks) < 3 or (a, lines[a]) in tried:
                continue
            # (a chain inside another chain's branch is made whole with it)
            if any(e is not c and e['marks'][0] < a < e['marks'][-1] for e in all_chains):
                continue
            ds = set(sum(delta[k] for k in range(marks[i] + 1, marks[i + 1])
                         if not CPP.match(lines[k]))
                     for i in range(len(marks) - 1))
            if len(ds) != 1:
                continue
            d1 = ds.pop()
            level = depth[a]
            if d1 not in (0, 1) or (level > 0 and d1 != 1):
                continue
            hs = statement_start(lines, delta, a)
            if sum(one[k] for k in range(hs, a)) != 0:
                continue
            head = code_text(lines, hs, marks[1])
            # (a branch that only ends a header has no statement, no
            # block: not mm/oom_kill.c's #ifdef CONFIG_MMU ... #else)
            if d1 == 0 and any(
                    not re.search(r'\)\s*$', code_text(lines, marks[i] + 1, marks[i + 1]))
                    or re.search(r'[;{}]', code_text(lines, marks[i] + 1, marks[i + 1]))
                    for i in range(len(marks) - 1)):
                continue
            names = re.findall(r'\b([A-Za-z_]\w*)\s*\(', head)
            if not names:
                continue
            # the end: where the depth comes back to where it was
            k, dd, opened = z + 1, d1, d1 > 0
            while k < len(lines):
                dd += one[k]
                if one[k] > 0:
                    opened = True
                if opened and dd == 0:
                    break
                if dd < 0 or (not opened and lines[k].rstrip().endswith(';')):
                    k = len(lines)
                    break
                k += 1
            if k >= len(lines) or not opened:
                tried.add((a, lines[a]))
                continue
            found = (c, hs, k, names[0], level)
            break
        if found is None:
            break
        c, hs, he, name, level = found
        marks = c['marks']
        a, z = marks[0], marks[-1]
        new = []
        for i in range(len(marks) - 1):
            new.append(lines[marks[i]])
            new += lines[hs:a] + lines[marks[i] + 1:marks[i + 1]]
            new += resolve(lines, z + 1, he + 1, c, i, all_chains)
        new.append(lines[z])
        done.append((hs + 1, name, level))
        lines = lines[:hs] + new + lines[he + 1:]
    return '\n'.join(lines), done


def main(argv):
    if not argv or argv[0].startswith('-'):
        sys.exit(__doc__.split('Usage: ')[1].split('\n')[0])
    for path in argv:
        with open(path, encoding='utf-8', errors='surrogateescape') as fh:
            text = fh.read()
        new, done = unsplit(text)
        if not done:
            continue
        with open(path, 'w', encoding='utf-8', errors='surrogateescape') as fh:
            fh.write(new)
        for line, name, level in done:
            if level == 0:
                print('%s:%d: [guard] %s: its header is split by #if/#else (each branch its '
                      'own header): made one whole definition per branch, the body after the '
                      '#endif in each (the compiler sees the same code), so that each is '
                      'converted' % (path, line, name))
            else:
                print('%s:%d: [guard] %s(): its arguments are split by #if/#else, each '
                      'branch opening the block that follows: made one whole statement per '
                      'branch (the compiler sees the same code), so that the braces balance'
                      % (path, line, name))


if __name__ == '__main__':
    main(sys.argv[1:])
