# SPDX-License-Identifier: GPL-2.0
"""RESULTS_DIR/matrix.html: the matrix as one self-contained page.

Kernels in the order of the generation each stands for (pre-4.11 ->
4.12 -> 4.13 -> ... -> 6.12, the user's rows last). Tables: per kernel its
generation and counts; the B1-B4 story (the suite runs that show each 2017
bug before and after); tests x kernels (cell text = the text matrix's
label, colour by class: pass, xfail (expected non-pass, seen), skip,
unexpected, none);
per suite and kernel the build, guest and test seconds, guest status and
accelerator (and why it was chosen); each kernel's behaviours and the
compat macros it got.
Links go to RESULTS_DIR/<kernel>/console.log, ktap.tap and each suite's
console.log (relative, so the folder can move).
Inline CSS, no scripts.
"""
import html
import os
from urllib.parse import quote

import results

CSS = """
body { font-family: sans-serif; margin: 1em; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
th, td { border: 1px solid #999; padding: 2px 6px; text-align: left; }
th { background: #eee; }
td.pass { background: #b7e1b0; }
td.xfail { background: #cfd8f0; }
td.skip { background: #f3e7a6; }
td.unexpected { background: #f08a80; font-weight: bold; }
td.none { background: #fff; color: #999; }
span.pass { background: #b7e1b0; }
span.xfail { background: #cfd8f0; }
span.skip { background: #f3e7a6; }
span.unexpected { background: #f08a80; font-weight: bold; }
.legend span { padding: 2px 6px; margin-right: 4px; border: 1px solid #999; }
"""


def cell_class(cell):
    if cell is None:
        return "none"
    if cell.unexpected:
        return "unexpected"
    if cell.result == "pass":
        return "pass"
    if cell.result == "skip":
        return "skip"
    return "xfail"


def esc(text):
    return html.escape(str(text), quote=True)


def link(path, text):
    return f'<a href="{esc(quote(path))}">{esc(text)}</a>'


def seconds(results_dir, kernel, suite, what):
    value = results.seconds(results_dir, kernel, suite, what)
    return "-" if value is None else f"{value:.1f} s"


def matrix_table(cells, kernels, tests):
    by_key = {(c.test, c.kernel): c for c in cells}
    out = ['<table id="matrix">', "<tr><th>test</th>"]
    for k in kernels:
        out.append(f'<th data-kernel="{esc(k)}">{esc(k)}<br>'
                   f'{link(k + "/console.log", "console")} '
                   f'{link(k + "/ktap.tap", "ktap")}</th>')
    out.append("</tr>")
    for t in tests:
        out.append(f'<tr data-test="{esc(t)}"><th>{esc(t)}</th>')
        for k in kernels:
            c = by_key.get((t, k))
            title = ""
            if c is not None:
                why = f"{c.result}, expected {c.want}" + \
                    (f": {c.detail}" if c.detail else "")
                title = f' title="{esc(why)}"'
            out.append(f'<td class="{cell_class(c)}" data-kernel="{esc(k)}"'
                       f'{title}>{esc("-" if c is None else c.label)}</td>')
        out.append("</tr>")
    out.append("</table>")
    return out


def steps_table(results_dir, cells, kernels):
    suites = results.ordered(c.suite for c in cells)
    ran = {(c.suite, c.kernel) for c in cells}
    out = ['<table id="steps">', "<tr><th>suite</th>"]
    out += [f"<th>{esc(k)}</th>" for k in kernels]
    out.append("</tr>")
    for s in suites:
        out.append(f'<tr data-suite="{esc(s)}"><th>{esc(s)}</th>')
        for k in kernels:
            if (s, k) not in ran:
                out.append('<td class="none">-</td>')
                continue
            status = results.read_text(
                os.path.join(results_dir, k, s, "status")).strip() or \
                "no boot"
            console = f"{k}/{s}/console.log"
            accel = results.accel(results_dir, k, s)
            if accel:
                status += f", {accel[0]}"
            out.append(
                f"<td>build {esc(seconds(results_dir, k, s, 'build'))}"
                f", guest {esc(seconds(results_dir, k, s, 'boot'))}"
                f" (tests {esc(seconds(results_dir, k, s, 'test'))})"
                f", {esc(status)} " +
                (link(console, "console") if os.path.isfile(
                    os.path.join(results_dir, console)) else "no console") +
                "</td>")
        out.append("</tr>")
    out.append("</table>")
    return out


def behaviour_list(results_dir, kernels):
    """Each kernel's behaviours (ci/kernels/behaviours.md) and where they
    come from, as its kernel.env has them."""
    out = ['<ul id="behaviours">']
    for k in kernels:
        env = results.kernel_env(results_dir, k)
        words = env.get("KERNEL_BEHAVIOURS", "")
        out.append(f'<li data-behaviours-of="{esc(k)}"><b>{esc(k)}</b>: '
                   f'{esc(words or "(none known)")} '
                   f'<i>{esc(env.get("KERNEL_BEHAVIOUR_SOURCE", ""))}</i>'
                   '</li>')
    out.append("</ul>")
    return out


def compat_list(results_dir, kernels):
    out = ['<ul id="compat">']
    for k in kernels:
        macros = results.compat_macros(results_dir, k)
        out.append(f'<li data-kernel="{esc(k)}"><b>{esc(k)}</b>: '
                   f'{esc(" ".join(macros) or "(none found)")}</li>')
    out.append("</ul>")
    return out


# The 2017 bugs (README "Re-created kernels"): the suite runs that show
# each one before (must fail, as ci/report/expectations says) and after (pass).
STORY = [
    ("B1", "invalidate_page that sleeps (a mutex), called under the "
     "page-table lock since 4.11",
     [("pre413-6.1", "b1-sleeping-invalidate-page")],
     [("pre411-6.1", "b1-sleeping-invalidate-page"),
      ("fix413-6.1", "b1-sleeping-invalidate-page")]),
    ("B2", "a driver converted to range callbacks without compat, on a "
     "kernel that still calls invalidate_page",
     [("pre413-6.1", "b2-b3-converted-no-compat")],
     [("pre413-6.1", "b2-b3-with-compat"),
      ("fix413-6.1", "b2-b3-converted-no-compat")]),
    ("B3", "invalidate_page that assumes 4 KiB pages, on a PMD-mapped THP",
     [("pre413-6.1", "b3-legacy-4k-invalidate-page")],
     [("fix413-6.1", "b2-b3-converted-no-compat"),
      ("pre413-6.1", "b2-b3-with-compat")]),
    ("B4", "the OOM reaper unmapping without notifiers",
     [("oomreap-6.1", "b4-oom-reaper")],
     [("oomfix-6.1", "b4-oom-reaper"), ("deb-6.12", "b4-oom-reaper")]),
]


def counts(cells):
    """(pass, expected non-pass, skip, unexpected) of CELLS."""
    return (sum(c.result == "pass" and not c.unexpected for c in cells),
            sum(c.result not in ("pass", "skip") and not c.unexpected
                for c in cells),
            sum(c.result == "skip" and not c.unexpected for c in cells),
            sum(c.unexpected for c in cells))


def verdict_class(cells):
    passed, xfail, _, bad = counts(cells)
    if bad:
        return "unexpected"
    return "xfail" if xfail else "pass" if passed else "skip"


def kernels_table(results_dir, cells, kernels):
    out = ['<table id="kernels">', "<tr><th>kernel</th><th>generation</th>"
           "<th>pass</th><th>expected non-pass</th><th>skip</th>"
           "<th>unexpected</th><th>accelerator</th></tr>"]
    for k in kernels:
        mine = [c for c in cells if c.kernel == k]
        env = results.kernel_env(results_dir, k)
        generation = env.get("KERNEL_GENERATION", "?")
        if env.get("KERNEL_PATCHES", "-") != "-":
            generation += f" (re-created: {env['KERNEL_PATCHES']})"
        elif env.get("KERNEL_KIND") == "user":
            generation += " (your kernel)"
        if env.get("KERNEL_CC_NOTE"):
            generation += f" (modules {env['KERNEL_CC_NOTE']})"
        accel = " ".join(results.ordered(
            a[0] for a in (results.accel(results_dir, k, s) for s in
                           results.ordered(c.suite for c in mine)) if a))
        out.append(f'<tr data-kernel="{esc(k)}"><th>{esc(k)}</th>'
                   f"<td>{esc(generation)}</td>" +
                   "".join(f"<td>{n}</td>" for n in counts(mine)) +
                   f'<td>{esc(accel or "-")}</td></tr>')
    out.append("</table>")
    return out


def story_table(cells):
    by_run = {}
    for c in cells:
        by_run.setdefault((c.kernel, c.suite), []).append(c)
    out = ['<table id="story">', "<tr><th>bug</th><th>what</th>"
           "<th>before: must fail</th><th>after: fixed</th></tr>"]
    for bug, what, before, after in STORY:
        if not any(run in by_run for run in before + after):
            continue
        sides = []
        for runs in (before, after):
            parts = []
            for kernel, suite in runs:
                mine = by_run.get((kernel, suite))
                if not mine:
                    continue
                passed, xfail, skip, bad = counts(mine)
                parts.append(
                    f'<span class="{verdict_class(mine)}">{esc(kernel)}/'
                    f"{esc(suite)}: {passed} pass, {xfail} expected "
                    f"non-pass{f', {skip} skip' if skip else ''}"
                    f"{f', {bad} UNEXPECTED' if bad else ''}</span>")
            sides.append("<br>".join(parts) or "not run")
        out.append(f'<tr data-bug="{esc(bug)}"><th>{esc(bug)}</th>'
                   f"<td>{esc(what)}</td><td>{sides[0]}</td>"
                   f"<td>{sides[1]}</td></tr>")
    out.append("</table>")
    return out


def page(results_dir, cells):
    kernels = results.kernels_by_generation(
        results_dir, results.ordered(c.kernel for c in cells))
    tests = results.ordered(c.test for c in cells)
    bad = sum(c.unexpected for c in cells)
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>mncompat matrix</title>", f"<style>{CSS}</style>",
           "</head><body>", "<h1>mncompat matrix</h1>",
           f'<p id="summary">matrix: {len(cells) - bad} passed, {bad} failed'
           "</p>",
           '<p class="legend"><span style="background:#b7e1b0">pass</span>'
           '<span style="background:#cfd8f0">xfail, xsplat, xtimeout: '
           'expected non-pass, seen</span><span style="background:#f3e7a6">skip</span>'
           '<span style="background:#f08a80">unexpected (!)</span></p>',
           "<h2>Kernels, by the generation each stands for</h2>"]
    out += kernels_table(results_dir, cells, kernels)
    out.append("<h2>The 2017 bugs: before and after</h2>")
    out += story_table(cells)
    out.append("<h2>Tests</h2>")
    out += matrix_table(cells, kernels, tests)
    out.append("<h2>Suites: build, guest and test seconds, guest status, "
               "accelerator</h2>")
    out += steps_table(results_dir, cells, kernels)
    out.append('<ul id="accel">')
    for (name, why), n in results.accels(results_dir, cells).items():
        out.append(f"<li><b>{esc(name)}</b> ({n} suite runs)"
                   f"{': ' + esc(why) if why else ''}</li>")
    out.append("</ul>")
    out.append("<h2>Kernel behaviours (ci/kernels/behaviours.md)</h2>")
    out += behaviour_list(results_dir, kernels)
    out.append("<h2>Compat macros detected (MNCOMPAT_HAVE_*)</h2>")
    out += compat_list(results_dir, kernels)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(results_dir, cells):
    results.write_atomic(os.path.join(results_dir, "matrix.html"),
                         page(results_dir, cells))
