# SPDX-License-Identifier: GPL-2.0
"""RESULTS_DIR/<kernel>/ktap.tap: one KTAP v1 document per kernel.

The document has one subtest per suite; each suite is a nested KTAP
document with one line per results.tsv row:
  pass                     ok N name
  skip                     ok N name # SKIP detail
  fail, splat, timeout     not ok N name # <result>: detail
An expected non-pass result stays "not ok" (the test did fail) and says so
with the XFAIL directive: "not ok N name # XFAIL expected <result>: detail".
A suite is "ok" when none of its lines is "not ok". kunit.py parse reads
these files; it exits 1 on any "not ok", expected or not.
"""
import os

import results


def clean(text):
    """KTAP has no escaping: '#' starts the directive, lines are lines;
    control characters go too."""
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(text.replace("#", " ").split())


def result_line(n, cell):
    # The full SUITE/STEP/TEST: kunit.py takes a subtest named like its
    # suite (step "hang" of suite "hang") for the suite's own result line.
    name = clean(cell.test) or "unnamed"
    detail = clean(cell.detail)
    if cell.result == "pass":
        note = "" if not cell.unexpected else \
            f"unexpected pass, expected {cell.want}"
        return f"ok {n} {name}" + (f" # {note}" if note else "")
    if cell.result == "skip":
        return f"ok {n} {name} # SKIP" + (f" {detail}" if detail else "")
    if cell.unexpected:
        directive = "TIMEOUT " if cell.result == "timeout" else ""
        note = f"{directive}{cell.result}"
    else:
        note = f"XFAIL expected {cell.result}"
    return f"not ok {n} {name} # {note}" + (f": {detail}" if detail else "")


def kernel_document(kernel, cells):
    suites = results.ordered(c.suite for c in cells)
    out = ["KTAP version 1", f"# mncompat kernel {kernel}",
           f"1..{len(suites)}"]
    for i, suite in enumerate(suites, 1):
        mine = [c for c in cells if c.suite == suite]
        out += ["    KTAP version 1", f"    # Subtest: {clean(suite)}",
                f"    1..{len(mine)}"]
        out += ["    " + result_line(n, c) for n, c in enumerate(mine, 1)]
        failed = any(c.result not in ("pass", "skip") for c in mine)
        out.append(f"{'not ok' if failed else 'ok'} {i} {clean(suite)}")
    return "\n".join(out) + "\n"


def write(results_dir, cells):
    for kernel in results.ordered(c.kernel for c in cells):
        results.write_atomic(
            os.path.join(results_dir, kernel, "ktap.tap"),
            kernel_document(kernel, [c for c in cells if c.kernel == kernel]))
