#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of plan615.py, the planner of mn-6.15-device-exclusive.cocci.

Usage: semantic-patches/tests/test_plan615.py [--tap]
Without spatch: what the script's rules find is given here.  --tap as in
test_mncocci.py.
"""
import io

from test_mncocci import at, main, Files
import mncocci
import plan615  # (on the path test_mncocci puts it on)

SRC = '''static int one(struct mm_struct *mm, unsigned long a)
{
\tstruct folio *folio;
\tstruct page *page;
\tint ret;

\tret = make_device_exclusive_range(mm, a, a + PAGE_SIZE, &page, NULL);
\treturn ret;
}

static int no_folio(struct mm_struct *mm, unsigned long a)
{
\tstruct page *page;
\tint ret;

\tret = make_device_exclusive_range(mm, a, a + PAGE_SIZE, &page, NULL);
\treturn ret;
}
'''


class DeviceExclusiveTest(Files):
    def setUp(self):
        super().setUp()
        self.out = io.StringIO()
        self.step = mncocci.Step('6.15', argv=['spatch', '-D', 'patch'], out=self.out)
        plan615.start(self.step)
        plan615.reset()
        self.path = self.write('a.c', SRC)

    def test_the_folio_local_of_the_function(self):
        self.assertEqual(plan615.folio_of(at(self.path, 7, 7), 'page'), 'folio')
        self.assertIn('converted: make_device_exclusive_range() of one page',
                      self.out.getvalue())
        # no folio local in its function (the one above is not its)
        self.assertIsNone(plan615.folio_of(at(self.path, 16, 7), 'page'))

    def test_helper_goes_before_the_first_function_left(self):
        plan615.folio_of(at(self.path, 7, 7), 'page')
        plan615.user('one', at(self.path, 7, 7), at(self.path, 1))
        self.assertFalse(plan615.is_helper(plan615.HELPER))
        plan615.user('no_folio', at(self.path, 16, 7), at(self.path, 11))
        plan615.user('later', at(self.path, 40, 7), at(self.path, 30))
        self.assertTrue(plan615.first_user('no_folio'))
        self.assertFalse(plan615.first_user('later'))
        self.assertFalse(plan615.first_user('one'))
        self.assertTrue(plan615.is_helper(plan615.HELPER))
        self.assertFalse(plan615.is_helper('other'))
        self.assertEqual(self.out.getvalue().count('review: make_device_exclusive_range()'),
                         2)

    def test_compat_says_what_compat_lacks(self):
        step = mncocci.Step('6.15', argv=['spatch', '-D', 'patch', '-D', 'compat'],
                            out=self.out)
        plan615.start(step)
        plan615.user('no_folio', at(self.path, 16, 7), at(self.path, 11))
        self.assertIn('compat does not supply make_device_exclusive()',
                      self.out.getvalue())


if __name__ == '__main__':
    main(__name__)
