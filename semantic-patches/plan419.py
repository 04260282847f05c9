# SPDX-License-Identifier: GPL-2.0
"""The planner of mn-4.19-blockable.cocci (Linux 4.19 gave
invalidate_range_start an int return and a bool blockable).

The script's rules tell it the tables whose range_start callback has a
range_end (table_end()) and the statements of each converted callback
(statement()); it says which statement gets the -EAGAIN guard (guard())
and what the conversion means (note_converted(): whether the callback
sleeps, through the module view, and what a failing start does to its
range_end on either side of Linux 5.12).  The state lives here, as
module attributes; with_compat (-D compat) is read from spatch's command
line on import.  Tested by tests/test_plan419.py.
"""
from mncocci import NONE, Step, decl_macro, declared_nonblocking, declared_text, \
    line_col, sleep_of

step = Step('4.19')
# (file, callback) -> the line and column of its first statement
first_stmt = {}
# (file, callback): the guard is placed
first_done = set()
# (file, range_start callback) -> the range_end of a table it is in
has_end = {}
# (Not named compat: spatch binds the names of the virtual rules.)
with_compat = 'compat' in step.defined


def table_end(p, fn, fe):
    """The table of fn (its range_start, field at p) has range_end fe."""
    has_end.setdefault((p[0].file, fn), fe)


def statement(fn, ps):
    """A statement of the converted callback fn, at ps."""
    k = (ps[0].file, fn)
    # a declaration macro (LIST_HEAD(x);, DEFINE_WAIT(w);) is no statement
    # for the compiler: the guard goes after it
    if not decl_macro(ps) and \
            (k not in first_stmt or line_col(ps) < first_stmt[k]):
        first_stmt[k] = line_col(ps)


def guard(fn, ps):
    """The callback to give the guard before the statement at ps: None
    unless ps is fn's first statement (once), NONE where fn never
    sleeps."""
    k = (ps[0].file, fn)
    if k not in first_stmt or line_col(ps) != first_stmt[k] or k in first_done:
        return None
    first_done.add(k)
    v = sleep_of(ps, fn)[0]
    if v == 'atomic' or (v == 'unknown' and declared_nonblocking(ps, fn)):
        return NONE
    return fn


def note_converted(pf, fn):
    """The notes of the converted callback fn, defined at pf."""
    v, words = sleep_of(pf, fn)
    fe = has_end.get((pf[0].file, fn))
    declared = declared_nonblocking(pf, fn)
    if v == 'unknown' and declared:
        step.note(pf, "converted: %s: int invalidate_range_start(..., bool blockable), no "
                  "-EAGAIN guard: %s; the calls the tool cannot follow (%s) are taken at "
                  "that word" % (fn, declared_text(declared), words))
        return
    if v == 'sleeps' and declared:
        step.note(pf, "review: %s: %s, but it may sleep (%s): the -EAGAIN guard is added; "
                  "if it never sleeps there, drop the guard"
                  % (fn, declared_text(declared), words))
    if v == 'atomic':
        step.note(pf, "converted: %s: int invalidate_range_start(..., bool blockable), no "
                  "-EAGAIN guard: %s never sleeps (every call it makes was followed through "
                  "the module)" % (fn, fn))
    elif v == 'sleeps':
        step.note(pf, "converted: %s: int invalidate_range_start(..., bool blockable), returns "
                  "-EAGAIN when !blockable: it may sleep (%s)" % (fn, words))
    else:
        step.note(pf, "converted: %s: int invalidate_range_start(..., bool blockable), returns "
                  "-EAGAIN when !blockable" % fn)
        step.note(pf, "review: %s: cannot tell whether it sleeps: it calls %s. The -EAGAIN "
                  "guard stays; drop it if those calls never sleep" % (fn, words))
    if v != 'atomic' and fe:
        if with_compat:
            step.note(pf, "%s may fail (-EAGAIN) in a table that has invalidate_range_end (%s): "
                      "with compat the table is MNCOMPAT_RANGE_START_MAY_SLEEP, and compat keeps "
                      "start and end paired on both sides of Linux 5.12 (4.19-5.11: no "
                      "range_end after a failed start; 5.12+, c2655835fd8c: WARN, then "
                      "range_end for every subscription) for a subscription registered "
                      "through it: the compat step converts the module's registrations and "
                      "names each one, or says why it could not"
                      % (fn, fe))
        else:
            step.note(pf, "review: %s returns -EAGAIN when !blockable, and its table has "
                      "invalidate_range_end (%s): right on 4.19-5.11 (a failed start: no "
                      "range_end for anyone), but since Linux 5.12 (c2655835fd8c, also in "
                      "5.10.y/5.11.y) the kernel WARNs and then calls %s for every "
                      "subscription, this one too, for a start that did not run. Give %s a "
                      "non-blockable path that neither sleeps nor fails, or move to "
                      "mmu_interval_notifier (compat emulates it before 5.5), or convert with "
                      "--compat" % (fn, fe, fe, fn))


def run_time(p, f):
    """->invalidate_range_start = f at p: a table built at run time.  A
    function named there is converted as a table's callback; whether
    its table has a range_end the tool cannot see."""
    f = str(f).strip()
    if f in ('NULL', '0'):
        return
    if not f.replace('_', 'a').isalnum() or f[0].isdigit():
        step.note(p, "review: run-time assignment to ->invalidate_range_start of %s, not a "
                  "function's name: give that callback the 4.19 prototype (int, bool blockable) "
                  "by hand" % f)
        return
    if sleep_of(p, f)[0] == 'atomic':
        return
    step.note(p, "review: %s is a range_start of a table built at run time (converted as a "
              "table's would be): if that table also has a range_end, a start that returns "
              "-EAGAIN is right on 4.19-5.11 only (since 5.12, c2655835fd8c, the kernel WARNs "
              "and calls range_end for it): check it, or give the table a static definition "
              "the tool can read" % f)
