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
        c = line[i]
        if line.startswith('/*', i):
            in_comment, i = True, i + 2
        elif line.startswith('//', i):
            break
        elif c in '"\'':
            k = i + 1
            while k < n and line[k] != c:
                k += 2 if line[k] == '\\' else 1
            i = k + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out), in_comment


def braces(lines):
    """The brace delta of each line (directive lines count 0)."""
    out, com = [], False
    for ln in lines:
        if not com and CPP.match(ln) or re.match(r'^\s*#', ln) and not com:
            out.append(0)
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


def header_start(lines, delta, i):
    """The first line of the function header that the chain at line i
    is part of (i itself when the header starts in the chain)."""
    k = i
    com = False
    while k > 0:
        prev = lines[k - 1]
        if not prev.strip() or CPP.match(prev):
            break
        code, com = strip_code(prev, False)
        s = code.strip()
        if not s or s.endswith((';', '}', '*/')) or prev.rstrip().endswith('*/') \
                or delta[k - 1] != 0:
            break
        k -= 1
    return k


def same_cond(c, d):
    """Is chain d an #if on the same condition as chain c (as written)?"""
    return d['words'][0] == c['words'][0] and d['cond'] == c['cond'] and \
        len(d['marks']) <= 3


def resolve(lines, lo, hi, c, branch, all_chains):
    """lines[lo:hi] with every chain on c's condition resolved as branch
    (0: c's condition holds, 1: it does not)."""
    drop, keep_marks = set(), set()
    for d in all_chains:
        a, z = d['marks'][0], d['marks'][-1]
        if a < lo or z >= hi or not same_cond(c, d):
            continue
        keep_marks.update(d['marks'])
        if branch == 0:
            # the first branch stays, the #else branch goes
            if len(d['marks']) == 3:
                drop.update(range(d['marks'][1], z))
        else:
            first_end = d['marks'][1] if len(d['marks']) == 3 else z
            drop.update(range(a, first_end))
    return [lines[k] for k in range(lo, hi) if k not in drop and k not in keep_marks]


def unsplit(text):
    """The text with each split definition made whole per branch, and
    [(line, function name)] of those it made whole."""
    lines = text.split('\n')
    done = []
    while True:
        delta = braces(lines)
        all_chains = chains(lines)
        # depth of braces before each line
        depth, d = [], 0
        for x in delta:
            depth.append(d)
            d += x
        found = None
        for c in all_chains:
            a, z = c['marks'][0], c['marks'][-1]
            marks = c['marks']
            if c['depth'] != 0 or depth[a] != 0 or len(marks) < 3:
                continue
            ds = set(sum(delta[k] for k in range(marks[i] + 1, marks[i + 1]))
                     for i in range(len(marks) - 1))
            if len(ds) != 1:
                continue
            d1 = ds.pop()
            if d1 not in (0, 1):
                continue
            hs = header_start(lines, delta, a)
            pre = sum(delta[k] for k in range(hs, a))
            if pre != 0:
                continue
            # a chain in the header: before the body's '{', or each
            # branch opening the body
            head = '\n'.join(ln for ln in lines[hs:c['marks'][1]] if not CPP.match(ln))
            if d1 == 0 and not re.search(r'\w\s*\($|\w\s*\([^;{]*$|,\s*$',
                                         '\n'.join(lines[hs:a]) or 'x') and \
                    not re.search(r'\)\s*$', '\n'.join(lines[a + 1:c['marks'][1]])):
                continue
            if not re.search(r'\b([A-Za-z_]\w*)\s*\(', head):
                continue
            # the body's end: where the depth comes back to 0
            k, dd, opened = z + 1, d1, d1 > 0
            while k < len(lines):
                dd += delta[k]
                if delta[k] > 0:
                    opened = True
                if opened and dd == 0:
                    break
                if dd < 0 or (not opened and lines[k].rstrip().endswith(';')):
                    k = len(lines)
                    break
                k += 1
            if k >= len(lines) or not opened:
                continue
            names = re.findall(r'\b([A-Za-z_]\w*)\s*\(', head)
            found = (c, hs, k, names[0])
            break
        if found is None:
            break
        c, hs, he, name = found
        marks = c['marks']
        a, z = marks[0], marks[-1]
        new = []
        for i in range(len(marks) - 1):
            new.append(lines[marks[i]])
            new += lines[hs:a] + lines[marks[i] + 1:marks[i + 1]]
            if len(marks) == 3:
                new += resolve(lines, z + 1, he + 1, c, i, all_chains)
            else:
                new += lines[z + 1:he + 1]
        new.append(lines[z])
        done.append((hs + 1, name))
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
        for line, name in done:
            print('%s:%d: [guard] %s: its header is split by #if/#else (each branch its own '
                  'header): made one whole definition per branch, the body after the #endif '
                  'in each (the compiler sees the same code), so that each is converted'
                  % (path, line, name))


if __name__ == '__main__':
    main(sys.argv[1:])
