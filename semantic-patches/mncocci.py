# SPDX-License-Identifier: GPL-2.0
"""The Python the semantic patches share (mn-*.cocci).

Each .cocci puts this directory on sys.path in its @initialize:python@
(from cocci.cocci_file, the semantic patch spatch was given; a copy made
by flatten.sh says where the directory is) and imports what it uses:

  - Step: a script as spatch runs it: the tag of its notes ("4.13",
    "compat", ...), the virtual rules it was given (-D) and the mode they
    select; Step.note() says something about a position in that mode
    (patch: "FILE:LINE: [TAG] ..." on stderr, org: an org TODO, else a
    coccicheck report line);
  - positions: key(), line_col();
  - a file's lines and its #if structure: lines_of(), split_by_cpp(),
    cpp_ctx(), cpp_branches();
  - the module view (mnmodule.py) of a file: module(), and sleep_of(), a
    callback's sleeping in words;
  - wrap(): a call laid out as kernel style wants it;
  - Dying: a callback field a kernel generation removed, as
    include/drop-callback.cocci drops it from the ops tables together with
    the callback and the static helpers only it used.

Standard library only (spatch's coccilib where a note is printed in report
or org mode).  Tested by tests/test_mncocci.py (tests/run.sh runs it).
"""
import os
import re
import sys

import unguard

# A name no code has: an identifier a script binds to make a rule match
# nothing (or a generated call that a later rule removes).
NONE = '__mncompat_none'

# The phrase for a call the module view could not follow.
NOT_FOLLOWED = "neither this module's nor a known non-sleeping kernel helper"


# ---------------------------------------------------------------------
# The script as spatch runs it.
# ---------------------------------------------------------------------

def spatch_argv():
    """spatch's command line (this process's), [] where it cannot be read."""
    try:
        with open('/proc/self/cmdline', 'rb') as fh:
            return fh.read().decode(errors='replace').split('\0')
    except OSError:
        return []


def defines(argv):
    """The virtual rules given on a spatch command line (-D NAME; the
    name of -D NAME=VALUE too)."""
    return set(argv[i + 1].split('=', 1)[0] for i, a in enumerate(argv[:-1])
               if a == '-D')


class Step:
    """One semantic patch as spatch runs it.  tag: what its notes start
    with, in brackets; argv: spatch's command line (default: this
    process's); out: where patch-mode notes go (default: stderr)."""

    def __init__(self, tag, argv=None, out=None):
        self.tag = tag
        self.defined = defines(spatch_argv() if argv is None else argv)
        self.mode = 'report'
        for m in ('patch', 'org'):
            if m in self.defined:
                self.mode = m
        self.out = out

    def unsplit(self, p, fn):
        """fn, the callback the step converts, defined at p; or NONE when
        #if/#else split its definition (spatch saw one branch, said)."""
        if split_by_cpp(p):
            self.note(p, "review: %s is split by #if/#else (spatch sees one branch): "
                      "not converted, give every branch the %s prototype by hand"
                      % (fn, self.tag))
            return NONE
        return fn

    def note(self, p, msg):
        """Say msg about position p: in patch mode a "FILE:LINE: [TAG] msg"
        line on stderr (the diff is on stdout), in org mode an org TODO,
        else (report, context) a coccicheck report line."""
        msg = '[%s] %s' % (self.tag, msg)
        if self.mode == 'patch':
            (self.out or sys.stderr).write('%s:%s: %s\n' % (
                p[0].file, p[0].line, msg))
        elif self.mode == 'org':
            import coccilib.org
            coccilib.org.print_todo(p[0], msg)
        else:
            import coccilib.report
            coccilib.report.print_report(p[0], msg)


# ---------------------------------------------------------------------
# Positions (a position metavariable is a list; its first element has
# the file, and the line and column as strings).
# ---------------------------------------------------------------------

def key(p):
    """Where p is, as a dictionary key: (file, line, column)."""
    return (p[0].file, p[0].line, p[0].column)


def line_col(p):
    """(line, column) of p, as numbers that sort."""
    return (int(p[0].line), int(p[0].column))


DECL_MACRO = re.compile(r'^\s*(LIST_HEAD|HLIST_HEAD|LLIST_HEAD|DEFINE_\w+|'
                        r'DECLARE_\w+)\s*\(.*\)\s*;')


def decl_macro(p):
    """Is the statement at p a declaration macro (LIST_HEAD(x);,
    DEFINE_WAIT(w);, DECLARE_BITMAP(...);): code spatch takes for a
    statement that the compiler takes for a declaration, so nothing may
    be put before it."""
    lines = lines_of(p[0].file)
    ln = int(p[0].line) - 1
    if lines is None or not 0 <= ln < len(lines):
        return False
    return bool(DECL_MACRO.match(lines[ln]))


# ---------------------------------------------------------------------
# A file's lines and its #if structure.
# ---------------------------------------------------------------------

_texts = {}


def lines_of(path):
    """The lines of a file (kept while the file is unchanged), None when
    it cannot be read."""
    try:
        st = os.stat(path)
        stamp = (st.st_mtime_ns, st.st_size)
        if path not in _texts or _texts[path][0] != stamp:
            with open(path, errors='replace') as fh:
                _texts[path] = (stamp, fh.read().split('\n'))
    except OSError:
        return None
    return _texts[path][1]


CPP = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b')


def split_by_cpp(p):
    """True when an #if, #else or #endif sits between the line of p (a
    function's name) and the closing brace of that function in column 0:
    spatch then saw only one branch (and must not delete or rewrite the
    function as if it had seen it all).  True when the file cannot be
    read."""
    for line in (lines_of(p[0].file) or [])[int(p[0].line) - 1:]:
        if CPP.match(line):
            return True
        if line.startswith('}'):
            return False
    return True


def cpp_ctx(path, line):
    """The #if branches around a line: a tuple of (line of the #if,
    branch number), outermost first; None when the file cannot be read."""
    lines = lines_of(path)
    if lines is None:
        return None
    stack = []
    for i, text in enumerate(lines[:line - 1]):
        m = CPP.match(text)
        if not m:
            continue
        d = m.group(1)
        if d in ('if', 'ifdef', 'ifndef'):
            stack.append([i + 1, 0])
        elif d in ('elif', 'else') and stack:
            stack[-1][1] += 1
        elif d == 'endif' and stack:
            stack.pop()
    return tuple(tuple(x) for x in stack)


def own_switch(path, line, other):
    """The line of an initializer of the field other in another branch of
    the #if around line, when that #if is the module's own (a configure
    macro, not a kernel or distribution version: the steps convert the
    branches of those, unguard.API), else 0: a table that names the old
    field in one branch and its successor in another already switches
    between the two APIs."""
    ctx = cpp_ctx(path, line)
    lines = lines_of(path)
    if not ctx or lines is None:
        return 0
    ifline, mine = ctx[-1]
    field = re.compile(r'^\s*\.%s\s*=' % re.escape(other))
    depth, branch = 0, 0
    for i in range(ifline - 1, len(lines)):
        m = CPP.match(lines[i])
        if m:
            d = m.group(1)
            if d in ('if', 'ifdef', 'ifndef'):
                depth += 1
            elif d == 'endif':
                depth -= 1
                if depth == 0:
                    return 0
            elif depth == 1:
                branch += 1
            if depth == 1 and d in ('if', 'ifdef', 'ifndef', 'elif') and \
                    unguard.API.search(lines[i]):
                return 0
            continue
        if depth == 1 and branch != mine and field.match(lines[i]):
            return i + 1
    return 0


def cpp_branches(path, ifline):
    """The number of branches of the #if at line ifline and whether one
    of them is an #else (they then cover every configuration)."""
    lines = lines_of(path)
    if lines is None:
        return 0, False
    depth, n, has_else = 0, 1, False
    for text in lines[ifline:]:
        m = CPP.match(text)
        if not m:
            continue
        d = m.group(1)
        if d in ('if', 'ifdef', 'ifndef'):
            depth += 1
        elif d == 'endif':
            if depth == 0:
                return n, has_else
            depth -= 1
        elif depth == 0:
            n += 1
            has_else = has_else or d == 'else'
    return n, has_else


# ---------------------------------------------------------------------
# The module view.
# ---------------------------------------------------------------------

def module(p):
    """The module view (mnmodule.py) of the file of p: imported and built
    when first asked for, most files never ask."""
    import mnmodule
    return mnmodule.facts_for(p[0].file)


def sleep_of(p, fn):
    """May fn (a function of the file of p) sleep?  (verdict, words):
    'sleeps' and where (the chain of calls; the call and its place),
    'unknown' and the calls the module view could not follow, or
    'atomic' and None."""
    v, chain, why, unknown = module(p).sleep(fn, p[0].file)
    if v == 'sleeps':
        return v, '%s; %s' % (' -> '.join(chain), why)
    if v == 'unknown':
        return v, '%s, %s' % (', '.join(unknown), NOT_FOLLOWED)
    return v, None


DOES_NOT_BLOCK = 'MMU_INVALIDATE_DOES_NOT_BLOCK'


def declared_nonblocking(p, fn):
    """The tables of the module of p that name fn as a range callback,
    when every one of them declares, with .flags =
    MMU_INVALIDATE_DOES_NOT_BLOCK (4.16-4.19), that its range callbacks
    never block: the driver's own word that fn never sleeps.  [] when
    one does not (or none names fn)."""
    tbls = [t for t in module(p).tables()
            if fn in (t['fields'].get('invalidate_range_start'),
                      t['fields'].get('invalidate_range_end'))]
    if not tbls or any(t['fields'].get('flags') != DOES_NOT_BLOCK for t in tbls):
        return []
    return sorted(t['name'] for t in tbls)


def declared_text(tbls):
    return ("the driver declares it: .flags = %s in %s (4.16-4.19: its range callbacks never "
            "block)" % (DOES_NOT_BLOCK, ', '.join(tbls)))


def may_fail_paired(p):
    """The tables of the module of p (names, sorted) whose range_start may
    fail (returns -EAGAIN) and that have a range_end: those compat
    registers with mncompat_mmu_notifier_register()."""
    facts = module(p)
    out = set()
    for t in facts.tables():
        f = t['fields']
        start = f.get('invalidate_range_start')
        if start in (None, 'NULL', '0') or \
                f.get('invalidate_range_end') in (None, 'NULL', '0'):
            continue
        if any(d['eagain'] for d in facts.defs(start, t['file'])):
            out.add(t['name'])
    return sorted(out)


# ---------------------------------------------------------------------
# Generated code.
# ---------------------------------------------------------------------

def wrap(indent, head, args, tail=';'):
    """head(args...)tail in kernel style for a line indented by indent:
    lines up to 80 columns, continuation lines under the first
    argument."""
    col0 = len(indent.expandtabs(8)) + len(head) + 1
    out, col = head + '(', col0
    for i, a in enumerate(args):
        piece = a + (', ' if i < len(args) - 1 else ')' + tail)
        if i and col + len(piece.rstrip()) > 80:
            out = out.rstrip() + '\n' + '\t' * (col0 // 8) + ' ' * (col0 % 8)
            col = col0
        out += piece
        col += len(piece)
    return out.rstrip()


# ---------------------------------------------------------------------
# A callback field a generation removed (include/drop-callback.cocci).
# ---------------------------------------------------------------------

class Dying:
    """A callback field a kernel generation removed from struct
    mmu_notifier_ops.  include/drop-callback.cocci asks it, through the
    name dying that the including script binds to one:

      - is_field(f): is f the field?
      - table(), callback(), definition(): what it found (the tables with
        the field, their range callbacks, where the field's callback is
        defined), kept in tables and defs for the including script;
      - drops(p): does the field at p go (default: every one)?
      - droppable(p, pf, fn): may the callback fn (defined at pf) go now
        that nothing else in the file uses it?  fn, or NONE and a note;
        helper_droppable(p, ph, h) the same for a static helper at ph;
      - the notes: assigned() (a run-time assignment to the field),
        undefined(), used_here(), removed(), uncalled().

    why: what a removed callback was, in its note; assign: what to do
    with a run-time assignment to the field; other_files: keep a callback
    another file of the module names (the module view parses the module
    for that: worth it where the script needs the view anyway).  A
    subclass may say why per field with why_removed, and keep a callback
    whose work moves elsewhere with needed."""

    def __init__(self, step, field, why=None, assign='remove it',
                 other_files=False):
        self.step = step
        self.field = field
        self.why = why or field
        self.assign = assign
        self.other_files = other_files
        self.file = None
        self.tables = {}
        self.defs = {}
        self.dropped = set()

    def is_field(self, f):
        return f == self.field

    def new_file(self):
        """A file's first table: forget the previous file."""
        self.tables.clear()
        self.defs.clear()
        self.dropped.clear()

    def table(self, p, pt, ops, fn):
        """The field at p in table ops (at pt) names callback fn."""
        if self.file != p[0].file:
            self.file = p[0].file
            self.new_file()
        self.tables[key(p)] = {'p': p, 'fn': fn, 'ops': ops,
                               'table': int(pt[0].line),
                               'cbs': set(), 'tlb': False, 'start': False,
                               'end': None, 'startfn': None}

    def callback(self, p, f, e):
        """The table of the field at p has range callback field f = e."""
        t = self.tables[key(p)]
        t['cbs'].add(e)
        t['tlb'] = t['tlb'] or f == 'invalidate_range'
        t['start'] = t['start'] or f in ('invalidate_range_start',
                                         'invalidate_range')
        if f == 'invalidate_range_end':
            t['end'] = e
        if f == 'invalidate_range_start':
            t['startfn'] = e

    def definition(self, fn, pf):
        """fn is defined at pf."""
        lines = self.defs.setdefault(fn, [])
        if int(pf[0].line) not in lines:
            lines.append(int(pf[0].line))

    def drops(self, p):
        return True

    def needed(self, p):
        """Does the callback of the field at p stay although the field
        goes (its work moves elsewhere)?"""
        return False

    def why_removed(self, p):
        return self.why

    def droppable(self, p, pf, fn):
        if self.needed(p):
            return NONE
        if split_by_cpp(pf):
            self.step.note(p, "review: %s is split by #if/#else: field dropped, "
                           "remove the function by hand" % fn)
            return NONE
        others = []
        if self.other_files:
            m = module(p)
            others = [r for r in m.refs(fn) if r != m.real(p[0].file)]
        if others:
            self.step.note(p, "%s is still used in %s: field dropped, function kept"
                           % (fn, ', '.join(others)))
            return NONE
        return fn

    def helper_droppable(self, p, ph, h):
        if split_by_cpp(ph):
            self.step.note(p, "review: %s is now unused but split by #if/#else "
                           "(line %s): remove it by hand" % (h, ph[0].line))
            return NONE
        return h

    def was_dropped(self, f):
        return f in self.dropped

    def assigned(self, p):
        self.step.note(p, "review: run-time assignment to ->%s (gone since %s): %s"
                       % (self.field, self.step.tag, self.assign))

    def undefined(self, p, fn):
        if not self.needed(p):
            self.step.note(p, "review: %s is not defined in this file or could not be "
                           "parsed (#if?): remove its definition by hand" % fn)

    def used_here(self, p, fn):
        self.step.note(p, "review: %s is used elsewhere in this file: "
                       "field dropped, function kept" % fn)

    def removed(self, p, fn, why=None):
        """fn is gone (why: what it was, default why_removed(p))."""
        self.dropped.add(fn)
        self.step.note(p, 'removed: %s (%s)' % (fn, why or self.why_removed(p)))

    def uncalled(self, p, h):
        """Nothing in the file calls h, a function the removed callback
        called and the file does not define: if the module defines it and
        no other file of it calls it, say so (only its authors can
        remove it)."""
        if h.isupper():
            return
        found, elsewhere = module(p).helper(h, p[0].file)
        if found and not elsewhere:
            self.step.note(p, "review: %s (%s:%d) is no longer called anywhere in the "
                           "module: remove it if nothing outside the module uses it"
                           % (h, found[0], found[1]))
