# SPDX-License-Identifier: GPL-2.0
"""Judged results of one matrix run, shared by the report writers.

Each results.tsv row becomes a Cell judged the way ci/report.py judges it:
expected result from ci/expectations, a label ("pass", "xfail", "fail!"...)
and whether it is unexpected. Also small helpers: per-kernel and per-suite
files, and write_atomic (tmp file + rename, so no partial writes).
"""
import os
import sys
from collections import namedtuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (ci/report.py: expectations and results.tsv)

Cell = namedtuple("Cell", "kernel suite test result detail want label "
                          "unexpected")


def load_cells(expectations, results_dir):
    """Every results.tsv row under results_dir, judged, in report order."""
    if not os.path.isdir(results_dir):
        sys.exit(f"error: no results directory {results_dir}")
    rules = report.load_expectations(expectations)
    rows = report.load_results(results_dir)
    if not rows:
        sys.exit(f"error: no results.tsv rows under {results_dir}")
    cells = []
    for kernel, suite, test, result, detail in rows:
        want = report.expected(rules, kernel, test)
        if result == want:
            label = result if want == "pass" else "x" + result
        else:
            label = result + "!"
        cells.append(Cell(kernel, suite, test, result, detail, want, label,
                          result != want))
    return cells


def ordered(values):
    """values without repeats, first-seen order."""
    return list(dict.fromkeys(values))


def read_text(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except (FileNotFoundError, NotADirectoryError):
        return default


def compat_macros(results_dir, kernel):
    """Names X of '#define MNCOMPAT_HAVE_X 1' in the kernel's config."""
    text = read_text(os.path.join(results_dir, kernel, "compat",
                                  "mncompat_config.h"))
    macros = []
    for line in text.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == "#define" and words[2] == "1" \
                and words[1].startswith("MNCOMPAT_HAVE_"):
            macros.append(words[1][len("MNCOMPAT_HAVE_"):])
    return macros


def write_atomic(path, text):
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
