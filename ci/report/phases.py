#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ci/report/phases.py OUT [CORES]

Where a matrix run's time went, by phase, from OUT/work/phases.tsv (one
"PHASE<TAB>wall<TAB>user<TAB>sys" line per timed step, ci/lib.sh phase)
and the guests' own test seconds (OUT/results/KERNEL/SUITE/test-seconds,
ci/report/parse_run.py). Prints a Markdown table: per phase the steps, their
wall seconds summed over parallel steps, and their CPU seconds (user +
sys, the step and what it waited for); then the run's elapsed seconds
and the floor, the guests' test seconds divided by CORES (default: this
machine's), under which no schedule of this work can go.

Phases: kernel-prep (download or build, cached), probes (compat's
configure), convert (semantic-patches/convert.sh), kbuild (module builds,
W=1, sparse included), sparse (its share of kbuild), guest-tests (the
in-guest C tests), initramfs, guest (QEMU: boot plus tests; split below
into boot and tests by the guests' own clocks), reports.
"""
import glob
import os
import re
import sys

ORDER = ['kernel-prep', 'probes', 'convert', 'kbuild', 'sparse',
         'guest-tests', 'initramfs', 'guest', 'reports']


def read_phases(path):
    totals = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) != 4:
                continue        # e.g. time's own note on a killed command
            try:
                wall, user, system = (float(x) for x in parts[1:])
            except ValueError:
                continue
            t = totals.setdefault(parts[0], [0, 0.0, 0.0])
            t[0] += 1
            t[1] += wall
            t[2] += user + system
    return totals


def test_seconds(results):
    total = 0.0
    for p in glob.glob(os.path.join(results, '*', '*', 'test-seconds')):
        try:
            with open(p, encoding='utf-8') as f:
                total += float(f.read().strip() or 0)
        except ValueError:
            pass
    return total


def total_cpu(path):
    """The CPU seconds of the shell `times` wrote path (itself and its
    children, user + sys), or None."""
    try:
        with open(path, encoding='utf-8') as f:
            words = f.read().split()
    except OSError:
        return None
    total = 0.0
    for w in words:
        m = re.fullmatch(r'(\d+)m([\d.]+)s', w)
        if m:
            total += int(m.group(1)) * 60 + float(m.group(2))
    return total


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.splitlines()[0])
    out = sys.argv[1]
    cores = int(sys.argv[2]) if len(sys.argv) == 3 else os.cpu_count()
    path = os.path.join(out, 'work', 'phases.tsv')
    if not os.path.exists(path):
        sys.exit(f'error: {path}: no phase times (a matrix run of this kit writes them)')
    totals = read_phases(path)
    tests = test_seconds(os.path.join(out, 'results'))
    print('| phase | steps | wall s (summed) | CPU s |')
    print('|---|---|---|---|')
    cpu_all = 0.0
    for name in ORDER + sorted(set(totals) - set(ORDER)):
        if name not in totals:
            continue
        n, wall, cpu = totals[name]
        if name != 'sparse':    # inside kbuild's figures already
            cpu_all += cpu
        print(f'| {name} | {n} | {wall:.0f} | {cpu:.0f} |')
        if name == 'guest':
            print(f'| guest: boots (wall minus tests) | | {wall - tests:.0f} | |')
            print(f'| guest: the tests themselves | | {tests:.0f} | |')
    try:
        with open(os.path.join(out, 'work', 'seconds'), encoding='utf-8') as f:
            elapsed = f.read().strip() + ' s'
    except OSError:
        elapsed = 'unknown'
    total = total_cpu(os.path.join(out, 'work', 'times'))
    if total is not None:
        print(f'| untimed: the harness shell work between steps | | | {total - cpu_all:.0f} |')
    print()
    print(f'elapsed: {elapsed}; CPU of the timed phases: {cpu_all:.0f} s '
          f'({cpu_all / cores:.0f} s on {cores} cores); floor (guest test '
          f'seconds / cores): {tests / cores:.0f} s')
    return 0


if __name__ == '__main__':
    sys.exit(main())
