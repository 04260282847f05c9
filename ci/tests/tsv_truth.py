# SPDX-License-Identifier: GPL-2.0
"""What the report files must say, read straight from results.tsv.

The checks in ci/tests/ compare each report file with these rows: one place
for "what the results are", kept apart from the writers (ci/report/report_*.py).
It reads results.tsv through the format's one reader (results.load_rows)
on purpose: what it checks is the writers, and the reader has tests of
its own with literal rows (ci/tests/unit/test_formats.py). What it does
re-derive, independently of the writers, is each cell's label.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "report"))
import results  # noqa: E402  (ci/report/results.py)


def rows(expectations, results_dir):
    """(kernel, suite, test, result, want) per results.tsv row."""
    found = results.load_rows(results_dir)
    if not found:
        sys.exit(f"error: no results.tsv rows under {results_dir}")
    rules = results.rules_for(expectations, results_dir,
                              first_seen(r[0] for r in found))
    return [(k, s, t, r, results.expected(rules, k, t))
            for k, s, t, r, _detail in found]


def label(result, want):
    """The text matrix's cell text (see ci/report/results.py)."""
    if result != want:
        return result + "!"
    return result if want == "pass" else "x" + result


def generation_order(results_dir, kernels):
    """KERNELS as the reports order them. Not re-derived here: the order
    is results.kernels_by_generation over matrix_plan.kernel_version, the
    one reader of kernel versions, and ci/tests/unit/test_formats.py holds
    its expected orders literally; a check here verifies that a writer
    used it."""
    return results.kernels_by_generation(results_dir, kernels)


def first_seen(values):
    return list(dict.fromkeys(values))


def finish(problems, what):
    """Print the verdict of one check; exit 1 on any problem."""
    for p in problems[:20]:
        print(f"# {what}: {p}")
    if len(problems) > 20:
        print(f"# {what}: ... {len(problems) - 20} more")
    sys.exit(1 if problems else 0)
