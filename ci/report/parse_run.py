#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn one guest boot (console.log, ktap.log, status, boot-seconds of
BOOT_DIR) into the results of the suites it ran, one SUITE_DIR each.

Usage: ci/report/parse_run.py KERNEL BOOT_DIR SUITE_DIR...

The guest (ci/run/guest/init) frames each suite with "mncompat-suite-begin
NAME" and "mncompat-suite-end NAME" on both channels. A suite's KTAP log
is its frame; its console log is its frame plus what the console showed
before the first suite and after the last (boot messages, the kmemleak
report), so a splat there counts for every suite. Each SUITE_DIR gets
results.tsv, ktap.log, console.log, status ("done" once the suite ended,
else the boot's), test-seconds (its own guest time) and boot-seconds (that
plus an equal share of the rest of the boot), and retry when the boot's
first guest died before its first step (ci/run/boot.sh booted it once more).

A results.tsv row is: kernel, suite, test, result, detail (the format and
its one reader and writer: ci/report/results.py). Results are pass, fail,
skip, timeout and splat. Besides the plan's steps (and the
KTAP subtests they print), every suite has a "boot" row (did the guest
reach the end of the suite's plan) and a "console" row (did the kernel log
stay free of splats).
"""
import os
import re
import sys

from results import read_text as read, write_atomic as write, write_rows

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
RESULT = re.compile(
    r"^(not )?ok \d+(?: -)? ?(.*?)(?:\s+#\s*(SKIP|skip)\b\s*(.*))?$")
STEP = re.compile(r"^step\s+(\S+)")
BEGIN = "# mncompat-begin "
END = "# mncompat-end "
UPTIME = "# mncompat-uptime "
FRAME = re.compile(r"mncompat-suite-(begin|end) (\S+)\s*$")


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
            rows.append((f"{name}/{desc}", "skip", m.group(4).strip()))
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


def parse(status, ktap, console, plan_text, complete, reached_init):
    plan = [m.group(1) for m in map(STEP.match, plan_text.splitlines()) if m]
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

    if complete:
        rows.append(("boot", "pass", "done"))
    elif status == "kvm-unusable":
        rows.append(("boot", "fail", "not booted: MNCOMPAT_ACCEL=kvm, but "
                     "KVM is unusable here (/dev/kvm; see the accelerator "
                     "line of the report)"))
    elif not reached_init:
        rows.append(("boot", "timeout" if timed_out else "fail",
                     "never reached init"))
    else:
        rows.append(("boot", "timeout" if timed_out else "fail", status))
    splats = console_splats(console)
    rows.append(("console", "splat" if splats else "pass",
                 splats[0] if splats else ""))
    return rows


def split(text, names):
    """(head, {name: frame lines}, tail) of a log framed per suite."""
    lines = text.replace("\r", "").splitlines(keepends=True)
    head, tail, frames, current = [], [], {}, None
    for line in lines:
        m = FRAME.search(line)
        if m and m.group(2) in names:
            if m.group(1) == "begin":
                current = m.group(2)
                frames[current] = [line]
                continue
            if current == m.group(2):
                frames[current].append(line)
                current = None
                continue
        if current:
            frames[current].append(line)
        elif frames:
            tail.append(line)
        else:
            head.append(line)
    return "".join(head), frames, "".join(tail)


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
    if len(sys.argv) < 4:
        sys.exit("usage: parse_run.py KERNEL BOOT_DIR SUITE_DIR...")
    run(sys.argv[1], sys.argv[2], sys.argv[3:])


def run(kernel, bootdir, suite_dirs):
    """Write the results of each SUITE_DIR from the boot in BOOTDIR."""
    names = [os.path.basename(os.path.normpath(d)) for d in suite_dirs]
    status = read(os.path.join(bootdir, "status")).strip() or "missing"
    ktap = read(os.path.join(bootdir, "ktap.log"))
    console = read(os.path.join(bootdir, "console.log"))
    try:
        wall = float(read(os.path.join(bootdir, "boot-seconds")))
    except ValueError:
        wall = None
    _, ktap_frames, _ = split(ktap, names)
    con_head, con_frames, con_tail = split(console, names)
    own = {}
    for name in names:
        frame = "".join(ktap_frames.get(name, []))
        complete = f"# mncompat-suite-end {name}" in frame
        own[name] = test_seconds(frame) if complete else None
    done = [t for t in own.values() if t is not None]
    share = None if wall is None else \
        max(wall - sum(done), 0) / len(names)
    for name, sdir in zip(names, suite_dirs):
        frame = "".join(ktap_frames.get(name, []))
        complete = own[name] is not None
        suite_console = con_head + "".join(con_frames.get(name, [])) + \
            con_tail
        write(os.path.join(sdir, "ktap.log"), frame)
        write(os.path.join(sdir, "console.log"), suite_console)
        write(os.path.join(sdir, "status"),
              ("done" if complete else status) + "\n")
        write(os.path.join(sdir, "accel"),
              read(os.path.join(bootdir, "accel")))
        retry = read(os.path.join(bootdir, "retry"))
        if retry:
            write(os.path.join(sdir, "retry"), retry)
        if own[name] is not None:
            write(os.path.join(sdir, "test-seconds"), f"{own[name]:.3f}\n")
        if share is not None:
            write(os.path.join(sdir, "boot-seconds"),
                  f"{(own[name] or 0) + share:.3f}\n")
        rows = parse(status, frame, suite_console,
                     read(os.path.join(sdir, "plan")), complete,
                     "# mncompat-suite-begin " in ktap)
        write_rows(sdir, kernel, name, [(test, result, detail[:200])
                                        for test, result, detail in rows])


if __name__ == "__main__":
    main()
