# SPDX-License-Identifier: GPL-2.0
"""The hazards a converted driver still has, read from its code as it is
after the conversion (convert.sh, after the series; standard library and
mnmodule.py only).  The steps say so when they make the code that has
them; a second run finds nothing to convert and so nothing to say, but the
hazard is still in the code: it is named again from here, so the review
items depend on the code, not on whether it was converted before.

Usage: hazards.py [--compat] --base DIR --work DIR --upto GEN --notes FILE REL...
  DIR of --base: the driver's tree; of --work: the converted copies (REL,
  relative to both; a file of the module not there is read from the tree).
  GEN: the last generation converted to (4.13 ... 6.10). FILE: the notes
  of this run ("REL:LINE: [GEN] ..." lines).
Prints one line a hazard, "REL:LINE: [check] review: ...", unless the
step that made it said so in this run (its note in FILE); with --compat
(the tables are compat's) only the pages hazard: compat pairs start and
end and leaves the hook out of such a table on 6.6+:
  pairing  a range_start that returns -EAGAIN in a table with a range_end
           (4.19+): since 5.12 the kernel calls range_end for a start that
           failed;
  hook     a table with arch_invalidate_secondary_tlbs and range callbacks
           (6.6+): mmu_notifier_register() refuses it;
  pages    a range callback that walks [start, end) one page at a time
           (what the 4.13 step makes of a page callback it cannot widen):
           kernels pass whole address spaces, where that loop does not end.
"""
import functools
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mnmodule  # noqa: E402
import unarray  # noqa: E402

NONE = (None, 'NULL', '0')
RANGE_FIELDS = ('invalidate_range_start', 'invalidate_range_end',
                'invalidate_range', 'arch_invalidate_secondary_tlbs')
# A loop over [start, end): its condition compares a variable with an
# end, and the loop steps that variable by PAGE_SIZE (or by a choice of
# page sizes).
PAGE_LOOP = re.compile(r'\b(?:for\s*\([^;{}]*;|while\s*\()\s*([A-Za-z_][\w>.-]*)\s*<=?\s*'
                       r'[\w>.-]*\bend\b')
NOT_CALLS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'cond_resched',
             'mmu_notifier_range_blockable'}
# A file's text with comments and strings blanked, once per file: every
# range callback of its tables is looked at in it.
code_of = functools.lru_cache(maxsize=64)(unarray.code_only)


def body_of(text, line):
    """The text of the function whose definition starts at line (1-based),
    from its opening brace to the matching one, and the line of the brace;
    comments and strings blanked (newlines kept, unarray.code_only)."""
    code = code_of(text)
    pos = sum(len(x) + 1 for x in code.split('\n')[:line - 1])
    brace = code.find('{', pos)
    close = unarray.match_close(code, brace) if brace >= 0 else -1
    if close < 0:
        return None, 0
    return code[brace:close + 1], code.count('\n', 0, brace) + 1


def page_loops(facts, name, rel):
    """(file, line, callee) of each loop over [start, end) by pages in the
    definitions of name; callee: the first function the loop calls."""
    texts = dict(facts.texts())
    out = []
    for d in facts.defs(name, rel):
        if d['macro'] or d['file'] not in texts:
            continue
        body, first = body_of(texts[d['file']], d['line'])
        if not body:
            continue
        for m in PAGE_LOOP.finditer(body):
            var = re.escape(m.group(1))
            step = re.compile(r'(?<![\w>.])%s\s*(?:\+=|=\s*%s\s*\+)[^;]*\bPAGE_SIZE\b'
                              % (var, var))
            if not step.search(body, m.start()):
                continue
            callee = None
            for c in re.finditer(r'\b([A-Za-z_]\w*)\s*\(', body[m.end():]):
                if c.group(1) not in NOT_CALLS:
                    callee = c.group(1)
                    break
            out.append((d['file'], first + body.count('\n', 0, m.start()), callee))
            break
    return out


def gen_number(gen):
    return tuple(int(x) for x in gen.split('.'))


def hazards(facts, upto, compat=False):
    """(rel, line, text, said) of every hazard of the module facts; said:
    (rel, generation, start of the text) of the step's own note of it.
    compat: the page loops only."""
    out = []
    loops = {}
    for t in facts.tables():
        f = t['fields']
        start, end = f.get('invalidate_range_start'), f.get('invalidate_range_end')
        hook = f.get('arch_invalidate_secondary_tlbs')
        if not compat and upto >= (4, 19) and start not in NONE and end not in NONE:
            for d in facts.defs(start, t['file']):
                if d['eagain']:
                    out.append((
                        d['file'], d['eagain'],
                        "review: %s returns -EAGAIN here, and its table %s has "
                        "invalidate_range_end (%s): since Linux 5.12 (c2655835fd8c, also "
                        "in 5.10.y/5.11.y) the kernel WARNs and then calls %s for a start "
                        "that did not run (4.19-5.11: no range_end after a failed start). "
                        "Give %s a non-blockable path that neither sleeps nor fails, or "
                        "convert with --compat" % (start, t['name'], end, end, start),
                        (d['file'], '4.19', 'review: %s returns -EAGAIN when !blockable' % start)))
        if not compat and upto >= (6, 6) and hook not in NONE and \
                (start not in NONE or end not in NONE):
            out.append((
                t['file'], t['line'],
                "review: %s has arch_invalidate_secondary_tlbs (%s) and range "
                "callbacks: from 6.6 mmu_notifier_register() refuses such a table "
                "(WARN, -EINVAL). Do %s's work from invalidate_range_end instead and "
                "drop the hook, or convert with --compat" % (t['name'], hook, hook),
                (t['file'], '6.6', 'review: %s has invalidate_range (' % t['name'])))
        for field in RANGE_FIELDS:
            cb = f.get(field)
            if cb in NONE:
                continue
            for rel, line, callee in page_loops(facts, cb, t['file']):
                key = callee or (rel, line)
                if key not in loops:
                    loops[key] = (rel, line, callee, [])
                if cb not in loops[key][3]:
                    loops[key][3].append(cb)
    # One item a page function (what the 4.13 step's note names), with
    # every range callback that walks pages through it.
    for rel, line, callee, cbs in loops.values():
        out.append((
            rel, line,
            "review: %s walk%s [start, end) one page at a time%s: kernels hand "
            "range callbacks whole address spaces ([0, ULONG_MAX): the soft-dirty "
            "reset of /proc/PID/clear_refs; on some kernels also x86's secondary-TLB "
            "hook for a flush of more than 33 pages), where that loop does not end. "
            "Walk only what the device maps in the range (its own page table or an "
            "interval tree)" % (', '.join(cbs), '' if len(cbs) > 1 else 's',
                                ' (calling %s for each)' % callee if callee else ''),
            (rel, '4.13', 'review: %s takes one page' % callee)))
    return out


# A file that can hold a hazard: a table with a range callback (the
# callback may be defined in another file of the module; the modules of
# the other files are never built: a kernel tree has a hundred files that
# mention mmu_notifier).
TABLE = re.compile(r'\.(invalidate_range_start|invalidate_range_end|invalidate_range|'
                   r'arch_invalidate_secondary_tlbs)\s*=|'
                   r'\bMNCOMPAT_MMU_NOTIFIER_(?:GET_)?OPS\s*\(')


def may_have_hazard(base, work, rel):
    for top in (work, base):
        try:
            with open(os.path.join(top, rel), errors='replace') as fh:
                text = fh.read()
            break
        except OSError:
            continue
    else:
        return False
    return bool(TABLE.search(text))


def callbacks_defined(facts):
    """Is every range callback of the tables of facts defined in them?"""
    return all(facts.defs(t['fields'][f], t['file'])
               for t in facts.tables() for f in RANGE_FIELDS
               if t['fields'].get(f) not in NONE)


NOTE = re.compile(r'^(.*):[0-9]+: \[([0-9a-z.]+)\] (.*)$')


def said(path):
    """(rel, generation, text) of every note in the notes file path."""
    out = []
    with open(path) as fh:
        for line in fh:
            m = NOTE.match(line.rstrip('\n'))
            if m:
                out.append(m.groups())
    return out


def main(argv):
    base = work = upto = notes = None
    compat = False
    rels = []
    i = 0
    while i < len(argv):
        if argv[i] == '--compat':
            compat = True
            i += 1
            continue
        if argv[i] in ('--base', '--work', '--upto', '--notes') and \
                i + 1 < len(argv):
            if argv[i] == '--base':
                base = argv[i + 1]
            elif argv[i] == '--notes':
                notes = said(argv[i + 1])
            elif argv[i] == '--work':
                work = argv[i + 1]
            else:
                upto = gen_number(argv[i + 1])
            i += 2
            continue
        rels.append(argv[i][2:] if argv[i].startswith('./') else argv[i])
        i += 1
    if base is None or work is None or upto is None or notes is None:
        sys.exit(__doc__.split('Usage:')[1].split('Prints')[0].strip())
    rels = [r for r in rels if may_have_hazard(base, work, r)]
    tree = mnmodule.whole_tree(base) if rels else None
    groups = {}
    for rel in rels:
        groups.setdefault(mnmodule.module_key(rel, tree), []).append(rel)
    seen = set()
    for _key, members in sorted(groups.items()):
        # In a kernel tree (no driver's Kbuild at the top) a module is a
        # folder (nouveau's: a hundred files): the files with the tables
        # first, the folder whole only when a callback of those tables is
        # defined elsewhere in it.  A driver is read whole (its files that
        # name no mmu_notifier may hold compat's tables).
        facts = None
        if tree is None:
            facts = mnmodule.Facts([(mnmodule.work_or_base(r, base, work), r)
                                    for r in members], {})
        if facts is None or not callbacks_defined(facts):
            facts = mnmodule.Facts(mnmodule.module_paths(members, base, work), {})
        for rel, line, text, (srel, sgen, stext) in hazards(facts, upto, compat):
            if (rel, line) in seen or any(
                    r == srel and g == sgen and t.startswith(stext)
                    for r, g, t in notes):
                continue
            seen.add((rel, line))
            print('%s:%d: [check] %s' % (rel, line, text))


if __name__ == '__main__':
    main(sys.argv[1:])
