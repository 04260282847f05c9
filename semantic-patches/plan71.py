# SPDX-License-Identifier: GPL-2.0
"""The decisions of mn-7.1-young.cocci (the young callbacks return bool,
the *_young_notify() macros and the *_clear_flush_notify() leftovers go).

The script calls start(step) once, then per file: table() for each young
field of an ops table (or typed run-time assignment) that names a
callback, undefined() for such a callback the file does not define,
converts() for each int function definition (is it one to give a bool
return?), notify_call() for each *_young_notify() call, stub_call() for
each *_clear_flush_notify() call.  What it gathered is per file (the
position of the table says which).  Standard library only; tested by
tests/test_plan71.py.
"""
import re

YOUNG = ('clear_flush_young', 'clear_young', 'test_young')

# The *_young_notify() macros 7.1 took out of <linux/mmu_notifier.h>:
# what a call becomes (the primary test-and-clear, the notifier call and
# the size of the range it covers).
MACROS = {
    'ptep_clear_flush_young_notify': ('ptep_clear_flush_young',
                                      'mmu_notifier_clear_flush_young',
                                      'PAGE_SIZE'),
    'pmdp_clear_flush_young_notify': ('pmdp_clear_flush_young',
                                      'mmu_notifier_clear_flush_young',
                                      'PMD_SIZE'),
    'ptep_clear_young_notify': ('ptep_test_and_clear_young',
                                'mmu_notifier_clear_young', 'PAGE_SIZE'),
    'pmdp_clear_young_notify': ('pmdp_test_and_clear_young',
                                'mmu_notifier_clear_young', 'PMD_SIZE'),
}

STUBS = {
    'ptep_clear_flush_notify': 'ptep_clear_flush',
    'pmdp_huge_clear_flush_notify': 'pmdp_huge_clear_flush',
    'pudp_huge_clear_flush_notify': 'pudp_huge_clear_flush',
}

# An expression that can be written twice without evaluating anything
# twice: a variable, a field of one (. or ->), an element at a constant
# or variable index.
PLAIN = re.compile(r'^[A-Za-z_]\w*(\s*(\.|->)\s*[A-Za-z_]\w*|\s*\[\s*\w+\s*\])*$')

step = None
file = None
callbacks = {}     # callback name -> [(field, position)] of this file
done = set()       # (file, line) of the definitions converted


def start(s):
    global step
    step = s


def is_young(f):
    return f in YOUNG


def young_macro(m):
    return m in MACROS


def plain(e):
    """Can the expression e be written twice (no call, no side effect)?"""
    return PLAIN.match(e.strip()) is not None


def _file(p):
    global file
    if p[0].file != file:
        file = p[0].file
        callbacks.clear()


def table(p, f, fn):
    """The young field f at p names the callback fn."""
    _file(p)
    callbacks.setdefault(fn, []).append((f, p))


def undefined(p, fn):
    step.note(p, "review: %s is not defined in this file or could not be parsed "
              "(#if?): young callbacks return bool since 7.1, change its definition "
              "and prototypes by hand" % fn)


def assigned(p, f, value):
    """An untyped run-time assignment of value to the young field f at p
    (NULL or 0 stores no callback)."""
    if value.strip() in ('NULL', '0'):
        return
    step.note(p, "review: run-time assignment to ->%s: the callback it stores "
              "returns bool since 7.1 (a callback with an int return does not build)"
              % f)


def converts(fn, pf):
    """Does the int function fn defined at pf get a bool return?  Said in
    a note (once per definition)."""
    if pf[0].file != file or fn not in callbacks:
        return False
    if step.unsplit(pf, fn) != fn:
        return False
    k = (pf[0].file, pf[0].line)
    if k not in done:
        done.add(k)
        fields = sorted(set(f for f, _ in callbacks[fn]))
        if 'compat' in step.defined:
            step.note(pf, "converted: %s (%s): int -> mncompat_%s_t (compat: bool from "
                      "7.1 on, int before)" % (fn, ', '.join(fields), kind_of(fn)))
        else:
            step.note(pf, "converted: %s (%s): int -> bool (7.1)"
                      % (fn, ', '.join(fields)))
    return True


def return_type(fn):
    """fn's new return type: bool, or with compat compat's type for its
    field (bool from 7.1 on, int before)."""
    if 'compat' in step.defined:
        return 'mncompat_%s_t' % kind_of(fn)
    return 'bool'


def kind_of(fn):
    """The field whose return type compat gives fn: the first a table of
    this file put it in (the three changed together)."""
    return callbacks[fn][0][0] if fn in callbacks else None


def notify_call(pc, m, v, a):
    """A call of the 7.1-removed macro m with vma v and address a."""
    prim, notif, size = MACROS[m]
    if plain(v) and plain(a):
        step.note(pc, "converted: %s() is gone since 7.1 (5a970006786a): "
                  "%s() | %s(vma->vm_mm, addr, addr + %s)" % (m, prim, notif, size))
    else:
        step.note(pc, "review: %s() is gone since 7.1 (5a970006786a): not converted, "
                  "its vma or address (%s, %s) is not a plain variable or field, and "
                  "the replacement names each twice: write %s() | %s(vma->vm_mm, "
                  "addr, addr + %s) with them in variables"
                  % (m, v.strip(), a.strip(), prim, notif, size))


def stub_call(pc, m):
    step.note(pc, "converted: %s() is gone (6.16, 49c69504f4d3; 6.6's ec8832d007cb "
              "moved the secondary-TLB call into the TLB flush): %s()"
              % (m, STUBS[m]))


def reset():
    """Forget everything (the tests)."""
    global file
    file = None
    callbacks.clear()
    done.clear()
