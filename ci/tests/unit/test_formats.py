# SPDX-License-Identifier: GPL-2.0
"""The text formats of ci/ that have one reader each, read through it.

Each test writes a small file in the format (or reads the repository's
own) and says, literally, what its one reader must make of it: a changed
field or a dropped line of a reader fails here (ci/tests/unit/mutations.py
proves it).
"""
import io
import os
from contextlib import redirect_stdout

from unit_data import report_module
# (ci/tests, on unit.py's path: a scratch folder per test, files in it)
from test_matrix_plan import Scratch

import matrix_plan as mp  # noqa: E402  (ci/matrix_plan.py)

results = report_module("results")


class LacksList(Scratch):
    """ci/kernels/lacks.list: matrix_plan.read_lacks."""

    def test_features_and_their_globs_in_order(self):
        path = self.file("lacks.list", "# FEATURE TEST_GLOB\n\nnuma */*migrat*\n"
                         "  # indented comment\nthp */*thp*\nnuma */*node*\n"
                         "swap */*swap_out\n")
        self.assertEqual(mp.read_lacks(path),
                         {"numa": ["*/*migrat*", "*/*node*"],
                          "thp": ["*/*thp*"], "swap": ["*/*swap_out"]})

    def test_a_line_of_other_shape_is_refused(self):
        for line in ("numa", "numa */*migrat* extra"):
            with self.subTest(line=line):
                path = self.file("lacks.list", f"thp */*thp*\n{line}\n")
                with self.assertRaises(mp.ModelError) as e:
                    mp.read_lacks(path)
                self.assertIn("lacks.list:2: want 'FEATURE TEST_GLOB'",
                              str(e.exception))

    def test_the_repository_list(self):
        self.assertEqual(mp.read_lacks(),
                         {"numa": ["*/*migrat*"], "thp": ["*/*thp*"],
                          "ksm": ["*/*ksm*"], "swap": ["*/*swap_out"]})

    def test_a_row_and_the_reports_read_the_same_list(self):
        path = self.file("lacks.list", "wings */*fly*\nwings */*flap\n")
        rows = self.file("k.list", "u user /t /img - - lacks=wings\n"
                         "v user /t /img - - lacks=numa\n")
        self.assertEqual(mp.kernel_row(rows, "u").lacks(path), ["wings"])
        with self.assertRaises(mp.ModelError):
            mp.kernel_row(rows, "v").lacks(path)
        self.file("results/u/kernel.env", "KERNEL_NAME=u\n"
                  "KERNEL_LACKS='wings'\n")
        self.file("results/w/kernel.env", "KERNEL_NAME=w\nKERNEL_LACKS=''\n")
        self.assertEqual(
            results.lacks_rules(os.path.join(self.dir, "results"),
                                ["u", "w"], path),
            [("u", "*/*fly*", "skip"), ("u", "*/*flap", "skip")])


class KernelVersions(Scratch):
    """Kernel versions and their order: matrix_plan.kernel_version, used
    by a needs line's release>=, the reports' kernel order and a skip
    for an API the kernel predates."""

    def test_read(self):
        for text, want in (("6.12.118+deb12-amd64", (6, 12, 118)),
                           ("6.1.0-57-amd64", (6, 1, 0)), ("4.12", (4, 12, 0)),
                           ("5", (5, 0, 0)), ("4.9.337", (4, 9, 337)),
                           ("", None), ("rhel8", None)):
            with self.subTest(text=text):
                self.assertEqual(mp.kernel_version(text), want)

    def test_release_needs(self):
        suite = mp.Suite(self.file("s.suite", "needs release>=4.10\n"))
        for release, met in (("4.9.337", False), ("4.10", True),
                             ("4.10.0-1-amd64", True), ("4.2", False),
                             ("6.1.0-57-amd64", True), ("", False)):
            with self.subTest(release=release):
                self.assertEqual(suite.unmet_needs([f"release={release}"],
                                                   known=set()) == [], met)

    def env(self, kernel, kind, generation, release=""):
        self.file(f"results/{kernel}/kernel.env",
                  f"KERNEL_NAME={kernel}\nKERNEL_KIND={kind}\n"
                  f"KERNEL_GENERATION={generation}\n"
                  f"KERNEL_RELEASE={release}\n")

    def test_the_reports_kernel_order(self):
        for kernel, kind, gen in (("deb-6.12", "deb", "6.12"),
                                  ("mine", "user", "4.9"),
                                  ("nogen", "src", ""),
                                  ("pre410", "src", "4.10"),
                                  ("deb-6.1", "deb", "6.1"),
                                  ("b-4.9", "src", "4.9"),
                                  ("a-4.9", "src", "4.9")):
            self.env(kernel, kind, gen)
        res = os.path.join(self.dir, "results")
        self.assertEqual(
            results.kernels_by_generation(res, ["deb-6.12", "mine", "nogen",
                                                "pre410", "deb-6.1", "b-4.9",
                                                "a-4.9"]),
            ["a-4.9", "b-4.9", "pre410", "deb-6.1", "deb-6.12", "nogen",
             "mine"])

    def test_a_skip_for_an_api_the_kernel_predates(self):
        self.env("old", "user", "4.12", "4.12.4")
        self.env("new", "deb", "6.12", "6.12.0-1-amd64")
        self.env("same", "deb", "5.4", "5.4.0")
        res = os.path.join(self.dir, "results")
        why = "madvise(MADV_PAGEOUT): EINVAL: no MADV_PAGEOUT (5.4+) here"
        self.assertEqual([results.predates_api(results.release_of(res, k),
                                               why)
                          for k in ("old", "new", "same")],
                         [True, False, False])
        self.assertFalse(results.predates_api(results.release_of(res, "old"),
                                              "no such thing"))


class ResultsTsv(Scratch):
    """results.tsv: results.write_rows writes it, results.suite_rows
    reads it (ci/report/results.py)."""

    def test_read(self):
        sdir = os.path.dirname(self.file(
            "k/s/results.tsv", "k\ts\ts/a\tpass\t\nk\ts\ts/b\tskip\tno numa\n"
            "k\ts\ts/console\tsplat\tBUG: x\n"))
        self.assertEqual(results.suite_rows(sdir),
                         [("k", "s", "s/a", "pass", ""),
                          ("k", "s", "s/b", "skip", "no numa"),
                          ("k", "s", "s/console", "splat", "BUG: x")])
        self.assertEqual(results.suite_rows(os.path.join(self.dir, "none")),
                         [])

    def test_a_line_of_other_shape_is_an_error(self):
        for bad in ("k\ts\ts/b\tpass", "k\ts\ts/b\tpass\tx\ty",
                    "k\ts\ts/b\tmaybe\tx"):
            with self.subTest(line=bad):
                sdir = os.path.dirname(self.file(
                    "k/s/results.tsv", f"k\ts\ts/a\tpass\t\n{bad}\n"))
                with self.assertRaises(SystemExit) as e:
                    results.suite_rows(sdir)
                self.assertIn("results.tsv:2: not a results.tsv row",
                              str(e.exception))

    def test_written_rows_read_back(self):
        sdir = os.path.join(self.dir, "k", "s")
        results.write_rows(sdir, "k", "s", [
            ("a", "fail", "cc: error:\tx\r\ny\x0cz\u2028w"),
            ("b", "timeout", ""), ("boot", "pass", "ok")])
        self.assertEqual(results.suite_rows(sdir),
                         [("k", "s", "s/a", "fail", "cc: error: x  y z w"),
                          ("k", "s", "s/b", "timeout", ""),
                          ("k", "s", "s/boot", "pass", "ok")])

    def test_every_row_of_a_run(self):
        for kernel, suite, text in (("k1", "s", "k1\ts\ts/a\tpass\t\n"),
                                    ("k1", "t", "k1\tt\tt/b\tfail\tno\n"),
                                    ("k0", "s", "k0\ts\ts/a\tskip\tx\n")):
            self.file(f"res/{kernel}/{suite}/results.tsv", text)
        self.assertEqual(results.load_rows(os.path.join(self.dir, "res")),
                         [("k0", "s", "s/a", "skip", "x"),
                          ("k1", "s", "s/a", "pass", ""),
                          ("k1", "t", "t/b", "fail", "no")])


class KernelPatchSeries(Scratch):
    """kernel-patches/NAME/series: matrix_plan.PatchSeries (and the
    "patches" command ci/kernels/build-src-kernel.sh and
    kernel-patches/check-series.sh read)."""

    def series(self, name, text, patches=("0001-a.patch", "0002-b.patch")):
        for p in patches:
            self.file(f"kp/{name}/{p}", "patch\n")
        self.file(f"kp/{name}/series", text)
        return mp.PatchSeries(name, os.path.join(self.dir, "kp"))

    def test_read(self):
        s = self.series("old", "# what it re-creates\n"
                        "# generation: 4.12 (the report order)\n\n"
                        "0002-b.patch\n0001-a.patch\n")
        self.assertEqual(s.generation, "4.12")
        self.assertEqual(s.patches, [os.path.join(self.dir, "kp", "old", p)
                                     for p in ("0002-b.patch", "0001-a.patch")])

    def test_refused(self):
        for text, why in (
                ("# generation: 4.12\n0001-a.patch -p0\n",
                 "series:2: want one patch file name"),
                ("# generation: 4.12\n../x/0001-a.patch\n",
                 "series:2: want one patch file name"),
                ("# generation: 4.12\n0001-a.patch\n0003-c.patch\n",
                 "series:3: names 0003-c.patch, which is missing"),
                ("0001-a.patch\n", "has no '# generation: X.Y' line"),
                ("# generation: 4.12\n", "names no patch")):
            with self.subTest(text=text):
                with self.assertRaises(mp.ModelError) as e:
                    self.series("bad", text)
                self.assertIn(why, str(e.exception))
        with self.assertRaises(mp.ModelError) as e:
            mp.PatchSeries("none", os.path.join(self.dir, "kp"))
        self.assertIn("no patch series kernel-patches/none/series",
                      str(e.exception))

    def test_the_repository_series(self):
        found = {n: mp.PatchSeries(n) for n in mp.series_names()}
        self.assertEqual({n: (s.generation, len(s.patches))
                          for n, s in found.items()},
                         {"4.11-4.12": ("4.12", 3), "4.13-fix": ("4.13", 6),
                          "ent-4.18": ("4.18", 5), "oom-reaper": ("4.13", 1),
                          "oom-reaper-fix": ("4.14", 2),
                          "pre-4.11": ("4.10", 3), "pre-5.12": ("5.11", 1)})
        self.assertEqual(os.path.basename(found["4.13-fix"].patches[-1]),
                         "0006-mm-mmu_notifier-kill-invalidate_page.patch")

    def test_the_patches_command(self):
        out = io.StringIO()
        with redirect_stdout(out):
            mp.cmd_patches(["pre-5.12"])
        self.assertEqual(out.getvalue(),
                         os.path.join(mp.KERNEL_PATCHES, "pre-5.12",
                                      "0001-mm-mmu_notifier-no-invalidate_"
                                      "range_end-after-a-fail.patch") + "\n")
