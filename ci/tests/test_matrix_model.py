#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ci/tests/test_matrix_model.py

Unit tests of ci/matrix_model.py: suites parsed and checked, needs lines
judged, boots grouped and ordered, the plan's makefile, a kernel's
properties and env file. One "ok N - NAME" or "not ok N - NAME" line per
test (ci/tap.sh's form), the tracebacks under a failure, then
"matrix-model: N passed, M failed"; exit 1 when one failed.
"""
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
import matrix_model as mm  # noqa: E402  (ci/matrix_model.py)

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
            f"module {mm.TOP}/drivers-sample/mirror X=1", "kmod zram",
            "test /abs/t.c",
            f"converted-module {mm.TOP}/d --native --naive=page-loop"])

    def test_boot_conf_adds_up_qemu_and_append_lines_last_timeout_wins(self):
        s = self.suite("qemu -icount shift=0\nappend maxcpus=1\n"
                       "qemu -m 2G\ntimeout 90\ntimeout 480\n")
        self.assertEqual(s.boot_conf(), "timeout_s=480\n"
                         "qemu_args=' -icount shift=0 -m 2G'\n"
                         "append=' maxcpus=1'\n")

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


class KernelFiles(Scratch):
    def kernel(self, auto, append="", patches="-", header=None):
        kdir = os.path.join(self.dir, "kdir")
        self.file("kdir/include/config/auto.conf", auto)
        if header is not None:
            self.file("config/mncompat_config.h", header)
        env = self.file("k.env", "KERNEL_NAME=k\nKERNEL_KIND=src\n"
                        "KERNEL_RELEASE=6.1.0\n"
                        f"KDIR={kdir}\nKERNEL_APPEND='{append}'\n"
                        f"KERNEL_PATCHES={patches}\n")
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
             "release=6.1.0", "invalidate_page", "CONFIG_A", "CONFIG_B"])

    def test_stage_writes_properties_then_answers(self):
        k = self.kernel("CONFIG_NUMA=y\n")
        props = os.path.join(self.dir, "props")
        cfg = os.path.join(self.dir, "config")
        for text, rc, out in (
                ("needs CONFIG_KSM\nneeds recreated\ntest t.c\n", 1,
                 "needs CONFIG_KSM\nneeds recreated\n"),
                ("needs CONFIG_NUMA\nqemu -m 1G\nkmod zram\n", 0,
                 "conf timeout_s=300\nconf qemu_args=' -m 1G'\n"
                 "conf append=''\nkmod zram\n")):
            with self.subTest(text=text):
                suite = self.file("s.suite", text)
                with redirect_stdout(io.StringIO()) as f:
                    self.assertEqual(mm.cmd_stage([suite, k.env_file, cfg,
                                                   props]), rc)
                self.assertEqual(f.getvalue(), out)
                with open(props) as f:
                    self.assertEqual(f.read().split(), [
                        "kind=src", "release=6.1.0", "CONFIG_NUMA"])

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
                "KERNEL_GENERATION=4.12\n"))
        self.assertEqual(mm.read_env(env)["KDIR"], "/c/k b")
        with self.assertRaises(mm.ModelError):
            mm.cmd_write_env([env, "k", "src"])

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
    print(f"matrix-model: {passed} passed, {n - passed} failed")
    return 0 if passed == n else 1


if __name__ == "__main__":
    sys.exit(tap())
