#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ci/tests/check_entry_points.py [TOP]

The Makefile is the list of entry points: every script the repository
holds (shell, Python, awk, Coccinelle) is reached from a Makefile target
or .ci/run, directly or through scripts so reached. A script refers to
another by its path from the top (ci/run/boot.sh), by its path from the
referring file's folder (tests/run.sh), or, in the same folder, by its
name (boot.sh, or "import results" for results.py). Prints every script
nothing reaches and exits 1; exits 0 when all are reached.
"""
import os
import re
import subprocess
import sys

SCRIPT = re.compile(r'\.(sh|py|awk|cocci)$')
# Files that name scripts without being scripts: followed, not reported.
LISTS = re.compile(r'(^|/)series$|\.suite$')
ROOTS = ('Makefile', '.ci/run')


def names_for(target, referrer):
    """The spellings by which referrer may name target."""
    tdir, tbase = os.path.split(target)
    rdir = os.path.dirname(referrer)
    names = {target}
    rel = os.path.relpath(target, rdir or '.')
    if not rel.startswith('..'):
        names.add(rel)
    if tdir == rdir:
        names.add(tbase)
        if tbase.endswith('.py'):
            names.add('import ' + tbase[:-3])
            names.add('from ' + tbase[:-3] + ' import')
            names.add(tbase[:-3] + '.')
    return names


def refers(text, name):
    return re.search(r'(?<![\w.-])' + re.escape(name) + r'(?![\w-])', text)


def unreached(top):
    files = subprocess.run(['git', '-C', top, 'ls-files'], check=True,
                           capture_output=True, text=True).stdout.split()
    scripts = [f for f in files if SCRIPT.search(f) or f == 'ci/run/guest/init']
    # Test inputs (the conversion's fixtures, the harness's planted tests)
    # are read or staged by their checks, not run from the Makefile.
    scripts = [f for f in scripts
               if not ((f.startswith('semantic-patches/tests/')
                        and f.count('/') > 2)
                       or f.startswith('ci/tests/fixtures/'))]
    lists = [f for f in files if LISTS.search(f)
             and not f.startswith('kernel-patches/')]
    texts = {}

    def text(f):
        if f not in texts:
            with open(os.path.join(top, f), encoding='utf-8',
                      errors='replace') as fh:
                texts[f] = fh.read()
        return texts[f]

    reached = set()
    todo = [r for r in ROOTS if r in files]
    while todo:
        cur = todo.pop()
        for s in scripts + lists:
            if s in reached or s == cur:
                continue
            if any(refers(text(cur), n) for n in names_for(s, cur)):
                reached.add(s)
                todo.append(s)
    return sorted(set(scripts) - reached)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    missing = unreached(top)
    for f in missing:
        print(f'{f}: reached from no Makefile target (add one, or delete it)')
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main())
