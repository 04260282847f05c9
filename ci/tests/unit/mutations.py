# SPDX-License-Identifier: GPL-2.0
"""Mutations the unit tier must catch (ci/tests/unit/unit.py runs them).

Each is one change to one reader or writer of a text format (a changed
field, a dropped line, a lost row) or to the scheduler, applied to a copy of the repository's
ci/ folder (the rest of the tree linked); the unit tests that cover that
code then run on the copy and must fail. Each module a mutation names
must first pass on an unmutated copy (a control: a copy the tests cannot
run in would make every mutation "fail" them). A mutation whose text is
no longer in its file fails too: it must follow the code it mutates.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from unit_data import TOP

# (what, file, text, replacement, test module that must fail)
MUTATIONS = [
    ("results.tsv writer swaps result and detail", "ci/report/results.py",
     '{suite}/{test}\\t{result}\\t{detail}\\n"',
     '{suite}/{test}\\t{detail}\\t{result}\\n"', "test_parse_run"),
    ("results.tsv reader drops each suite's last row", "ci/report/results.py",
     "for n, line in enumerate(read_text(path).splitlines(), 1):",
     "for n, line in enumerate(read_text(path).splitlines()[:-1], 1):",
     "test_reports"),
    ("results.tsv writer keeps a carriage return", "ci/report/results.py",
     'SEPARATORS = re.compile(r"[\\t\\n\\r', 'SEPARATORS = re.compile(r"[\\t\\n',
     "test_formats"),
    ("results.tsv reader takes a row of four fields", "ci/report/results.py",
     "if len(fields) != 5 or", "if len(fields) < 4 or", "test_formats"),
    ("expectations reader drops the last rule", "ci/report/results.py",
     "            rules.append((line[0], line[1], line[2]))\n    return rules",
     "            rules.append((line[0], line[1], line[2]))\n"
     "    return rules[:-1]", "test_reports"),
    ("parser: an unfinished step's detail changes", "ci/report/parse_run.py",
     '"never finished"))', '"never ended"))', "test_parse_run"),
    ("parser: the console row is dropped", "ci/report/parse_run.py",
     '    rows.append(("console", "splat" if splats else "pass",',
     '    (("console", "splat" if splats else "pass",', "test_parse_run"),
    ("parser: KTAP SKIP directives read as passes", "ci/report/parse_run.py",
     "        if m.group(3):", "        if False:", "test_parse_run"),
    ("ktap.tap writer: a skip loses its directive", "ci/report/report_ktap.py",
     'return f"ok {n} {name} # SKIP"', 'return f"ok {n} {name} #"',
     "test_reports"),
    ("junit.xml writer counts no failures", "ci/report/report_junit.py",
     "failures=str(sum(c.unexpected for c in mine))", 'failures="0"',
     "test_reports"),
    ("matrix.html writer drops the console link", "ci/report/report_html.py",
     "f'{link(k + \"/console.log\", \"console\")} '", "f' '", "test_reports"),
    ("text report: an unknown cell is blank", "ci/report/report_text.py",
     'by_key.get((test, k), "-")', 'by_key.get((test, k), " ")',
     "test_reports"),
    ("console.log writer drops the suite's header line",
     "ci/report/report_console.py",
     'out.append(f"===== mncompat: {kernel}/{suite} console.log "',
     'out.append(f""', "test_reports"),
    ("env reader keeps the quotes", "ci/matrix_plan.py",
     "env[key] = value.strip(\"'\")", "env[key] = value",
     "test_matrix_plan"),
    ("lacks.list reader takes a feature for its glob", "ci/matrix_plan.py",
     "features.setdefault(words[0], []).append(words[1])",
     "features.setdefault(words[0], []).append(words[0])", "test_formats"),
    ("lacks.list reader drops the last line", "ci/matrix_plan.py",
     "        for n, line in enumerate(f, 1):\n            words = line.split()\n"
     "            if not words or words[0].startswith(\"#\"):\n                continue\n"
     "            if len(words) != 2:",
     "        for n, line in enumerate(list(f)[:-1], 1):\n"
     "            words = line.split()\n"
     "            if not words or words[0].startswith(\"#\"):\n                continue\n"
     "            if len(words) != 2:", "test_formats"),
    ("version reader drops the sublevel", "ci/matrix_plan.py",
     "tuple(int(p or 0) for p in m.groups())",
     "tuple(int(p or 0) for p in m.groups()[:2])", "test_formats"),
    ("version reader compares versions as text", "ci/matrix_plan.py",
     "tuple(int(p or 0) for p in m.groups())",
     "tuple(p or \"0\" for p in m.groups())", "test_formats"),
    ("kernel order puts a kernel without a generation first",
     "ci/report/results.py",
     'return (env.get("KERNEL_KIND") == "user", gen is None, gen or (),',
     'return (env.get("KERNEL_KIND") == "user", gen or (),', "test_formats"),
    ("patch series reader takes the whole line for the generation",
     "ci/matrix_plan.py", "self.generation = m.group(1)",
     "self.generation = m.group(0)", "test_formats"),
    ("patch series reader drops the last line", "ci/matrix_plan.py",
     "        for n, line in enumerate(lines, 1):\n"
     "            where = f\"kernel-patches/",
     "        for n, line in enumerate(lines[:-1], 1):\n"
     "            where = f\"kernel-patches/", "test_formats"),
    ("not-run.tsv writer swaps the suite and the kernel", "ci/matrix_plan.py",
     "fields = [one_field(suite), one_field(why), one_field(kernel)]",
     "fields = [one_field(kernel), one_field(why), one_field(suite)]",
     "test_matrix_plan"),
    ("not-run.tsv reader drops the last line", "ci/matrix_plan.py",
     "        for n, line in enumerate(f, 1):\n"
     "            w = line.rstrip(\"\\n\").split(\"\\t\")",
     "        for n, line in enumerate(list(f)[:-1], 1):\n"
     "            w = line.rstrip(\"\\n\").split(\"\\t\")",
     "test_matrix_plan"),
    ("hints writer loses the older lines", "ci/matrix_plan.py",
     "for key, secs in read_hints(path).items():",
     "for key, secs in {}.items():", "test_matrix_plan"),
    ("hints: a suite not for its kernel gets no line", "ci/matrix_plan.py",
     "            out.setdefault((kernel, suite), 0)",
     "            pass", "test_matrix_plan"),
    ("suite writer does not quote an argument", "ci/matrix_plan.py",
     "[shlex.quote(str(a)) for a in args]", "[str(a) for a in args]",
     "test_matrix_plan"),
    ("suite writer drops the last step", "ci/matrix_plan.py",
     "    for directive, args in steps:\n        if directive not in DIRECTIVES:",
     "    for directive, args in steps[:-1]:\n        if directive not in DIRECTIVES:",
     "test_matrix_plan"),
    ("suite reader forgets a directive", "ci/matrix_plan.py",
     '"wrapper", "timeout", "needs",', '"wrapper", "needs",',
     "test_matrix_plan"),
    ("scheduler starts a step before the one it waits for has ended",
     "ci/scheduler.py", "if s.after is None or s.after in self.done]",
     "]", "test_scheduler"),
    ("scheduler runs what waits for a failed step", "ci/scheduler.py",
     "if s.after is not None and s.after in failed:",
     "if False:", "test_scheduler"),
    ("a boot drops the harness row of a suite it could not stage",
     "ci/boot_group.py",
     'harness_row(results, kernel, suite, "ci/run/stage-suite.sh "',
     'print(results, kernel, suite, "ci/run/stage-suite.sh "',
     "test_scheduler"),
]


def copy_of_top(tmp):
    """TMP made a copy of the repository to mutate: ci/ copied, everything
    else (the tests read compat/probes, kernel-patches/...; the recorded
    data) linked, read and never written."""
    shutil.copytree(os.path.join(TOP, "ci"), os.path.join(tmp, "ci"),
                    ignore=shutil.ignore_patterns("__pycache__", "data"))
    os.symlink(os.path.join(TOP, "ci", "tests", "data"),
               os.path.join(tmp, "ci", "tests", "data"))
    for name in os.listdir(TOP):
        if name not in ("ci", ".git"):
            os.symlink(os.path.join(TOP, name), os.path.join(tmp, name))


def run_module(tmp, module):
    return subprocess.run(
        [sys.executable, os.path.join(tmp, "ci/tests/unit/unit.py"),
         "--only", module], capture_output=True, text=True, timeout=120)


def control(module):
    """(ok, detail): ok when MODULE's tests pass on an unmutated copy (else
    a mutation would "fail" them for another reason than itself)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy_of_top(tmp)
        run = run_module(tmp, module)
        if run.returncode != 0:
            return False, (f"{module} fails on an unmutated copy:\n"
                           f"{run.stdout[-2000:]}")
        return True, ""


def check(what, path, text, replacement, module):
    """(ok, detail): ok when the mutation made MODULE's tests fail."""
    with tempfile.TemporaryDirectory() as tmp:
        copy_of_top(tmp)
        target = os.path.join(tmp, path)
        with open(target) as f:
            code = f.read()
        if code.count(text) != 1:
            return False, f"{path}: the text to mutate is not there once"
        with open(target, "w") as f:
            f.write(code.replace(text, replacement))
        run = run_module(tmp, module)
        if run.returncode == 0:
            return False, f"{module} still passes:\n{run.stdout[-2000:]}"
        return True, ""


def check_all():
    """(name, ok, detail) of the control of each module the mutations
    name, then of every mutation, in MUTATIONS order; one run at a time
    per CPU."""
    modules = list(dict.fromkeys(m[4] for m in MUTATIONS))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        controls = pool.map(control, modules)
        verdicts = pool.map(lambda m: check(*m), MUTATIONS)
        for module, (ok, detail) in zip(modules, controls):
            yield f"{module} passes on an unmutated copy", ok, detail
        for (what, path, _, _, module), (ok, detail) in zip(MUTATIONS,
                                                            verdicts):
            yield f"{what} ({path}) fails {module}", ok, detail
