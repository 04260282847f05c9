# SPDX-License-Identifier: GPL-2.0
"""The text report of a matrix run (ci/report/report.py prints it).

The matrix (tests x kernels, cell labels from ci/report/results.py), one
"unexpected:" line per unexpected cell, the warnings of each kernel's own
headers in module builds (counted, listed), the kernels whose modules
are built with another compiler than their trees name, the accelerators, one
"infrastructure retry:" line per suite run whose first guest died before
its first step, the slowest suite runs with their build, guest and test
seconds, and last "matrix: N passed, M failed".
"""
import results

SLOWEST = 10
KERNEL_WARNINGS = 5


def matrix(cells, kernels):
    tests = results.ordered(c.test for c in cells)
    by_key = {(c.test, c.kernel): c.label for c in cells}
    width = max(len(t) for t in tests)
    cols = [max(len(k), 9) for k in kernels]
    lines = [" ".join(["test".ljust(width)] +
                      [k.ljust(c) for k, c in zip(kernels, cols)])]
    for test in tests:
        lines.append(" ".join([test.ljust(width)] +
                              [by_key.get((test, k), "-").ljust(c)
                               for k, c in zip(kernels, cols)]))
    return lines


def fmt(value):
    return "-" if value is None else f"{value:.1f}"


def slowest(results_dir, cells):
    """The SLOWEST suite runs by build + guest seconds."""
    runs = []
    for kernel, suite in results.ordered((c.kernel, c.suite) for c in cells):
        build, boot, test = (results.seconds(results_dir, kernel, suite, w)
                             for w in ("build", "boot", "test"))
        runs.append(((build or 0) + (boot or 0), kernel, suite, build, boot,
                     test))
    runs.sort(key=lambda r: -r[0])
    lines = ["slowest suite runs (seconds: build, guest, of which tests):"]
    for total, kernel, suite, build, boot, test in runs[:SLOWEST]:
        lines.append(f"  {fmt(total):>7}  {kernel}/{suite}: build "
                     f"{fmt(build)}, guest {fmt(boot)}, tests {fmt(test)}")
    return lines


def kernel_warnings(results_dir, cells):
    """Per kernel, the warnings its own headers gave in module builds:
    not the drivers' (they did not fail the builds), counted and listed."""
    lines = []
    for kernel in results.ordered(c.kernel for c in cells):
        warnings, suites = results.kernel_warnings(results_dir, kernel)
        if not warnings:
            continue
        if not lines:
            lines.append("warnings of the kernels' own headers (not the "
                         "drivers', not failures):")
        lines.append(f"  {kernel}: {len(warnings)} in {suites} suite(s) "
                     f"({kernel}/*/kernel-warnings.log)")
        lines += [f"    {w}" for w in warnings[:KERNEL_WARNINGS]]
        if len(warnings) > KERNEL_WARNINGS:
            lines.append(f"    ... {len(warnings) - KERNEL_WARNINGS} more")
    return lines


def compilers(results_dir, cells):
    """A line per kernel whose modules are built with another compiler
    than the one its tree names (KERNEL_CC_NOTE of its env file: a Debian
    tree naming a gcc this machine lacks)."""
    lines = []
    for kernel in results.ordered(c.kernel for c in cells):
        note = results.kernel_env(results_dir, kernel).get("KERNEL_CC_NOTE")
        if note:
            lines.append(f"compiler: {kernel}: {note}")
    return lines


def report(results_dir, cells):
    """(text, number of unexpected cells)."""
    bad = [c for c in cells if c.unexpected]
    lines = matrix(cells, results.kernels_by_generation(
        results_dir, results.ordered(c.kernel for c in cells)))
    for c in bad:
        lines.append(f"unexpected: {c.kernel} {c.test}: {c.result}, "
                     f"expected {c.want}" +
                     (f" ({c.detail})" if c.detail else ""))
    lines += kernel_warnings(results_dir, cells)
    lines += compilers(results_dir, cells)
    for (name, why), n in results.accels(results_dir, cells).items():
        lines.append(f"guest accelerator: {name} ({n} suite runs)" +
                     (f": {why}" if why else ""))
    for run, why in results.retries(results_dir, cells):
        lines.append(f"infrastructure retry: {run}: {results.retry_note(why)}")
    harness = results.ordered(f"{c.kernel}/{c.suite}" for c in cells
                              if c.test.endswith("/harness"))
    if harness:
        lines.append("harness errors on: " + " ".join(harness))
    lines += slowest(results_dir, cells)
    lines.append(f"matrix: {len(cells) - len(bad)} passed, {len(bad)} failed")
    return "\n".join(lines) + "\n", len(bad)
