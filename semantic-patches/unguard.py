#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The vendor's own API guards around invalidate_page, taken out before
the series runs (convert.sh does it; tests/run.sh for a case whose spec
says "unguard").

Usage: unguard.py [--record FILE] C-FILE...

A vendor who ported a 4.12-era driver to later kernels wrote the
4.13 removal under #if: `.invalidate_page` (and its callback, its
prototype) for the old kernels, nothing or `.invalidate_range` in the
#else.  The converted driver serves every kernel (the 4.13 step gives
the old callback's work a form the later kernels call; --compat builds
it everywhere), so the guard has no branch left to choose: the
conversion must reach the verdict it reaches without the guard and
apply it in every configuration.  So, where the condition is a kernel
or distribution version (LINUX_VERSION_CODE, RHEL_RELEASE_CODE,
SLE_VERSION_CODE, ...; #ifdef RHEL_RELEASE_CODE too; never a CONFIG_
option), an #if/#elif/#else group is removed and its branches merged:

- inside a struct mmu_notifier_ops initializer, a group of field
  initializers one of whose branches has `.invalidate_page`: the
  table gets the fields of every branch (a field given two different
  values is left alone, and the group with it);
- at file scope, a group whose branches hold only definitions and
  prototypes of functions, one of them a callback named by a merged
  field, no function defined twice: its branches are kept, the
  directives go.

Innermost groups first, so nested guards merge too.  The file is
changed in place; one note a merged table is printed on stdout as
"FILE:LINE: [guard] ..." (not a review item).  --record appends
"OPS FN ELSE" lines for the 4.13 step (MNCOMPAT_UNGUARDED): ELSE is
"dropped" when a branch of the guard had no .invalidate_page (the
vendor's own port without it), else "-".
"""

import re
import sys

CPP = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)')
API = re.compile(r'\b(LINUX_VERSION_CODE|KERNEL_VERSION|RHEL_RELEASE_CODE|'
                 r'RHEL_RELEASE_VERSION|RHEL_MAJOR|RHEL_MINOR|'
                 r'SLE_VERSION_CODE|SLE_VERSION|SLE_LOCALVERSION_CODE|'
                 r'UTS_UBUNTU_RELEASE_ABI|UBUNTU_VERSION_CODE|'
                 r'KERNEL_VERSION_CODE)\b')
FIELD = re.compile(r'^\s*\.([A-Za-z_]\w*)\s*=\s*([^,]*?)\s*,?\s*(/\*.*\*/)?\s*$')
TABLE = re.compile(r'\bstruct\s+mmu_notifier_ops\s+\w+\s*=\s*\{')
TNAME = re.compile(r'\bstruct\s+mmu_notifier_ops\s+(\w+)\s*=')
FUNC = re.compile(r'^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(')
BLANK = re.compile(r'^\s*(//.*|/\*.*\*/)?\s*$')


def groups(lines):
    """The #if groups: dicts with the lines of their directives (start,
    branch starts, end), the conditions and the depth; innermost
    first."""
    out, stack = [], []
    i = 0
    while i < len(lines):
        m = CPP.match(lines[i])
        if not m:
            i += 1
            continue
        d, rest, first = m.group(1), m.group(2), i
        # a directive continued on the next lines
        while lines[i].endswith('\\') and i + 1 < len(lines):
            i += 1
            rest = rest[:-1] + ' ' + lines[i].strip()
        if d in ('if', 'ifdef', 'ifndef'):
            stack.append({'dirs': [first], 'ends': [i], 'conds': [d + rest],
                          'depth': len(stack)})
        elif d in ('elif', 'else') and stack:
            stack[-1]['dirs'].append(first)
            stack[-1]['ends'].append(i)
            stack[-1]['conds'].append(d + rest)
        elif d == 'endif' and stack:
            g = stack.pop()
            g['dirs'].append(first)
            g['ends'].append(i)
            out.append(g)
        i += 1
    return sorted(out, key=lambda g: -g['depth'])


def api_guard(g):
    """Every condition of the group is a kernel or distribution
    version (#else has none)."""
    for c in g['conds']:
        if c.startswith('else'):
            continue
        if not API.search(c) or 'CONFIG_' in c:
            return False
    return True


def branches(g):
    d, e = g['dirs'], g['ends']
    return [(e[k] + 1, d[k + 1]) for k in range(len(d) - 1)]


def tables(lines):
    """(first, last) line of each mmu_notifier_ops initializer."""
    out = []
    i = 0
    while i < len(lines):
        if TABLE.search(lines[i]):
            j = i
            while j < len(lines) and not re.match(r'^\s*\}\s*;', lines[j]):
                j += 1
            out.append((i, j))
            i = j
        i += 1
    return out


def merge_table_group(lines, g):
    """The merged fields of a table group, [(field, value, line)], or
    None where it cannot be merged; and whether a branch lacks
    .invalidate_page."""
    fields, seen, lacks, has_page = [], {}, False, False
    for a, b in branches(g):
        here = False
        for i in range(a, b):
            text = lines[i]
            if BLANK.match(text):
                continue
            m = FIELD.match(text)
            if not m:
                return None, False
            f, v = m.group(1), m.group(2)
            if f in seen:
                if seen[f] != v:
                    return None, False
                continue
            seen[f] = v
            fields.append((f, v, i))
            here = here or f == 'invalidate_page'
        has_page = has_page or here
        lacks = lacks or not here
    if len(branches(g)) == 1 or not g['conds'][-1].startswith('else'):
        lacks = True    # the configurations the group leaves out
    if not has_page:
        return None, False
    return fields, lacks


def file_group_funcs(lines, g):
    """The functions a file-scope group defines or declares, or None
    when a branch holds anything else or defines one twice."""
    names, defined = set(), set()
    for a, b in branches(g):
        i = a
        while i < b:
            text = lines[i]
            if BLANK.match(text):
                i += 1
                continue
            if text.lstrip().startswith('/*'):
                while i < b and '*/' not in lines[i]:
                    i += 1
                i += 1
                continue
            m = FUNC.match(text)
            if not m:
                return None
            name = m.group(1)
            j = i
            while j < b and not re.search(r'\)\s*;\s*$', lines[j]) and \
                    not lines[j].startswith('{'):
                j += 1
            if j >= b:
                return None
            if lines[j].startswith('{'):
                if name in defined:
                    return None
                defined.add(name)
                while j < b and not lines[j].startswith('}'):
                    j += 1
                if j >= b:
                    return None
            names.add(name)
            i = j + 1
    return names


def unguard(path, record):
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        text = f.read()
    lines = text.split('\n')
    notes, callbacks = [], {}
    changed = True
    while changed:
        changed = False
        tbls = tables(lines)
        for g in groups(lines):
            if not api_guard(g):
                continue
            first, last = g['dirs'][0], g['ends'][-1]
            t = [x for x in tbls if x[0] < first and last < x[1]]
            if t:
                fields, lacks = merge_table_group(lines, g)
                if fields is None:
                    continue
                m = TNAME.search(lines[t[0][0]])
                ops = m.group(1) if m else '?'
                for f, v, _ in fields:
                    if f in ('invalidate_page', 'invalidate_range'):
                        callbacks[v] = ops
                    if f == 'invalidate_page':
                        prev = record.get((ops, v), '-')
                        record[(ops, v)] = 'dropped' if lacks else prev
                new = [lines[i] for _, _, i in fields]
                cond = ' '.join(lines[first:g['ends'][0] + 1]).replace('\\', '')
                notes.append((path, t[0][0], ops, cond, lacks))
            else:
                names = file_group_funcs(lines, g)
                if not names or not names & set(callbacks):
                    continue
                new = []
                for a, b in branches(g):
                    part = lines[a:b]
                    # a blank line between the definitions of two branches
                    if new and part and new[-1].strip() and part[0].strip():
                        new.append('')
                    new += part
            lines[first:last + 1] = new
            changed = True
            break
    if not notes:
        return []
    with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write('\n'.join(lines))
    out = []
    for p, line, ops, cond, lacks in notes:
        out.append("%s:%d: [guard] %s: the vendor's %s around its .invalidate_page "
                   "taken out, the branches merged: the table the conversion makes "
                   "serves every kernel, so it is judged as without the guard%s" % (
                       p, line + 1, ops, ' '.join(cond.split()),
                       " (a branch without .invalidate_page, the vendor's own port, is "
                       "judged with it: see the 4.13 note)" if lacks else ''))
    return out


def main(argv):
    rec = None
    if argv[:1] == ['--record']:
        rec, argv = argv[1], argv[2:]
    record = {}
    for path in argv:
        for n in unguard(path, record):
            print(n)
    if rec is not None and record:
        with open(rec, 'a', encoding='utf-8') as f:
            for (ops, fn), v in sorted(record.items()):
                f.write('%s %s %s\n' % (ops, fn, v))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
