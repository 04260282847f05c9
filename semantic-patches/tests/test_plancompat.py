#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of plancompat.py, the planner of mn-compat-ops.cocci.

Usage: semantic-patches/tests/test_plancompat.py [--tap]
Without spatch: the tables' fields as the script's rules find them, on
the input of the compat-ops case (its own module).  --tap as in
test_mncocci.py.
"""

from test_mncocci import OwnModule, at, case_input, main
import plancompat  # (on the path test_mncocci puts it on)

OPS = case_input('compat-ops')


class MacroTest(OwnModule):
    def setUp(self):
        super().setUp()
        self.capture(plancompat.step)
        plancompat.fields.clear()
        plancompat.reg_inc_noted.clear()

    def table(self, line, ops, fields):
        p = at(OPS, line, 0)
        for f, e in fields:
            plancompat.field(p, ops, f, e)
        return p

    def test_hook_next_to_range_callbacks(self):
        p = self.table(39, 'dev_tlb_ops', [
            ('release', 'dev_release'), ('invalidate_range_start', 'dev_start'),
            ('invalidate_range_end', 'dev_end'), ('arch_invalidate_secondary_tlbs', 'dev_tlbs')])
        self.assertEqual(plancompat.macro_args(p, 'dev_tlb_ops'),
                         'dev_tlb_ops, dev_release, dev_start, dev_end,\n'
                         '\t\t\t  dev_tlbs, MNCOMPAT_RANGE_START_MAY_SLEEP')
        notes = self.notes()
        # the flag for the routing before 4.13, not because one sleeps;
        # dev_start may fail, and nothing in the case registers a notifier
        self.assertEqual(len(notes), 2, notes)
        self.assertTrue(notes[1].startswith(
            '39: [compat] review: nothing in this module registers a notifier, and compat '
            'keeps the range_start that may fail and the range_end of dev_tlb_ops paired only '
            'for a subscription registered through it'), notes)
        self.assertTrue(notes[0].startswith(
            '39: [compat] converted: dev_tlb_ops -> MNCOMPAT_MMU_NOTIFIER_OPS(..., '
            'MNCOMPAT_RANGE_START_MAY_SLEEP) (not because a range callback may sleep: '
            'dev_start never sleeps; dev_end never sleeps;'), notes)

    def test_range_callbacks_only_and_an_extra_field(self):
        p = self.table(46, 'dev_range_ops', [
            ('invalidate_range_start', 'dev_start'), ('invalidate_range_end', 'dev_end'),
            ('clear_young', 'dev_clear_young')])
        self.assertEqual(plancompat.macro_args(p, 'dev_range_ops'),
                         'dev_range_ops, NULL, dev_start, dev_end, NULL, 0,\n'
                         '\t\t\t  .clear_young = dev_clear_young')
        notes = self.notes()
        self.assertEqual(notes[0], '46: [compat] converted: dev_range_ops -> '
                         'MNCOMPAT_MMU_NOTIFIER_OPS(..., 0)')
        self.assertIn('before 4.13 compat calls dev_start and dev_end from invalidate_page',
                      notes[1])
        # dev_start may fail, and with flags 0 it runs where nothing may
        self.assertTrue(notes[2].startswith('46: [compat] review: dev_start returns -EAGAIN '
                                            '(%s:15)' % OPS), notes)

    def test_null_fields_name_no_callback(self):
        p = self.table(46, 't', [('invalidate_range_start', 'NULL'),
                                 ('arch_invalidate_secondary_tlbs', '0')])
        self.assertEqual(plancompat.macro_args(p, 't'), 't, NULL, NULL, NULL, NULL, 0')

    def test_registration(self):
        p = at(OPS, 60, 1)
        self.assertTrue(plancompat.registration(p, 'mmu_notifier_register'))
        self.assertEqual(self.notes(), [
            '60: [compat] converted: mmu_notifier_register() -> '
            'mncompat_mmu_notifier_register(): dev_range_ops, dev_tlb_ops (range_start may '
            'fail, range_end kept): compat keeps start and end paired on both sides of Linux '
            '5.12 (c2655835fd8c)'])

    def test_include_note_once_per_file(self):
        plancompat.note_reg_include(at(OPS, 60), 'x')
        plancompat.note_reg_include(at(OPS, 70), 'y')
        self.assertEqual(self.notes(), ['60: [compat] x'])


if __name__ == '__main__':
    main(__name__)
