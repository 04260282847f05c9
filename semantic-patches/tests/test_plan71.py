#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of plan71.py, the planner of mn-7.1-young.cocci.

Usage: semantic-patches/tests/test_plan71.py [--tap]
Without spatch: what the script's rules find is given here.  --tap as in
test_mncocci.py.
"""
import io

from test_mncocci import at, main, Files
import mncocci
import plan71  # (on the path test_mncocci puts it on)

CALLBACK = '''static int dev_young(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t     unsigned long start, unsigned long end)
{
\treturn 0;
}
'''

SPLIT = '''static int dev_young(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t     unsigned long start, unsigned long end)
{
#ifdef CONFIG_X
\treturn 1;
#else
\treturn 0;
#endif
}
'''


class YoungTest(Files):
    def setUp(self):
        super().setUp()
        self.out = io.StringIO()
        self.step = mncocci.Step('7.1', argv=['spatch', '-D', 'patch'], out=self.out)
        plan71.start(self.step)
        plan71.reset()

    def test_fields(self):
        self.assertTrue(all(plan71.is_young(f) for f in
                            ('clear_flush_young', 'clear_young', 'test_young')))
        self.assertFalse(plan71.is_young('invalidate_range_start'))

    def test_a_tabled_int_callback_is_converted_once(self):
        path = self.write('a.c', CALLBACK)
        plan71.table(at(path, 20), 'clear_young', 'dev_young')
        plan71.table(at(path, 25), 'clear_flush_young', 'dev_young')
        self.assertTrue(plan71.converts('dev_young', at(path, 1)))
        self.assertTrue(plan71.converts('dev_young', at(path, 1)))
        self.assertEqual(self.out.getvalue().count('converted: dev_young '
                                                   '(clear_flush_young, clear_young)'), 1)
        # a function no table names, and the same name in another file
        self.assertFalse(plan71.converts('other', at(path, 30)))
        self.assertFalse(plan71.converts('dev_young', at('b.c', 1)))

    def test_split_callback_is_left_with_a_review(self):
        path = self.write('a.c', SPLIT)
        plan71.table(at(path, 20), 'clear_young', 'dev_young')
        self.assertFalse(plan71.converts('dev_young', at(path, 1)))
        self.assertIn('review: dev_young is split by #if/#else', self.out.getvalue())

    def test_compat_gives_compats_return_type(self):
        step = mncocci.Step('7.1', argv=['spatch', '-D', 'patch', '-D', 'compat'],
                            out=self.out)
        plan71.start(step)
        path = self.write('a.c', CALLBACK)
        plan71.table(at(path, 20), 'test_young', 'dev_young')
        self.assertTrue(plan71.converts('dev_young', at(path, 1)))
        self.assertEqual(plan71.return_type('dev_young'), 'mncompat_test_young_t')
        self.assertIn('int -> mncompat_test_young_t', self.out.getvalue())
        self.assertNotIn('review', self.out.getvalue())
        plan71.start(self.step)
        self.assertEqual(plan71.return_type('dev_young'), 'bool')

    def test_assignments(self):
        plan71.assigned(at('a.c', 3), 'clear_young', 'NULL')
        plan71.assigned(at('a.c', 4), 'clear_young', ' 0')
        self.assertEqual(self.out.getvalue(), '')
        plan71.assigned(at('a.c', 5), 'clear_young', 'pick(x)')
        self.assertIn('a.c:5: [7.1] review: run-time assignment to ->clear_young',
                      self.out.getvalue())

    def test_plain_expressions(self):
        for e in ('vma', 'pvmw.address', 'a->vma', 'args->vma', 'pte[i]'):
            self.assertTrue(plan71.plain(e), e)
        for e in ('addr & PMD_MASK', 'addr + 1', 'vma++', 'f(x)', 'a = b', '*p'):
            self.assertFalse(plan71.plain(e), e)

    def test_notify_calls(self):
        self.assertTrue(plan71.young_macro('pmdp_clear_young_notify'))
        self.assertFalse(plan71.young_macro('ptep_clear_flush_notify'))
        plan71.notify_call(at('a.c', 7), 'ptep_clear_young_notify', 'vma', 'addr')
        plan71.notify_call(at('a.c', 8), 'pmdp_clear_flush_young_notify', 'vma',
                           'addr & PMD_MASK')
        plan71.stub_call(at('a.c', 9), 'pudp_huge_clear_flush_notify')
        out = self.out.getvalue().splitlines()
        self.assertIn('ptep_test_and_clear_young() | mmu_notifier_clear_young('
                      'vma->vm_mm, addr, addr + PAGE_SIZE)', out[0])
        self.assertIn('a.c:8: [7.1] review: pmdp_clear_flush_young_notify()', out[1])
        self.assertIn('PMD_SIZE', out[1])
        self.assertIn('converted: pudp_huge_clear_flush_notify() is gone', out[2])
        self.assertIn('pudp_huge_clear_flush()', out[2])


if __name__ == '__main__':
    main(__name__)
