# SPDX-License-Identifier: GPL-2.0
"""The report code (ci/report/results.py and every writer) on recorded runs.

Each folder of ci/tests/data/runs/ is the results of some kernels of a real
matrix run (ci/tests/record-run.sh) with the expectations it was judged
by (or, with a results-of file, the results of another run under
expectations of its own: debian-unexpected has unexpected cells). The
writers run on a copy and must give, byte for byte, what
runs/NAME/expected/ holds: the text report and its verdict, each kernel's
ktap.tap and console.log, junit.xml and matrix.html. The suite lines
(ci/report/results.py suite-line) are compared too. After an intended
change of a report, `ci/tests/unit/run.sh --update` writes expected/ anew:
read its diff before committing it.
"""
import os
import shutil
import tempfile
import unittest

from unit_data import DATA, report_module, update_wanted

results = report_module("results")
WRITERS = [report_module(n) for n in ("report_console", "report_ktap",
                                      "report_junit", "report_html")]
report_text = report_module("report_text")
RUNS = os.path.join(DATA, "runs")


def outputs(run_dir, tmp):
    """{relative path: text} of everything the reports make of RUN_DIR."""
    res = os.path.join(tmp, "results")
    shutil.copytree(os.path.join(results_of(run_dir), "results"), res)
    cells = results.load_cells(os.path.join(run_dir, "expectations"), res)
    for writer in WRITERS:
        writer.write(res, cells)
    text, bad = report_text.report(res, cells)
    made = {"report.txt": text, "verdict": f"{'fail' if bad else 'pass'}\n"}
    lines = []
    for kernel in results.ordered(c.kernel for c in cells):
        for name in ("ktap.tap", "console.log"):
            made[f"{kernel}/{name}"] = read(os.path.join(res, kernel, name))
        for suite in results.ordered(c.suite for c in cells
                                     if c.kernel == kernel):
            sdir = os.path.join(res, kernel, suite)
            lines.append(f"{kernel}/{suite}: "
                         f"{results.suite_line(sdir, boot_of(sdir))}\n")
    made["suite-lines"] = "".join(lines)
    for name in ("junit.xml", "matrix.html"):
        made[name] = read(os.path.join(res, name))
    return {path: text.replace(res + "/", "RESULTS/")
            for path, text in made.items()}


def results_of(run_dir):
    """The run whose results RUN_DIR judges: its own, or those of the run
    its results-of file names (the same results under other expectations)."""
    other = os.path.join(run_dir, "results-of")
    if os.path.exists(other):
        return os.path.join(RUNS, read(other).strip())
    return run_dir


def boot_of(sdir):
    """A boot folder for the suite's line: its status, and its own limit
    (boot.conf's timeout_s) as the boot's timeout."""
    boot = os.path.join(sdir, ".boot")
    os.makedirs(boot)
    shutil.copy(os.path.join(sdir, "status"), boot)
    conf = results.read_text(os.path.join(sdir, "boot.conf"))
    limit = [line.split("=", 1)[1] for line in conf.splitlines()
             if line.startswith("timeout_s=")]
    with open(os.path.join(boot, "timeout"), "w") as f:
        f.write((limit or [""])[0] + "\n")
    return boot


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class RecordedRuns(unittest.TestCase):
    """One test per recorded run (added below)."""

    def replay(self, name):
        run_dir = os.path.join(RUNS, name)
        want_dir = os.path.join(run_dir, "expected")
        with tempfile.TemporaryDirectory() as tmp:
            made = outputs(run_dir, tmp)
        if update_wanted():
            for path, text in made.items():
                os.makedirs(os.path.dirname(os.path.join(want_dir, path)),
                            exist_ok=True)
                with open(os.path.join(want_dir, path), "w") as f:
                    f.write(text)
        for path, text in sorted(made.items()):
            self.assertEqual(text, read(os.path.join(want_dir, path)),
                             f"{name}: {path}")


def _add(name):
    def test(self):
        self.replay(name)
    test.__doc__ = f"the reports of the recorded run {name}"
    setattr(RecordedRuns, "test_" + name.replace("-", "_"), test)


for _name in sorted(os.listdir(RUNS)):
    _add(_name)
