# SPDX-License-Identifier: GPL-2.0
"""The hazards a converted driver still has, read from its code as it is
after the conversion (convert.sh, after the series; standard library and
mnmodule.py only).  The steps say so when they make the code that has
them; a second run finds nothing to convert and so nothing to say, but the
hazard is still in the code: it is named again from here, so the review
items depend on the code, not on whether it was converted before.

Usage: hazards.py --base DIR --work DIR --upto GEN --notes FILE REL...
  DIR of --base: the driver's tree; of --work: the converted copies (REL,
  relative to both; a file of the module not there is read from the tree).
  GEN: the last generation converted to (4.13 ... 6.10). FILE: the notes
  of this run ("REL:LINE: [GEN] ..." lines).
Prints, for the native API (convert.sh leaves --compat out: compat pairs
start and end and leaves the hook out of such a table on 6.6+), one line a
hazard, "REL:LINE: [check] review: ...", unless the step that made it
said so in this run (its note in FILE):
  pairing  a range_start that returns -EAGAIN in a table with a range_end
           (4.19+): since 5.12 the kernel calls range_end for a start that
           failed;
  hook     a table with arch_invalidate_secondary_tlbs and range callbacks
           (6.6+): mmu_notifier_register() refuses it.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mnmodule  # noqa: E402

NONE = (None, 'NULL', '0')


def gen_number(gen):
    return tuple(int(x) for x in gen.split('.'))


def hazards(facts, upto):
    """(rel, line, text, said) of every hazard of the module facts; said:
    (rel, generation, start of the text) of the step's own note of it."""
    out = []
    for t in facts.tables():
        f = t['fields']
        start, end = f.get('invalidate_range_start'), f.get('invalidate_range_end')
        hook = f.get('arch_invalidate_secondary_tlbs')
        if upto >= (4, 19) and start not in NONE and end not in NONE:
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
        if upto >= (6, 6) and hook not in NONE and \
                (start not in NONE or end not in NONE):
            out.append((
                t['file'], t['line'],
                "review: %s has arch_invalidate_secondary_tlbs (%s) and range "
                "callbacks: from 6.6 mmu_notifier_register() refuses such a table "
                "(WARN, -EINVAL). Do %s's work from invalidate_range_end instead and "
                "drop the hook, or convert with --compat" % (t['name'], hook, hook),
                (t['file'], '6.6', 'review: %s has invalidate_range (' % t['name'])))
    return out


# A file that can hold a hazard's table: a range_end, and a range_start or
# the hook (the modules of the other files are never built: a kernel
# tree has a hundred files that mention mmu_notifier).
TABLE = [re.compile(r'\.invalidate_range_end\s*='),
         re.compile(r'\.(invalidate_range_start|arch_invalidate_secondary_tlbs)\s*=')]


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
    return all(r.search(text) for r in TABLE)


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
    rels = []
    i = 0
    while i < len(argv):
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
        pairs = mnmodule.module_paths(members, base, work)
        facts = mnmodule.Facts(pairs, {})
        for rel, line, text, (srel, sgen, stext) in hazards(facts, upto):
            if (rel, line) in seen or any(
                    r == srel and g == sgen and t.startswith(stext)
                    for r, g, t in notes):
                continue
            seen.add((rel, line))
            print('%s:%d: [check] %s' % (rel, line, text))


if __name__ == '__main__':
    main(sys.argv[1:])
