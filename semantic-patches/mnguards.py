# SPDX-License-Identifier: GPL-2.0
"""LINUX_VERSION_CODE guards around notifier code that disagree with the
versions compat's probes name (compat/probes/*.c "Upstream:"):
guard_notes() for mnmodule.py guards."""
import os
import re


# ---------------------------------------------------------------------
# LINUX_VERSION_CODE guards against compat's probes.
# ---------------------------------------------------------------------

def probe_versions(probes_dir):
    """probe macro -> (version added, commit, version removed/changed)."""
    out = {}
    try:
        names = sorted(os.listdir(probes_dir))
    except OSError:
        return out
    for n in names:
        if not n.endswith('.c'):
            continue
        try:
            with open(os.path.join(probes_dir, n)) as fh:
                text = fh.read(2000)
        except OSError:
            continue
        mm = re.search(r'Probe: (MNCOMPAT_HAVE_\w+)', text)
        up = re.search(r'Upstream: ([^\n]*)', text)
        if not mm or not up:
            continue
        vers = re.findall(r'(\d+\.\d+(?:\.\d+)?) ([0-9a-f]{12})', up.group(1))
        if vers:
            out[mm.group(1)] = vers
    return out


def version_tuple(s):
    parts = [int(x) for x in s.split('.')]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


GUARD = re.compile(r'LINUX_VERSION_CODE\s*(<=|>=|<|>)\s*'
                   r'KERNEL_VERSION\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)')

# What notifier code a stretch of source holds: (pattern, probe,
# description). The young callbacks' probes say the callback is there in
# either return type; the form (int, or bool from 7.1 on) is the _BOOL
# probes' and compat's return types' (mncompat_*_young_t) business.
FEATURES = (
    (r'clear_flush_young\s*\([^;{]*unsigned long\s+\w+\s*,\s*unsigned long\s+\w+\s*\)',
     'MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_RANGE', 'the range form of clear_flush_young'),
    (r'clear_flush_young\s*\([^;{,]*,[^;{,]*,\s*unsigned long\s+\w+\s*\)',
     'MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_ADDR', 'the one-address form of clear_flush_young'),
    (r'\bbool\s+\w+\s*\(\s*struct\s+mmu_notifier\s*\*[^;{)]*struct\s+mm_struct\s*\*',
     'MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_BOOL', 'young callbacks returning bool'),
    (r'\.\s*clear_young\s*=', 'MNCOMPAT_HAVE_CLEAR_YOUNG', 'clear_young'),
    (r'\.\s*test_young\s*=', 'MNCOMPAT_HAVE_TEST_YOUNG', 'test_young'),
    (r'\.\s*invalidate_page\s*=|invalidate_page\s*\(\s*struct mmu_notifier\s*\*',
     'MNCOMPAT_HAVE_INVALIDATE_PAGE', 'invalidate_page'),
    (r'\.\s*arch_invalidate_secondary_tlbs\s*=',
     'MNCOMPAT_HAVE_ARCH_INVALIDATE_SECONDARY_TLBS',
     'arch_invalidate_secondary_tlbs'),
    (r'\.\s*invalidate_range\s*=', 'MNCOMPAT_HAVE_INVALIDATE_RANGE',
     'invalidate_range'),
    (r'const struct mmu_notifier_range\s*\*',
     'MNCOMPAT_HAVE_RANGE_START_RANGE',
     'callbacks taking a struct mmu_notifier_range'),
    (r'\bbool\s+blockable\b', 'MNCOMPAT_HAVE_RANGE_START_BLOCKABLE',
     'the blockable form of invalidate_range_start'),
    (r'\.\s*change_pte\s*=', 'MNCOMPAT_HAVE_CHANGE_PTE', 'change_pte'),
    (r'\bmmu_notifier_range_blockable\s*\(',
     'MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE_BLOCKABLE',
     'mmu_notifier_range_blockable()'),
    (r'\.\s*alloc_notifier\s*=|\bmmu_notifier_get\s*\(',
     'MNCOMPAT_HAVE_MMU_NOTIFIER_GET', 'mmu_notifier_get()'),
    (r'MMU_INVALIDATE_DOES_NOT_BLOCK', 'MNCOMPAT_HAVE_OPS_FLAGS_DOES_NOT_BLOCK',
     'MMU_INVALIDATE_DOES_NOT_BLOCK'),
    (r'\binvalidate_(start|finish)\s*=|\bmmu_interval_notifier_finish\b',
     'MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER_TWO_PASS', 'the two-pass interval notifier'),
    (r'\bmmu_interval_notifier\b', 'MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER',
     'mmu_interval_notifier'),
)

# What to do instead of the guard, where an #ifdef is not it.
ADVICE = {
    'MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_BOOL':
        'declare the callbacks once with compat\'s return types (mncompat_clear_flush_young_t, '
        'mncompat_clear_young_t, mncompat_test_young_t: the kernel\'s)',
    'MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER_TWO_PASS':
        'define the table with MNCOMPAT_MMU_INTERVAL_NOTIFIER_OPS()',
}

# A guard at the version of a form explains the callbacks whose form it is:
# their presence is no news.
FORM_OF = {
    'MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_BOOL': ('MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_RANGE',
                                             'MNCOMPAT_HAVE_CLEAR_YOUNG',
                                             'MNCOMPAT_HAVE_TEST_YOUNG'),
    'MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER_TWO_PASS': ('MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER',),
}


def guard_notes(src, probes):
    """Notes (line, text) for #if LINUX_VERSION_CODE guards around
    notifier code at a version that is none of those compat's probe for
    that code names (compat/probes/*.c, "Upstream:")."""
    lines = src.text.split('\n')
    # cpp directives by line, the chains of #if ... #endif
    stack, chains = [], []
    for ln, w, text in src.cpp:
        if w in ('if', 'ifdef', 'ifndef'):
            stack.append({'if': (ln, text if w == 'if' else ''), 'marks': [ln]})
        elif w in ('elif', 'else') and stack:
            stack[-1]['marks'].append(ln)
        elif w == 'endif' and stack:
            c = stack.pop()
            c['marks'].append(ln)
            c['depth'] = len(stack)
            chains.append(c)
    notes = []
    for c in chains:
        ln, cond = c['if']
        m = GUARD.search(cond)
        if not m:
            continue
        op, v = m.group(1), (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        if op in ('>', '<='):
            v = (v[0], v[1], v[2] + 1)
        inner = [d for d in chains if d is not c and
                 c['marks'][0] < d['marks'][0] and d['marks'][-1] < c['marks'][-1]]
        text = []
        for k in range(c['marks'][0], c['marks'][-1] - 1):
            if any(d['marks'][0] <= k + 1 <= d['marks'][-1] for d in inner):
                continue
            text.append(lines[k])
        body = '\n'.join(text)
        seen, bad, explained = set(), [], set()
        for pat, probe, what in FEATURES:
            if probe in seen or not re.search(pat, body):
                continue
            seen.add(probe)
            vers = probes.get(probe)
            if not vers or any(version_tuple(x) == v for x, _ in vers):
                explained.update(FORM_OF.get(probe, ()) if vers else ())
                continue
            bad.append((probe, what, ', '.join('%s (%s)' % (x, y) for x, y in vers)))
        bad = [b for b in bad if b[0] not in explained]
        if not bad:
            continue
        raw = GUARD.search(lines[ln - 1]) or m
        ifdefs = [b[0] for b in bad if b[0] not in ADVICE]
        advice = ['test the feature instead: #ifdef %s' % ' / '.join(ifdefs)] if ifdefs else []
        advice += [ADVICE[b[0]] for b in bad if b[0] in ADVICE]
        notes.append((ln, 'review: #if %s guards %s, but compat\'s probe%s name%s %s: '
                      'on the kernels in between the wrong branch builds. '
                      'With compat, %s'
                      % (raw.group(0), ' and '.join(b[1] for b in bad),
                         's' if len(bad) > 1 else '', '' if len(bad) > 1 else 's',
                         '; '.join(b[2] for b in bad), '; '.join(advice))))
    return notes
