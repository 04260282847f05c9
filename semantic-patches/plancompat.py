# SPDX-License-Identifier: GPL-2.0
"""The planner of mn-compat-ops.cocci (the tables declared with
MNCOMPAT_MMU_NOTIFIER_OPS, the registrations that keep range_start and
range_end paired).

The script's rules give it each table's fields (field()); macro_args()
decides the macro's arguments, its flags among them (whether compat
must treat the range callbacks as sleeping, through the module view),
and says what that means on each side of Linux 4.13 and 6.6;
registration() decides which mmu_notifier_register() calls become
mncompat_mmu_notifier_register().  The state lives here, as module
attributes.  Tested by tests/test_plancompat.py.
"""
import re

from mncocci import Step, declared_nonblocking, declared_text, may_fail_paired, module, \
    sleep_of, wrap

step = Step('compat')
# (file, table) -> its fields, [(field, value)] in the order of the file
fields = {}
TRANSLATED = ['release', 'invalidate_range_start', 'invalidate_range_end',
              'arch_invalidate_secondary_tlbs']
# Fields the macro's flags argument stands for (4.16-4.19's ops->flags,
# gone in 4.20: compat sets MMU_INVALIDATE_DOES_NOT_BLOCK itself where the
# kernel has it and the table does not say it may sleep).
CONSUMED = ['flags']
MACRO = 'MNCOMPAT_MMU_NOTIFIER_OPS'
MACRO_GET = 'MNCOMPAT_MMU_NOTIFIER_GET_OPS'
reg_inc_noted = set()
# the file of the last registration converted, and its first one's
# position
reg_file = [None]
reg_first = {}


def field(p, ops, f, e):
    """Table ops (at p) has field f = e."""
    fields.setdefault((p[0].file, ops), []).append((f, e))


def note_reg_include(p, msg):
    """Say msg at the file's first converted registration only (the
    include rules match once per file, the registrations once each); p
    None: the file whose registrations were converted last."""
    if p is None:
        if reg_file[0] is None:
            return
        p = reg_first[reg_file[0]]
    if p[0].file not in reg_inc_noted:
        reg_inc_noted.add(p[0].file)
        step.note(p, msg)


def hook_left_out(p, tlbs, start, end):
    """The work of the hook tlbs that range_end end does not do (the
    module view's work items), [] when it does it all."""
    fx = module(p)
    m, f = fx.mod, fx.real(p[0].file)
    tlbs = str(tlbs)
    reached = m.names_reached(str(end), f) if end else set()
    if tlbs in reached or not m.resolve(tlbs, f):
        return []
    ew = m.work(str(end), f) if end else {}
    skip = tuple(str(x) for x in (start, end) if x)
    return [t for i, t in sorted(m.work(tlbs, f, skip=skip).items())
            if not m.covers(i, ew, reached)]


def sleep_text(p, fn):
    """(verdict, text) of how fn may sleep, through the whole module; a
    call it cannot follow taken at the driver's word where its tables
    declare that their range callbacks never block."""
    v, words = sleep_of(p, fn)
    if v == 'unknown':
        declared = declared_nonblocking(p, fn)
        if declared:
            return 'atomic', '%s never sleeps: %s (the calls the tool cannot follow: %s)' % (
                fn, declared_text(declared), words)
        return v, '%s calls %s' % (fn, words)
    return v, words or '%s never sleeps' % fn


def for_get(p, ops):
    """Is table ops (at p) one for mmu_notifier_get() (it names its
    alloc_notifier and free_notifier)?"""
    have = dict(fields.get((p[0].file, ops), []))
    return all(str(have.get(f, 'NULL')).strip() not in ('NULL', '0')
               for f in ('alloc_notifier', 'free_notifier'))


def macro_args(p, ops):
    """The arguments of MNCOMPAT_MMU_NOTIFIER_OPS for table ops (at p),
    as the macro call lays them out (spatch adds the macro's name and the
    closing ");"); the notes of the conversion."""
    # A field set to NULL or 0 names no callback.
    have = dict((f, e) for f, e in fields.get((p[0].file, ops), [])
                if str(e).strip() not in ('NULL', '0'))
    start = have.get('invalidate_range_start')
    end = have.get('invalidate_range_end')
    tlbs = have.get('arch_invalidate_secondary_tlbs')
    flags = '0'
    judged = [(str(x),) + sleep_text(p, str(x)) for x in (start, end) if x]
    sleepy = [j for j in judged if j[1] == 'sleeps']
    unsure = [j for j in judged if j[1] == 'unknown']
    if (tlbs and (start or end)) or sleepy or unsure:
        flags = 'MNCOMPAT_RANGE_START_MAY_SLEEP'
    get = for_get(p, ops)
    lead = ['alloc_notifier', 'free_notifier'] if get else []
    a = [ops] + [have[f] for f in lead] + [have.get(f, 'NULL') for f in TRANSLATED] + [flags]
    a += ['.%s = %s' % (f, e) for f, e in fields.get((p[0].file, ops), [])
          if f not in TRANSLATED + CONSUMED + lead]
    given = dict(fields.get((p[0].file, ops), [])).get('flags')
    if given is not None and step.mode == 'patch':
        if flags == '0':
            step.note(p, "converted: %s: .flags = %s (4.16-4.19's ops->flags, gone in 4.20) goes: "
                      "with flags 0 compat sets MMU_INVALIDATE_DOES_NOT_BLOCK itself where the "
                      "kernel has the field" % (ops, given))
        elif str(given).strip() == 'MMU_INVALIDATE_DOES_NOT_BLOCK' and (sleepy or unsure):
            step.note(p, "review: %s declares .flags = MMU_INVALIDATE_DOES_NOT_BLOCK (its range "
                      "callbacks never block), but %s: compat declares it a table that may "
                      "sleep. If the declaration is right, pass 0 instead of "
                      "MNCOMPAT_RANGE_START_MAY_SLEEP"
                      % (ops, '; '.join(j[2] for j in sleepy + unsure)))
        else:
            step.note(p, "converted: %s: .flags = %s (4.16-4.19's ops->flags, gone in 4.20) goes"
                      % (ops, given))
    # From 6.6 compat leaves the hook out of a table with range callbacks
    # (the kernel refuses both): its work must then be range_end's.
    lost = hook_left_out(p, tlbs, start, end) if tlbs and (start or end) else []
    if step.mode == 'patch':
        why = ''
        if flags != '0' and not sleepy and not unsure:
            # Not a claim that anything sleeps: the routing before 4.13.
            why = (' (not because a range callback may sleep: %s; with the secondary-TLB hook '
                   '%s the flag makes compat call only the hook from invalidate_page before '
                   '4.13, so each change is handled once there)'
                   % ('; '.join(j[2] for j in judged), tlbs))
        step.note(p, "converted: %s -> %s(..., %s)%s" % (
            ops, MACRO_GET if get else MACRO, flags, why))
    else:
        step.note(p, "%s: declare it with MNCOMPAT_MMU_NOTIFIER_OPS (convert.sh --compat)" % ops)
    if lost:
        step.note(p, "review: from 6.6 compat leaves %s out of %s (the kernel refuses a "
                  "secondary-TLB hook next to range callbacks), and %s: %s. Nothing does it on "
                  "6.6+: call it from range_end (for [start, end), after the change)"
                  % (tlbs, ops,
                     ('%s does not do its work there' % end) if end
                     else 'the table has no range_end to do its work',
                     '; '.join(lost[:4])))
    if sleepy and not tlbs:
        step.note(p, "review: %s may sleep (%s) and %s has no secondary-TLB hook: before 4.13, "
                  "where the kernel calls invalidate_page under the page-table lock, no form of "
                  "this table is safe and compat refuses to build it"
                  % (' and '.join(j[0] for j in sleepy), '; '.join(j[2] for j in sleepy), ops))
    elif unsure and not tlbs:
        step.note(p, "review: cannot tell whether %s sleeps (%s): %s is built as a table that "
                  "may sleep, so without a secondary-TLB hook compat refuses to build it before "
                  "4.13; if those calls never sleep, pass 0 instead of "
                  "MNCOMPAT_RANGE_START_MAY_SLEEP"
                  % (' and '.join(j[0] for j in unsure), '; '.join(j[2] for j in unsure), ops))
    if flags == '0' and (start or end):
        step.note(p, "before 4.13 compat calls %s from invalidate_page under the page-table lock "
                  "with a non-blockable range: %s"
                  % (' and '.join(str(x) for x in (start, end) if x),
                     '; '.join(j[2] for j in judged)))
        fails = [d for d in module(p).defs(str(start), p[0].file)
                 if d.get('eagain')] if start else []
        if fails:
            step.note(p, "review: %s returns -EAGAIN (%s:%d), but with flags 0 compat calls it "
                      "before 4.13 from invalidate_page, where the kernel cannot take a failure "
                      "(WARN, and nothing is invalidated): it never sleeps, so let it proceed "
                      "when !mncompat_range_blockable()"
                      % (start, fails[0]['file'], fails[0]['eagain']))
    if flags != '0':
        unregistered(p, ops)
    name = MACRO_GET if get else MACRO
    return wrap('', name, a)[len(name) + 1:-2]


# Each registration call of the kernel's and compat's form for it, and
# what that form is.
COMPAT_FORM = {
    'mmu_notifier_register': 'mncompat_mmu_notifier_register',
    '__mmu_notifier_register': '__mncompat_mmu_notifier_register',
    'mmu_notifier_unregister': 'mncompat_mmu_notifier_unregister',
    'mmu_notifier_get': 'mncompat_mmu_notifier_get',
    'mmu_notifier_put': 'mncompat_mmu_notifier_put',
}
FORM_WORDS = {
    '__mmu_notifier_register': ' (its caller holds the mmap lock, as before: nothing more '
                               'takes it)',
    'mmu_notifier_get': ' (one gate per subscription, however many gets)',
    'mmu_notifier_put': ' (the last put drops the gate with the subscription)',
}
# Registration in any form, the kernel's or compat's: where a module has
# none, its tables are registered some other way (another module, a
# function pointer).
ANY_REGISTRATION = re.compile(r'\b(?:__mncompat_|mncompat_|__)?mmu_notifier_'
                              r'(?:register|get)\s*\(')


def registration(pr, f):
    """Does the registration call f at pr become compat's form of it (a
    table of the module has a range_start that may fail and a
    range_end)?  mmu_notifier_unregister_no_release() has none (gone
    since 5.4: convert.sh's [check] makes it a review item)."""
    tbls = may_fail_paired(pr)
    if not tbls or step.mode != 'patch':
        return bool(tbls) and f in COMPAT_FORM
    if f not in COMPAT_FORM:
        # mmu_notifier_unregister_no_release(): gone since 5.4, convert.sh's
        # [check] names it
        return False
    reg_file[0] = pr[0].file
    reg_first.setdefault(pr[0].file, pr)
    step.note(pr, "converted: %s() -> %s()%s: %s (range_start may fail, range_end kept): "
              "compat keeps start and end paired on both sides of Linux 5.12 (c2655835fd8c)"
              % (f, COMPAT_FORM[f], FORM_WORDS.get(f, ''), ', '.join(tbls)))
    return True


def note_sync(p):
    """mmu_notifier_synchronize() at p became compat's."""
    reg_file[0] = p[0].file
    reg_first.setdefault(p[0].file, p)
    step.note(p, "converted: mmu_notifier_synchronize() -> mncompat_mmu_notifier_synchronize() "
              "(on every kernel: the kernel's is not there on 5.0-5.3, and where compat "
              "emulates get/put it also waits for the last puts)")


def run_time(p, f, e):
    """->f = e at p: a table built at run time, which compat cannot
    declare."""
    if str(e).strip() in ('NULL', '0'):
        return
    step.note(p, "review: ->%s = %s: a table built at run time, which compat cannot declare "
              "(MNCOMPAT_MMU_NOTIFIER_OPS defines a static table): it gets none of compat's forms "
              "(no trampolines for the kernels before 5.0, no start/end pairing, no secondary-TLB "
              "routing): give it a static table, or build it for the newest API only"
              % (f, e))


def unregistered(p, ops):
    """Review item when table ops (at p) is one compat pairs but no
    function of the module registers anything: registered some other
    way, it gets no gate."""
    if step.mode != 'patch' or ops not in may_fail_paired(p):
        return
    if any(ANY_REGISTRATION.search(text) for _, text in module(p).texts()):
        return
    step.note(p, "review: nothing in this module registers a notifier, and compat keeps "
              "the range_start that may fail and the range_end of %s paired only for a "
              "subscription registered through it (mncompat_mmu_notifier_register(), "
              "__mncompat_mmu_notifier_register() or mncompat_mmu_notifier_get()): registered "
              "some other way (another module, a function pointer), 5.12+ WARNs when its start "
              "fails and calls its range_end for a start that did not run. Register it through "
              "compat" % ops)
