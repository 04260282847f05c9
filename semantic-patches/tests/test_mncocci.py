#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of mncocci.py, the Python the semantic patches share.

Usage: semantic-patches/tests/test_mncocci.py [--tap]
Without spatch: a position is a stand-in with the file, line and column
spatch gives (strings), the module view runs on small files written here.
--tap: one "ok NAME" or "not-ok NAME" line per test (tests/run.sh turns
them into its TAP lines), the failures' tracebacks after them.
"""
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# (the planners' tests import their planner after this module)
sys.path.insert(0, os.path.join(HERE, '..'))
import mncocci  # noqa: E402
import unsplit  # noqa: E402


class Pos:
    """One element of a position metavariable, as spatch gives it."""

    def __init__(self, file, line, column=0):
        self.file = file
        self.line = str(line)
        self.column = str(column)


def at(file, line, column=0):
    return [Pos(file, line, column)]


def case_input(name):
    """The before.c of case tests/name."""
    return os.path.join(HERE, name, 'before.c')


class Files(unittest.TestCase):
    """A scratch directory for the C files of a test."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, 'w') as fh:
            fh.write(text)
        return path


class OwnModule(Files):
    """Files each of which is its own module (no convert.sh around: its
    module environment is put aside), and the notes of a script's Step
    in patch mode (capture())."""

    def setUp(self):
        super().setUp()
        self.env = {k: os.environ.pop(k) for k in
                    ('MNCOMPAT_MODULE_BASE', 'MNCOMPAT_STEP_MAP')
                    if k in os.environ}
        self.out = io.StringIO()

    def tearDown(self):
        os.environ.update(self.env)
        super().tearDown()

    def capture(self, step):
        """step's notes go to self.out, as in patch mode."""
        step.mode = 'patch'
        step.out = self.out

    def notes(self):
        """The notes captured, without the file name."""
        return [n.split(':', 1)[1] for n in self.out.getvalue().split('\n') if n]


class StepTest(unittest.TestCase):
    def test_defines_and_mode(self):
        argv = ['spatch', '-D', 'patch', '--sp-file', 'x.cocci', '-D',
                'compat', '-D', 'n=3']
        self.assertEqual(mncocci.defines(argv), {'patch', 'compat', 'n'})
        self.assertEqual(mncocci.Step('4.13', argv).mode, 'patch')
        self.assertEqual(mncocci.Step('4.13', ['spatch', '-D', 'org']).mode,
                         'org')
        self.assertEqual(mncocci.Step('4.13', ['spatch', '-D', 'context']).mode,
                         'report')
        self.assertEqual(mncocci.Step('4.13', ['spatch']).mode, 'report')
        self.assertEqual(mncocci.defines(['spatch', '-D']), set())

    def test_patch_note_goes_to_stderr_line(self):
        out = io.StringIO()
        step = mncocci.Step('6.10', ['spatch', '-D', 'patch'], out)
        step.note(at('a.c', 12, 3), 'removed: f (change_pte)')
        self.assertEqual(out.getvalue(),
                         'a.c:12: [6.10] removed: f (change_pte)\n')

    def test_this_process(self):
        # Not spatch: no -D, so report mode.
        self.assertEqual(mncocci.Step('x').mode, 'report')


class PositionTest(unittest.TestCase):
    def test_key_and_line_col(self):
        p = at('f.c', 9, 14)
        self.assertEqual(mncocci.key(p), ('f.c', '9', '14'))
        self.assertEqual(mncocci.line_col(p), (9, 14))
        self.assertLess(mncocci.line_col(at('f.c', 9, 2)),
                        mncocci.line_col(at('f.c', 10, 0)))


class CppTest(Files):
    SRC = '''static void a(void)
{
\tx();
}

static void b(void)
{
#ifdef CONFIG_X
\tx();
#else
\ty();
#endif
}

#if A
static void c(void)
{
}
#elif B
static void c(void)
{
}
#else
#ifdef D
static int d;
#endif
#endif
'''

    def test_split_by_cpp(self):
        f = self.write('s.c', self.SRC)
        self.assertFalse(mncocci.split_by_cpp(at(f, 1)))
        self.assertTrue(mncocci.split_by_cpp(at(f, 6)))
        self.assertTrue(mncocci.split_by_cpp(at(f + '.none', 1)))

    def test_cpp_ctx(self):
        f = self.write('s.c', self.SRC)
        self.assertEqual(mncocci.cpp_ctx(f, 3), ())
        self.assertEqual(mncocci.cpp_ctx(f, 9), ((8, 0),))
        self.assertEqual(mncocci.cpp_ctx(f, 11), ((8, 1),))
        self.assertEqual(mncocci.cpp_ctx(f, 16), ((15, 0),))
        self.assertEqual(mncocci.cpp_ctx(f, 20), ((15, 1),))
        self.assertEqual(mncocci.cpp_ctx(f, 25), ((15, 2), (24, 0)))
        self.assertIsNone(mncocci.cpp_ctx(f + '.none', 3))

    def test_cpp_branches(self):
        f = self.write('s.c', self.SRC)
        self.assertEqual(mncocci.cpp_branches(f, 8), (2, True))
        self.assertEqual(mncocci.cpp_branches(f, 15), (3, True))
        self.assertEqual(mncocci.cpp_branches(f, 24), (1, False))
        self.assertEqual(mncocci.cpp_branches(f + '.none', 8), (0, False))

    def test_lines_follow_the_file(self):
        f = self.write('l.c', 'a\nb\n')
        self.assertEqual(mncocci.lines_of(f), ['a', 'b', ''])
        st = os.stat(f)
        with open(f, 'w') as fh:
            fh.write('c\nd\ne\n')
        os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 1000))
        self.assertEqual(mncocci.lines_of(f), ['c', 'd', 'e', ''])
        self.assertIsNone(mncocci.lines_of(f + '.none'))


class SplitTextArgsTest(unittest.TestCase):
    def test_split_text_args(self):
        import mnlex
        split = mnlex.split_text_args
        self.assertEqual(split('mm , f(a, b),  x[1, 2] '), ['mm', 'f(a, b)', 'x[1, 2]'])
        self.assertEqual(split('a,, b,'), ['a', '', 'b'])
        self.assertEqual(split(''), [])
        # text kept as it is, blanks inside included
        self.assertEqual(split('struct page  *p, unsigned long a'),
                         ['struct page  *p', 'unsigned long a'])
        # what the lexer reads as a string or a comment splits nothing
        self.assertEqual(split('"a, (b", \',\', c /* d, e */'),
                         ['"a, (b"', "','", 'c /* d, e */'])


class WrapTest(unittest.TestCase):
    def test_fits(self):
        self.assertEqual(mncocci.wrap('\t', 'f', ['a', 'b']), 'f(a, b);')

    def test_continuation_under_first_argument(self):
        args = ['mm', 'address & PMD_MASK', '(address & PMD_MASK) + PMD_SIZE']
        text = mncocci.wrap('\t\t', 'mmu_notifier_invalidate_range', args)
        lines = text.split('\n')
        self.assertEqual(lines[0], 'mmu_notifier_invalidate_range(mm, address & PMD_MASK,')
        # 16 columns of indent + "mmu_notifier_invalidate_range(": 46.
        self.assertEqual(lines[1], '\t' * 5 + ' ' * 6 + '(address & PMD_MASK) + PMD_SIZE);')
        self.assertLessEqual(len(('\t\t' + lines[0]).expandtabs(8)), 80)
        self.assertLessEqual(len(lines[1].expandtabs(8)), 80)

    def test_macro_arguments(self):
        macro = 'MNCOMPAT_MMU_NOTIFIER_OPS'
        a = ['refault_ops', 'NULL', 'refault_invalidate_range_start',
             'refault_invalidate_page_range_end',
             'refault_arch_invalidate_secondary_tlbs',
             'MNCOMPAT_RANGE_START_MAY_SLEEP']
        self.assertEqual(
            mncocci.wrap('', macro, a),
            'MNCOMPAT_MMU_NOTIFIER_OPS(refault_ops, NULL, refault_invalidate_range_start,\n'
            '\t\t\t  refault_invalidate_page_range_end,\n'
            '\t\t\t  refault_arch_invalidate_secondary_tlbs,\n'
            '\t\t\t  MNCOMPAT_RANGE_START_MAY_SLEEP);')


class ModuleTest(OwnModule):
    """sleep_of() and the removal notes, through mnmodule.py on a file of
    its own (no convert.sh: the file is its module)."""

    SRC = '''#include <linux/mutex.h>
#include <linux/mmu_notifier.h>

static void slow(struct dev *d)
{
\tmutex_lock(&d->lock);
\tmutex_unlock(&d->lock);
}

static void a_page(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t   unsigned long address)
{
\tslow(dev_of(mn));
}

static void b_page(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t   unsigned long address)
{
\tother_module_flush(address);
}

static void c_page(struct mmu_notifier *mn, struct mm_struct *mm,
\t\t   unsigned long address)
{
\tspin_lock(&lock);
\tspin_unlock(&lock);
}
'''

    def setUp(self):
        super().setUp()
        self.f = self.write('m.c', self.SRC)

    def test_sleep_of(self):
        p = at(self.f, 10)
        v, words = mncocci.sleep_of(p, 'a_page')
        self.assertEqual(v, 'sleeps')
        self.assertTrue(words.startswith('a_page -> slow -> mutex_lock; '),
                        words)
        v, words = mncocci.sleep_of(p, 'b_page')
        self.assertEqual(v, 'unknown')
        self.assertIn('other_module_flush()', words)
        self.assertTrue(words.endswith(', ' + mncocci.NOT_FOLLOWED), words)
        self.assertEqual(mncocci.sleep_of(p, 'c_page'), ('atomic', None))

    def test_dying(self):
        out = io.StringIO()
        step = mncocci.Step('6.10', ['spatch', '-D', 'patch'], out)
        d = mncocci.Dying(step, 'change_pte', 'change_pte, gone since 6.10',
                          other_files=True)
        self.assertTrue(d.is_field('change_pte'))
        self.assertFalse(d.is_field('invalidate_page'))
        p, pt = at(self.f, 31, 15), at(self.f, 30)
        d.table(p, pt, 'ops', 'a_page')
        d.callback(p, 'invalidate_range_end', 'e')
        d.definition('a_page', at(self.f, 10))
        t = d.tables[mncocci.key(p)]
        self.assertEqual((t['ops'], t['table'], t['end'], t['cbs']),
                         ('ops', 30, 'e', {'e'}))
        self.assertEqual(d.defs, {'a_page': [10]})
        self.assertTrue(d.drops(p))
        self.assertEqual(d.droppable(p, at(self.f, 10), 'a_page'), 'a_page')
        self.assertEqual(d.helper_droppable(p, at(self.f, 4), 'slow'), 'slow')
        d.removed(p, 'a_page')
        d.removed(p, 'slow', 'static helper only the removed callback used')
        self.assertTrue(d.was_dropped('slow'))
        self.assertFalse(d.was_dropped('b_page'))
        d.assigned(at(self.f, 40))
        self.assertEqual(out.getvalue().split('\n')[:3], [
            '%s:31: [6.10] removed: a_page (change_pte, gone since 6.10)' % self.f,
            '%s:31: [6.10] removed: slow '
            '(static helper only the removed callback used)' % self.f,
            '%s:40: [6.10] review: run-time assignment to ->change_pte '
            '(gone since 6.10): remove it' % self.f])
        # A new file: the facts of the previous one go.
        g = self.write('n.c', '')
        d.table(at(g, 1), at(g, 1), 'x', 'y')
        self.assertEqual(list(d.tables), [mncocci.key(at(g, 1))])
        self.assertEqual(d.defs, {})
        self.assertFalse(d.was_dropped('slow'))

    def test_dying_keeps_what_is_split(self):
        out = io.StringIO()
        step = mncocci.Step('4.13', ['spatch', '-D', 'patch'], out)
        d = mncocci.Dying(step, 'invalidate_page')
        f = self.write('s.c', CppTest.SRC)
        self.assertEqual(d.droppable(at(f, 20), at(f, 6), 'b'), mncocci.NONE)
        self.assertEqual(d.helper_droppable(at(f, 20), at(f, 6), 'b'),
                         mncocci.NONE)
        self.assertEqual(step.unsplit(at(f, 6), 'b'), mncocci.NONE)
        self.assertEqual(step.unsplit(at(f, 1), 'a'), 'a')
        self.assertEqual(out.getvalue().split('\n')[:3], [
            '%s:20: [4.13] review: b is split by #if/#else: '
            'field dropped, remove the function by hand' % f,
            '%s:20: [4.13] review: b is now unused but split by #if/#else '
            '(line 6): remove it by hand' % f,
            '%s:6: [4.13] review: b is split by #if/#else (spatch sees one branch): '
            'not converted, give every branch the 4.13 prototype by hand' % f])


class Issue33Test(OwnModule):
    """The declaration macros the 4.19 guard goes after, the tables compat
    registers with mncompat_mmu_notifier_register(), and the fault path
    (mnmodule.py) that holds re-faults off."""

    def test_decl_macro(self):
        f = self.write('d.c', 'void f(void)\n{\n\tLIST_HEAD(x);\n'
                       '\tDEFINE_WAIT(w);\n\tstruct a *b = c;\n\tg();\n}\n')
        self.assertTrue(mncocci.decl_macro(at(f, 3)))
        self.assertTrue(mncocci.decl_macro(at(f, 4)))
        self.assertFalse(mncocci.decl_macro(at(f, 5)))
        self.assertFalse(mncocci.decl_macro(at(f, 6)))

    def test_may_fail_paired(self):
        f = self.write('p.c', '''static int s1(struct mmu_notifier *mn,
\t      const struct mmu_notifier_range *r)
{
\tif (!mmu_notifier_range_blockable(r))
\t\treturn -EAGAIN;
\treturn 0;
}

static int s2(struct mmu_notifier *mn,
\t      const struct mmu_notifier_range *r)
{
\treturn 0;
}

static void e(struct mmu_notifier *mn,
\t      const struct mmu_notifier_range *r)
{
}

static const struct mmu_notifier_ops fails_ops = {
\t.invalidate_range_start = s1,
\t.invalidate_range_end = e,
};

static const struct mmu_notifier_ops never_ops = {
\t.invalidate_range_start = s2,
\t.invalidate_range_end = e,
};

static const struct mmu_notifier_ops noend_ops = {
\t.invalidate_range_start = s1,
\t.invalidate_range_end = NULL,
};
''')
        self.assertEqual(mncocci.may_fail_paired(at(f, 1)), ['fails_ops'])

    def test_fault_path(self):
        import mnmodule
        src = '''static void bump(struct d *d)
{
\td->active++;
}

static void drop(struct d *d)
{
\td->active--;
}

static void s(struct mmu_notifier *mn, struct mm_struct *mm,
\t      unsigned long a, unsigned long b)
{
\tbump(d_of(mn));
}

static void e(struct mmu_notifier *mn, struct mm_struct *mm,
\t      unsigned long a, unsigned long b)
{
\tdrop(d_of(mn));
}

static const struct mmu_notifier_ops o = {
\t.invalidate_range_start = s,
\t.invalidate_range_end = e,
};

long d_stats(struct d *d)
{
\treturn d->active;
}

static int d_map(struct d *d, unsigned long a)
{
\tstruct page *p;

\tif (get_user_pages_fast(a, 1, 0, &p) != 1)
\t\treturn -EFAULT;
\td->pages[0] = p;
\treturn 0;
}

int d_ioctl(struct d *d, unsigned long a)
{
\twhile (READ_ONCE(d->active))
\t\tcpu_relax();
\treturn d_map(d, a);
}

static int d_copy(unsigned long a, void *buf)
{
\tstruct page *p;

\tif (get_user_pages_fast(a, 1, 0, &p) != 1)
\t\treturn -EFAULT;
\tmemcpy(buf, page_address(p), 8);
\tput_page(p);
\treturn 0;
}
'''
        f = self.write('f.c', src)
        m = mnmodule.build([f], {f: f})
        names = set(g.name for g in m.fault_funcs().values())
        self.assertEqual(names, {'d_map', 'd_ioctl'})
        self.assertEqual([x[0] for x in m.pins()], ['d_copy'])
        how, unsure = m.blocks('s', 'e', f, 'nopage')
        self.assertIn('d_ioctl() in', how)
        # the getter alone holds nothing off
        f2 = self.write('g.c', src.replace('\twhile (READ_ONCE(d->active))\n'
                                           '\t\tcpu_relax();\n', ''))
        m2 = mnmodule.build([f2], {f2: f2})
        how, unsure = m2.blocks('s', 'e', f2, 'nopage')
        self.assertIsNone(how)
        self.assertIn('only d_stats() in', unsure)

    def test_header_split_by_if_else(self):
        """A function whose header is under #if/#else, each branch
        opening the body (xpmem's range_end): read as the first branch,
        so the functions after it are not taken for its body."""
        import mnmodule
        f = self.write('x.c', '''#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 0, 0)
static void r(struct mmu_notifier *mn, struct mm_struct *mm,
\t      unsigned long start, unsigned long end)
{
#else
static void r(struct mmu_notifier *mn,
\t      const struct mmu_notifier_range *range)
{
\tunsigned long start = range->start;
#endif
\tspin_lock(&lock);
\tspin_unlock(&lock);
}

static int attach(struct dev *d)
{
\treturn mmu_notifier_register(&d->mn, current->mm);
}
''')
        m = mnmodule.build([f], {f: f})
        self.assertEqual(m.sleep('r', f)[0], 'atomic')
        self.assertEqual([g.name for g in m.funcs('attach', f)], ['attach'])

    def test_assertions_are_no_work(self):
        """VM_BUG_ON() and friends check, they do no work that range_end
        would have to redo (early HMM's invalidate_page)."""
        import mnmodule
        f = self.write('a.c', '''static void p(struct mmu_notifier *mn, struct mm_struct *mm,
\t      unsigned long addr)
{
\tVM_BUG_ON(!mm->hmm);
\tVM_WARN_ON_ONCE(addr & 1);
\tBUILD_BUG_ON(sizeof(long) < 4);
\tdrop(addr, addr + PAGE_SIZE);
}
''')
        m = mnmodule.build([f], {f: f})
        self.assertEqual(sorted(k[1] for k in m.work('p', f)), ['drop'])


class Issue44Test(OwnModule):
    """The module view read right on real drivers' shapes (issue 44): a
    pin whose pages live on a caller's stack until it releases them."""

    BATCH = '''struct b {
\tstruct page *pages[4];
\tunsigned int nr;
};

static int pin_one(struct b *b, unsigned long a, unsigned long *pfn)
{
\tstruct page *p;

\tif (get_user_pages_fast(a, 1, 0, &p) != 1)
\t\treturn -EFAULT;
\t*pfn = page_to_pfn(p);
\tb->pages[b->nr++] = p;
\treturn 0;
}

static void release(struct b *b)
{
\tunsigned int i;

\tfor (i = 0; i < b->nr; i++)
\t\tput_page(b->pages[i]);
\tb->nr = 0;
}

static int add(struct b *b, unsigned long a)
{
\tunsigned long pfn;

\treturn pin_one(b, a, &pfn);
}

long copy_ioctl(unsigned long a)
{
\tstruct b batch;
\tint ret;

\tbatch.nr = 0;
\tret = add(&batch, a);
\trelease(&batch);
\treturn ret;
}
'''

    def test_generator_without_semicolon(self):
        """INTERVAL_TREE_DEFINE(...) with no ';' after it (kdreg2's
        region code): its functions are the module's, and the definition
        that follows it is read as one."""
        import mnmodule
        f = self.write('t.c', '''static unsigned long r_start(struct r *r)
{
\treturn r->start;
}

static unsigned long r_last(struct r *r)
{
\treturn r->last;
}

INTERVAL_TREE_DEFINE(struct r, node, unsigned long, sub,
\t\t     r_start, r_last, static, r_tree)

int
r_drop(struct rb_root_cached *root, unsigned long a, unsigned long b)
{
\tstruct r *r = r_tree_iter_first(root, a, b);

\tif (r)
\t\tr_tree_remove(r, root);
\treturn 0;
}
''')
        m = mnmodule.build([f], {f: f})
        self.assertEqual([x.generated for x in m.funcs('r_tree_iter_first')],
                         ['INTERVAL_TREE_DEFINE'])
        self.assertEqual(len(m.funcs('r_drop')), 1)
        self.assertEqual(m.sleep('r_drop', f)[0], 'atomic')

    def test_pin_released_by_the_caller(self):
        import mnmodule
        f = self.write('b.c', self.BATCH)
        m = mnmodule.build([f], {f: f})
        self.assertEqual(m.faults_in(), [])
        pins = m.pins()
        self.assertEqual([x[0] for x in pins], ['pin_one'])
        self.assertIn("copy_ioctl()'s local batch, which release() releases", pins[0][4])

    def test_pin_kept_by_the_caller_is_a_fault_path(self):
        """The pages go into a longer-lived object (a field of the
        device), or through a pointer variable the caller then stores:
        a fault path, not a transient pin."""
        import mnmodule
        kept = self.BATCH.replace('\tstruct b batch;\n', '') \
            .replace('&batch', '&dev->batch').replace('batch.nr', 'dev->batch.nr')
        f = self.write('k.c', kept)
        m = mnmodule.build([f], {f: f})
        self.assertEqual([x[0] for x in m.faults_in()], ['pin_one'])
        self.assertEqual(m.pins(), [])
        f2 = self.write('s.c', '''static int get_one(unsigned long a, struct page **pp)
{
\tint ret = get_user_pages_fast(a, 1, 0, pp);

\tif (ret == 1 && !ok(*pp)) {
\t\tput_page(*pp);
\t\treturn -EINVAL;
\t}
\treturn ret == 1 ? 0 : -EFAULT;
}

int map(struct dev *d, unsigned long a)
{
\tstruct page *p;
\tint ret = get_one(a, &p);

\tif (ret)
\t\treturn ret;
\td->tbl[a >> PAGE_SHIFT] = p;
\treturn 0;
}
''')
        m2 = mnmodule.build([f2], {f2: f2})
        self.assertEqual([x[0] for x in m2.faults_in()], ['get_one'])
        self.assertEqual(m2.pins(), [])

    def test_declarations(self):
        from mnsource import Source
        src = Source('d.c', '''static int f(struct x *a, unsigned long *n, int k,
\t     struct page **pp)
{
\tstruct b batch, *bp = &batch;
\tunsigned long pfn, arr[4];
\tu8 buf[8];
\tstruct page *p;
\tpte_t pte;

\tbp->nr = 0;
\t*n = 1;
\tarr[0] = 2;
\tpfn = 3;
\treturn 0;
}
''')
        f = src.funcs[0]
        self.assertEqual(f.param_kinds, {'a': 'ptr', 'n': 'scalar_ptr', 'k': 'scalar',
                                         'pp': 'ptr'})
        self.assertEqual(f.locals, {'batch': 'value', 'bp': 'ptr', 'pfn': 'scalar',
                                    'arr': 'array', 'buf': 'array', 'p': 'ptr',
                                    'pte': 'value'})
        self.assertEqual(set(f.store_roots), {'bp', 'n', 'arr'})
        self.assertEqual(f.aliases.get('bp'), 'batch')


def tap(module=None):
    """Run every test of module (default: this one; the planners' tests
    run theirs with it); "ok NAME" / "not-ok NAME" lines, then the
    tracebacks.  Exit status 1 when one failed."""
    suite = unittest.defaultTestLoader.loadTestsFromModule(
        module or sys.modules[__name__])
    failed = []
    for case in unittest.TestSuite(suite)._tests:
        for test in case:
            result = unittest.TestResult()
            test.run(result)
            name = test.id().split('.', 1)[1]
            if result.wasSuccessful():
                print('ok %s' % name)
            else:
                print('not-ok %s' % name)
                failed += result.failures + result.errors
    for test, trace in failed:
        print('# %s\n%s' % (test.id(), trace))
    return 1 if failed else 0


class UnsplitTest(unittest.TestCase):
    """unsplit.py: a header split by #if/#else made whole per branch; a
    #define under #if/#else (mm/ksm.c's NUMA()), or branches of whole
    definitions (mm/oom_kill.c's CONFIG_MMU), are no header."""

    SPLIT = '''#if V >= 5
static int f(int a, int b)
{
#else
static int f(int a)
{
#endif
\treturn a;
}
'''

    DEFINES = '''#ifdef CONFIG_NUMA
#define NUMA(x)\t\t(x)
#define DO_NUMA(x)\tdo { (x); } while (0)
#else
#define NUMA(x)\t\t(0)
#define DO_NUMA(x)\tdo { } while (0)
#endif

/* a comment */
struct s {
\tint a;
};

static int g(int x)
{
\treturn NUMA(x);
}
'''

    BLOCK = '''#ifdef CONFIG_MMU
/*
 * the OOM victim (if any)
 */
static int th;

static int __init f(void)
{
\treturn th;
}
subsys_initcall(f)
#else
static inline void q(void)
{
}
#endif

static void g(void)
{
}
'''

    def test_split_header(self):
        new, done = unsplit.unsplit(self.SPLIT)
        self.assertEqual([name for _, name, _ in done], ['f'])
        self.assertEqual(new.count('return a;'), 2)

    def test_define_is_no_header(self):
        self.assertEqual(unsplit.unsplit(self.DEFINES), (self.DEFINES, []))

    def test_whole_definitions_are_no_header(self):
        self.assertEqual(unsplit.unsplit(self.BLOCK), (self.BLOCK, []))


def main(name):
    """Run the tests of module name (a test file run as a script): with
    --tap as tap() does, else as unittest does."""
    if sys.argv[1:] == ['--tap']:
        sys.exit(tap(sys.modules[name]))
    unittest.main(module=name)


if __name__ == '__main__':
    main(__name__)
