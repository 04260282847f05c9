#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare a conversion with upstream's own change, hunk by hunk.

Usage: pairdiff.py OLD_TREE CONVERTED NEW_TREE USERS EXPLAINED TOKENS

OLD_TREE: the older kernel tree; CONVERTED: a copy of its notifier users
(the paths in USERS, one a line) after convert.sh; NEW_TREE: the newer
tree.  For every file, each hunk of the conversion (old -> converted) is
set against what upstream made of the same lines (old -> new), compared
token by token (whitespace and line breaks do not count):

  equal      upstream's lines are the converted lines;
  within     upstream made the same change inside a larger change of its
             own (the converted tokens appear, in order, in upstream's
             lines, the replaced ones do not);
  differs    upstream changed the lines otherwise;
  kept       upstream left the lines as they were.

Then upstream's hunks that touch the API the steps convert (code, not a
comment, matching TOKENS, an extended regular expression, in the old
lines) and that no hunk of the conversion touches: "missed".  A file gone from NEW_TREE is compared
with the one file of NEW_TREE of the same name that defines the same ops
tables (moved), else reported gone.

Every "differs", "kept" and "missed" must be explained by a line of
EXPLAINED: "FILE<TAB>KIND<TAB>ERE<TAB>WHY" (the ERE searched in the
hunk's text, old, converted and upstream lines); one that explains
nothing is stale.  Prints one line per hunk and a summary; exits 1 when
a difference is unexplained or an explanation is stale, else 0.
"""
import difflib
import os
import re
import sys

TOKEN = re.compile(r'[A-Za-z_]\w*|\d\w*|->|<<|>>|[<>=!&|+\-*/%^]=|&&|\|\||\+\+|--|\S')
OPS = re.compile(r'struct\s+mmu(?:_interval)?_notifier_ops\s+(\w+)\s*=')


def read(path):
    try:
        with open(path, errors='replace') as fh:
            return fh.read().split('\n')
    except OSError:
        return None


def tokens(lines):
    return TOKEN.findall(' '.join(lines))


def contains(hay, needle):
    """Does the token list needle appear, contiguous, in hay?"""
    if not needle:
        return True
    n = len(needle)
    return any(hay[i:i + n] == needle for i in range(len(hay) - n + 1))


def hunks(a, b, context=3):
    """The changed regions of a -> b (lists of lines), as (i1, i2, j1, j2),
    regions closer than context lines merged."""
    sm = difflib.SequenceMatcher(None, [x.strip() for x in a],
                                 [x.strip() for x in b], autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == 'equal':
            continue
        if out and i1 - out[-1][1] <= context:
            out[-1] = (out[-1][0], i2, out[-1][2], j2)
        else:
            out.append((i1, i2, j1, j2))
    return out


class Mapping:
    """Where the lines of old are in new (upstream's change)."""

    def __init__(self, old, new):
        sm = difflib.SequenceMatcher(None, [x.strip() for x in old],
                                     [x.strip() for x in new], autojunk=False)
        self.ops = sm.get_opcodes()
        self.changes = [(i1, i2, j1, j2) for t, i1, i2, j1, j2 in self.ops
                        if t != 'equal']

    def region(self, i1, i2):
        """The old region [i1, i2) widened over the upstream changes it
        touches, and where that region is in new: (i1, i2, j1, j2)."""
        changed = True
        while changed:
            changed = False
            for a1, a2, _, _ in self.changes:
                touches = a1 < i2 and a2 > i1 or (a1 == a2 and i1 <= a1 <= i2) \
                    or (i1 == i2 and a1 <= i1 <= a2)
                if touches and (a1 < i1 or a2 > i2):
                    i1, i2 = min(i1, a1), max(i2, a2)
                    changed = True
        return i1, i2, self.where(i1, 'start'), self.where(i2, 'end')

    def where(self, i, side):
        for t, a1, a2, b1, b2 in self.ops:
            if t == 'equal' and a1 <= i < a2:
                return b1 + (i - a1)
            if t == 'equal' and i == a2 and side == 'end':
                return b2
            if t != 'equal' and side == 'start' and i == a1:
                return b1
            if t != 'equal' and side == 'end' and i == a2:
                return b2
        return self.ops[-1][4] if self.ops else 0


def moved(rel, old_text, new_tree):
    """rel is gone from new_tree: the one file of the same name there that
    defines one of the ops tables rel defines, or None."""
    names = set(OPS.findall('\n'.join(old_text)))
    if not names:
        return None
    base = os.path.basename(rel)
    found = []
    for d, _, files in os.walk(new_tree):
        if base in files:
            p = os.path.join(d, base)
            text = '\n'.join(read(p) or [])
            if names & set(OPS.findall(text)):
                found.append(os.path.relpath(p, new_tree))
    return found[0] if len(found) == 1 else None


class Explanations:
    def __init__(self, path):
        self.rows = []
        for n, line in enumerate(read(path) or [], 1):
            if not line.strip() or line.startswith('#'):
                continue
            parts = line.split('\t')
            if len(parts) != 4:
                sys.exit('%s:%d: want FILE<TAB>KIND<TAB>ERE<TAB>WHY' % (path, n))
            self.rows.append({'file': parts[0], 'kind': parts[1],
                              're': re.compile(parts[2]), 'why': parts[3],
                              'used': 0, 'line': n})
        self.path = path

    def find(self, rel, kind, text):
        for r in self.rows:
            if r['file'] == rel and r['kind'] == kind and r['re'].search(text):
                r['used'] += 1
                return r['why']
        return None

    def stale(self):
        return [r for r in self.rows if not r['used']]


def code_only(lines):
    """The lines without their comments (a comment line of a block
    comment, starting with *, included)."""
    text = '\n'.join(x for x in lines if not x.strip().startswith(('*', '/*', '//')))
    text = re.sub(r'/\*.*?(\*/|$)', '', text, flags=re.S)
    return re.sub(r'//.*', '', text)


def show(lines, limit=6):
    s = [x.strip() for x in lines if x.strip()]
    more = len(s) - limit
    s = s[:limit] + (['... %d more' % more] if more > 0 else [])
    return ' | '.join(s) or '(nothing)'


def compare(rel, old, conv, new, expl, api, out, counts):
    mapping = Mapping(old, new)
    ours = hunks(old, conv)
    covered = []
    for i1, i2, j1, j2 in ours:
        a1, a2, b1, b2 = mapping.region(i1, i2)
        covered.append((a1, a2))
        ours_region = old[a1:i1] + conv[j1:j2] + old[i2:a2]
        up_region = new[b1:b2]
        t_ours, t_up = tokens(ours_region), tokens(up_region)
        t_old = tokens(old[a1:a2])
        at = '%s:%d' % (rel, i1 + 1)
        text = '\n'.join(old[i1:i2] + conv[j1:j2] + up_region)
        if t_ours == t_up:
            kind, why = 'equal', None
        elif t_up == t_old:
            kind = 'kept'
        elif contains(t_up, tokens(conv[j1:j2])) and \
                not (old[i1:i2] and contains(t_up, tokens(old[i1:i2]))):
            kind, why = 'within', None
        else:
            kind = 'differs'
        if kind in ('kept', 'differs'):
            why = expl.find(rel, kind, text)
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ('equal', 'within'):
            print('%s  %s' % (at, 'equal to upstream' if kind == 'equal' else
                              'upstream made this change within a larger one of its own'),
                  file=out)
            continue
        if why is None:
            counts['unexplained'] = counts.get('unexplained', 0) + 1
        else:
            counts[kind + '_why'] = counts.get(kind + '_why', 0) + 1
        print('%s  %s: %s' % (at, 'upstream changed these lines otherwise'
                              if kind == 'differs' else 'upstream left these lines as they were',
                              why or 'UNEXPLAINED'), file=out)
        print('    old:       %s' % show(old[i1:i2]), file=out)
        print('    converted: %s' % show(conv[j1:j2]), file=out)
        if kind == 'differs':
            print('    upstream:  %s' % show(up_region), file=out)
    for a1, a2, b1, b2 in mapping.changes:
        if any(c1 < a2 and c2 > a1 or (a1 == a2 and c1 <= a1 <= c2)
               for c1, c2 in covered):
            continue
        text = '\n'.join(old[a1:a2] + new[b1:b2])
        if not api.search(code_only(old[a1:a2])):
            continue
        why = expl.find(rel, 'missed', text)
        counts['missed'] = counts.get('missed', 0) + 1
        if why is None:
            counts['unexplained'] = counts.get('unexplained', 0) + 1
        else:
            counts['missed_why'] = counts.get('missed_why', 0) + 1
        print('%s:%d  upstream changed API code the conversion left: %s'
              % (rel, a1 + 1, why or 'UNEXPLAINED'), file=out)
        print('    old:       %s' % show(old[a1:a2]), file=out)
        print('    upstream:  %s' % show(new[b1:b2]), file=out)
    return bool(ours)


def main(argv):
    if len(argv) != 7:
        sys.exit(__doc__.split('\n\n')[1])
    old_tree, conv_tree, new_tree, users, expl_path, api_re = argv[1:]
    expl = Explanations(expl_path)
    # (the series' patterns are POSIX EREs: their classes in Python's words)
    api = re.compile(api_re.replace('[:space:]', r'\s').replace('[:alnum:]', 'A-Za-z0-9'))
    counts = {}
    files = dict(users=0, converted=0, unchanged=0, gone=0, moved=0)
    out = sys.stdout
    for rel in (read(users) or []):
        if not rel:
            continue
        files['users'] += 1
        old, conv = read(os.path.join(old_tree, rel)), read(os.path.join(conv_tree, rel))
        new = read(os.path.join(new_tree, rel))
        shown = rel
        if new is None:
            m = moved(rel, old, new_tree)
            if m is None:
                files['gone'] += 1
                print('%s  gone from the newer tree: nothing to compare%s' % (
                    rel, '' if old == conv else ' (the conversion changed it)'), file=out)
                continue
            files['moved'] += 1
            new = read(os.path.join(new_tree, m))
            shown = '%s (moved to %s)' % (rel, m)
            print('%s  compared with %s' % (rel, m), file=out)
        changed = compare(rel, old, conv, new, expl, api, out, counts)
        files['converted' if changed else 'unchanged'] += 1
        if not changed:
            print('%s  unchanged by the conversion' % shown, file=out)
    stale = expl.stale()
    for r in stale:
        print('%s:%d: stale explanation (explains nothing): %s %s %s'
              % (expl.path, r['line'], r['file'], r['kind'], r['re'].pattern), file=out)
    print(file=out)
    print('notifier users: %(users)d (converted %(converted)d, unchanged %(unchanged)d, '
          'gone from the newer tree %(gone)d, moved %(moved)d)' % files, file=out)
    c = counts.get
    print('hunks of the conversion: %d equal to upstream, %d within a larger upstream '
          'change, %d changed otherwise by upstream (%d explained), %d left by upstream '
          '(%d explained); upstream API hunks the conversion left: %d (%d explained); '
          'unexplained: %d; stale explanations: %d'
          % (c('equal', 0), c('within', 0), c('differs', 0), c('differs_why', 0),
             c('kept', 0), c('kept_why', 0), c('missed', 0), c('missed_why', 0),
             c('unexplained', 0), len(stale)), file=out)
    return 1 if counts.get('unexplained') or stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
