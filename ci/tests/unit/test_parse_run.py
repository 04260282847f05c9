# SPDX-License-Identifier: GPL-2.0
"""The KTAP/console parser (ci/report/parse_run.py) on recorded boots.

Each folder of ci/tests/data/boots/ is one guest boot of a real matrix run
(ci/tests/record-boot.sh wrote it): the boot's files, each suite's plan,
and what that run wrote for each suite (expected/SUITE/). The parser runs
again on the recorded boot and must write the same files, byte for byte:
a pass and an expected failure among 13 suites of one boot (shared), a
module's WARN (splat), a hung guest (timeout), the 5.12 WARN of a failed
range_start repeated by the OOM reaper (warn-5.12).
"""
import os
import shutil
import tempfile
import unittest

from unit_data import DATA, report_module

parse_run = report_module("parse_run")
BOOTS = os.path.join(DATA, "boots")
# What parse_run.py writes that a recorded run kept to compare.
COMPARED = ("results.tsv", "status", "test-seconds", "boot-seconds", "retry")


def cases():
    return sorted(os.listdir(BOOTS))


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


class RecordedBoots(unittest.TestCase):
    """One test per recorded boot (added below)."""

    def replay(self, case):
        src = os.path.join(BOOTS, case)
        kernel = read(os.path.join(src, "kernel")).strip()
        suites = sorted(os.listdir(os.path.join(src, "suites")))
        self.assertTrue(suites, f"{case}: no suites recorded")
        with tempfile.TemporaryDirectory() as tmp:
            dirs = []
            for suite in suites:
                d = os.path.join(tmp, suite)
                shutil.copytree(os.path.join(src, "suites", suite), d)
                dirs.append(d)
            parse_run.run(kernel, src, dirs)
            for suite in suites:
                for name in COMPARED:
                    want = read(os.path.join(src, "expected", suite, name))
                    got = read(os.path.join(tmp, suite, name))
                    self.assertEqual(got, want, f"{case}/{suite}/{name}")


def _add(case):
    def test(self):
        self.replay(case)
    test.__doc__ = f"parse_run.py on the recorded boot {case}"
    setattr(RecordedBoots, "test_" + case.replace("-", "_").replace(".", "_"),
            test)


for _case in cases():
    _add(_case)
