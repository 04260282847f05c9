#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of plan413call.py, the planner of
mn-4.13-invalidate-page-call.cocci.

Usage: semantic-patches/tests/test_plan413call.py [--tap]
Without spatch: the facts its rules gather (the calls, the statements of
the function with their extents, the page-table helpers, the parameters)
are given here for small files written here, as spatch gives them.
--tap as in test_mncocci.py.
"""
import re
import unittest

from test_mncocci import OwnModule, Pos, main
import plan413call as pc  # (on the path test_mncocci puts it on)


class FnPos(Pos):
    """A position in a function, as spatch gives it: with its name and
    the end of what it matched."""

    def __init__(self, file, fn, line, column, line_end=None, column_end=None):
        super().__init__(file, line, column)
        self.current_element = fn
        self.line_end = str(line_end or line)
        self.column_end = str(column_end or column)


# rmap's shape (seed 006): the page and its address are parameters, the
# page-table lock is taken in a statement before the call.
RMAP = '''static bool one(struct page *page, struct vm_area_struct *vma,
\t\tunsigned long address, void *arg)
{
\tstruct mm_struct *mm = vma->vm_mm;
\tpte_t *pte;
\tspinlock_t *ptl;

\tpte = pte_offset_map_lock(mm, pmd, address, &ptl);
\tif (!pte)
\t\treturn false;
\tset_pte_at(mm, address, pte, entry);
\tpte_unmap_unlock(pte, ptl);
\tmmu_notifier_invalidate_page(mm, address);
\treturn true;
}
'''


class Planner(OwnModule):
    """The facts of one function, given as the script's rules give them:
    every statement of its body that ends in ';' on its line (an if
    without braces with its statement), the helpers, the call."""

    def setUp(self):
        super().setUp()
        self.capture(pc.step)
        pc.cur['file'] = None

    def facts(self, src, fn, params):
        f = self.write('c.c', src)
        lines = src.split('\n')
        body = [i for i, t in enumerate(lines) if t.startswith('{')][0]
        for i in range(body + 1, len(lines)):
            t = lines[i]
            m = re.search(r'mmu_notifier_invalidate_page\((\w+), (\w+)\)', t)
            if m:
                pc.add_call([FnPos(f, fn, i + 1, m.start())], m.group(1), m.group(2))
        for i in range(body + 1, len(lines)):
            t = lines[i]
            if not t.strip() or t.startswith('}') or t.rstrip().endswith(';') and \
                    re.match(r'\t(struct|unsigned|int|bool|pte_t|pmd_t|spinlock_t)\b', t):
                continue
            col = len(t) - len(t.lstrip())
            end = i
            while not lines[end].rstrip().endswith(';'):
                end += 1
            pc.add_statement([FnPos(f, fn, i + 1, col, end + 1, len(lines[end]))])
            for m in re.finditer(r'\b(pte_offset_map_lock|set_pte_at|pmd_lock|set_pmd_at|'
                                 r'set_huge_pte_at|follow_pte_pmd)\((.*?)\)\)?;?$', t):
                pc.add_op([FnPos(f, fn, i + 1, m.start())], m.group(1), m.group(2))
        pc.add_params(fn, params, [FnPos(f, fn, 1, 0)])
        return f

    def edit(self, f, line, col):
        p = [FnPos(f, 'x', line, col)]
        kinds = [k for k in ('ba', 'b', 'a', 'r', 'rb', 'd') if pc.edit_of(p, k)]
        return kinds, pc.texts_for(p) if kinds else None


class BracketTest(Planner):
    PARAMS = ('struct page *page, struct vm_area_struct *vma, unsigned long address, '
              'void *arg')

    def test_rmap_shape(self):
        f = self.facts(RMAP, 'one', self.PARAMS)
        pc.plan_file()
        self.assertEqual(pc.decl_of('one'), 'unsigned long start = address, end')
        # invalidate_range_start before the statement that takes the lock
        kinds, (before, after, repl) = self.edit(f, 8, 1)
        self.assertEqual(kinds, ['b'])
        self.assertEqual(before, 'end = min(vma->vm_end, start + (PAGE_SIZE << '
                         'compound_order(page)));\n'
                         '\tmmu_notifier_invalidate_range_start(mm, start, end)')
        # the early return inside the bracket ends it too
        kinds, (before, after, repl) = self.edit(f, 10, 2)
        self.assertEqual(kinds, ['b'])
        self.assertEqual(before, 'mmu_notifier_invalidate_range_end(mm, start, end)')
        # the old call: invalidate_range for the page, then the end
        kinds, (before, after, repl) = self.edit(f, 13, 1)
        self.assertEqual(kinds, ['r'])
        self.assertEqual(repl, 'mmu_notifier_invalidate_range(mm, address, address + '
                         'PAGE_SIZE);\n\tmmu_notifier_invalidate_range_end(mm, start, end)')
        self.assertEqual(self.notes(), [
            '13: [4.13] bracketed: one: invalidate_range_start/end around lines 8-13, range '
            '[address, min(vma->vm_end, address + (PAGE_SIZE << compound_order(page)))); '
            'invalidate_range at each call: PAGE_SIZE per PTE'])

    def test_no_lock_before_the_call_is_placed_together(self):
        src = RMAP.replace('\tpte = pte_offset_map_lock(mm, pmd, address, &ptl);\n', '') \
            .replace('\tset_pte_at(mm, address, pte, entry);\n', '')
        f = self.facts(src, 'one', self.PARAMS)
        pc.plan_file()
        self.assertFalse(pc.has_decl('one'))
        kinds, (before, after, repl) = self.edit(f, 11, 1)
        self.assertEqual(kinds, ['r'])
        self.assertEqual(repl.split('\n\t'), [
            'mmu_notifier_invalidate_range_start(mm, address,',
            '\t\t\t\t    address + (PAGE_SIZE << compound_order(page)));',
            'mmu_notifier_invalidate_range(mm, address,',
            '\t\t\t      address + (PAGE_SIZE << compound_order(page)));',
            'mmu_notifier_invalidate_range_end(mm, address,',
            '\t\t\t\t  address + (PAGE_SIZE << compound_order(page)))'])
        notes = self.notes()
        self.assertEqual(len(notes), 1)
        self.assertTrue(notes[0].startswith(
            '11: [4.13] review: one: placement: no page-table lock or entry change '
            '(pte_offset_map_lock, set_pte_at, ...) found before the call in one; '), notes)
        self.assertTrue(notes[0].endswith(': right only if address is its first address'))

    def test_mm_that_changes_is_placed_together(self):
        src = RMAP.replace('\tset_pte_at(', '\tmm = other_mm;\n\tset_pte_at(')
        self.facts(src, 'one', self.PARAMS)
        pc.plan_file()
        self.assertIn('placement: the mm (mm) changes inside one', self.notes()[0])


# fs/dax.c's shape (seed 005): follow_pte_pmd() takes the lock, a flag
# says whether an entry changed, the call runs when it did.
DAX = '''static void mkclean(struct vm_area_struct *vma, unsigned long address)
{
\tstruct mm_struct *mm = vma->vm_mm;
\tpte_t *ptep;
\tpmd_t *pmdp;
\tspinlock_t *ptl;
\tbool changed;

\tchanged = false;
\tfollow_pte_pmd(mm, address, &ptep, &pmdp, &ptl);
\tset_pte_at(mm, address, ptep, pte);
\tchanged = true;
\tpte_unmap_unlock(ptep, ptl);
\tif (changed)
\t\tmmu_notifier_invalidate_page(mm, address);
}
'''


class FollowTest(Planner):
    def test_dax_shape(self):
        f = self.facts(DAX, 'mkclean', 'struct vm_area_struct *vma, unsigned long address')
        pc.plan_file()
        self.assertEqual((pc.follow_start('mkclean'), pc.follow_end('mkclean')),
                         ('start', 'end'))
        self.assertEqual(pc.decl_of('mkclean'), 'unsigned long start, end')
        # the flag goes: its declaration, where it is cleared; where it is
        # set, the entry changed: invalidate_range; the call ends the range
        self.assertTrue(pc.has_dropdecl('mkclean'))
        self.assertTrue(pc.is_dropped_flag('changed'))
        self.assertEqual(self.edit(f, 9, 1)[0], ['d'])
        self.assertEqual(self.edit(f, 12, 1),
                         (['r'], ('', '', 'mmu_notifier_invalidate_range(mm, start, end)')))
        self.assertEqual(self.edit(f, 14, 1),
                         (['r'], ('', '', 'mmu_notifier_invalidate_range_end(mm, start, end)')))
        self.assertEqual(len(self.notes()), 1)
        self.assertTrue(self.notes()[0].startswith(
            '15: [4.13] bracketed: mkclean: follow_pte_pmd(..., &start, &end, ...) calls '
            'invalidate_range_start'), self.notes())

    def test_flag_used_elsewhere_is_not_the_dax_shape(self):
        src = DAX.replace('\tpte_unmap_unlock(ptep, ptl);\n',
                          '\tpte_unmap_unlock(ptep, ptl);\n\tlog(changed);\n')
        self.facts(src, 'mkclean', 'struct vm_area_struct *vma, unsigned long address')
        pc.plan_file()
        self.assertFalse(pc.has_follow('mkclean'))


class TextTest(unittest.TestCase):
    def test_params_of(self):
        self.assertEqual(pc.params_of('struct page *page, const  struct vm_area_struct *vma, '
                                      'unsigned long address'),
                         [('struct page *', 'page'),
                          ('const struct vm_area_struct *', 'vma'),
                          ('unsigned long', 'address')])

    def test_assigned(self):
        self.assertTrue(pc.assigned('a', 'x = 1; a += PAGE_SIZE;'))
        self.assertTrue(pc.assigned('a', 'a++;'))
        self.assertTrue(pc.assigned('a', 'for (; n; --a)'))
        self.assertFalse(pc.assigned('a', 'if (a == b) f(a);'))
        self.assertFalse(pc.assigned('a', 's->a = 1; s.a = 2;'))

    def test_fresh(self):
        self.assertEqual(pc.fresh('start', 'unsigned long start = 0;'), 'mn_start')
        self.assertEqual(pc.fresh('start', 'range_start(x);'), 'start')

    def test_kind_of(self):
        self.assertEqual([pc.kind_of(o) for o in ('pmd_lock', 'set_pte_at', 'pmdp_invalidate',
                                                  'huge_ptep_clear_flush')],
                         ['lock', 'pte', 'pmd', 'huge'])


if __name__ == '__main__':
    main(__name__)
