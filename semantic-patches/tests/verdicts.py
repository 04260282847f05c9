#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Do the notes of a conversion say what their verdicts are?

Usage: verdicts.py NOTES...   (the notes of a run, FILE:LINE: [GEN] ...)
       verdicts.py --self-test

Each invalidate_page callback gets one verdict (covered by the range
callbacks or the hook; its work runs from a new range_end; kept as the
secondary-TLB hook; cannot tell), and every note about it is generated
from that verdict.  A note whose words contradict its own verdict (issue
31: "covered by the range callbacks: ..._range_end does not redo it"), or
two notes that give one callback two verdicts, is printed; the exit
status is then 1.
"""

import re
import sys

# Words that belong to the "not covered" verdicts only.
NOT_COVERED = re.compile(r'does not redo it|there is no range_end|'
                         r'does not keep the device from faulting|'
                         r'does not do the same work|cannot tell')
COVERED = re.compile(r'covered by the (range callbacks|invalidate_range hook)')
NOTE = re.compile(r'^(?P<where>[^:]*:\d+): \[(?P<gen>[^\]]+)\] (?P<text>.*)$')


def problems(lines):
    out = []
    verdicts = {}

    def give(fn, v, line):
        old = verdicts.setdefault(fn, (v, line))
        if old[0] != v:
            out.append('%s: two verdicts (%s, %s):\n  %s\n  %s' % (
                fn, old[0], v, old[1], line))

    for line in lines:
        m = NOTE.match(line.rstrip('\n'))
        if not m or m.group('gen') not in ('4.13', 'compat'):
            continue
        t = m.group('text')
        r = re.match(r'removed: (\w+) \(invalidate_page, covered', t)
        if r:
            give(r.group(1), 'covered', line)
            if NOT_COVERED.search(t):
                out.append('"covered" next to the words of another verdict: ' + line)
            continue
        r = re.match(r'removed: (\w+) \(review: invalidate_page, not covered', t)
        if r:
            give(r.group(1), 'lost', line)
            continue
        r = re.match(r'(\w+) is used elsewhere in this file: field dropped, '
                     r'function kept \((.*)', t)
        if r:
            if COVERED.search(r.group(2)):
                give(r.group(1), 'covered', line)
                if NOT_COVERED.search(r.group(2)):
                    out.append('"covered" next to the words of another verdict: ' + line)
            continue
        r = re.match(r'converted: (\w+) -> \w+ \(invalidate_range_end: runs', t)
        if r:
            give(r.group(1), 'range_end', line)
            if COVERED.search(t):
                out.append('"runs from range_end" said "covered": ' + line)
            continue
        r = re.match(r'compat: (\w+) is not kept as the secondary-TLB hook of its '
                     r'table: no kernel needs it: the range callbacks already do '
                     r'its work', t)
        if r:
            give(r.group(1), 'covered', line)
            continue
        if re.match(r'converted: .*MNCOMPAT_RANGE_START_MAY_SLEEP\)', t) and \
                'never sleeps' in t and 'not because a range callback may sleep' not in t:
            out.append('flagged may-sleep next to "never sleeps": ' + line)
    return out


SELF_TEST = [
    # issue 31: the MPSS shape, as the tool printed it
    "scif_rma.c:78: [4.13] removed: scif_mmu_notifier_invalidate_page (invalidate_page, "
    "covered by the range callbacks: scif_range_end does not redo it; scif_range_start "
    "does not keep the device from faulting pages back in until range_end (scif_pin() "
    "maps user pages in with get_user_pages() at scif_rma.c:44; no counter or lock of "
    "range_start's is checked there))\n",
    # one callback, two verdicts
    "a.c:5: [4.13] converted: f_invalidate_page -> f_invalidate_page_range_end "
    "(invalidate_range_end: runs f_invalidate_page for every page of [start, end) "
    "after the page-table change, to be safe)\n"
    "a.c:5: [4.13] compat: f_invalidate_page is not kept as the secondary-TLB hook of "
    "its table: no kernel needs it: the range callbacks already do its work (x)\n",
]


def main(argv):
    if argv == ['--self-test']:
        bad = [t for t in SELF_TEST if not problems(t.splitlines(True))]
        for t in bad:
            print('not flagged: ' + t)
        return 1 if bad else 0
    found = []
    for path in argv:
        with open(path, encoding='utf-8', errors='replace') as f:
            found += problems(f.readlines())
    for p in found:
        print(p)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
