#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of plan419.py, the planner of mn-4.19-blockable.cocci.

Usage: semantic-patches/tests/test_plan419.py [--tap]
Without spatch: the statements and tables the script's rules find are
given here, on the input of the 4.19-blockable case and on small files
written here (each its own module).  --tap as in test_mncocci.py.
"""

from test_mncocci import OwnModule, at, case_input, main
import plan419  # (on the path test_mncocci puts it on)
from mncocci import NONE

SHADOW = case_input('4.19-blockable')

QUICK = '''static void quick_start(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t\tunsigned long start, unsigned long end)
{
\tLIST_HEAD(list);
\tstruct dev *d = container_of(mn, struct dev, mn);

\tspin_lock(&d->lock);
\tspin_unlock(&d->lock);
}
'''


class Plan419(OwnModule):
    def setUp(self):
        super().setUp()
        self.capture(plan419.step)
        plan419.with_compat = False
        for s in (plan419.first_stmt, plan419.first_done, plan419.has_end):
            s.clear()


class GuardTest(Plan419):
    def test_first_statement_once(self):
        # the statements in any order: the guard goes before the first
        for line, col in ((36, 1), (32, 1), (35, 1)):
            plan419.statement('shadow_range_start', at(SHADOW, line, col))
        self.assertIsNone(plan419.guard('shadow_range_start', at(SHADOW, 36, 1)))
        # it sleeps (down_read): the guard is its own
        self.assertEqual(plan419.guard('shadow_range_start', at(SHADOW, 32, 1)),
                         'shadow_range_start')
        self.assertIsNone(plan419.guard('shadow_range_start', at(SHADOW, 32, 1)))

    def test_after_a_declaration_macro_and_none_where_it_never_sleeps(self):
        f = self.write('q.c', QUICK)
        plan419.statement('quick_start', at(f, 4, 1))
        plan419.statement('quick_start', at(f, 7, 1))
        self.assertIsNone(plan419.guard('quick_start', at(f, 4, 1)))
        self.assertEqual(plan419.guard('quick_start', at(f, 7, 1)), NONE)


class NoteTest(Plan419):
    def test_sleeping_start_with_an_end_is_a_review_item(self):
        plan419.table_end(at(SHADOW, 22, 27), 'shadow_range_start', 'shadow_range_end')
        plan419.note_converted(at(SHADOW, 27, 12), 'shadow_range_start')
        notes = self.notes()
        self.assertEqual(len(notes), 2, notes)
        self.assertTrue(notes[0].startswith(
            '27: [4.19] converted: shadow_range_start: int invalidate_range_start(..., bool '
            'blockable), returns -EAGAIN when !blockable: it may sleep (shadow_range_start -> '
            'down_read'), notes)
        self.assertTrue(notes[1].startswith(
            '27: [4.19] review: shadow_range_start returns -EAGAIN when !blockable, and its '
            'table has invalidate_range_end (shadow_range_end)'), notes)

    def test_compat_pairs_them(self):
        plan419.with_compat = True
        plan419.table_end(at(SHADOW, 22, 27), 'shadow_range_start', 'shadow_range_end')
        plan419.note_converted(at(SHADOW, 27, 12), 'shadow_range_start')
        notes = self.notes()
        self.assertEqual([n for n in notes if 'review' in n], [])
        self.assertIn('with compat the table is MNCOMPAT_RANGE_START_MAY_SLEEP', notes[1])

    def test_never_sleeps_no_guard(self):
        f = self.write('q.c', QUICK)
        plan419.table_end(at(f, 20), 'quick_start', 'quick_end')
        plan419.note_converted(at(f, 1, 12), 'quick_start')
        self.assertEqual(self.notes(), [
            '1: [4.19] converted: quick_start: int invalidate_range_start(..., bool blockable), '
            'no -EAGAIN guard: quick_start never sleeps (every call it makes was followed '
            'through the module)'])


if __name__ == '__main__':
    main(__name__)
