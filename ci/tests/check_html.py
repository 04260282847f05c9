#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check matrix.html as a browser saw it (the DOM chromium --dump-dom gave).

Usage: ci/tests/check_html.py EXPECTATIONS RESULTS_DIR DOM_FILE

Wants in table#matrix one column per kernel and one row per test of
results.tsv (both in results.tsv order), each cell's text the text matrix's
label ("pass", "xfail", "fail!", "-" for none) and its class agreeing with
it; one table#steps row per suite; one compat list item per kernel; every
relative link pointing at a file that exists under RESULTS_DIR.
"""
import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote

import tsv_truth


class Dom(HTMLParser):
    """Collects the matrix cells, step rows, compat items and links."""

    def __init__(self):
        super().__init__()
        self.table = None
        self.kernels, self.rows, self.suites = [], {}, []
        self.compat, self.links = [], []
        self.cell = None   # [kernel, class, text] of the open <td>
        self.test = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.table = a.get("id")
        elif tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif self.table == "matrix" and tag == "th" and "data-kernel" in a:
            self.kernels.append(a["data-kernel"])
        elif self.table == "matrix" and tag == "tr" and "data-test" in a:
            self.test = a["data-test"]
            self.rows[self.test] = {}
        elif self.table == "matrix" and tag == "td" and self.test:
            self.cell = [a.get("data-kernel"), a.get("class"), ""]
        elif self.table == "steps" and tag == "tr" and "data-suite" in a:
            self.suites.append(a["data-suite"])
        elif tag == "li" and "data-kernel" in a:
            self.compat.append(a["data-kernel"])

    def handle_endtag(self, tag):
        if tag == "td" and self.cell:
            kernel, cls, text = self.cell
            self.rows[self.test][kernel] = (cls, text.strip())
            self.cell = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell:
            self.cell[2] += data


def css_class(text):
    if text.endswith("!"):
        return "unexpected"
    # An expected skip ("xskip") is a skip, yellow, as junit.xml's
    # <skipped>; other expected non-pass results are blue.
    return {"pass": "pass", "skip": "skip", "xskip": "skip",
            "-": "none"}.get(text, "xfail")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2])
    expectations, results_dir, dom_file = sys.argv[1:]
    rows = tsv_truth.rows(expectations, results_dir)
    dom = Dom()
    with open(dom_file, errors="replace") as f:
        dom.feed(f.read())
    problems = []
    kernels = tsv_truth.first_seen(r[0] for r in rows)
    tests = tsv_truth.first_seen(r[2] for r in rows)
    suites = tsv_truth.first_seen(r[1] for r in rows)
    want = {(t, k): tsv_truth.label(r, w) for k, _s, t, r, w in rows}
    if dom.kernels != kernels:
        problems.append(f"kernel columns {dom.kernels}, want {kernels}")
    if list(dom.rows) != tests:
        problems.append(f"{len(dom.rows)} test rows, want {len(tests)}: "
                        f"{sorted(set(tests) ^ set(dom.rows))[:5]}")
    for t in tests:
        for k in kernels:
            text = want.get((t, k), "-")
            got = dom.rows.get(t, {}).get(k)
            if got != (css_class(text), text):
                problems.append(f"{k} {t}: cell {got}, want "
                                f"{(css_class(text), text)}")
    if dom.suites != suites:
        problems.append(f"step rows {dom.suites}, want {suites}")
    if dom.compat != kernels:
        problems.append(f"compat items {dom.compat}, want {kernels}")
    if not dom.links:
        problems.append("no links")
    for href in dom.links:
        if "://" in href:
            continue
        if not os.path.isfile(os.path.join(results_dir, unquote(href))):
            problems.append(f"link {href}: no such file")
    tsv_truth.finish(problems, dom_file)


if __name__ == "__main__":
    main()
