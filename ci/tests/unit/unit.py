#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ci/tests/unit/unit.py [--update] [--only MODULE]... [--no-mutations]

The unit tier (`make unit`, the first part of `make test`): no kernel, no
guest, seconds. It runs the matrix plan's tests (ci/tests/test_matrix_plan.py),
the scheduler's with stub leaf steps (test_scheduler.py),
the one reader of each of ci/'s text formats (test_formats.py), the
KTAP/console parser on recorded boots (test_parse_run.py), every report
writer on recorded runs (test_reports.py) and the shell leaf steps'
refusals (test_leaf_steps.py), then proves that the tests can fail:
each mutation of ci/tests/unit/mutations.py (a changed field or a
dropped line in one reader or writer), applied to a copy of the
repository, must make a test fail. One "ok N - NAME" or "not ok N - NAME"
line per test, then "unit: N passed, M failed"; exit 1 when one failed.

--update writes the recorded runs' expected/ files anew (after an
intended change of a report: read the diff before committing it).
"""
import os
import sys
import unittest

UNIT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, UNIT)
sys.path.insert(0, os.path.dirname(UNIT))  # ci/tests: test_matrix_plan

MODULES = ["test_matrix_plan", "test_scheduler", "test_formats",
           "test_parse_run", "test_reports", "test_leaf_steps"]


def run_tests(modules, counter):
    for name in modules:
        module = __import__(name)
        for case in unittest.defaultTestLoader.loadTestsFromModule(module):
            for test in case:
                result = unittest.TestResult()
                test.run(result)
                counter.report(f"{name}: {test.id().split('.', 1)[1]}",
                               result.wasSuccessful(),
                               "".join(t for _, t in result.failures +
                                       result.errors))


class Counter:
    def __init__(self):
        self.n = self.passed = 0

    def report(self, name, ok, detail=""):
        self.n += 1
        self.passed += ok
        print(f"{'ok' if ok else 'not ok'} {self.n} - {name}", flush=True)
        if not ok:
            print("".join(f"# {line}\n" for line in
                          detail.splitlines()[-40:]), end="")


def main(args):
    only = [args[i + 1] for i, a in enumerate(args) if a == "--only"]
    counter = Counter()
    run_tests(only or MODULES, counter)
    if not only and "--no-mutations" not in args and "--update" not in args:
        import mutations
        for name, ok, detail in mutations.check_all():
            counter.report(f"mutation: {name}", ok, detail)
    print(f"unit: {counter.passed} passed, {counter.n - counter.passed} "
          "failed")
    return 0 if counter.passed == counter.n else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
