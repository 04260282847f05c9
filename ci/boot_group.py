# SPDX-License-Identifier: GPL-2.0
"""One boot of a matrix run, a step of ci/scheduler.py: stage each suite
of the boot on its prepared kernel (ci/run/stage-suite.sh) into
RESULTS/KERNEL/SUITE, boot them together (ci/run/boot-suites.sh, the
boot's own logs in WORK/boot/KERNEL/FIRST_SUITE), both logging to
WORK/log/KERNEL/FIRST_SUITE.log. A suite gets one failing "harness" row
when its kernel was not prepared (no WORK/env/KERNEL,
ci/run/matrix-prepare.sh) or the harness fails on it. Each suite's
line (ci/report/results.py suite_line) goes to WORK/summary/KERNEL/SUITE
and is shown.

boot() is a generator: it yields each command to run (a Command) and is
sent its exit status; the Python between the commands runs in the
scheduler's process."""
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "report"))
import matrix_plan  # noqa: E402
import results as results_file  # noqa: E402  (ci/report/results.py)

Command = collections.namedtuple("Command", "argv log")


def last_error(log):
    """The last "error:" line of log, or ''."""
    try:
        with open(log, errors="replace") as f:
            lines = [line.rstrip("\n") for line in f
                     if line.startswith("error:")]
    except OSError:
        return ""
    return lines[-1] if lines else ""


def harness_row(results, kernel, suite, why):
    results_file.write_rows(os.path.join(results, kernel, suite), kernel,
                            suite, [("harness", "fail", why)])


def boot(top, kernel, work, results, suite_files):
    """The boot of suite_files on kernel (see above)."""
    run = os.path.join(top, "ci", "run")
    suites = [matrix_plan.suite_name(s) for s in suite_files]
    log = os.path.join(work, "log", kernel, f"{suites[0]}.log")
    bootdir = os.path.join(work, "boot", kernel, suites[0])
    os.makedirs(os.path.dirname(log), exist_ok=True)
    os.makedirs(os.path.join(work, "summary", kernel), exist_ok=True)
    open(log, "w").close()
    try:
        with open(os.path.join(work, "env", kernel)) as f:
            env_file = f.read().strip()
    except FileNotFoundError:
        env_file = ""
    if env_file:
        env = matrix_plan.Kernel(env_file).env
        # The kernel's env file beside its results (ci/report/results.py
        # reads what the kernel lacks there); written whole, as other
        # boots may too.
        with open(env_file) as f:
            text = f.read()
        os.makedirs(os.path.join(results, kernel), exist_ok=True)
        matrix_plan.write_atomic(os.path.join(results, kernel,
                                              "kernel.env"), text)
    dirs = []
    for path, suite in zip(suite_files, suites):
        out = os.path.join(results, kernel, suite)
        if not env_file:
            prep = os.path.join(work, "log", f"prepare-{kernel}.log")
            why = last_error(prep)[len("error: "):]
            harness_row(results, kernel, suite,
                        f"kernel {kernel} was not prepared: {why} "
                        f"(ci/kernels/prepare-kernel.sh, log: {prep})")
            continue
        status = yield Command(
            [os.path.join(run, "stage-suite.sh"), kernel, env_file,
             env.get("KDIR", ""), env.get("KMODDIR", ""), path, out], log)
        if status != 0:
            harness_row(results, kernel, suite, "ci/run/stage-suite.sh "
                        f"failed: {last_error(log)}")
        elif os.path.isdir(out):
            # (one not for this kernel has its line in KERNEL/not-run.tsv)
            dirs.append(out)
    if dirs:
        status = yield Command(
            [os.path.join(run, "boot-suites.sh"), kernel,
             env.get("VMLINUZ", ""), env.get("KERNEL_APPEND", ""),
             bootdir] + dirs, log)
        if status != 0:
            for d in dirs:
                if not os.path.exists(os.path.join(d, "results.tsv")):
                    harness_row(results, kernel, os.path.basename(d),
                                "ci/run/boot-suites.sh failed: "
                                f"{last_error(log)}")
    for suite in suites:
        out = os.path.join(results, kernel, suite)
        if not os.path.isdir(out):
            continue
        line = results_file.suite_line(out, bootdir)
        matrix_plan.write_atomic(
            os.path.join(work, "summary", kernel, suite),
            f"  {kernel}/{suite}: {line}\n")
        print(f">> {kernel}/{suite}: {line}", file=sys.stderr, flush=True)
