#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Report a matrix run: print the text report and write the report files.

Usage: ci/report/report.py EXPECTATIONS RESULTS_DIR

Reads and judges every results.tsv under RESULTS_DIR once (ci/report/results.py),
prints the text matrix, the unexpected cells, the slowest suite runs and
"matrix: N passed, M failed" (ci/report/report_text.py), and writes (README
"Reports"):
  RESULTS_DIR/<kernel>/console.log   ci/report/report_console.py
  RESULTS_DIR/<kernel>/ktap.tap      ci/report/report_ktap.py
  RESULTS_DIR/junit.xml              ci/report/report_junit.py
  RESULTS_DIR/matrix.html            ci/report/report_html.py
Exit status 1 on any unexpected cell.
"""
import sys

import report_console
import report_html
import report_junit
import report_ktap
import report_text
import results


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: report.py EXPECTATIONS RESULTS_DIR")
    expectations, results_dir = sys.argv[1:]
    cells = results.load_cells(expectations, results_dir)
    for writer in (report_console, report_ktap, report_junit, report_html):
        writer.write(results_dir, cells)
    text, bad = report_text.report(results_dir, cells)
    sys.stdout.write(text)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
