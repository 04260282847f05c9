#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the matrix (tests x kernels) from results.tsv files and judge it.

Usage: ci/report.py EXPECTATIONS RESULTS_DIR

EXPECTATIONS has lines "KERNEL_GLOB TEST_GLOB RESULT [why]"; the first line
that matches a (kernel, test) gives the expected result, else "pass". A cell
whose result differs from its expectation is unexpected (marked "!"), and
any unexpected cell makes the exit status 1. A cell that is expected to be
something else than pass and is, shows as "xfail", "xsplat", "xtimeout".
"""
import fnmatch
import os
import sys


def load_expectations(path):
    rules = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) < 3:
                sys.exit(f"{path}:{n}: want 'KERNEL_GLOB TEST_GLOB RESULT'")
            rules.append((line[0], line[1], line[2]))
    return rules


def expected(rules, kernel, test):
    for kglob, tglob, result in rules:
        if fnmatch.fnmatchcase(kernel, kglob) and \
                fnmatch.fnmatchcase(test, tglob):
            return result
    return "pass"


def load_results(root):
    rows = []
    for dirpath, _, files in sorted(os.walk(root)):
        if "results.tsv" in files:
            with open(os.path.join(dirpath, "results.tsv")) as f:
                for line in f:
                    fields = line.rstrip("\n").split("\t")
                    if len(fields) == 5:
                        rows.append(fields)
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: report.py EXPECTATIONS RESULTS_DIR")
    rules = load_expectations(sys.argv[1])
    rows = load_results(sys.argv[2])
    if not rows:
        sys.exit(f"no results under {sys.argv[2]}")

    kernels, tests, cells = [], [], {}
    good = bad = 0
    problems = []
    for kernel, _suite, test, result, detail in rows:
        if kernel not in kernels:
            kernels.append(kernel)
        if test not in tests:
            tests.append(test)
        want = expected(rules, kernel, test)
        if result == want:
            good += 1
            cell = result if want == "pass" else "x" + result
        else:
            bad += 1
            cell = result + "!"
            problems.append(f"{kernel} {test}: {result}, expected {want}"
                            + (f" ({detail})" if detail else ""))
        cells[(test, kernel)] = cell

    width = max(len(t) for t in tests)
    cols = [max(len(k), 9) for k in kernels]
    print("test".ljust(width), *(k.ljust(c) for k, c in zip(kernels, cols)))
    for test in tests:
        print(test.ljust(width),
              *(cells.get((test, k), "-").ljust(c)
                for k, c in zip(kernels, cols)))
    for p in problems:
        print("unexpected:", p)
    print(f"matrix: {good} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
