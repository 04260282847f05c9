# SPDX-License-Identifier: GPL-2.0
"""The text formats of ci/ that have one reader each, read through it.

Each test writes a small file in the format (or reads the repository's
own) and says, literally, what its one reader must make of it: a changed
field or a dropped line of a reader fails here (ci/tests/unit/mutations.py
proves it).
"""
import os
import tempfile
import unittest

from unit_data import report_module

import matrix_plan as mp  # noqa: E402  (ci/matrix_plan.py)

results = report_module("results")


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
