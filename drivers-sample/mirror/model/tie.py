#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tie the spin model to the C it stands for.

Usage: tie.py [--record | --show [OBJECT]] [--top DIR]

The C side: the sources each build of BUILDS compiles, with the -D options
it compiles them with (both from the module's Kbuild, as make reads it),
and EXTRA_UNITS, are run through the C preprocessor once per kernel
generation of GENERATIONS (compat's probe results for it, written as
mncompat_config.h), with empty stand-ins for the kernel's headers, so that
each configuration sees the variant of every compat macro that kernel gets
and the driver's own switches (MIRROR_SKIP_INVALIDATION, MIRROR_TLB_ONLY)
as the build sets them. From
the roots (ROOTS) every function and table reached through calls, table
members and references is rendered as its protocol skeleton (cskel.py:
canonical statements, locals renamed, constants folded); prototypes do not
count, so a forward declaration changes nothing.

The model side: the notes in the .pml files, each a comment at the model
step that stands for the C it quotes:

    /* C[SELECT](PROPERTIES): C TEXT */            object: the enclosing
    /* C OBJECT[SELECT](PROPERTIES): C TEXT */     inline or proctype

SELECT (optional) limits the note to configurations: generations ("<4.13",
">=5.0", "4.16-4.19", "4.19": by the first version of each generation) and
builds ("default", "tlb-only"). PROPERTIES names the model properties the
step carries (coherence, deadlock, no-sleep, pageref, warn, pairing, b4),
or says "unmodelled: WHY" for C the model leaves out; "; reviewed: WHY"
records a reviewed reason why the model step did not change with the C;
"unmodelled: WHY; digest: D" with no C text leaves a whole object out,
tied by the digest of its skeleton; C text "#define NAME VALUE" gives the
notes a macro. Reasons contain no ';'. The C texts of an object's notes,
in file order, are its skeleton on the model side.

Check (the default): for every configuration and object, both skeletons
must be equal; a difference is printed with the object, the kernels, the C
lines, the model step that stands for them and its properties. The notes
must also be as recorded in tie.record. --record writes tie.record, and
refuses a note whose C changed (or that is new, or gone) while the model
step it sits at did not, unless the note carries a new "reviewed:" or
"unmodelled:" reason. --show prints the C skeletons (for writing notes).
Exit status: 0 when tied, 1 otherwise, 2 on bad usage.
"""
import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True    # no __pycache__ in the tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cskel  # noqa: E402

# The module: its Kbuild says which sources each build compiles, with
# which -D options (ccflags-y, CFLAGS_<object>); the model's may-sleep glue
# is read besides.
MODULE_DIR = 'drivers-sample/mirror'
MODULE = 'mirror'
EXTRA_UNITS = ['drivers-sample/mirror/model/may_sleep_glue.c']
ROOTS = ['mirror_fault_page', 'mirror_notifier_ops',
         'mirror_may_sleep_notifier_ops', 'devpt_register',
         'struct mirror_file']

# Kernel generations as compat's probes tell them apart (compat/probes/*.c
# name the commits): first version, kernels, MNCOMPAT_HAVE_* defined.
GENERATIONS = [
    ('4.4', '4.4-4.12', 'INVALIDATE_PAGE INVALIDATE_RANGE RANGE_START_VOID4 '
     'RANGE_END_VOID4'),
    ('4.13', '4.13-4.15', 'INVALIDATE_RANGE RANGE_START_VOID4 RANGE_END_VOID4'),
    ('4.16', '4.16-4.18', 'INVALIDATE_RANGE RANGE_START_VOID4 RANGE_END_VOID4 '
     'OPS_FLAGS_DOES_NOT_BLOCK'),
    ('4.19', '4.19', 'INVALIDATE_RANGE RANGE_START_BLOCKABLE RANGE_END_VOID4 '
     'OPS_FLAGS_DOES_NOT_BLOCK'),
    ('4.20', '4.20', 'INVALIDATE_RANGE RANGE_START_BLOCKABLE RANGE_END_VOID4'),
    ('5.0', '5.0-5.1', 'INVALIDATE_RANGE RANGE_START_RANGE RANGE_END_RANGE '
     'MMU_NOTIFIER_RANGE RANGE_BLOCKABLE_FIELD'),
    ('5.2', '5.2-6.5', 'INVALIDATE_RANGE RANGE_START_RANGE RANGE_END_RANGE '
     'MMU_NOTIFIER_RANGE RANGE_FLAGS_FIELD RANGE_EVENT_FIELD '
     'MMU_NOTIFIER_RANGE_BLOCKABLE'),
    ('6.6', '6.6-6.12', 'ARCH_INVALIDATE_SECONDARY_TLBS RANGE_START_RANGE '
     'RANGE_END_RANGE MMU_NOTIFIER_RANGE RANGE_FLAGS_FIELD RANGE_EVENT_FIELD '
     'MMU_NOTIFIER_RANGE_BLOCKABLE'),
]
# Builds of the driver: name, Kbuild knobs (make variables).
BUILDS = [('default', []), ('tlb-only', ['MIRROR_TLB_ONLY=1'])]
# What every configuration has: a kernel with THP and MMU notifiers.
COMMON_DEFINES = ['__KERNEL__', 'CONFIG_MMU_NOTIFIER',
                  'CONFIG_TRANSPARENT_HUGEPAGE']
PROPERTIES = {
    'coherence': 'the device maps an address to the CPU\'s page or not at '
                 'all once every change is notified',
    'deadlock': 'no process waits forever',
    'no-sleep': 'nothing sleeps in atomic context or where the kernel '
                'forbids blocking',
    'pageref': 'no page is freed while the CPU or the device maps it',
    'warn': 'the kernel does not WARN (5.12+: a failed range_start in a '
            'table that has a range_end)',
    'pairing': 'the driver\'s range_end runs only after its range_start '
               'succeeded',
    'b4': 'the oom reaper goes on with a range only where the driver\'s '
          'range_start did not decline it',
}
TEMPLATE_RE = re.compile(r'^([A-Za-z_]\w*?)__mncompat_(\w+)$')


class Failure(Exception):
    pass


def version_key(v):
    return tuple(int(x) for x in v.split('.'))


# ------------------------------------------------------------------ C side

def make_stubs(top, stub_dir):
    """Empty stand-ins for every <header> the units and compat include that
    is not in compat/include."""
    compat_inc = os.path.join(top, 'compat', 'include')
    seen = set()
    mirror = os.path.join(top, MODULE_DIR)
    todo = [os.path.join(top, u) for u in EXTRA_UNITS]
    todo += [os.path.join(mirror, f) for f in os.listdir(mirror)
             if f.endswith('.h') or f.endswith('.c')]
    for d, _, files in os.walk(compat_inc):
        todo += [os.path.join(d, f) for f in files if f.endswith('.h')]
    while todo:
        path = todo.pop()
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        with open(path, errors='replace') as f:
            text = f.read()
        for m in re.finditer(r'^\s*#\s*include\s*<([^>]+)>', text, re.M):
            name = m.group(1)
            if name == 'mncompat_config.h':
                continue
            if os.path.isfile(os.path.join(compat_inc, name)):
                todo.append(os.path.join(compat_inc, name))
                continue
            stub = os.path.join(stub_dir, name)
            os.makedirs(os.path.dirname(stub), exist_ok=True)
            open(stub, 'a').close()


KBUILD_UNITS = {}


def kbuild_units(top, tmp, knobs):
    """[(unit, -D options)] of one build: the sources of the module's
    objects (MODULE-y) and the -D options of ccflags-y and CFLAGS_<object>,
    as make evaluates the Kbuild with KNOBS set and no other MIRROR_*
    variable; then EXTRA_UNITS, with none."""
    if tuple(knobs) in KBUILD_UNITS:
        return KBUILD_UNITS[tuple(knobs)]
    helper = os.path.join(tmp, 'kbuild.mk')
    with open(helper, 'w') as f:
        f.write('include %s\n' % os.path.join(top, MODULE_DIR, 'Kbuild'))
        f.write('$(foreach o,$(%s-y),$(info object $(o) $(ccflags-y) '
                '$(CFLAGS_$(o))))\nprint: ;\n' % MODULE)
    env = dict((k, v) for k, v in os.environ.items()
               if not k.startswith('MIRROR_') and
               k not in ('MAKEFLAGS', 'MFLAGS', 'MAKELEVEL'))
    p = subprocess.run(['make', '-s', '-f', helper, 'print'] + list(knobs),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env, check=False)
    if p.returncode != 0:
        raise Failure('%s/Kbuild: make cannot read it:\n%s' %
                      (MODULE_DIR, p.stderr))
    units = []
    for line in p.stdout.split('\n'):
        words = line.split()
        if len(words) < 2 or words[0] != 'object':
            continue
        source = os.path.join(MODULE_DIR, words[1][:-2] + '.c')
        if not words[1].endswith('.o') or \
                not os.path.isfile(os.path.join(top, source)):
            raise Failure('%s/Kbuild: no source for %s' %
                          (MODULE_DIR, words[1]))
        units.append((source, [w[2:] for w in words[2:]
                               if w.startswith('-D')]))
    if not units:
        raise Failure('%s/Kbuild: no objects in %s-y' % (MODULE_DIR, MODULE))
    units += [(u, []) for u in EXTRA_UNITS]
    KBUILD_UNITS[tuple(knobs)] = units
    return units


def configurations(top, tmp):
    for first, kernels, probes in GENERATIONS:
        for build, knobs in BUILDS:
            yield first, kernels, probes.split(), build, \
                kbuild_units(top, tmp, knobs)


def mentioned_names(top, unit):
    """Every identifier in UNIT and in the repository's headers it
    includes: the macros its preprocessed text can depend on."""
    found = set()
    seen = set()
    todo = [os.path.join(top, unit)]
    dirs = [os.path.join(top, 'compat', 'include'),
            os.path.join(top, 'drivers-sample', 'mirror')]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        with open(path, errors='replace') as f:
            text = f.read()
        found.update(re.findall(r'[A-Za-z_]\w*', text))
        for m in re.finditer(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', text,
                             re.M):
            for d in [os.path.dirname(path)] + dirs:
                if os.path.isfile(os.path.join(d, m.group(1))):
                    todo.append(os.path.join(d, m.group(1)))
                    break
    return found


CPP_OUTPUT = {}


def preprocess(top, tmp, unit, first, probes, defines):
    """UNIT's preprocessed text in one configuration (the same text for
    configurations that differ only in macros UNIT never mentions)."""
    if unit not in CPP_OUTPUT:
        CPP_OUTPUT[unit] = (mentioned_names(top, unit), {})
    names, done = CPP_OUTPUT[unit]
    key = (tuple(p for p in probes if 'MNCOMPAT_HAVE_' + p in names),
           tuple(d for d in defines if d.split('=')[0] in names))
    if key not in done:
        done[key] = run_cpp(top, tmp, unit, first, probes, defines)
    return done[key]


def run_cpp(top, tmp, unit, first, probes, defines):
    cfg_dir = os.path.join(tmp, 'cfg-' + first)
    os.makedirs(cfg_dir, exist_ok=True)
    with open(os.path.join(cfg_dir, 'mncompat_config.h'), 'w') as f:
        for p in probes:
            f.write('#define MNCOMPAT_HAVE_%s 1\n' % p)
    cmd = ['gcc', '-E', '-nostdinc', '-undef', '-std=gnu11',
           '-I', os.path.join(tmp, 'stub'), '-I', cfg_dir,
           '-I', os.path.join(top, 'compat', 'include'),
           '-I', os.path.join(top, 'drivers-sample', 'mirror')]
    cmd += ['-D' + d for d in COMMON_DEFINES + defines]
    cmd.append(os.path.join(top, unit))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, check=False)
    if p.returncode != 0:
        raise Failure('%s: the preprocessor failed:\n%s' % (unit, p.stderr))
    return p.stdout


def relative(top, path):
    path = os.path.normpath(path)
    if path.startswith(top + os.sep):
        return path[len(top) + 1:]
    return path


# Parsed units and rendered skeletons, by the preprocessor's output: most
# units come out the same on many configurations.
PARSED = {}
SKELETONS = {}


def c_objects(top, tmp, first, probes, units):
    """{name: (kind, head, body, key)} of the UNITS ([(unit, -D options)])
    in one configuration; key names the unit's preprocessed text."""
    objects = {}
    for unit, defines in units:
        text = preprocess(top, tmp, unit, first, probes, defines)
        key = hashlib.sha256(text.encode()).hexdigest()
        if key not in PARSED:
            toks = cskel.tokenize_cpp(text)
            names = {}
            for t in toks:
                if isinstance(t.origin, tuple):
                    if t.origin[0] not in names:
                        names[t.origin[0]] = relative(top, t.origin[0])
                    t.origin = (names[t.origin[0]], t.origin[1])
            PARSED[key] = dict((name, obj + (key,)) for name, obj in
                               cskel.top_level(toks).items())
        for name, obj in PARSED[key].items():
            if name in objects and texts(objects[name]) != texts(obj):
                raise Failure('%s is defined twice, differently' % name)
            objects[name] = obj
    return objects


def texts(obj):
    return [t.text for t in obj[1] + obj[2]]


MODEL_SKELETONS = {}


def template_of(name, objects):
    """OPS__mncompat_WHAT for compat's per-table trampoline NAME, else
    None."""
    m = TEMPLATE_RE.match(name)
    if m and m.group(1) in objects and objects[m.group(1)][0] == 'table' \
            and objects[name][0] == 'function':
        return m.group(1), 'OPS__mncompat_' + m.group(2)
    return None


def c_skeletons(top, tmp, first, probes, units):
    """{object: lines} of the objects reached from ROOTS."""
    objects = c_objects(top, tmp, first, probes, units)
    out = {}
    todo = [r for r in ROOTS if r in objects]
    done = set()
    while todo:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        kind, head, body, unit_key = objects[name]
        if (unit_key, name) not in SKELETONS:
            try:
                SKELETONS[unit_key, name] = cskel.skeleton(kind, head, body)
            except cskel.ParseError as e:
                raise Failure('%s: %s' % (name, e))
        lines = [cskel.Line(x.depth, x.text, x.origin, x.shown)
                 for x in SKELETONS[unit_key, name]]
        refs = cskel.referenced_names(lines)
        key = name
        tmpl = template_of(name, objects)
        if tmpl:
            table, key = tmpl
            for line in lines:
                line.text = line.text.replace(table + '__mncompat_',
                                              'OPS__mncompat_')
                line.shown = line.shown.replace(table + '__mncompat_',
                                                'OPS__mncompat_')
            if key in out and [x.key() for x in out[key]] != \
                    [x.key() for x in lines]:
                raise Failure('compat\'s %s differs between tables' % key)
        out[key] = lines
        for ref in refs:
            if ref in objects and ref not in done:
                todo.append(ref)
    return out


# -------------------------------------------------------------- model side

NOTE_RE = re.compile(
    r'^C(?:\s+(?P<obj>(?:struct\s+)?[A-Za-z_]\w*))?'
    r'(?:\[(?P<sel>[^\]]*)\])?(?:\((?P<props>[^)]*)\))?:(?P<frag>.*)$', re.S)
SCOPE_RE = re.compile(r'^\s*(?:active\s+)?(?:inline|proctype)\s+(\w+)\s*\(')


class Note:
    def __init__(self, **kw):
        self.__dict__.update(kw)

    def where(self):
        return '%s:%d' % (self.file, self.line)


def pml_files(here):
    return sorted(f for f in os.listdir(here) if f.endswith('.pml'))


def read_notes(here):
    """Every note of the .pml files, in order, with its model step: the
    Promela code from the note's line to the next note (or the end of the
    inline or proctype), comments and blank lines left out."""
    notes = []
    scopes = {}
    for fname in pml_files(here):
        with open(os.path.join(here, fname)) as f:
            lines = f.read().split('\n')
        code = []          # per line: code text without comments
        comments = []      # (line index, comment text)
        in_comment = False
        buf = []
        start = 0
        for i, raw in enumerate(lines):
            out = ''
            j = 0
            while j < len(raw):
                if in_comment:
                    k = raw.find('*/', j)
                    if k < 0:
                        buf.append(raw[j:])
                        j = len(raw)
                    else:
                        buf.append(raw[j:k])
                        comments.append((start, '\n'.join(buf)))
                        in_comment = False
                        j = k + 2
                else:
                    k = raw.find('/*', j)
                    if k < 0:
                        out += raw[j:]
                        j = len(raw)
                    else:
                        out += raw[j:k]
                        in_comment, buf, start = True, [], i
                        j = k + 2
            code.append(out.strip())
        # scopes: inline/proctype name per line
        scope_of = [None] * len(lines)
        depth, name = 0, None
        for i, c in enumerate(code):
            m = SCOPE_RE.match(c)
            if m and depth == 0:
                name = m.group(1)
            if name is not None:
                scope_of[i] = name
            depth += c.count('{') - c.count('}')
            if depth == 0 and name is not None and '}' in c:
                name = None
        for i, c in enumerate(code):
            if scope_of[i]:
                scopes.setdefault((fname, scope_of[i]), []).append(c)
        file_notes = []
        for i, text in comments:
            body = '\n'.join(re.sub(r'^\s*\*(?!/) ?', '', x)
                             for x in text.split('\n'))
            m = NOTE_RE.match(body.strip())
            if not m:
                continue
            obj = ' '.join(m.group('obj').split()) if m.group('obj') \
                else scope_of[i]
            note = Note(file=fname, line=i + 1, index=i, scope=scope_of[i],
                        object=obj, select=(m.group('sel') or '').strip(),
                        props_text=(m.group('props') or '').strip(),
                        fragment=m.group('frag').strip())
            file_notes.append(note)
        # steps: code from the note's line to the next note's line
        note_lines = sorted(set(n.index for n in file_notes))
        for n in file_notes:
            later = [x for x in note_lines if x > n.index]
            end = later[0] if later else len(lines)
            step = []
            for k in range(n.index, end):
                if scope_of[k] != n.scope and k != n.index:
                    break
                if code[k] and not (k > n.index and code[k] == '}' and
                                    scope_of[k + 1 if k + 1 < len(lines)
                                             else k] != n.scope):
                    step.append((k + 1, code[k]))
            n.step = step
        notes += file_notes
    for n in notes:
        parse_props(n)
    return notes, scopes


def parse_props(n):
    n.props, n.unmodelled, n.reviewed, n.digest, n.errors = \
        [], None, None, None, []
    n.macro = None
    m = re.match(r'#\s*define\s+([A-Za-z_]\w*)\s+(.*)$', n.fragment, re.S)
    if m:
        n.macro = (m.group(1), m.group(2).strip())
        n.fragment = ''
    for item in [x.strip() for x in n.props_text.split(';') if x.strip()]:
        key = item.split(':', 1)[0].strip()
        value = item.split(':', 1)[1].strip() if ':' in item else None
        if key == 'unmodelled':
            n.unmodelled = value
        elif key == 'reviewed':
            n.reviewed = value
        elif key == 'digest':
            n.digest = value
        else:
            for p in [x.strip() for x in item.split(',')]:
                if p not in PROPERTIES:
                    n.errors.append('unknown property %r' % p)
                n.props.append(p)
    if n.object is None and n.macro is None:
        n.errors.append('no object: outside any inline or proctype, a note '
                        'names its C object')
    if n.digest is not None and (n.fragment or n.unmodelled is None):
        n.errors.append('"digest:" belongs to a note that leaves a whole '
                        'object out ("unmodelled: why", no C)')
    if n.fragment and not n.props and n.unmodelled is None:
        n.errors.append('a note with C names its properties or says '
                        '"unmodelled: why"')
    if n.unmodelled is not None and not n.unmodelled:
        n.errors.append('"unmodelled:" without a reason')
    if n.reviewed is not None and not n.reviewed:
        n.errors.append('"reviewed:" without a reason')
    try:
        n.selector = parse_select(n.select)
    except Failure as e:
        n.errors.append(str(e))
        n.selector = None


def parse_select(text):
    versions, builds = [], []
    firsts = [g[0] for g in GENERATIONS]
    for item in [x.strip() for x in text.split(',') if x.strip()]:
        if item in [b[0] for b in BUILDS]:
            builds.append(item)
            continue
        m = re.fullmatch(r'(<=|>=|<|>)?(\d+\.\d+)(?:-(\d+\.\d+))?', item)
        if not m:
            raise Failure('bad selector %r' % item)
        op, lo, hi = m.groups()
        lo_k = version_key(lo)
        if hi:
            hi_k = version_key(hi)
            versions.append(lambda v, a=lo_k, b=hi_k: a <= v <= b)
        elif op == '<':
            versions.append(lambda v, a=lo_k: v < a)
        elif op == '<=':
            versions.append(lambda v, a=lo_k: v <= a)
        elif op == '>':
            versions.append(lambda v, a=lo_k: v > a)
        elif op == '>=':
            versions.append(lambda v, a=lo_k: v >= a)
        else:
            if lo not in firsts:
                raise Failure('%s is not the first version of a generation '
                              '(%s)' % (lo, ', '.join(firsts)))
            versions.append(lambda v, a=lo_k: v == a)
    return versions, builds


def selected(note, first, build):
    versions, builds = note.selector
    v = version_key(first)
    return (not versions or any(f(v) for f in versions)) and \
        (not builds or build in builds)


def expand(toks, macros, depth=0):
    """TOKS with the notes' object-like macros replaced."""
    out = []
    for t in toks:
        if t.kind == 'id' and t.text in macros and depth < 8:
            body = cskel.tokenize(macros[t.text], lambda _pos, o=t.origin: o)
            out += expand(body, macros, depth + 1)
        else:
            out.append(t)
    return out


def model_skeleton(name, notes, macros):
    """The skeleton of NAME from the C texts of its notes, each line's
    origin the note it came from."""
    toks = []
    for n in notes:
        toks += expand(cskel.tokenize(n.fragment, lambda _pos, n=n: n),
                       macros)
    if not toks:
        return []
    try:
        objects = cskel.top_level(toks)
    except cskel.ParseError as e:
        raise Failure('the notes of %s do not parse: %s' % (name, e))
    if list(objects) != [name]:
        raise Failure('the notes of %s define %s' %
                      (name, ', '.join(objects) or 'nothing'))
    kind, head, body = objects[name]
    try:
        return cskel.skeleton(kind, head, body)
    except cskel.ParseError as e:
        raise Failure('the notes of %s do not parse: %s' % (name, e))


# ---------------------------------------------------------------- compare

def kernels_text(configs):
    """'kernels 4.4-4.12, 4.13-4.15 (tlb-only)' for a set of (first,
    build)."""
    by_build = {}
    for first, build in configs:
        by_build.setdefault(build, []).append(first)
    parts = []
    all_firsts = [g[0] for g in GENERATIONS]
    names = dict((g[0], g[1]) for g in GENERATIONS)
    for build, firsts in sorted(by_build.items()):
        firsts = sorted(firsts, key=version_key)
        if firsts == all_firsts:
            text = 'every kernel'
        else:
            runs, run = [], []
            for f in all_firsts:
                if f in firsts:
                    run.append(f)
                elif run:
                    runs.append(run)
                    run = []
            if run:
                runs.append(run)
            text = 'kernels ' + ', '.join(
                names[r[0]].split('-')[0] + '-' + names[r[-1]].split('-')[-1]
                if len(r) > 1 else names[r[0]] for r in runs)
        parts.append(text if len(BUILDS) == 1 else
                     '%s (%s build)' % (text, build))
    return '; '.join(parts)


def step_text(n):
    if n.unmodelled is not None:
        return 'left out of the model (%s)' % n.unmodelled
    if not n.step:
        return 'model note at %s (no step)' % n.where()
    line, code = n.step[0]
    code = ' '.join(code.split())
    props = ', '.join(n.props) or 'none'
    return 'model step `%s` (%s:%d), property %s' % (code, n.file, line,
                                                     props)


def describe(c_lines, m_lines):
    """Lines explaining how C_LINES (the C) differ from M_LINES (the
    notes)."""
    out = []
    sm = difflib.SequenceMatcher(None, [x.key() for x in m_lines],
                                 [x.key() for x in c_lines], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == 'equal':
            continue
        for k in range(i1, i2):
            m = m_lines[k]
            if op == 'replace' and k - i1 < j2 - j1:
                c = c_lines[j1 + k - i1]
                out.append('  C now has `%s` (%s) where %s stands for `%s`'
                           % (c.shown, cskel.origin_str(c.origin),
                              step_text(m.origin), m.shown))
            else:
                out.append('  C no longer has `%s`: %s' %
                           (m.shown, step_text(m.origin)))
        for k in range(j1 + (i2 - i1 if op == 'replace' else 0), j2):
            c = c_lines[k]
            near = m_lines[i1 - 1] if i1 > 0 else (m_lines[0] if m_lines
                                                   else None)
            after = (' (after `%s`: %s)' % (near.shown, step_text(near.origin))
                     if near is not None else '')
            out.append('  C has `%s` (%s) that no model note stands for%s' %
                       (c.shown, cskel.origin_str(c.origin), after))
    return out


def skeleton_digest(lines):
    return digest('\n'.join(x.key() for x in lines))


def check_tie(top, here, notes):
    """Compare every configuration; returns a list of report lines."""
    problems = []
    macros = dict(n.macro for n in notes if n.macro and not n.errors)
    by_object, whole = {}, {}
    for n in notes:
        if n.errors or n.macro:
            continue
        if n.digest is not None:
            whole.setdefault(n.object, []).append(n)
        elif n.fragment:
            by_object.setdefault(n.object, []).append(n)
    tmp = tempfile.mkdtemp(prefix='mncompat-tie.')
    try:
        os.makedirs(os.path.join(tmp, 'stub'))
        make_stubs(top, os.path.join(tmp, 'stub'))
        results = {}     # (object, c key, m key) -> configs, c, m
        used, reached = set(), set()
        for first, _, probes, build, units in configurations(top, tmp):
            c = c_skeletons(top, tmp, first, probes, units)
            for obj in sorted(c):
                reached.add(obj)
                cl = c[obj]
                ck = tuple(x.key() for x in cl)
                wsel = [n for n in whole.get(obj, [])
                        if selected(n, first, build)]
                if wsel:
                    used.update(id(n) for n in wsel)
                    have = skeleton_digest(cl)
                    for n in wsel:
                        if n.digest != have:
                            r = results.setdefault(
                                (obj, ck, ('digest', n.digest, have)),
                                [[], cl, n])
                            r[0].append((first, build))
                    continue
                sel = [n for n in by_object.get(obj, [])
                       if selected(n, first, build)]
                used.update(id(n) for n in sel)
                mkey = (obj, tuple(id(n) for n in sel))
                if mkey not in MODEL_SKELETONS:
                    MODEL_SKELETONS[mkey] = \
                        model_skeleton(obj, sel, macros) if sel else []
                m = MODEL_SKELETONS[mkey]
                mk = tuple(x.key() for x in m)
                r = results.setdefault((obj, ck, mk), [[], cl, m])
                r[0].append((first, build))
        for (obj, ck, mk), (configs, cl, m) in sorted(
                results.items(), key=lambda kv: kv[0][0]):
            if ck == mk:
                continue
            where = kernels_text(configs)
            src = cskel.origin_str(cl[0].origin).rsplit(':', 1)[0]
            if isinstance(mk, tuple) and mk[:1] == ('digest',):
                n = m
                problems.append(
                    '%s: %s (%s) changed: the model leaves it out (%s, '
                    '%s): if that still holds, its digest is now %s' %
                    (src, obj, where, n.unmodelled, n.where(), mk[2]))
                continue
            if not m:
                problems.append('%s: %s (%s): no model note stands for it '
                                '(reached from %s)' %
                                (src, obj, where, ', '.join(ROOTS)))
                continue
            problems.append('%s: %s (%s): the C is not what the model '
                            'stands for:' % (src, obj, where))
            problems += describe(cl, m)
        for obj in sorted(set(by_object) | set(whole)):
            if obj not in reached:
                problems.append('%s: the model has notes for %s, which the '
                                'C does not reach from %s on any kernel' %
                                ((by_object.get(obj) or whole[obj])[0].where(),
                                 obj, ', '.join(ROOTS)))
                continue
            for n in by_object.get(obj, []) + whole.get(obj, []):
                if id(n) not in used:
                    problems.append('%s: the note selects no kernel or build '
                                    'where the C reaches %s' %
                                    (n.where(), obj))
    finally:
        shutil.rmtree(tmp)
    return problems


# ------------------------------------------------------------------ record

def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fragment_key(n):
    text = n.fragment
    if n.macro:
        text = '#define %s %s' % n.macro
    toks = cskel.tokenize(text.replace('#', ' '), lambda _pos: None)
    return digest(' '.join(t.text for t in toks))


def record_entries(notes, scopes):
    """The notes as tie.record lines (object, selector, C digest, reason
    digest, step) and the scopes' code digests."""
    entries = []
    for n in notes:
        reason = '%s|%s' % (n.unmodelled or '', n.reviewed or '')
        if n.digest:
            reason += '|' + n.digest
        step = ' '.join(' '.join(code.split()) for _, code in n.step) \
            if n.unmodelled is None else ''
        entries.append((n.object or '-', n.select, fragment_key(n),
                        digest(reason) if reason != '|' else '-', step,
                        '%s:%s' % (n.file, n.scope)))
    scope_digests = dict(('%s:%s' % k, digest('\n'.join(v)))
                         for k, v in scopes.items())
    return entries, scope_digests


def write_record(path, entries, scope_digests):
    with open(path + '.tmp', 'w') as f:
        f.write('# The model notes as last reviewed (tie.py --record): '
                'OBJECT SELECT C REASON STEP,\n# then each inline\'s '
                'code digest. Written by tie.py; do not edit.\n')
        for e in entries:
            f.write('note\t%s\t%s\t%s\t%s\t%s\t%s\n' % e)
        for k in sorted(scope_digests):
            f.write('scope\t%s\t%s\n' % (k, scope_digests[k]))
    os.replace(path + '.tmp', path)


def read_record(path):
    entries, scope_digests = [], {}
    if not os.path.isfile(path):
        return None, None
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            parts = line.rstrip('\n').split('\t')
            if parts[0] == 'note' and len(parts) == 7:
                entries.append(tuple(parts[1:]))
            elif parts[0] == 'scope' and len(parts) == 3:
                scope_digests[parts[1]] = parts[2]
    return entries, scope_digests


def record_refusals(old, old_scopes, new, new_scopes, labels):
    """Why the new notes may not be recorded over the old ones: a note
    whose C changed, or that is new or gone, while the model step it sits
    at (for a gone note: the inline it was in) stayed the same, without a
    new reason ("reviewed:" or "unmodelled:"). LABELS name the new notes."""
    refusals = []
    label_of = dict(zip(new, labels))
    for obj in sorted(set(e[0] for e in old) | set(e[0] for e in new)):
        o = [e for e in old if e[0] == obj]
        n = [e for e in new if e[0] == obj]
        reasons = set(e[3] for e in o)
        sm = difflib.SequenceMatcher(None, [(e[1], e[2]) for e in o],
                                     [(e[1], e[2]) for e in n],
                                     autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == 'equal':
                continue
            old_steps = [e[4] for e in o[i1:i2] if e[4]]
            for e in n[j1:j2]:
                if e[3] != '-' and e[3] not in reasons:
                    continue          # a new reason: reviewed
                what = label_of.get(e, e[2])
                if not e[4]:
                    refusals.append(
                        '%s: %s changed and has no model step: give it a '
                        'new reason ("reviewed: why")' % (obj, what))
                elif e[4] in old_steps or \
                        sum(x[4] == e[4] for x in n) <= \
                        sum(x[4] == e[4] for x in o):
                    if e[4] in old_steps:
                        old_steps.remove(e[4])
                    refusals.append(
                        '%s: %s changed, its model step `%s` did not: change '
                        'the step, or add "reviewed: why" to the note' %
                        (obj, what, e[4][:60]))
            new_reason_here = any(x[3] != '-' and x[3] not in reasons
                                  for x in n[j1:j2])
            for e in o[i1:i2]:
                if e[4] and e[4] in old_steps and not new_reason_here and \
                        old_scopes.get(e[5]) == new_scopes.get(e[5]):
                    refusals.append(
                        '%s: the C at model step `%s` (%s) is gone, the '
                        'model there did not change: change it, or add '
                        '"reviewed: why" to a note next to it' %
                        (obj, e[4][:60], e[5]))
    return refusals


# -------------------------------------------------------------------- main

def show(top, only):
    tmp = tempfile.mkdtemp(prefix='mncompat-tie.')
    try:
        os.makedirs(os.path.join(tmp, 'stub'))
        make_stubs(top, os.path.join(tmp, 'stub'))
        groups = {}
        for first, _, probes, build, units in configurations(top, tmp):
            for obj, lines in c_skeletons(top, tmp, first, probes,
                                          units).items():
                if only and obj != only:
                    continue
                key = (obj, tuple(x.key() for x in lines))
                groups.setdefault(key, [[], lines])[0].append((first, build))
        for (obj, _), (configs, lines) in sorted(groups.items()):
            print('== %s (%s)' % (obj, kernels_text(configs)))
            for x in lines:
                print('%-70s %s' % ('  ' * x.depth + x.shown,
                                    cskel.origin_str(x.origin)))
    finally:
        shutil.rmtree(tmp)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.normpath(os.path.join(here, '..', '..', '..'))
    mode, only = 'check', None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == '--record':
            mode = 'record'
        elif a == '--show':
            mode = 'show'
            if args and not args[0].startswith('-'):
                only = args.pop(0)
        elif a == '--top' and args:
            top = os.path.abspath(args.pop(0))
            here = os.path.join(top, 'drivers-sample', 'mirror', 'model')
        else:
            print(__doc__.split('\n\n')[1], file=sys.stderr)
            return 2
    try:
        if mode == 'show':
            show(top, only)
            return 0
        notes, scopes = read_notes(here)
        problems = ['%s: %s' % (n.where(), e) for n in notes
                    for e in n.errors]
        problems += check_tie(top, here, notes)
    except Failure as e:
        print('tie: %s' % e)
        return 1
    path = os.path.join(here, 'tie.record')
    entries, scope_digests = record_entries(notes, scopes)
    if problems:
        print('\n'.join(problems))
        print('tie: the C and the model differ (%d lines above); the model '
              'README says what to do' % len(problems))
        return 1
    old, old_scopes = read_record(path)
    if mode == 'record':
        if old is not None:
            labels = ['`%s` (%s)' % (n.fragment[:50] or (
                '#define %s %s' % n.macro if n.macro else n.object),
                n.where()) for n in notes]
            refusals = record_refusals(old, old_scopes, entries,
                                       scope_digests, labels)
            if refusals:
                print('\n'.join(refusals))
                print('tie: not recorded')
                return 1
        write_record(path, entries, scope_digests)
        print('tie: recorded %d notes in %s' % (len(entries), path))
        return 0
    if old is None:
        print('tie: no %s: review the notes, then run %s --record' %
              (path, sys.argv[0]))
        return 1
    if old != entries or old_scopes != scope_digests:
        changed = sorted(set(e[0] for e in set(old) ^ set(entries)))
        print('tie: the model notes of %s changed since %s was written: '
              'review them, then run %s --record' %
              (', '.join(changed) or 'the inlines', path, sys.argv[0]))
        return 1
    print('tie: %d notes, C and model agree on every configuration' %
          len(entries))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
