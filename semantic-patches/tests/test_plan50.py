#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of plan50.py, the planner of mn-5.0-range.cocci.

Usage: semantic-patches/tests/test_plan50.py [--tap]
Without spatch: what the script's rules find is given here.  --tap as in
test_mncocci.py.
"""
import unittest

from test_mncocci import at, main
import plan50  # (on the path test_mncocci puts it on)


class ConvertTest(unittest.TestCase):
    def setUp(self):
        for s in (plan50.starts, plan50.clashes, plan50.voids, plan50.params,
                  plan50.written):
            s.clear()

    def test_parameters_become_range_fields(self):
        self.assertTrue(plan50.convert('e', at('a.c', 9), 'mm', 's', 'e_'))
        self.assertEqual([plan50.range_field('e', x) for x in ('mm', 's', 'e_')],
                         ['mm', 'start', 'end'])
        self.assertTrue(plan50.replaced('e', 's'))
        self.assertFalse(plan50.is_param('e', 'mn'))
        self.assertFalse(plan50.is_param('other', 's'))

    def test_written_parameter_keeps_a_local_copy(self):
        plan50.convert('e', at('a.c', 9), 'mm', 'start', 'end')
        plan50.write('e', 'start')
        self.assertTrue(plan50.is_written('e', 'start'))
        self.assertFalse(plan50.replaced('e', 'start'))
        self.assertTrue(plan50.replaced('e', 'end'))

    def test_not_converted(self):
        # a local named range
        plan50.clash('c')
        self.assertFalse(plan50.convert('c', at('a.c', 3), 'mm', 's', 'e'))
        self.assertFalse(plan50.is_param('c', 's'))
        # a range_start that still has the pre-4.19 prototype
        plan50.a_start('s')
        plan50.old_void(at('a.c', 20))
        self.assertFalse(plan50.convert('s', at('a.c', 20), 'mm', 's', 'e'))
        # the same callback name in another file, converted to 4.19
        self.assertTrue(plan50.convert('s', at('b.c', 20), 'mm', 's', 'e'))


if __name__ == '__main__':
    main(__name__)
