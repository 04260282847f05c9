#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one guest run (console.log, ktap.log, status, plan) into results.tsv.

Usage: ci/parse_run.py KERNEL SUITE RUNDIR

Each row is: kernel, suite, test, result, detail. Results are pass, fail,
skip, timeout and splat. Besides the plan's steps (and the KTAP subtests they
print), every run has a "boot" row (did the guest reach the end of its plan)
and a "console" row (did the kernel log stay free of splats).
"""
import os
import re
import sys

SPLAT = re.compile(
    r"BUG:|WARNING:|Oops|Kernel panic|KASAN:|UBSAN:|"
    r"general protection fault|"
    r"possible recursive locking detected|"
    r"possible circular locking dependency|"
    r"inconsistent lock state|"
    r"sleeping function called from invalid context|"
    r"suspected memory leak|unreferenced object 0x|"
    r"INFO: task .* blocked for more than|"
    r"detected stalls? on CPU"
)
RESULT = re.compile(r"^(not )?ok \d+(?: -)? ?(.*?)(?:\s+#\s*(SKIP|skip)\b.*)?$")
STEP = re.compile(r"^step\s+(\S+)")
BEGIN = "# mncompat-begin "
END = "# mncompat-end "
UPTIME = "# mncompat-uptime "


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def console_splats(console):
    return [line.strip() for line in console.splitlines()
            if SPLAT.search(line)]


def parse_sections(ktap):
    """Map step name -> (lines, exit code or None when it never ended)."""
    sections, current, lines = {}, None, []
    for line in ktap.replace("\r", "").splitlines():
        if line.startswith(BEGIN):
            current, lines = line[len(BEGIN):].strip(), []
            sections[current] = (lines, None)
        elif line.startswith(END) and current:
            rc = line[len(END):].split()[-1]
            sections[current] = (lines, int(rc) if rc.lstrip("-").isdigit()
                                 else 1)
            current = None
        elif current:
            lines.append(line)
    return sections


def step_rows(name, lines, rc):
    rows, failed = [], False
    for line in lines:
        m = RESULT.match(line)
        if not m:
            continue
        desc = m.group(2).strip() or "unnamed"
        if m.group(3):
            rows.append((f"{name}/{desc}", "skip", ""))
        elif m.group(1):
            failed = True
            rows.append((f"{name}/{desc}", "fail", ""))
        else:
            rows.append((f"{name}/{desc}", "pass", ""))
    if rc and not failed:
        rows.append((name, "fail", f"exit {rc}"))
    elif not rows:
        rows.append((name, "pass", ""))
    return rows


def parse(rundir):
    status = read(os.path.join(rundir, "status")).strip() or "missing"
    ktap = read(os.path.join(rundir, "ktap.log"))
    console = read(os.path.join(rundir, "console.log"))
    plan = [m.group(1) for m in map(STEP.match,
                                    read(os.path.join(rundir, "plan"))
                                    .splitlines()) if m]
    sections = parse_sections(ktap)
    timed_out = status == "timeout"
    rows = []
    for name in plan:
        if name not in sections:
            rows.append((name, "timeout" if timed_out else "fail",
                         "never started"))
            continue
        lines, rc = sections[name]
        if rc is None:
            rows.append((name, "timeout" if timed_out else "fail",
                         "never finished"))
            continue
        rows.extend(step_rows(name, lines, rc))

    if "# mncompat-done" in ktap:
        rows.append(("boot", "pass", status))
    else:
        rows.append(("boot", "timeout" if timed_out else "fail", status))
    splats = console_splats(console)
    rows.append(("console", "splat" if splats else "pass",
                 splats[0] if splats else ""))
    return rows


def test_seconds(ktap):
    """Guest seconds from init's first uptime stamp to its last, or None."""
    stamps = []
    for line in ktap.replace("\r", "").splitlines():
        if line.startswith(UPTIME):
            try:
                stamps.append(float(line[len(UPTIME):]))
            except ValueError:
                pass
    return stamps[-1] - stamps[0] if len(stamps) >= 2 else None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[2])
    kernel, suite, rundir = sys.argv[1:]
    out = os.path.join(rundir, "results.tsv")
    with open(out + ".tmp", "w") as f:
        for test, result, detail in parse(rundir):
            detail = detail.replace("\t", " ")[:200]
            f.write(f"{kernel}\t{suite}\t{suite}/{test}\t{result}\t{detail}\n")
    os.replace(out + ".tmp", out)
    seconds = test_seconds(read(os.path.join(rundir, "ktap.log")))
    if seconds is not None:
        with open(os.path.join(rundir, "test-seconds"), "w") as f:
            f.write(f"{seconds:.3f}\n")


if __name__ == "__main__":
    main()
