#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a junit.xml against the results.tsv rows it was made from.

Usage: ci/tests/check_junit.py EXPECTATIONS RESULTS_DIR [JUNIT_XML]

Wants a well-formed file (JUNIT_XML defaults to RESULTS_DIR/junit.xml) with
<testsuites> holding one <testsuite name=KERNEL> per kernel in results.tsv
order; per kernel its rows as <testcase classname=SUITE name=TEST>, in
order, with <failure> exactly on the unexpected ones (ci/report/report.py's
verdict) and <skipped> on expected skips; tests, failures, skipped and
errors attributes equal to what the elements and rows count.
"""
import os
import sys
import xml.etree.ElementTree as ET

import tsv_truth


def verdict(result, want):
    if result != want:
        return "failure"
    return "skipped" if result == "skip" else "passed"


def case_verdict(case):
    kinds = [c.tag for c in case if c.tag in ("failure", "error", "skipped")]
    return kinds[0] if len(kinds) == 1 else "passed" if not kinds else \
        "+".join(kinds)


def count(elem, attr):
    try:
        return int(elem.get(attr, ""))
    except ValueError:
        return None


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[2])
    expectations, results_dir = sys.argv[1:3]
    path = sys.argv[3] if len(sys.argv) == 4 else \
        os.path.join(results_dir, "junit.xml")
    rows = tsv_truth.rows(expectations, results_dir)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        tsv_truth.finish([f"not readable XML: {e}"], path)
    problems = []
    if root.tag != "testsuites":
        problems.append(f"root is <{root.tag}>, want <testsuites>")
    cases = root.findall("testsuite/testcase")
    fails = root.findall("testsuite/testcase/failure")
    if count(root, "tests") != len(rows) or len(cases) != len(rows):
        problems.append(f"tests={root.get('tests')}, {len(cases)} "
                        f"testcases, {len(rows)} results.tsv rows")
    bad = sum(r != w for _k, _s, _t, r, w in rows)
    if count(root, "failures") != bad or len(fails) != bad:
        problems.append(f"failures={root.get('failures')}, {len(fails)} "
                        f"<failure>, {bad} unexpected rows")

    kernels = tsv_truth.first_seen(r[0] for r in rows)
    suites = root.findall("testsuite")
    if [s.get("name") for s in suites] != kernels:
        problems.append(f"testsuites {[s.get('name') for s in suites]}, "
                        f"kernels {kernels}")
    for suite in suites:
        kernel = suite.get("name")
        want = [(s, t, verdict(r, w)) for k, s, t, r, w in rows
                if k == kernel]
        got = [(c.get("classname"), c.get("name"), case_verdict(c))
               for c in suite.findall("testcase")]
        if got != want:
            diff = [f"got {g}, want {w}" for g, w in zip(got, want)
                    if g != w] or [f"{len(got)} testcases, {len(want)} rows"]
            problems += [f"{kernel}: {d}" for d in diff[:3]]
        for attr, n in (("tests", len(got)),
                        ("failures", sum(v == "failure" for *_, v in got)),
                        ("skipped", sum(v == "skipped" for *_, v in got)),
                        ("errors", 0)):
            if count(suite, attr) != n:
                problems.append(f"{kernel}: {attr}={suite.get(attr)}, "
                                f"counted {n}")
    tsv_truth.finish(problems, path)


if __name__ == "__main__":
    main()
