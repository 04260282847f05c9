#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of plan413.py, the planner of mn-4.13-invalidate-page.cocci.

Usage: semantic-patches/tests/test_plan413.py [--tap]
Without spatch: the facts include/drop-callback.cocci gives the planner
(the tables with .invalidate_page, their range callbacks, where the
callbacks are defined) are read here from the test inputs of the 4.13
cases (tests/4.13-*/before.c) and from small files written here; the
module view is that of the file on its own.  --tap as in test_mncocci.py.
"""
import re
import sys

from test_mncocci import OwnModule, at, case_input, main
import plan413  # (on the path test_mncocci puts it on)


def gather(dying, path):
    """Give dying what the rules of include/drop-callback.cocci find in
    the file at path: every table with .invalidate_page = fn (fn at p,
    the table's name at pt), its range callbacks and where fn is
    defined."""
    with open(path) as fh:
        lines = fh.read().split('\n')
    fields = []
    for i, text in enumerate(lines):
        m = re.search(r'struct mmu_notifier_ops (\w+) = \{', text)
        if not m:
            continue
        ops, pt, f = m.group(1), at(path, i + 1, m.start(1)), {}
        for j in range(i + 1, len(lines)):
            if lines[j].startswith('}'):
                break
            fm = re.match(r'\s*\.(\w+) = (\w+),', lines[j])
            if fm:
                f[fm.group(1)] = (fm.group(2), at(path, j + 1, fm.start(2)))
        if f.get('invalidate_page', ('NULL',))[0] != 'NULL':
            fields.append((ops, pt, f))
    for ops, pt, f in fields:
        fn, p = f['invalidate_page']
        dying.table(p, pt, ops, fn)
        for name in ('invalidate_range_start', 'invalidate_range_end',
                     'invalidate_range'):
            if name in f:
                dying.callback(p, name, f[name][0])
        for i, text in enumerate(lines):
            if re.match(r'(\w[\w ]*\W)?%s\(' % fn, text) and \
                    not text.rstrip().endswith(';'):
                dying.definition(fn, at(path, i + 1))
    return [f['invalidate_page'][1] for _, _, f in fields]


class Plan(OwnModule):
    """A fresh planner: patch mode, its notes in self.out, no -D."""

    def setUp(self):
        super().setUp()
        self.capture(plan413.step)
        plan413.with_compat = plan413.hook_only = False
        plan413.dying.file = None
        plan413.dying.new_file()
        for s in (plan413.made, plan413.declared, plan413.generated,
                  plan413.loop_reviewed):
            s.clear()

    def plan(self, path):
        """The planner on path: the positions of its fields, by callback."""
        ps = gather(plan413.dying, path)
        plan413.plan_file()
        return {plan413.dying.tables[plan413.key(p)]['fn']: p for p in ps}


class OnlyPageTest(Plan):
    """A table with only invalidate_page: generated range callbacks."""

    def test_sleeping_callback_gets_start_and_end(self):
        ps = self.plan(case_input('4.13-only-page'))
        p = ps['mirror_invalidate_page']
        self.assertEqual(plan413.kind(p), 'only')
        self.assertTrue(plan413.replaces('mirror_mn_ops', 'invalidate_page'))
        self.assertEqual(plan413.replaced_by('mirror_mn_ops', 'invalidate_page', 0),
                         'invalidate_range_start')
        self.assertEqual(plan413.end_of('mirror_mn_ops'), 'mirror_invalidate_range_end')
        # it uses its address: a loop over the pages, with cond_resched()
        self.assertTrue(plan413.loops('mirror_invalidate_range_start'))
        self.assertEqual(plan413.resched_call('mirror_invalidate_range_start'),
                         'cond_resched')
        # the callback that ignores its address runs once
        self.assertTrue(plan413.once('flush_all_page_range_start'))
        self.assertFalse(plan413.loops('flush_all_page_range_start'))
        notes = self.notes()
        self.assertIn('39: [4.13] converted: mirror_invalidate_page -> '
                      'mirror_invalidate_range_start/mirror_invalidate_range_end '
                      '(invalidate_range_start/end, may sleep; both run it for every page '
                      'of the range: start before the page-table change, end after it)',
                      notes)
        # one review item: the per-page loop over a whole address space
        reviews = [n for n in notes if '] review:' in n]
        self.assertEqual(len(reviews), 1, notes)
        self.assertIn('review: mirror_invalidate_page takes one page', reviews[0])

    def test_atomic_gets_the_hook(self):
        plan413.hook_only = True
        ps = self.plan(case_input('4.13-only-page'))
        self.assertEqual(plan413.replaced_by('mirror_mn_ops', 'invalidate_page', 0),
                         'invalidate_range')
        self.assertFalse(plan413.gets_end('mirror_mn_ops'))
        self.assertEqual(plan413.kind(ps['mirror_invalidate_page']), 'only')
        notes = self.notes()
        self.assertTrue(any('review: mirror_invalidate_page may sleep (mirror_invalidate_page '
                            '-> mutex_lock' in n and 'must not sleep' in n for n in notes),
                        notes)

    def test_compat_hook_only_where_it_never_sleeps(self):
        plan413.with_compat = True
        self.plan(case_input('4.13-only-page'))
        # mirror_invalidate_page takes a mutex: the range callbacks
        self.assertEqual(plan413.replaced_by('mirror_mn_ops', 'invalidate_page', 0),
                         'invalidate_range_start')
        # flush_all_page calls what the module view cannot follow: treated
        # as sleeping, a review item says so
        self.assertEqual(plan413.replaced_by('flush_all_mn_ops', 'invalidate_page', 0),
                         'invalidate_range_start')
        notes = self.notes()
        self.assertTrue(any(n.startswith('51: [4.13] review: flush_all_page: cannot tell: '
                                         'it calls mirror_flush_all()') for n in notes), notes)


class TablesTest(Plan):
    def test_cpp_problem_is_reported_not_converted(self):
        ps = self.plan(case_input('4.13-if-only'))
        p = ps['cfg_invalidate_page']
        self.assertEqual(plan413.kind(p), 'cppbad')
        self.assertTrue(plan413.cpp_bad(p))
        self.assertEqual(plan413.cpp_problem(p),
                         '.invalidate_page (line 28) is under an #if the table (line 25) is not')
        self.assertFalse(plan413.replaces(plan413.dying.tables[plan413.key(p)]['ops'],
                                          'invalidate_page'))
        self.assertEqual(plan413.kind(ps['both_invalidate_page']), 'only')

    def test_compat_keeps_or_drops_by_coverage(self):
        plan413.with_compat = True
        ps = self.plan(case_input('4.13-compat-keep'))
        kinds = {plan413.dying.tables[plan413.key(p)]['ops']: plan413.kind(p)
                 for p in ps.values()}
        # (one position per callback: the last table that names it)
        self.assertEqual(kinds, {'twin_tlb_ops': 'gone'})
        p = ps['twin_invalidate_page']
        self.assertTrue(plan413.dying.tables[plan413.key(p)]['tlb'])
        self.assertEqual(plan413.keep_problem(p), 'the table already has invalidate_range')
        self.assertIn('covered by the invalidate_range hook',
                      plan413.dying.why_removed(p))

    def test_not_kept_when_no_kernel_needs_the_hook(self):
        plan413.with_compat = True
        path = case_input('4.13-compat-keep')
        gather(plan413.dying, path)
        track = [fd['p'] for fd in plan413.dying.tables.values()
                 if fd['ops'] == 'twin_track_ops'][0]
        self.assertEqual(plan413.kind(track), 'gone')
        self.assertEqual(plan413.keep_problem(track), plan413.hook_unneeded(track))
        plan413.note_not_kept(track, 'twin_invalidate_page')
        self.assertEqual(len(self.notes()), 1)
        self.assertRegex(self.notes()[0],
                         r'^62: \[4.13\] compat: twin_invalidate_page is not kept as the '
                         r'secondary-TLB hook of its table: no kernel needs it: .*; it is '
                         r'removed as in plain conversion$')

    def test_range_end_takes_over_what_is_not_redone(self):
        ps = self.plan(case_input('4.13-start-only-refault'))
        p = ps['vdev_invalidate_page']
        self.assertEqual(plan413.kind(p), 'gone')
        self.assertEqual(plan413.coverage(p)['verdict'], 'move')
        self.assertTrue(plan413.needs_move(p))
        # the callback stays: the generated range_end runs it
        self.assertTrue(plan413.dying.needed(p))
        # in place of the table's own range_end, which it runs first
        self.assertEqual(plan413.replaced_by('vdev_ops', 'invalidate_range_end', 1),
                         'vdev_invalidate_page_range_end')
        self.assertFalse(plan413.gets_end('vdev_ops'))
        self.assertEqual(plan413.pre_call('vdev_invalidate_page_range_end'),
                         'vdev_invalidate_range_end')
        # it uses its address only as a range: rewritten to take one
        self.assertTrue(plan413.ranged_fn('vdev_invalidate_page'))
        self.assertTrue(plan413.ranged_call('vdev_invalidate_page_range_end'))
        self.assertTrue(plan413.says_moved('vdev_invalidate_page_range_end'))
        self.assertEqual([n for n in self.notes() if 'review' in n], [])


class NotesTest(Plan):
    def test_end_only_table(self):
        ps = self.plan(case_input('4.13-end-only'))
        p = ps['late_invalidate_page']
        self.assertEqual((plan413.kind(p), plan413.coverage(p)['verdict']), ('gone', 'covered'))
        plan413.note_end_only(p, 'late_invalidate_page')
        self.assertEqual(len(self.notes()), 1)
        self.assertTrue(self.notes()[0].startswith(
            '24: [4.13] late_invalidate_page: its table has invalidate_range_end but no '
            'invalidate_range_start: range_end drops the pages after the page-table change, as '
            'invalidate_page did (late_range_end does its work after the change'), self.notes())

    def test_report_mode(self):
        ps = self.plan(case_input('4.13-end-only'))
        p = ps['late_invalidate_page']
        # patch mode: the conversion's notes say it all
        plan413.report_gone(p, 'late_invalidate_page')
        self.assertEqual(self.notes(), [])
        plan413.step.mode = 'org'
        seen = []
        org = type(sys)('coccilib.org')
        org.print_todo = lambda pos, msg: seen.append((pos.line, msg))
        lib = type(sys)('coccilib')
        lib.org = org
        saved = {k: sys.modules.get(k) for k in ('coccilib', 'coccilib.org')}
        sys.modules.update({'coccilib': lib, 'coccilib.org': org})
        try:
            plan413.report_gone(p, 'late_invalidate_page')
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k)
                else:
                    sys.modules[k] = v
        self.assertEqual(seen, [('24', '[4.13] late_invalidate_page: invalidate_page is covered '
                                       'by the range callbacks: remove it')])


class NamesTest(Plan):
    SRC = '''static void dev_page(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t     unsigned long address)
{
\tflush(address);
}

static void dev_invalidate_page_range_end(void)
{
}
'''

    def test_new_name(self):
        self.assertEqual(plan413.new_name('a_invalidate_page', 'range'), 'a_invalidate_range')
        self.assertEqual(plan413.new_name('dev_page', 'range_end'), 'dev_page_range_end')

    def test_wrapper_name_avoids_the_module_and_the_generated(self):
        f = self.write('w.c', self.SRC)
        p = at(f, 1, 13)
        self.assertEqual(plan413.wrapper_name(p, 'dev_page'), 'dev_page_range_end')
        plan413.generated.add('dev_page_range_end')
        self.assertEqual(plan413.wrapper_name(p, 'dev_page'), 'dev_page_range_end2')
        self.assertEqual(plan413.wrapper_name(p, 'dev_invalidate_page'),
                         'dev_invalidate_range_end')

    def test_uses_address(self):
        f = self.write('u.c', self.SRC + '''
static void all_page(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t     unsigned long address)
{
\tflush_all();
}
''')
        self.assertTrue(plan413.uses_address(at(f, 1), 'dev_page'))
        self.assertFalse(plan413.uses_address(at(f, 1), 'all_page'))
        # not defined in the module: assumed to use it
        self.assertTrue(plan413.uses_address(at(f, 1), 'elsewhere_page'))

    def test_one_loop_review_per_callback(self):
        f = self.write('l.c', '')
        plan413.loop_review(at(f, 3), 'dev_page')
        plan413.loop_review(at(f, 9), 'dev_page')
        plan413.loop_review(at(f, 9), 'other_page')
        self.assertEqual([n.split(' takes')[0] for n in self.notes()],
                         ['3: [4.13] review: dev_page', '9: [4.13] review: other_page'])


if __name__ == '__main__':
    main(__name__)
