# SPDX-License-Identifier: GPL-2.0
"""The decisions of mn-6.15-device-exclusive.cocci
(make_device_exclusive_range() -> make_device_exclusive()).

Per file: folio_of() for each one-page call whose result is only tested
for failure (the struct folio * local the new call fills, or None: the
call then takes the helper), user() for each call and the function it is
in, first_user() (before which function the helper goes), is_helper().
Standard library only; tested by tests/test_plan615.py.
"""
import re

from mncocci import lines_of

HELPER = 'mn_make_device_exclusive_range'

FOLIO_DECL = re.compile(r'^\s*struct\s+folio\s+\*\s*(\w+)\s*;')
FUNC_START = re.compile(r'^[A-Za-z_].*\(')

step = None
file = None
one_page = set()    # (line, column) of the calls converted to the new form
users = {}          # function -> line of its definition, calls left to it


def start(s):
    global step
    step = s


def _file(p):
    global file
    if p[0].file != file:
        file = p[0].file
        one_page.clear()
        users.clear()


def folio_of(pc, page):
    """A one-page call at pc that fills page: the struct folio * local
    of its function for make_device_exclusive() (the last declared before
    the call), or None."""
    _file(pc)
    lines = lines_of(pc[0].file) or []
    i = int(pc[0].line) - 1
    found = None
    while i > 0:
        i -= 1
        text = lines[i]
        m = FOLIO_DECL.match(text)
        if m and found is None:
            found = m.group(1)
        if text.startswith('{') or text.startswith('}') or \
                (FUNC_START.match(text) and not text.startswith('\t')):
            break
    if found is None or found == page:
        return None
    one_page.add((pc[0].line, pc[0].column))
    if 'compat' in step.defined:
        step.note(pc, "review: make_device_exclusive_range() is gone since 6.15 "
                  "(599b684a7854): converted to make_device_exclusive(), which "
                  "compat does not supply before 6.15")
    else:
        step.note(pc, "converted: make_device_exclusive_range() of one page -> "
                  "%s = make_device_exclusive(..., &%s), failure tested with "
                  "IS_ERR() (6.15, 599b684a7854)" % (page, found))
    return found


def user(fn, pc, pf):
    """A call at pc in the function fn defined at pf."""
    _file(pc)
    if (pc[0].line, pc[0].column) in one_page:
        return
    users.setdefault(fn, int(pf[0].line))
    what = ("review: make_device_exclusive_range() is gone since 6.15 "
            "(599b684a7854): the call goes through %s(), added to this file, "
            "one make_device_exclusive() per page; a page that cannot be "
            "faulted in is now a NULL entry and counted, where the old call "
            "stopped counting there: check the code that reads the count" % HELPER)
    if 'compat' in step.defined:
        what += "; compat does not supply make_device_exclusive() before 6.15"
    step.note(pc, what)


def first_user(fn):
    """Does the helper go before fn (the first function, in the file, that
    still calls make_device_exclusive_range())?"""
    return bool(users) and fn == min(users, key=users.get)


def is_helper(n):
    return n == HELPER and bool(users)


def reset():
    """Forget everything (the tests)."""
    global file
    file = None
    one_page.clear()
    users.clear()
