# SPDX-License-Identifier: GPL-2.0
"""The results of one matrix run, judged: the one place that reads and
writes results.tsv files (the format: above suite_rows) and reads
ci/report/expectations (ci/report/report.py and its writers use it).

EXPECTATIONS has lines "KERNEL_GLOB TEST_GLOB RESULT [why]"; the first line
that matches a (kernel, test) gives the expected result, else "pass".
KERNEL_GLOB may be a behaviour, NAME=VALUE (ci/kernels/behaviours.md): the
line is then for the kernels whose kernel.env has it in KERNEL_BEHAVIOURS. A
kernel whose row says it lacks a feature (lacks=..., ci/kernels/lacks.list) is
expected to skip that feature's tests, before any EXPECTATIONS line. A
test that skips because the kernel predates an API it names, as "no API
(X.Y+)", is expected to skip on a kernel whose release is older than X.Y,
whatever the other lines say (it cannot run there). A cell
whose result differs from its expectation is unexpected (label "fail!"); one
that is expected to be something else than pass and is, is labelled
"xfail", "xsplat", "xtimeout".
"""
import fnmatch
import os
import re
import sys
from collections import namedtuple

# The matrix plan (ci/matrix_plan.py) is one folder up.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
import matrix_plan  # noqa: E402
from matrix_plan import write_atomic  # noqa: E402,F401

Cell = namedtuple("Cell", "kernel suite test result detail want label "
                          "unexpected")


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


def behaviour_rules(results_dir, kernels, rules):
    """RULES with each line whose kernel glob is a behaviour (NAME=VALUE)
    made one line per kernel of KERNELS that has it, in place (first match
    still wins). A behaviour no kernel can have is an error."""
    words = {}
    for k in kernels:
        words[k] = kernel_env(results_dir, k).get("KERNEL_BEHAVIOURS",
                                                  "").split()
    out = []
    for kglob, tglob, result in rules:
        if "=" not in kglob:
            out.append((kglob, tglob, result))
            continue
        if kglob not in matrix_plan.behaviours.words():
            sys.exit(f"error: expectations: {kglob}: not a behaviour of "
                     "ci/kernels/behaviours.py")
        out += [(k, tglob, result) for k in kernels if kglob in words[k]]
    return out


def rules_for(expectations, results_dir, kernels):
    """Every rule that judges KERNELS: what their rows say they lack, then
    EXPECTATIONS, behaviour lines made kernel lines."""
    return lacks_rules(results_dir, kernels) + behaviour_rules(
        results_dir, kernels, load_expectations(expectations))


def kernel_env(results_dir, kernel):
    """The KEY=VALUE lines of RESULTS_DIR/KERNEL/kernel.env, a copy of the
    kernel's env file (ci/boot_group.py), as a dict."""
    return matrix_plan.read_env(os.path.join(results_dir, kernel,
                                             "kernel.env"))


def lacks_rules(results_dir, kernels, lacks_list=matrix_plan.LACKS_LIST):
    """Rules "KERNEL TEST_GLOB skip" for the features each kernel lacks
    (its row's lacks=..., ci/kernels/lacks.list read by
    matrix_plan.read_lacks): they come before the others."""
    try:
        globs = matrix_plan.read_lacks(lacks_list)
    except matrix_plan.ModelError as e:
        sys.exit(f"error: {e}")
    rules = []
    for kernel in kernels:
        for feature in kernel_env(results_dir, kernel).get(
                "KERNEL_LACKS", "").split():
            for tglob in globs.get(feature, []):
                rules.append((kernel, tglob, "skip"))
    return rules


# A guest test that skips because the kernel predates an API says so as
# "no API (X.Y+)" (mirror.swap_out: "no MADV_PAGEOUT (5.4+) in this
# kernel"): on a kernel older than X.Y that skip is what is expected.
API_SKIP = re.compile(r"\bno (\S+) \(([0-9]+\.[0-9]+)\+\)")


def release_of(results_dir, kernel):
    """The kernel's release (KERNEL_RELEASE, read from its build tree) as
    matrix_plan.kernel_version reads it, or None."""
    return matrix_plan.kernel_version(kernel_env(results_dir, kernel).get(
        "KERNEL_RELEASE", ""))


def predates_api(release, detail):
    """Does a skip with this detail name an API newer than release (a
    matrix_plan.kernel_version)?"""
    m = API_SKIP.search(detail)
    return bool(m and release and
                release < matrix_plan.kernel_version(m.group(2)))


def kernels_by_generation(results_dir, kernels):
    """KERNELS in the order of the generation each stands for (its env's
    KERNEL_GENERATION: a re-created kernel's is its series', any other's
    its release's; ci/kernels/prepare-kernel.sh), compared as
    matrix_plan.kernel_version reads them (one without a generation
    after those with one), the user's rows last, then by name: pre411 ->
    pre413 -> fix413 -> oomreap -> oomfix -> 6.1 -> 6.12."""
    def key(kernel):
        env = kernel_env(results_dir, kernel)
        gen = matrix_plan.kernel_version(env.get("KERNEL_GENERATION", ""))
        return (env.get("KERNEL_KIND") == "user", gen is None, gen or (),
                kernel)
    return sorted(kernels, key=key)


def expected(rules, kernel, test):
    for kglob, tglob, result in rules:
        if fnmatch.fnmatchcase(kernel, kglob) and \
                fnmatch.fnmatchcase(test, tglob):
            return result
    return "pass"


# results.tsv, one per suite run (RESULTS_DIR/KERNEL/SUITE/results.tsv),
# holds a line per row, five fields split by TABs:
#     KERNEL  SUITE  SUITE/TEST  RESULT  DETAIL
# RESULT is one of RESULTS; DETAIL is free text without a TAB or a line
# break (write_rows makes each a blank). write_rows is its one writer
# (ci/report/parse_run.py, ci/boot_group.py; ci/run/stage-suite.sh
# through "fail-rows"), suite_rows its one reader (load_rows, the
# reports, the suite lines, ci/bench/boot-flake.sh, ci/tests/tsv_truth.py).
# A line of another shape is an error naming it, never a row lost.
RESULTS = ("pass", "fail", "skip", "timeout", "splat")
# What a TAB and str.splitlines() take for the end of a field or line.
SEPARATORS = re.compile(r"[\t\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def suite_rows(suite_dir):
    """(kernel, suite, test, result, detail) of one suite folder's
    results.tsv, in its order; none when it has no results.tsv."""
    path = os.path.join(suite_dir, "results.tsv")
    rows = []
    for n, line in enumerate(read_text(path).splitlines(), 1):
        fields = tuple(line.split("\t"))
        if len(fields) != 5 or fields[3] not in RESULTS:
            sys.exit(f"error: {path}:{n}: not a results.tsv row (KERNEL "
                     f"SUITE SUITE/TEST {'|'.join(RESULTS)} DETAIL, "
                     f"TAB-separated): {line!r}")
        rows.append(fields)
    return rows


def load_rows(results_dir):
    """(kernel, suite, test, result, detail) of every results.tsv row, in
    the order of the sorted directory walk."""
    rows = []
    for dirpath, _, files in sorted(os.walk(results_dir)):
        if "results.tsv" in files:
            rows += suite_rows(dirpath)
    return rows


def label(result, want):
    if result != want:
        return result + "!"
    return result if want == "pass" else "x" + result


def load_cells(expectations, results_dir):
    """Every results.tsv row under results_dir, judged, in report order."""
    if not os.path.isdir(results_dir):
        sys.exit(f"error: no results directory {results_dir}")
    rows = load_rows(results_dir)
    if not rows:
        sys.exit(f"error: no results.tsv rows under {results_dir}")
    rules = rules_for(expectations, results_dir,
                      ordered(r[0] for r in rows))
    releases = {k: release_of(results_dir, k) for k in
                ordered(r[0] for r in rows)}
    cells = []
    for kernel, suite, test, result, detail in rows:
        want = expected(rules, kernel, test)
        if result == "skip" and predates_api(releases[kernel], detail):
            want = "skip"
        cells.append(Cell(kernel, suite, test, result, detail, want,
                          label(result, want), result != want))
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


def read_seconds(path):
    """A seconds file as a float, or None when there is none."""
    try:
        return float(read_text(path).strip())
    except ValueError:
        return None


def seconds(results_dir, kernel, suite, what):
    """A suite folder's WHAT-seconds file (build, boot, test) as a float,
    or None when the suite has none (it did not build or boot)."""
    return read_seconds(os.path.join(results_dir, kernel, suite,
                                     f"{what}-seconds"))


def kernel_warnings(results_dir, kernel):
    """The warnings of the kernel's own headers its module builds gave
    (ci/run/build-module.sh; each suite's kernel-warnings.log, "MODULE: LINE"):
    (distinct warning lines, in first-seen order, number of suites)."""
    lines, suites = [], 0
    kdir = os.path.join(results_dir, kernel)
    for suite in sorted(os.listdir(kdir)) if os.path.isdir(kdir) else []:
        text = read_text(os.path.join(kdir, suite, "kernel-warnings.log"))
        if text.strip():
            suites += 1
        for line in text.splitlines():
            lines.append(line.split(": ", 1)[-1])
    return ordered(lines), suites


def accel(results_dir, kernel, suite):
    """(accelerator, why) of the suite's guest boot (ci/run/accel.sh), or None
    when it did not boot."""
    lines = read_text(os.path.join(results_dir, kernel, suite,
                                   "accel")).splitlines()
    if not lines:
        return None
    return lines[0], (lines[1] if len(lines) > 1 else "")


def accels(results_dir, cells):
    """{(accelerator, why): number of suite runs} over the cells' suites."""
    seen = {}
    for kernel, suite in ordered((c.kernel, c.suite) for c in cells):
        a = accel(results_dir, kernel, suite)
        if a:
            seen[a] = seen.get(a, 0) + 1
    return seen


def retry_note(why):
    """The words of a report for a suite run whose first guest died
    before its first step (why: its retry file)."""
    return (f"the first guest died before its first step ({why}), "
            "booted once more")


def retries(results_dir, cells):
    """[(kernel/suite, why)] of the suite runs whose first guest died
    before its first step and was booted once more (ci/run/boot.sh): an
    infrastructure fault, not a result."""
    found = []
    for kernel, suite in ordered((c.kernel, c.suite) for c in cells):
        why = read_text(os.path.join(results_dir, kernel, suite,
                                     "retry")).strip()
        if why:
            found.append((f"{kernel}/{suite}", why))
    return found


def compat_macros(results_dir, kernel):
    """Names X of '#define MNCOMPAT_HAVE_X 1' in the kernel's config."""
    return matrix_plan.config_macros(os.path.join(
        results_dir, kernel, "compat", "mncompat_config.h"))


def suite_line(suite_dir, bootdir):
    """What became of one suite run, in a few words: a harness error, the
    first build failure, a guest that never reached init, a timeout and
    where, else its pass counts; the kernel's own warnings; its seconds
    and accelerator (ci/boot_group.py shows it)."""
    rows = suite_rows(suite_dir)
    status = read_text(os.path.join(suite_dir, "status")).strip()
    harness = [r for r in rows if r[2].endswith("/harness")]
    build = [r for r in rows if "/build:" in r[2] and r[3] == "fail"]
    if harness:
        line = f"harness error: {harness[0][4]}"
    elif build:
        line = f"build failed: {build[0][4]}"
    elif any(r[2].endswith("/boot") and r[4] == "never reached init"
             for r in rows):
        boot_status = read_text(os.path.join(bootdir, "status")).strip()
        line = (f"the guest never reached its init (status {boot_status}): "
                "does the image boot under QEMU with console=ttyS0? See "
                f"{os.path.join(bootdir, 'console.log')}")
    elif status == "timeout":
        unfinished = [r[2] for r in rows if r[4] == "never finished"]
        timed_out = [r[2] for r in rows if r[3] == "timeout"]
        where = (unfinished or timed_out or ["?"])[0]
        limit = read_text(os.path.join(bootdir, "timeout")).strip()
        line = f"timeout after {limit}s in {where}"
    else:
        passed = sum(r[3] == "pass" for r in rows)
        line = f"{passed} pass, {len(rows) - passed} not pass"
    retry = read_text(os.path.join(suite_dir, "retry")).strip()
    if retry:
        line += f"; infrastructure retry: {retry_note(retry)}"
    warnings = read_text(os.path.join(suite_dir, "kernel-warnings.log"))
    if warnings:
        line += (f"; {len(warnings.splitlines())} warnings of the kernel's "
                 "own headers (kernel-warnings.log)")
    secs = sum(read_seconds(os.path.join(suite_dir, f"{w}-seconds")) or 0
               for w in ("build", "boot"))
    accel = (read_text(os.path.join(suite_dir, "accel")).splitlines()
             or [""])[0]
    return f"{line} ({secs:.1f}s{', ' + accel if accel else ''})"


def write_rows(suite_dir, kernel, suite, rows):
    """SUITE_DIR/results.tsv holds ROWS, (test, result, detail) each: the
    one writer of results.tsv (its format above suite_rows), written
    whole. A TAB or line break of a detail becomes a blank."""
    os.makedirs(suite_dir, exist_ok=True)
    lines = []
    for test, result, detail in rows:
        detail = SEPARATORS.sub(" ", detail)
        lines.append(f"{kernel}\t{suite}\t{suite}/{test}\t{result}\t{detail}\n")
    write_atomic(os.path.join(suite_dir, "results.tsv"), "".join(lines))


USAGE = """usage: results.py suite-line SUITE_DIR BOOT_DIR
       results.py fail-rows SUITE_DIR KERNEL SUITE TEST DETAIL [TEST DETAIL...]"""


def main():
    """suite-line: print suite_line(); fail-rows: write failing rows
    (a module that did not build, a harness error) with write_rows()."""
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "suite-line":
        print(suite_line(args[1], args[2]))
    elif len(args) >= 6 and len(args) % 2 == 0 and args[0] == "fail-rows":
        write_rows(args[1], args[2], args[3],
                   [(test, "fail", detail) for test, detail
                    in zip(args[4::2], args[5::2])])
    else:
        sys.exit(USAGE)


if __name__ == "__main__":
    main()
