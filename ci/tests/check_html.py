#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check matrix.html as a browser saw it (the DOM chromium --dump-dom gave).

Usage: ci/tests/check_html.py EXPECTATIONS RESULTS_DIR DOM_FILE

Wants the kernels in the order of the generation each stands for
(kernel.env's KERNEL_GENERATION, the user's rows last): in table#kernels one
row each with its pass / expected non-pass / skip / unexpected counts, in
table#matrix one column each, and one row per test of results.tsv (in
results.tsv order), each cell's text the text matrix's label ("pass",
"xfail", "fail!", "-" for none) and its class agreeing with it; in
table#story every "KERNEL/SUITE: N pass, M expected non-pass" the counts of
that suite run; one table#steps row per suite; one compat list item per
kernel; every relative link pointing at a file that exists under
RESULTS_DIR.
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
        self.counts = {}   # table#kernels: kernel -> its <td> texts
        self.krow = None
        self.story = []    # table#story: the text of each <span>
        self.span = None

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
        elif self.table == "kernels" and tag == "tr" and "data-kernel" in a:
            self.krow = a["data-kernel"]
            self.counts[self.krow] = []
        elif self.table == "kernels" and tag == "td" and self.krow:
            self.counts[self.krow].append("")
        elif self.table == "story" and tag == "span":
            self.span = ""

    def handle_endtag(self, tag):
        if tag == "span" and self.span is not None:
            self.story.append(self.span)
            self.span = None
        if tag == "td" and self.cell:
            kernel, cls, text = self.cell
            self.rows[self.test][kernel] = (cls, text.strip())
            self.cell = None
        elif tag == "table":
            self.table = self.krow = None

    def handle_data(self, data):
        if self.cell:
            self.cell[2] += data
        if self.krow and self.counts[self.krow]:
            self.counts[self.krow][-1] += data
        if self.span is not None:
            self.span += data


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
    kernels = tsv_truth.generation_order(
        results_dir, tsv_truth.first_seen(r[0] for r in rows))
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
    if list(dom.counts) != kernels:
        problems.append(f"kernel summary rows {list(dom.counts)}, "
                        f"want {kernels}")
    for k in kernels:
        mine = [(r, w) for rk, _s, _t, r, w in rows if rk == k]
        want_counts = [
            sum(r == w == "pass" for r, w in mine),
            sum(r == w and r not in ("pass", "skip") for r, w in mine),
            sum(r == w == "skip" for r, w in mine),
            sum(r != w for r, w in mine)]
        got = dom.counts.get(k, [])[1:5]
        if got != [str(n) for n in want_counts]:
            problems.append(f"{k}: summary counts {got}, want {want_counts}")
    for text in dom.story:
        run, _, rest = text.partition(": ")
        k, _, s = run.partition("/")
        mine = [(r, w) for rk, rs, _t, r, w in rows if (rk, rs) == (k, s)]
        want_text = (f"{sum(r == w == 'pass' for r, w in mine)} pass, "
                     f"{sum(r == w and r not in ('pass', 'skip') for r, w in mine)}"
                     " expected non-pass")
        if not mine or not rest.startswith(want_text):
            problems.append(f"story {text!r}: want {run}: {want_text}")
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
