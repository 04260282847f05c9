// SPDX-License-Identifier: GPL-2.0
/// Move a driver already on the newest MMU-notifier API onto
/// <mncompat/mmu_notifier.h>, so the same source builds and stays
/// coherent on every kernel generation: each static
/// struct mmu_notifier_ops table becomes MNCOMPAT_MMU_NOTIFIER_OPS(name,
/// release, range_start, range_end, secondary_tlbs, flags [, extra...]),
/// mmu_notifier_range_blockable() becomes mncompat_range_blockable(), and
/// #include <linux/mmu_notifier.h> becomes #include <mncompat/mmu_notifier.h>.
/// flags is MNCOMPAT_RANGE_START_MAY_SLEEP when the table has a
/// secondary-TLB hook (then only that hook runs from invalidate_page on
/// kernels before 4.13), else 0 (then the range callbacks run there, under
/// the page-table lock: reported for review when the table has them).
/// Run it after the series (semantic-patches/convert.sh --compat does);
/// a table that still has a pre-6.10 field is reported, not converted.
///
// Confidence: Moderate
// Copyright: (C) 2024 mncompat authors
// Comments: Non-static tables are reported (the macro defines a static
//  one).  Fields other than the four translated ones go into the macro
//  as trailing designated initialisers.  In patch mode the notes go to
//  stderr as "FILE:LINE: [compat] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, mncompat, MNCOMPAT_MMU_NOTIFIER_OPS

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import sys
mode = ['report']
fields = {}
TRANSLATED = ['release', 'invalidate_range_start', 'invalidate_range_end',
              'arch_invalidate_secondary_tlbs']

def wrap(args):
    # One argument list laid out as kernel style wants it: lines up to
    # 80 columns, continuation lines under the first argument.
    first = len('MNCOMPAT_MMU_NOTIFIER_OPS(')
    out, col = '', first
    for i, a in enumerate(args):
        tail = ',' if i < len(args) - 1 else ');'
        if i and col + 1 + len(a) + len(tail) > 80:
            out += '\n' + '\t' * int(first / 8) + ' ' * (first % 8)
            col = first
        elif i:
            out += ' '
            col += 1
        out += a + (',' if i < len(args) - 1 else '')
        col += len(a) + len(tail)
    return out

# May a range callback sleep?  What each function of this file calls,
# followed through the file's own functions.
SLEEPERS = set('''mutex_lock mutex_lock_interruptible mutex_lock_killable
mutex_lock_nested down down_read down_write down_interruptible
down_killable down_read_killable down_write_killable msleep
msleep_interruptible usleep_range ssleep schedule schedule_timeout
cond_resched wait_for_completion wait_for_completion_timeout
wait_for_completion_interruptible wait_event wait_event_interruptible
wait_event_timeout wait_event_killable synchronize_rcu synchronize_srcu
synchronize_sched flush_work flush_workqueue flush_delayed_work
cancel_work_sync cancel_delayed_work_sync vfree vmalloc vzalloc
might_sleep mmap_read_lock mmap_write_lock lock_page wait_on_page_locked
copy_from_user copy_to_user get_user put_user get_user_pages
pin_user_pages'''.split())
facts = {'file': None, 'calls': {}, 'gfp': set(), 'chain': None}

def sleep_chain(fn):
    if facts['chain'] is None:
        chain = {}
        for f, callees in facts['calls'].items():
            for c in sorted(callees):
                if c in SLEEPERS:
                    chain[f] = [c]
                    break
            if f not in chain and f in facts['gfp']:
                chain[f] = ['a GFP_KERNEL allocation']
        changed = True
        while changed:
            changed = False
            for f, callees in facts['calls'].items():
                if f in chain:
                    continue
                for c in sorted(callees):
                    if c in chain:
                        chain[f] = [c] + chain[c]
                        changed = True
                        break
        facts['chain'] = chain
    return ' -> '.join(explain(fn, set())) if fn in facts['chain'] else None

def explain(fn, seen):
    """fn and how it may sleep, through the file's own functions first."""
    seen = seen | {fn}
    for c in sorted(facts['calls'].get(fn, ())):
        if c in facts['chain'] and c not in seen and c in facts['calls']:
            return [fn] + explain(c, seen)
    return [fn] + facts['chain'][fn]

def note(p, msg):
    msg = "[compat] " + msg
    if mode[0] == 'patch':
        sys.stderr.write("%s:%s: %s\n" % (p[0].file, p[0].line, msg))
    elif mode[0] == 'org':
        coccilib.org.print_todo(p[0], msg)
    else:
        coccilib.report.print_report(p[0], msg)

@script:python depends on patch@
@@
mode[0] = 'patch'

@script:python depends on org@
@@
mode[0] = 'org'

// ---------------------------------------------------------------------
// The tables and their fields.
// ---------------------------------------------------------------------

@oldtbl@
identifier ops, f = {invalidate_page, invalidate_range, change_pte};
expression E;
position p;
@@
struct mmu_notifier_ops ops@p = {
	.f = E,
};

@script:python depends on !context@
p << oldtbl.p;
ops << oldtbl.ops;
f << oldtbl.f;
@@
note(p, "review: %s still has .%s: run the series first (convert.sh --compat does), not converted" % (ops, f))

@allcalls depends on patch@
identifier f;
expression list es;
position p;
@@
f@p(es)

@script:python@
p << allcalls.p;
f << allcalls.f;
es << allcalls.es;
@@
if facts['file'] != p[0].file:
    facts.update({'file': p[0].file, 'calls': {}, 'gfp': set(),
                  'chain': None})
facts['calls'].setdefault(p[0].current_element, set()).add(f)
if 'GFP_KERNEL' in str(es):
    facts['gfp'].add(p[0].current_element)

@tbl@
identifier ops;
initializer I;
position p != oldtbl.p;
@@
(
static const struct mmu_notifier_ops ops@p = I;
|
static struct mmu_notifier_ops ops@p = I;
)

@fld@
identifier tbl.ops, f;
expression E;
@@
struct mmu_notifier_ops ops = {
	.f = E,
};

@script:python@
p << tbl.p;
ops << tbl.ops;
f << fld.f;
E << fld.E;
@@
fields.setdefault((p[0].file, ops), []).append((f, E))

@global_tbl@
identifier ops;
position p != {tbl.p, oldtbl.p};
@@
struct mmu_notifier_ops ops@p = { ... };

@script:python depends on !context@
p << global_tbl.p;
ops << global_tbl.ops;
@@
note(p, "review: %s is not static: MNCOMPAT_MMU_NOTIFIER_OPS defines a static table, not converted" % ops)

// args: the macro's arguments as one identifier (spatch prints it as it
// is).
@script:python mk@
p << tbl.p;
ops << tbl.ops;
args;
@@
have = dict(fields.get((p[0].file, ops), []))
start = have.get('invalidate_range_start')
end = have.get('invalidate_range_end')
tlbs = have.get('arch_invalidate_secondary_tlbs')
flags = '0'
sleepy = [sleep_chain(str(x)) for x in (start, end) if x and
          facts['file'] == p[0].file and sleep_chain(str(x))]
if (tlbs and (start or end)) or sleepy:
    flags = 'MNCOMPAT_RANGE_START_MAY_SLEEP'
a = [ops] + [have.get(f, 'NULL') for f in TRANSLATED] + [flags]
a += ['.%s = %s' % (f, e) for f, e in fields.get((p[0].file, ops), [])
      if f not in TRANSLATED]
coccinelle.args = cocci.make_ident(wrap(a))
if mode[0] == 'patch':
    note(p, "converted: %s -> MNCOMPAT_MMU_NOTIFIER_OPS(..., %s)" % (ops, flags))
else:
    note(p, "%s: declare it with MNCOMPAT_MMU_NOTIFIER_OPS (convert.sh --compat)" % ops)
if sleepy and not tlbs:
    note(p, "review: %s may sleep (%s) and %s has no secondary-TLB hook: before 4.13, where the kernel calls invalidate_page under the page-table lock, no form of this table is safe and compat refuses to build it" % (' and '.join(x.split(' -> ')[0] for x in sleepy), '; '.join(sleepy), ops))
if flags == '0' and (start or end):
    note(p, "review: before 4.13 compat calls %s from invalidate_page under the page-table lock with a non-blockable range: no sleeping then (test mncompat_range_blockable())" % ' and '.join(str(x) for x in (start, end) if x))

// The #include to replace, looked for before anything changes.
@has_inc@
@@
#include <mncompat/mmu_notifier.h>

@has_linux_inc@
@@
#include <linux/mmu_notifier.h>

@script:python depends on patch && !has_inc && !has_linux_inc@
p << tbl.p;
@@
note(p, "review: no #include <linux/mmu_notifier.h> in this file to replace: add #include <mncompat/mmu_notifier.h>")

@rep depends on patch@
identifier tbl.ops;
identifier mk.args;
initializer I;
declarer name MNCOMPAT_MMU_NOTIFIER_OPS;
@@
(
- static const struct mmu_notifier_ops ops = I;
+ MNCOMPAT_MMU_NOTIFIER_OPS(args);
|
- static struct mmu_notifier_ops ops = I;
+ MNCOMPAT_MMU_NOTIFIER_OPS(args);
)

@depends on context@
identifier ops;
initializer I;
@@
(
* static const struct mmu_notifier_ops ops = I;
|
* static struct mmu_notifier_ops ops = I;
)

// ---------------------------------------------------------------------
// The blockable test and the header.
// ---------------------------------------------------------------------

@bl depends on patch@
expression R;
@@
- mmu_notifier_range_blockable(R)
+ mncompat_range_blockable(R)

@inc depends on patch && (rep || bl)@
@@
- #include <linux/mmu_notifier.h>
+ #include <mncompat/mmu_notifier.h>


