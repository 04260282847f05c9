# SPDX-License-Identifier: GPL-2.0
"""The planner of mn-5.0-range.cocci (Linux 5.0 passes the range
callbacks a const struct mmu_notifier_range *).

The script's rules tell it the range_start callbacks (a_start()), those
still with the pre-4.19 void prototype (old_void()), those with a local
named range (clash()) and the parameters a converted callback's body
writes (write()); convert() decides which callbacks are converted and
maps their parameters to the range fields; is_param(), replaced(),
range_field() and is_written() answer the rules that rewrite the
bodies.  The state lives here, as module attributes.  Tested by
tests/test_plan50.py.
"""
from mncocci import key

# the range_start callbacks
starts = set()
# the callbacks with a local named range
clashes = set()
# where the callbacks with the pre-4.19 void prototype are defined
voids = set()
# A converted callback's parameters (name -> the range field that
# replaces it) and those its body writes (they get a local copy).
params = {}
written = set()


def a_start(fn):
    starts.add(fn)


def old_void(pf):
    voids.add(key(pf))


def clash(fn):
    clashes.add(fn)


def convert(fn, pf, mm, s, e):
    """Is fn (defined at pf with parameters mm, s, e) converted?  Not
    with a local named range, nor a range_start that still has the
    pre-4.19 prototype."""
    if fn in clashes or (fn in starts and key(pf) in voids):
        return False
    params[fn] = {mm: 'mm', s: 'start', e: 'end'}
    return True


def write(fn, x):
    """The body of the converted fn writes x."""
    written.add((fn, x))


def is_param(fn, x):
    return x in params.get(fn, {})


def is_written(fn, x):
    return (fn, x) in written


def replaced(fn, x):
    return is_param(fn, x) and not is_written(fn, x)


def range_field(fn, x):
    return params[fn][x]
