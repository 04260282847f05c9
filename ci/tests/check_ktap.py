#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check one kernel's ktap.tap with the kernel's own KTAP parser.

Usage: ci/tests/check_ktap.py KUNIT_PY EXPECTATIONS RESULTS_DIR KERNEL [TAP]

Runs "kunit.py parse --json=FILE TAP" (TAP defaults to
RESULTS_DIR/KERNEL/ktap.tap) and wants: no parser [ERROR] lines; exit 0
exactly when every results.tsv row of KERNEL is pass or skip (kunit.py
fails a document with any "not ok", expected failures included); in the
JSON one group per suite, in order, with the tests of results.tsv and
statuses pass->PASS, skip->SKIP, anything else->FAIL; "Ran N tests" with
N = the kernel's row count. kunit.py forgives a missing plan, so the
"KTAP version 1" headers and the 1..N plans are counted here too.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import tsv_truth

STATUS = {"pass": "PASS", "skip": "SKIP"}


def plan_problems(text):
    """Headers and plans against the result lines, top level and nested."""
    problems, blocks = [], [[None, 0]]     # [plan, results] per level
    lines = text.splitlines()
    if not lines or lines[0] != "KTAP version 1":
        problems.append("first line is not 'KTAP version 1'")
    for line in lines:
        depth = 1 if line.startswith("    ") else 0
        body = line.strip()
        if depth == 1 and body == "KTAP version 1":
            blocks.append([None, 0])
        elif re.fullmatch(r"1\.\.\d+", body):
            blocks[-1 if depth else 0][0] = int(body[3:])
        elif re.match(r"(not )?ok \d+", body):
            if depth == 0 and len(blocks) > 1:
                plan, seen = blocks.pop()
                if plan != seen:
                    problems.append(f"{body}: plan {plan}, {seen} results")
            blocks[-1 if depth else 0][1] += 1
    if len(blocks) != 1 or blocks[0][0] != blocks[0][1]:
        problems.append(f"top level: plan {blocks[0][0]}, {blocks[0][1]} "
                        "results" + (", unclosed subtest"
                                     if len(blocks) != 1 else ""))
    return problems


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__.strip().splitlines()[2])
    kunit, expectations, results_dir, kernel = sys.argv[1:5]
    # kunit.py changes to the kernel tree: give it an absolute path.
    tap = os.path.abspath(sys.argv[5] if len(sys.argv) == 6 else
                          os.path.join(results_dir, kernel, "ktap.tap"))
    mine = [r for r in tsv_truth.rows(expectations, results_dir)
            if r[0] == kernel]
    problems = []
    if not mine:
        problems.append(f"no results.tsv rows for {kernel}")
    if not os.path.isfile(tap):
        tsv_truth.finish(problems + [f"no file {tap}"], kernel)
    with tempfile.TemporaryDirectory() as tmp:
        out_json = os.path.join(tmp, "kunit.json")
        run = subprocess.run([sys.executable, kunit, "parse",
                              f"--json={out_json}", tap],
                             capture_output=True, text=True, check=False)
        log = run.stdout + run.stderr
        try:
            with open(out_json) as f:
                top = json.load(f)
        except (OSError, ValueError) as e:
            top = {"sub_groups": []}
            problems.append(f"kunit.py wrote no JSON: {e}")

    with open(tap, errors="replace") as f:
        problems += plan_problems(f.read())
    if "[ERROR]" in log or "Traceback" in log:
        problems += [line for line in log.splitlines()
                     if "[ERROR]" in line or "Traceback" in line]
    want_rc = 0 if all(r[3] in STATUS for r in mine) else 1
    if run.returncode != want_rc:
        problems.append(f"kunit.py parse exit {run.returncode}, want "
                        f"{want_rc}")
    ran = re.search(r"Ran (\d+) tests", log)
    if not ran or int(ran.group(1)) != len(mine):
        problems.append(f"kunit.py: {ran.group(0) if ran else 'no Ran line'}"
                        f", want Ran {len(mine)} tests")

    want = []
    for suite in tsv_truth.first_seen(r[1] for r in mine):
        cases = [(" ".join(t.replace("#", " ").split()),
                  STATUS.get(res, "FAIL"))
                 for k, s, t, res, _w in mine if s == suite]
        want.append((suite, cases))
    got = [(g["name"], [(c["name"], c["status"]) for c in g["test_cases"]])
           for g in top.get("sub_groups", [])]
    if got != want:
        problems.append("kunit.py JSON groups differ from results.tsv")
        gs, ws = dict(got), dict(want)
        for suite in tsv_truth.first_seen([s for s, _ in want + got]):
            if gs.get(suite) != ws.get(suite):
                problems.append(f"suite {suite}: got {gs.get(suite)}, "
                                f"want {ws.get(suite)}")
    tsv_truth.finish(problems, f"ktap {kernel}")


if __name__ == "__main__":
    main()
