#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An array of MMU-notifier ops tables made an array of pointers to
tables of their own, before the series runs (convert.sh does it;
tests/run.sh for a case whose spec says "unarray").

Usage: unarray.py C-FILE...

A driver with several kinds of subscription may keep their tables in one
array with designated indexes (amdgpu_mn of 4.16-4.18:
amdgpu_mn_ops[] = { [AMDGPU_MN_TYPE_GFX] = {...}, [AMDGPU_MN_TYPE_HSA] =
{...} }) and register &amdgpu_mn_ops[type].  The conversion judges and
rewrites one table at a time (and compat's MNCOMPAT_MMU_NOTIFIER_OPS
defines one), so each element becomes a static table named after the
array and its index (amdgpu_mn_ops_gfx, amdgpu_mn_ops_hsa: the common
prefix of the indexes left out), and the array holds pointers to them,
at the same indexes: &ops[i] becomes ops[i] and ops[i].f becomes
ops[i]->f, the same values; ARRAY_SIZE(ops) stays.  A static array used
any other way in its file is left as it is, with a review item naming
the use.  The file is changed in place; one note per array on stdout,
as "FILE:LINE: [convert] ...".
"""

import re
import sys

ARRAY = re.compile(r'^(?P<head>static\s+(?:const\s+)?struct\s+mmu_notifier_ops\s+)'
                   r'(?P<name>[A-Za-z_]\w*)\s*\[\s*\w*\s*\]\s*=\s*\{', re.M)


# What code_only() blanks, found by one search each: a comment (to its
# end, or the text's), a // comment, a string or character constant (one
# left open runs on to the end of the text, across lines).
NOT_CODE = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*'
                      r'|"(?P<s>(?:[^"\\]|\\.)*)(?P<se>"|\\?\Z)'
                      r"|'(?P<c>(?:[^'\\]|\\.)*)(?P<ce>'|\\?\Z)", re.S)
NOT_NEWLINE = re.compile(r'[^\n]')


def blanked(m):
    """The text of a NOT_CODE match as code_only() leaves it."""
    for inner, end, q in (('s', 'se', '"'), ('c', 'ce', "'")):
        if m.group(end) is not None:
            return (q + NOT_NEWLINE.sub(' ', m.group(inner)) +
                    (q if m.group(end) == q else ' ' * len(m.group(end))))
    return NOT_NEWLINE.sub(' ', m.group())


def code_only(text):
    """text with comments and strings blanked (same length)."""
    return NOT_CODE.sub(blanked, text)


def match_close(code, i, o='{', c='}'):
    """code[i] is o: the index of its c."""
    depth = 0
    for k in range(i, len(code)):
        if code[k] == o:
            depth += 1
        elif code[k] == c:
            depth -= 1
            if depth == 0:
                return k
    return -1


def elements(text, code, lo, hi):
    """The elements of the initializer between lo and hi (exclusive):
    [(designator or None, inner text, start of the element)]."""
    out, i = [], lo
    while i < hi:
        m = re.compile(r'\s*(?:\[\s*([^\]]+?)\s*\]\s*=\s*)?\{').match(code, i, hi)
        if not m:
            if code[i:hi].strip(' \t\n,') == '':
                break
            return None
        ob = m.end() - 1
        cb = match_close(code, ob)
        if cb < 0 or cb > hi:
            return None
        out.append((m.group(1), text[ob + 1:cb], m.start() + len(m.group(0)) -
                    len(m.group(0).lstrip())))
        i = cb + 1
        m2 = re.compile(r'\s*,?').match(code, i, hi)
        i = m2.end()
    return out


def suffixes(desigs):
    """Names for the elements from their designators: the common prefix
    of the indexes left out, lower case; their number where that gives
    no name of its own."""
    if any(d is None for d in desigs):
        return [str(k) for k in range(len(desigs))]
    words = [d.split('_') for d in desigs]
    n = 0
    while all(len(w) > n + 1 for w in words) and len(set(w[n] for w in words)) == 1:
        n += 1
    out = ['_'.join(w[n:]).lower() for w in words]
    if len(set(out)) != len(out) or not all(re.match(r'^[a-z0-9_]+$', x) for x in out):
        return [str(k) for k in range(len(desigs))]
    return out


def unarray(text):
    """The text with each static array of ops tables split, and the
    notes: [(line, text)]."""
    notes = []
    pos = 0
    while True:
        code = code_only(text)
        m = ARRAY.search(code, pos)
        if not m:
            break
        name = m.group('name')
        ob = m.end() - 1
        cb = match_close(code, ob)
        end = code.find(';', cb) if cb >= 0 else -1
        line = code.count('\n', 0, m.start()) + 1
        els = elements(text, code, ob + 1, cb) if cb >= 0 else None
        if end < 0 or not els:
            pos = m.end()
            continue
        # every use of the array elsewhere in the file
        uses = [u for u in re.finditer(r'\b%s\b' % re.escape(name), code)
                if not m.start() <= u.start() <= end]
        rewrites, bad = [], []
        for u in uses:
            before = code[:u.start()].rstrip()
            after = code[u.end():]
            if before.endswith('ARRAY_SIZE('):
                continue
            am = re.match(r'\s*\[', after)
            if not am:
                bad.append(u)
                continue
            close = match_close(code, u.end() + am.end() - 1, '[', ']')
            rest = code[close + 1:]
            if before.endswith('&') and not before.endswith('&&'):
                amp = len(before) - 1
                rewrites.append((amp, amp + 1, ''))
            elif re.match(r'\s*\.\s*[A-Za-z_]', rest):
                dot = close + 1 + rest.index('.')
                rewrites.append((dot, dot + 1, '->'))
            else:
                bad.append(u)
        if bad:
            b = bad[0]
            notes.append((line, "review: %s is an array of ops tables, used otherwise than as "
                          "&%s[i], %s[i].field or ARRAY_SIZE(%s) (line %d): not split into tables "
                          "of their own, so nothing converts its elements: convert by hand"
                          % (name, name, name, name, code.count('\n', 0, b.start()) + 1)))
            pos = m.end()
            continue
        sfx = suffixes([d for d, _, _ in els])
        head = text[m.start():m.end()]
        qual = re.match(r'static\s+(const\s+)?', head).group(0)
        tables, ptrs = [], []
        for (d, inner, _), s in zip(els, sfx):
            tname = '%s_%s' % (name, s)
            body = '\n'.join(ln[1:] if ln.startswith('\t\t') else ln
                             for ln in inner.strip('\n').rstrip().split('\n'))
            tables.append('%sstruct mmu_notifier_ops %s = {\n%s\n};\n' % (qual, tname, body))
            ptrs.append('\t[%s] = &%s,' % (d, tname) if d is not None else '\t&%s,' % tname)
        new = '\n'.join(tables) + '\n%sstruct mmu_notifier_ops *const %s[] = {\n%s\n};' % (
            qual, name, '\n'.join(ptrs))
        for a, z, rep in sorted(rewrites, reverse=True):
            if a > end:
                text = text[:a] + rep + text[z:]
        text = text[:m.start()] + new + text[end + 1:]
        for a, z, rep in sorted(rewrites, reverse=True):
            if a < m.start():
                text = text[:a] + rep + text[z:]
        notes.append((line, "%s: an array of ops tables (%s): each element is a table of its own "
                      "(%s), the array holds pointers to them at the same indexes (&%s[i] is "
                      "now %s[i]), so that each table is converted"
                      % (name, 'designated indexes' if els[0][0] is not None else 'in order',
                         ', '.join('%s_%s' % (name, s) for s in sfx), name, name)))
        pos = m.start() + len(new)
    return text, notes


def main(argv):
    if not argv or argv[0].startswith('-'):
        sys.exit(__doc__.split('Usage: ')[1].split('\n')[0])
    for path in argv:
        with open(path, encoding='utf-8', errors='surrogateescape') as fh:
            text = fh.read()
        new, notes = unarray(text)
        if new != text:
            with open(path, 'w', encoding='utf-8', errors='surrogateescape') as fh:
                fh.write(new)
        for line, note in notes:
            print('%s:%d: [convert] %s' % (path, line, note))


if __name__ == '__main__':
    main(sys.argv[1:])
