#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ci/tests/test_matrix_plan.py

Unit tests of ci/matrix_plan.py: suites parsed and checked, needs lines
judged, boots grouped and ordered, the plan's makefile, a kernel's
properties and env file. One "ok N - NAME" or "not ok N - NAME" line per
test (ci/tap.sh's form), the tracebacks under a failure, then
"matrix-plan: N passed, M failed"; exit 1 when one failed.
"""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
import matrix_plan as mm  # noqa: E402  (ci/matrix_plan.py)

PROPS = ["kind=user", "release=4.12.4", "invalidate_page", "CONFIG_NUMA",
         "kmemleak"]


class Scratch(unittest.TestCase):
    """A scratch folder per test, and files written into it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def file(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def suite(self, text, name="t"):
        return mm.Suite(self.file(f"{name}.suite", text))


class SuiteParse(Scratch):
    def test_steps_keep_their_order_and_paths_become_absolute(self):
        s = self.suite("# a comment\n\nmodule drivers-sample/mirror X=1\n"
                       "kmod zram\n  test /abs/t.c\n"
                       "converted-module d --native --naive=page-loop\n")
        self.assertEqual(s.step_lines(), [
            f"module\t{mm.TOP}/drivers-sample/mirror\tX=1", "kmod\tzram",
            "test\t/abs/t.c",
            f"converted-module\t{mm.TOP}/d\t--native\t--naive=page-loop"])

    def test_a_quoted_path_is_one_word_of_the_step(self):
        s = self.suite("converted-module '/a b/it'\\''s $x;y\\z/drv' --compat\n"
                       "exec '/t (1)/\u00e9t\u00e9/run-me.sh'\n")
        self.assertEqual(s.step_lines(), [
            "converted-module\t/a b/it's $x;y\\z/drv\t--compat",
            "exec\t/t (1)/\u00e9t\u00e9/run-me.sh"])

    def test_names_the_guest_cannot_carry_are_refused(self):
        cases = [("test /t/x;true.c\n", "name 'x;true'"),
                 ("exec '/t/a(b).sh'\n", "name 'a(b)'"),
                 ("exec /t/.hidden\n", "name ''"),
                 ("module /d/my-mod.v2\n", "name 'my-mod.v2'"),
                 ("kmod 'zram;x'\n", "name 'zram;x'"),
                 ("test '/t/a\tb.c'\n", "a control character"),
                 ("test '/t/x.c\n", "No closing quotation")]
        for text, why in cases:
            with self.subTest(text=text):
                with self.assertRaises(mm.ModelError) as e:
                    self.suite(text)
                self.assertIn(why, str(e.exception))

    def test_boot_conf_adds_up_qemu_and_append_lines_last_timeout_wins(self):
        s = self.suite("qemu -icount shift=0\nappend maxcpus=1\n"
                       "qemu -m 2G\ntimeout 90\ntimeout 480\n")
        self.assertEqual(s.boot_conf(), "timeout_s=480\n"
                         "qemu_args= -icount shift=0 -m 2G\n"
                         "append= maxcpus=1\n")

    def test_a_suite_of_comments_has_the_defaults(self):
        s = self.suite("# nothing\n")
        self.assertEqual((s.step_lines(), s.timeout, s.alone, s.needs),
                         ([], 300, False, []))

    def test_refused_suites_say_why(self):
        cases = [("frobnicate now\n", "unknown directive 'frobnicate'"),
                 ("kernels deb-6.1\n", "not which kernels"),
                 ("converted-module d\n", "give --compat, --native or"),
                 ("converted-module d --fast\n", "give --compat"),
                 ("timeout soon\n", "timeout wants seconds"),
                 ("test\n", "test needs an argument")]
        for text, why in cases:
            with self.subTest(text=text):
                with self.assertRaises(mm.ModelError) as e:
                    self.suite(text)
                self.assertIn(why, str(e.exception))


class BootGroup(Scratch):
    def test_same_boot_lines_share_a_boot_whatever_their_order(self):
        a = self.suite("qemu -m 1G\nappend x=1\ntest a.c\n", "a")
        b = self.suite("append x=1\nneeds kmemleak\nqemu -m 1G\n", "b")
        c = self.suite("append x=2\nqemu -m 1G\n", "c")
        self.assertEqual(a.boot_group(), b.boot_group())
        self.assertNotEqual(a.boot_group(), c.boot_group())
        self.assertTrue(a.boot_group().startswith("shared-"))

    def test_alone_or_long_is_a_group_of_its_own(self):
        self.assertEqual(self.suite("alone\n", "x").boot_group(), "x")
        self.assertEqual(self.suite("timeout 301\n", "y").boot_group(), "y")
        self.assertNotEqual(self.suite("timeout 300\n", "z").boot_group(),
                            "z")


class Needs(Scratch):
    def unmet(self, *lines):
        return self.suite("".join(f"needs {line}\n" for line in lines)) \
            .unmet_needs(PROPS)

    def test_all_words_of_a_line(self):
        self.assertEqual(self.unmet("invalidate_page CONFIG_NUMA kind=user"),
                         [])
        self.assertEqual(self.unmet("invalidate_page mmu_interval_notifier"),
                         ["needs invalidate_page mmu_interval_notifier"])

    def test_any_line_not_and_or(self):
        self.assertEqual(self.unmet("recreated", "CONFIG_NUMA|recreated"), [])
        self.assertEqual(self.unmet("!mmu_interval_notifier !recreated"), [])
        self.assertEqual(len(self.unmet("!invalidate_page", "recreated")), 2)
        self.assertEqual(self.unmet("arch_invalidate_secondary_tlbs|kmemleak"),
                         [])

    def test_release_compares_as_numbers(self):
        self.assertEqual(self.unmet("release>=4.12 !release>=4.13"), [])
        self.assertEqual(self.unmet("release>=4.9.300"), [])
        self.assertTrue(self.unmet("release>=4.12.10"))

    def test_no_needs_line_runs_everywhere_an_empty_one_nowhere(self):
        self.assertEqual(self.suite("test a.c\n").unmet_needs(PROPS), [])
        self.assertEqual(self.unmet(""), ["needs "])

    def test_a_misspelt_word_is_an_error_wherever_it_is(self):
        # After a word that already failed, and on a line after one met.
        for lines in (["invalidate_pgae"], ["recreated invalidate_pgae"],
                      ["kmemleak", "!recreated=4.99-fix"],
                      ["release>=five"], ["kmemleak|CONFIG_numa"]):
            with self.subTest(lines=lines):
                with self.assertRaises(mm.ModelError) as e:
                    self.unmet(*lines)
                self.assertIn("no kernel has that", str(e.exception))


class Plan(Scratch):
    def test_selftests_run_on_the_first_kernel_of_a_newline_list(self):
        # ci/lib.sh kernel_names prints one kernel a line: the self-tests
        # must still go to the first kernel only, "leak" to every one.
        work = self.dir
        suite = self.file("s.suite", "test a.c\n")
        mm.cmd_plan([work, work + "/results", "/nonexistent", "k1\nk2\n",
                     "bare hang", suite])
        with open(os.path.join(work, "suites")) as f:
            runs = [line.split() for line in f]
        names = [(r[0], os.path.basename(r[3])) for r in runs]
        self.assertEqual(names, [
            ("k1", "s.suite"), ("k1", "bare.suite"), ("k1", "hang.suite"),
            ("k1", "leak.suite"), ("k2", "s.suite"), ("k2", "leak.suite")])

    def test_no_selftests_no_leak(self):
        suite = self.file("s.suite", "test a.c\n")
        runs = mm.plan(["k1"], [suite], {}, {})
        self.assertEqual([os.path.basename(r[3]) for r in runs], ["s.suite"])

    def test_boots_longest_first_cost_from_hints_else_timeout(self):
        a = self.file("a.suite", "test a.c\n")
        b = self.file("b.suite", "test b.c\n")
        long = self.file("long.suite", "timeout 480\n")
        bad = self.file("bad.suite", "frobnicate\n")
        runs = mm.plan(["k"], [a, b, long, bad], {},
                       {("k", "a"): 40, ("k", "b"): 2})
        boot_list = mm.boots(runs)
        self.assertEqual([(c, [os.path.basename(f) for f in files])
                          for c, _k, files in boot_list],
                         [(480, ["long.suite"]), (300, ["bad.suite"]),
                          (42, ["a.suite", "b.suite"])])

    def test_ties_keep_the_plan_order(self):
        a = self.file("a.suite", "alone\n")
        b = self.file("b.suite", "alone\n")
        boot_list = mm.boots(mm.plan(["k1", "k2"], [a, b], {}, {}))
        self.assertEqual([(k, os.path.basename(f[0]))
                          for _c, k, f in boot_list],
                         [("k1", "a.suite"), ("k1", "b.suite"),
                          ("k2", "a.suite"), ("k2", "b.suite")])

    def test_makefile_chains_preparations_and_lists_them_first(self):
        a = self.file("a.suite", "alone\n")
        text = mm.plan_makefile(["k1", "k2"], [(9, "k2", [a])], "/w", "/r")
        lines = text.splitlines()
        self.assertIn("prepare/k2: | prepare/k1", lines)
        self.assertIn("boot/k2/a: | prepare/k2", lines)
        self.assertEqual(lines[-1], "all: prepare/k1 prepare/k2 boot/k2/a")
        self.assertIn(f"\t@{mm.TOP}/ci/run/boot-group.sh k2 /w /r {a}", lines)

    def test_hints_first_line_wins_and_junk_is_ignored(self):
        h = self.file("hints", "k s 12\nk s 99\nbroken line\nk t x\n")
        self.assertEqual(mm.read_hints(h), {("k", "s"): 12})


class RunFiles(Scratch):
    """KERNEL/not-run.tsv and the hints file: written and read by one
    function each."""

    def test_not_run_written_then_read(self):
        path = os.path.join(self.dir, "not-run.tsv")
        mm.add_not_run(path, "itree", "needs itree;needs kmemleak", "deb-5.10")
        mm.add_not_run(path, "odd\tname", "why\nsplit", "k")
        self.assertEqual(mm.read_not_run(path), [
            ("itree", "needs itree;needs kmemleak", "deb-5.10"),
            ("odd name", "why split", "k")])
        self.assertEqual(mm.read_not_run(path + ".none"), [])

    def test_not_run_line_of_another_shape_is_an_error(self):
        for text in ("a\tb\n", "a\tb\tc\td\n", "\tb\tc\n", "a\tb\t\n"):
            path = self.file("bad.tsv", text)
            with self.assertRaisesRegex(ValueError, "bad.tsv:1: not SUITE"):
                mm.read_not_run(path)
        with self.assertRaises(ValueError):
            mm.add_not_run(os.path.join(self.dir, "x.tsv"), "", "w", "k")

    def test_not_run_summary(self):
        res = os.path.join(self.dir, "results")
        os.makedirs(os.path.join(res, "k1"))
        for suite in ("zeta", "alpha"):
            mm.add_not_run(os.path.join(res, "k1", "not-run.tsv"), suite,
                           "w", "k1")
        out = io.StringIO()
        with redirect_stdout(out):
            mm.cmd_not_run_summary([res, "k1", "k2"])
        self.assertEqual(out.getvalue(), "  k1: alpha zeta \n")

    def test_hints_this_run_first_then_older_lines(self):
        res = os.path.join(self.dir, "results")
        self.file("results/k1/a/results.tsv", "")
        self.file("results/k1/a/build-seconds", "10.4\n")
        self.file("results/k1/a/boot-seconds", "5.2\n")
        self.file("results/k1/b/build-seconds", "99\n")  # no results.tsv
        mm.add_not_run(os.path.join(res, "k1", "not-run.tsv"), "c", "w", "k1")
        hints = self.file("hints", "k1 a 500\nk1 old 7\njunk\n")
        mm.update_hints(hints, res)
        self.assertEqual(mm.read_hints(hints),
                         {("k1", "a"): 16, ("k1", "c"): 0, ("k1", "old"): 7})
        with open(hints) as f:
            self.assertEqual(f.read(), "k1 a 16\nk1 c 0\nk1 old 7\n")


BEHAVED = ["failed-start=no-end", "oom-reaper=unknown",
           "oom-reap-event=unknown", "itree=unknown", "itree-unwind=unknown",
           "tlb-hook=core"]


class KernelFiles(Scratch):
    def kernel(self, auto, append="", patches="-", header=None,
               behaves="failed-start=no-end tlb-hook=core"):
        kdir = os.path.join(self.dir, "kdir")
        self.file("kdir/include/config/auto.conf", auto)
        if header is not None:
            self.file("config/mncompat_config.h", header)
        env = self.file("k.env", "KERNEL_NAME=k\nKERNEL_KIND=src\n"
                        "KERNEL_RELEASE=6.1.0\n"
                        f"KDIR={kdir}\nKERNEL_APPEND='{append}'\n"
                        f"KERNEL_PATCHES={patches}\n"
                        f"KERNEL_BEHAVIOURS='{behaves}'\n")
        return mm.Kernel(env)

    def props(self, *args, **kw):
        return self.kernel(*args, **kw).properties(
            os.path.join(self.dir, "config"))

    def test_properties_in_order(self):
        header = ("#define MNCOMPAT_HAVE_INVALIDATE_PAGE 1\n"
                  "/* #undef MNCOMPAT_HAVE_CHANGE_PTE */\n"
                  "#define MNCOMPAT_HAVE_FEATURE_X 0\n")
        self.assertEqual(
            self.props("CONFIG_A=y\nCONFIG_B=m\nCONFIG_C=\"y\"\n"
                       "# CONFIG_D is not set\n",
                       patches="4.11-4.12", header=header),
            ["kind=src", "recreated", "recreated=4.11-4.12",
             "release=6.1.0"] + BEHAVED +
            ["invalidate_page", "CONFIG_A", "CONFIG_B"])

    def test_stage_writes_properties_then_answers(self):
        k = self.kernel("CONFIG_NUMA=y\n")
        props = os.path.join(self.dir, "props")
        cfg = os.path.join(self.dir, "config")
        for text, rc, out in (
                ("needs CONFIG_KSM\nneeds recreated\ntest t.c\n", 1,
                 "needs CONFIG_KSM\nneeds recreated\n"),
                ("needs CONFIG_NUMA\nqemu -m 1G\nkmod zram\n", 0,
                 "conf timeout_s=300\nconf qemu_args= -m 1G\n"
                 "conf append=\nkmod\tzram\n")):
            with self.subTest(text=text):
                suite = self.file("s.suite", text)
                with redirect_stdout(io.StringIO()) as f:
                    self.assertEqual(mm.cmd_stage([suite, k.env_file, cfg,
                                                   props]), rc)
                self.assertEqual(f.getvalue(), out)
                with open(props) as f:
                    self.assertEqual(f.read().split(), [
                        "kind=src", "release=6.1.0"] + BEHAVED +
                        ["CONFIG_NUMA"])

    def test_kmemleak_on_unless_default_off_or_turned_off(self):
        on = "CONFIG_DEBUG_KMEMLEAK=y\n"
        off = on + "CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF=y\n"
        self.assertIn("kmemleak", self.props(on))
        self.assertNotIn("kmemleak", self.props(on, append="kmemleak=off"))
        self.assertNotIn("kmemleak", self.props(off))
        self.assertIn("kmemleak", self.props(off, append="a kmemleak=on"))

    def test_env_lines_read_back(self):
        text = "".join(mm.env_line(k, v) for k, v in (
            ("KERNEL_NAME", "x"), ("KERNEL_VERSION", "pkg 1.2"),
            ("KERNEL_APPEND", ""), ("KDIR", "/a/b")))
        self.assertEqual(text, "KERNEL_NAME=x\nKERNEL_VERSION='pkg 1.2'\n"
                         "KERNEL_APPEND=''\nKDIR=/a/b\n")
        env = mm.read_env(self.file("e.env", text + "not a line\n"))
        self.assertEqual(env, {"KERNEL_NAME": "x", "KERNEL_VERSION": "pkg 1.2",
                               "KERNEL_APPEND": "", "KDIR": "/a/b"})
        with self.assertRaises(mm.ModelError):
            mm.env_line("KERNEL_APPEND", "it's")

    def test_write_env_then_finish_env_from_the_row(self):
        env = os.path.join(self.dir, "k.env")
        mm.cmd_write_env([env, "k", "src", "linux-source-6.1 6.1.5-1",
                          "6.1.5", "/c/k b", "/c/src", "-", "/c/bzImage"])
        rows = self.file("k.list", "k src 6.1 base 4.11-4.12 a=1,b\n")
        mm.cmd_finish_env([rows, "k", env])
        with open(env) as f:
            self.assertEqual(f.read(), (
                "KERNEL_NAME=k\nKERNEL_KIND=src\n"
                "KERNEL_VERSION='linux-source-6.1 6.1.5-1'\n"
                "KERNEL_RELEASE=6.1.5\nKDIR='/c/k b'\nKSRC=/c/src\n"
                "KMODDIR=-\nVMLINUZ=/c/bzImage\nKERNEL_APPEND='a=1 b'\n"
                "KERNEL_PATCHES=4.11-4.12\nKERNEL_LACKS=''\n"
                "KERNEL_GENERATION=4.12\nKERNEL_BEHAVIOURS=''\n"
                "KERNEL_BEHAVIOUR_SOURCE='unknown: no source tree, none "
                "declared'\n"))
        self.assertEqual(mm.read_env(env)["KDIR"], "/c/k b")
        with self.assertRaises(mm.ModelError):
            mm.cmd_write_env([env, "k", "src"])

    def test_write_env_keeps_a_compiler_note_drops_an_empty_one(self):
        env = os.path.join(self.dir, "d.env")
        base = [env, "d", "deb", "linux-image-x 5.10.1-1", "5.10.0-1-amd64",
                "/c/kdir", "", "/c/mod", "/c/vmlinuz"]
        mm.cmd_write_env(base + ["built with gcc-12: the tree names gcc-10"])
        self.assertEqual(mm.read_env(env)["KERNEL_CC_NOTE"],
                         "built with gcc-12: the tree names gcc-10")
        mm.cmd_write_env(base + [""])
        self.assertNotIn("KERNEL_CC_NOTE", mm.read_env(env))
        with redirect_stdout(io.StringIO()) as f:
            mm.cmd_kernel([env, "KERNEL_CC_NOTE"])
        self.assertEqual(f.getvalue(), "\n")
        with redirect_stdout(io.StringIO()) as f:
            mm.cmd_kernel([env, "KERNEL_KIND", "KERNEL_CC_NOTE", "KDIR"])
        self.assertEqual(f.getvalue(), "deb\n\n/c/kdir\n")
        with self.assertRaises(mm.ModelError):
            mm.cmd_write_env(base + ["a", "b"])

    def test_not_an_env_file(self):
        with self.assertRaises(mm.ModelError):
            mm.Kernel(self.file("x.env", "nothing here\n"))


class ConfigHeader(Scratch):
    HEADER = ("/* generated */\n#define MNCOMPAT_HAVE_INVALIDATE_PAGE 1\n"
              "#undef MNCOMPAT_HAVE_CHANGE_PTE\n"
              "#define MNCOMPAT_HAVE_INVALIDATE_PAGE_X 1\n"
              "#define MNCOMPAT_HAVE_RANGE_START_RANGE 1\n")

    def test_macros_in_order_none_without_a_header(self):
        header = self.file("c/mncompat_config.h", self.HEADER)
        self.assertEqual(mm.config_macros(header), [
            "INVALIDATE_PAGE", "INVALIDATE_PAGE_X", "RANGE_START_RANGE"])
        self.assertEqual(mm.config_macros(os.path.join(self.dir, "no.h")),
                         [])

    def test_without_turns_that_one_define_into_an_undef(self):
        header = self.file("c/mncompat_config.h", self.HEADER)
        out = os.path.join(self.dir, "off", "mncompat_config.h")
        os.makedirs(os.path.dirname(out))
        with redirect_stdout(io.StringIO()) as f:
            self.assertEqual(mm.main(["config-without", header,
                                      "INVALIDATE_PAGE", out]), 0)
        self.assertEqual(f.getvalue(), "INVALIDATE_PAGE_X RANGE_START_RANGE\n")
        with open(out) as f:
            self.assertEqual(f.read(), self.HEADER.replace(
                "#define MNCOMPAT_HAVE_INVALIDATE_PAGE 1\n",
                "#undef MNCOMPAT_HAVE_INVALIDATE_PAGE\n"))
        with open(header) as f:
            self.assertEqual(f.read(), self.HEADER)

    def test_without_refuses_a_feature_not_defined(self):
        for feature, why in (("CHANGE_PTE", "is not defined"),
                             ("INVALIDATE", "is not defined"),
                             ("a b", "not a feature name")):
            with self.subTest(feature=feature):
                with self.assertRaises(mm.ModelError) as e:
                    mm.config_without(self.HEADER, feature)
                self.assertIn(why, str(e.exception))


class ConversionModes(unittest.TestCase):
    def test_the_modes_pass_other_words_are_refused(self):
        for mode in mm.MODES:
            self.assertEqual(mm.main(["mode", mode]), 0)
        for args in (["--quiet"], ["--apply"], ["compat"], [""], [],
                     ["--compat", "--native"]):
            with self.subTest(args=args):
                with self.assertRaises(mm.ModelError) as e:
                    mm.cmd_mode(args)
                self.assertIn("no conversion mode", str(e.exception))


class KernelRows(Scratch):
    LIST = ("# comment\nd  deb 6.1 - - -\n"
            "s  src 6.1 base,debug 4.11-4.12 kmemleak=off,a=b\n"
            "u  user /t /img - - lacks=ksm\nbad user /t /img - - lacks=warp\n"
            "odd user /t /img - - ksm\n")

    def rows(self):
        return {r.name: r for r in mm.kernel_rows(self.file("k.list",
                                                            self.LIST))}

    def test_fields(self):
        rows = self.rows()
        self.assertEqual(list(rows), ["d", "s", "u", "bad", "odd"])
        self.assertEqual((rows["s"].append(), rows["s"].patches()),
                         ("kmemleak=off a=b", "4.11-4.12"))
        self.assertEqual((rows["d"].append(), rows["d"].patches()), ("", "-"))
        self.assertEqual(rows["s"].generation("6.1.0"), "4.12")
        self.assertEqual(rows["d"].generation("6.12.5+deb13"), "6.12")

    def test_lacks_is_checked_against_the_list(self):
        rows, lacks = self.rows(), mm.LACKS_LIST
        self.assertEqual(rows["u"].lacks(lacks), ["ksm"])
        for name, why in (("bad", "not a feature"), ("odd", "want lacks=")):
            with self.assertRaises(mm.ModelError) as e:
                rows[name].lacks(lacks)
            self.assertIn(why, str(e.exception))

    def test_unknown_kernel(self):
        with self.assertRaises(mm.ModelError) as e:
            mm.kernel_row(self.file("k.list", self.LIST), "nope")
        self.assertIn("kernel 'nope' is not in", str(e.exception))


# Made-up kernel sources in the shapes the behaviour reader
# (ci/kernels/behaviours.py) meets, written for these tests: just the
# functions and structs it reads, as each generation lays them out.
START_VOID = """
void __mmu_notifier_invalidate_range_start(struct mm_struct *mm,
                                           unsigned long start,
                                           unsigned long end)
{
        hlist_for_each_entry_rcu(mn, &mm->mmu_notifier_mm->list, hlist) {
                if (mn->ops->invalidate_range_start)
                        mn->ops->invalidate_range_start(mn, mm, start, end);
        }
}
"""
START_419 = """
int __mmu_notifier_invalidate_range_start(struct mm_struct *mm,
                unsigned long start, unsigned long end, bool blockable)
{
        int ret = 0;

        hlist_for_each_entry_rcu(mn, &mm->mmu_notifier_mm->list, hlist) {
                if (mn->ops->invalidate_range_start) {
                        int _ret = mn->ops->invalidate_range_start(mn, mm,
                                        start, end, blockable);
                        if (_ret)
                                ret = _ret;
                }
        }
        return ret;
}
"""
HLIST = """
static int mn_hlist_invalidate_range_start(
        struct mmu_notifier_subscriptions *subscriptions,
        struct mmu_notifier_range *range)
{
        int ret = 0;

        hlist_for_each_entry_rcu(sub, &subscriptions->list, hlist) {
                const struct mmu_notifier_ops *ops = sub->ops;

                if (ops->invalidate_range_start) {
                        int _ret;

                        _ret = ops->invalidate_range_start(sub, range);
                        if (_ret) {
%(warn)s                                ret = _ret;
                        }
                }
        }
%(ends)s        return ret;
}

int __mmu_notifier_invalidate_range_start(struct mmu_notifier_range *range)
{
        int ret = 0;

        if (subscriptions->has_itree) {
                ret = mn_itree_invalidate(subscriptions, range);
                if (ret)
                        return ret;
        }
        if (!hlist_empty(&subscriptions->list))
                ret = mn_hlist_invalidate_range_start(subscriptions, range);
%(unwind)s        return ret;
}
"""
WARN = "                                WARN_ON(ops->invalidate_range_end);\n"
ENDS = """        if (ret) {
                hlist_for_each_entry_rcu(sub, &subscriptions->list, hlist) {
                        if (sub->ops->invalidate_range_end)
                                sub->ops->invalidate_range_end(sub, range);
                }
        }
"""
UNWIND = """        if (ret && subscriptions->has_itree)
                mn_itree_inv_end(subscriptions);
"""
OOM_413 = """
static bool __oom_reap_task_mm(struct task_struct *tsk, struct mm_struct *mm)
{
        for (vma = mm->mmap ; vma; vma = vma->vm_next)
                unmap_page_range(&tlb, vma, vma->vm_start, vma->vm_end, NULL);
}
"""
OOM_414 = OOM_413.replace("{\n", """{
        if (mm_has_notifiers(mm)) {
                schedule_timeout_idle(HZ);
                goto unlock_oom;
        }
""", 1)
OOM_416 = OOM_414.replace("mm_has_notifiers",
                          "mm_has_blockable_invalidate_notifiers")
OOM_419 = """
void __oom_reap_task_mm(struct mm_struct *mm)
{
        for (vma = mm->mmap ; vma; vma = vma->vm_next) {
                if (mmu_notifier_invalidate_range_start_nonblock(mm, start,
                                                                 end)) {
                        ret = false;
                        continue;
                }
                unmap_page_range(&tlb, vma, start, end, NULL);
        }
}
"""
OOM_52 = """
static bool __oom_reap_task_mm(struct mm_struct *mm)
{
        for_each_vma(vmi, vma) {
                mmu_notifier_range_init(&range, MMU_NOTIFY_UNMAP, 0,
                                        vma, mm, vma->vm_start,
                                        vma->vm_end);
                if (mmu_notifier_invalidate_range_start_nonblock(&range)) {
                        ret = false;
                        continue;
                }
        }
}
"""
OOM_7 = """
static bool __oom_reap_task_mm(struct mm_struct *mm)
{
        mas_for_each_rev(&mas, vma, 0) {
                if (zap_vma_for_reaping(vma))
                        ret = false;
        }
}
"""
MEMORY_7 = """
int zap_vma_for_reaping(struct vm_area_struct *vma)
{
        mmu_notifier_range_init(&range, MMU_NOTIFY_CLEAR, 0, vma->vm_mm,
                                vma->vm_start, vma->vm_end);
        if (mmu_notifier_invalidate_range_start_nonblock(&range))
                return -EBUSY;
        return 0;
}
"""
HDR_OLD = """
struct mmu_notifier_ops {
        void (*invalidate_range)(struct mmu_notifier *mn, struct mm_struct *mm,
                                 unsigned long start, unsigned long end);
};
"""
HDR_55 = HDR_OLD + """
struct mmu_interval_notifier_ops {
        bool (*invalidate)(struct mmu_interval_notifier *interval_sub,
                           const struct mmu_notifier_range *range,
                           unsigned long cur_seq);
};
"""
HDR_66 = HDR_55.replace("(*invalidate_range)",
                        "(*arch_invalidate_secondary_tlbs)")
HDR_7 = HDR_66.replace("        bool (*invalidate)(", """\
        bool (*invalidate_start)(struct mmu_interval_notifier *sub,
                                 const struct mmu_notifier_range *range,
                                 unsigned long cur_seq, void **finish);
        bool (*invalidate)(""")
TLB_66 = """
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
                        unsigned long end, unsigned int stride_shift,
                        bool freed_tables)
{
        if ((end == TLB_FLUSH_ALL) ||
            ((end - start) >> stride_shift) > tlb_single_page_flush_ceiling) {
                start = 0;
                end = TLB_FLUSH_ALL;
        }
        flush_tlb_multi(mm_cpumask(mm), info);
        mmu_notifier_arch_invalidate_secondary_tlbs(mm, start, end);
}
"""
TLB_7 = """
static void init_flush_tlb_info(struct flush_tlb_info *info,
                                unsigned long start, unsigned long end)
{
        if ((end - start) >> stride_shift > tlb_single_page_flush_ceiling) {
                start = 0;
                end = TLB_FLUSH_ALL;
        }
        info->start = start;
        info->end = end;
}

void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start,
                        unsigned long end, unsigned int stride_shift,
                        bool freed_tables)
{
        init_flush_tlb_info(&info, mm, start, end, stride_shift);
        flush_tlb_multi(mm_cpumask(mm), &info);
        mmu_notifier_arch_invalidate_secondary_tlbs(mm, start, end);
}
"""


def hlist(warn=True, ends=True, unwind=False):
    return HLIST % {"warn": WARN if warn else "", "ends": ENDS if ends else "",
                    "unwind": UNWIND if unwind else ""}


# Each generation's files, and what the reader must say of them.
GENERATIONS = {
    "4.9": ({"mm/mmu_notifier.c": START_VOID, "mm/oom_kill.c": OOM_413,
             "include/linux/mmu_notifier.h": HDR_OLD},
            "failed-start=cannot-fail oom-reaper=unnotified "
            "oom-reap-event=none itree=none itree-unwind=none tlb-hook=core"),
    "4.14": ({"mm/mmu_notifier.c": START_VOID, "mm/oom_kill.c": OOM_414,
              "include/linux/mmu_notifier.h": HDR_OLD},
             "failed-start=cannot-fail oom-reaper=skips oom-reap-event=none "
             "itree=none itree-unwind=none tlb-hook=core"),
    "4.16": ({"mm/mmu_notifier.c": START_VOID, "mm/oom_kill.c": OOM_416,
              "include/linux/mmu_notifier.h": HDR_OLD},
             "failed-start=cannot-fail oom-reaper=skips-blocking "
             "oom-reap-event=none itree=none itree-unwind=none "
             "tlb-hook=core"),
    "4.19": ({"mm/mmu_notifier.c": START_419, "mm/oom_kill.c": OOM_419,
              "include/linux/mmu_notifier.h": HDR_OLD},
             "failed-start=no-end oom-reaper=nonblock oom-reap-event=none "
             "itree=none itree-unwind=none tlb-hook=core"),
    "5.5-5.11": ({"mm/mmu_notifier.c": hlist(warn=False, ends=False),
                  "mm/oom_kill.c": OOM_52,
                  "include/linux/mmu_notifier.h": HDR_55},
                 "failed-start=no-end oom-reaper=nonblock "
                 "oom-reap-event=unmap itree=one-pass itree-unwind=self "
                 "tlb-hook=core"),
    "6.1": ({"mm/mmu_notifier.c": hlist(), "mm/oom_kill.c": OOM_52,
             "include/linux/mmu_notifier.h": HDR_55},
            "failed-start=end-all oom-reaper=nonblock oom-reap-event=unmap "
            "itree=one-pass itree-unwind=self tlb-hook=core"),
    "6.12.118": ({"mm/mmu_notifier.c": hlist(unwind=True),
                  "mm/oom_kill.c": OOM_52,
                  "include/linux/mmu_notifier.h": HDR_66,
                  "arch/x86/mm/tlb.c": TLB_66},
                 "failed-start=end-all oom-reaper=nonblock "
                 "oom-reap-event=unmap itree=one-pass itree-unwind=full "
                 "tlb-hook=arch-widened"),
    "7.3": ({"mm/mmu_notifier.c": hlist(), "mm/oom_kill.c": OOM_7,
             "mm/memory.c": MEMORY_7, "include/linux/mmu_notifier.h": HDR_7,
             "arch/x86/mm/tlb.c": TLB_7},
            "failed-start=end-all oom-reaper=nonblock oom-reap-event=clear "
            "itree=two-pass itree-unwind=self tlb-hook=arch"),
}


class Behaviours(Scratch):
    def tree(self, name, files):
        for rel, text in files.items():
            self.file(os.path.join(name, rel), text)
        return os.path.join(self.dir, name)

    def test_each_generation_read_from_its_source(self):
        for gen, (files, want) in GENERATIONS.items():
            with self.subTest(generation=gen):
                reading = mm.behaviours.read([self.tree(gen, files)])
                self.assertEqual(" ".join(mm.behaviours.known_words(reading)),
                                 want)

    def test_evidence_names_the_line(self):
        tree = self.tree("k", GENERATIONS["6.1"][0])
        value, where, _what = mm.behaviours.read([tree])["failed-start"]
        path = os.path.join(tree, "mm", "mmu_notifier.c")
        with open(path) as f:
            n = [i for i, line in enumerate(f, 1)
                 if "WARN_ON(ops->invalidate_range_end)" in line][0]
        self.assertEqual((value, where), ("end-all", f"{path}:{n}"))

    def test_a_missing_file_is_unknown_the_next_tree_answers(self):
        headers = self.tree("h", {"include/linux/mmu_notifier.h": HDR_55})
        reading = mm.behaviours.read([headers])
        self.assertEqual(mm.behaviours.known_words(reading),
                         ["itree=one-pass", "tlb-hook=core"])
        self.assertIsNone(reading["failed-start"][0])
        full = self.tree("f", GENERATIONS["6.1"][0])
        self.assertEqual(len(mm.behaviours.known_words(
            mm.behaviours.read([headers, full]))), 6)

    def finish(self, row, ksrc=""):
        env = os.path.join(self.dir, "e.env")
        mm.cmd_write_env([env, "u", row.split()[1], "v", "5.10.0", "/nowhere",
                          ksrc, "-", "/img"])
        rows = self.file("k.list", row + "\n")
        mm.cmd_finish_env([rows, "u", env])
        return mm.read_env(env)

    def test_finish_env_reads_ksrc_and_a_row_declares_over_it(self):
        src = self.tree("src", GENERATIONS["5.5-5.11"][0])
        env = self.finish("u src 6.1 base -", ksrc=src)
        self.assertEqual(env["KERNEL_BEHAVIOURS"],
                         GENERATIONS["5.5-5.11"][1])
        self.assertEqual(env["KERNEL_BEHAVIOUR_SOURCE"], f"read from {src}")
        env = self.finish(f"u user /t /img - - source={src} "
                          "behaves=failed-start=end-all,tlb-hook=arch")
        self.assertIn("failed-start=end-all", env["KERNEL_BEHAVIOURS"])
        self.assertIn("tlb-hook=arch", env["KERNEL_BEHAVIOURS"])
        self.assertIn("itree=one-pass", env["KERNEL_BEHAVIOURS"])
        self.assertEqual(env["KERNEL_BEHAVIOUR_SOURCE"],
                         f"read from {src}; declared on the row (behaves=)")

    def test_bad_options_of_a_user_row(self):
        for opts, why in (("behaves=tlb-hook=wide", "tlb-hook is one of"),
                          ("behaves=speed=fast", "no behaviour speed"),
                          ("lacks=ksm lacks=thp", "given twice"),
                          ("colour=red", "want lacks=FEATURE")):
            with self.subTest(opts=opts):
                rows = self.file("k.list", f"u user /t /img - - {opts}\n")
                with self.assertRaises(mm.ModelError) as e:
                    mm.kernel_row(rows, "u").declared_behaviours()
                    mm.kernel_row(rows, "u").lacks(mm.LACKS_LIST)
                self.assertIn(why, str(e.exception))
        rows = self.file("k.list", "u user /t /img - - behaves=itree=none "
                         "lacks=ksm\n")
        self.assertEqual(mm.kernel_row(rows, "u").lacks(mm.LACKS_LIST),
                         ["ksm"])

    def test_needs_name_behaviour_values_never_negate_them(self):
        suite = self.suite("needs failed-start=end-all|failed-start=no-end\n")
        self.assertEqual(suite.unmet_needs(PROPS + ["failed-start=no-end"]),
                         [])
        self.assertTrue(suite.unmet_needs(PROPS + ["failed-start=unknown"]))
        for line, why in (("!failed-start=end-all", "never negated"),
                          ("failed-start=unknown", "no kernel has that"),
                          ("tlb-hook=wide", "no kernel has that")):
            with self.subTest(line=line):
                with self.assertRaises(mm.ModelError) as e:
                    self.suite(f"needs {line}\n").unmet_needs(PROPS)
                self.assertIn(why, str(e.exception))


def tap():
    tests = unittest.defaultTestLoader.loadTestsFromModule(
        sys.modules[__name__])
    n = passed = 0
    for case in tests:
        for test in case:
            n += 1
            result = unittest.TestResult()
            test.run(result)
            name = test.id().split(".", 1)[1]
            if result.wasSuccessful():
                passed += 1
                print(f"ok {n} - {name}")
                continue
            print(f"not ok {n} - {name}")
            for _t, trace in result.failures + result.errors:
                print("".join(f"# {line}\n" for line in trace.splitlines()),
                      end="")
    print(f"matrix-plan: {passed} passed, {n - passed} failed")
    return 0 if passed == n else 1


if __name__ == "__main__":
    sys.exit(tap())
