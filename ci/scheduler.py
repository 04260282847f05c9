# SPDX-License-Identifier: GPL-2.0
"""The matrix run's scheduler (standard library only): the steps of a
run, and running them, at most JOBS at a time.

A step is a leaf command (ci/run/matrix-prepare.sh KERNEL WORK, which
prepares one kernel) or a generator of commands (ci/boot_group.py boot():
it stages and boots suites on a prepared kernel, one command after the
other, deciding between them), and the step it waits for. Each kernel
is prepared after the one before it (one apt, one kernel build at a time;
the re-created kernels reuse src-6.1's objects through ccache), and each
boot once its kernel is. A free slot goes to the first step in plan order
whose wait is over: the preparations first, then the boots longest first
(ci/matrix_plan.py boots()). A step that fails (a command step exits
non-zero, a generator raises: the leaf scripts write failing rows for
what fails in them, so this is a harness bug) does not stop the others;
the steps that wait for it are not run and count as failed too.

SIGINT, SIGTERM and SIGHUP, unless ignored when the run starts (nohup,
a background job), are passed on to the running commands; once they have
ended the run ends by the same signal. The commands share the runner's
standard output and error, unless a generator names a log for one (its
output and errors are then appended there); MAKEFLAGS, MFLAGS and
MAKELEVEL of a `make matrix` are not passed on (a kernel or module build
has its own -j).
"""
import collections
import functools
import os
import signal
import subprocess

import boot_group
import matrix_plan

# argv: a command (a list), or a function returning a generator of
# boot_group.Command, sent each one's exit status.
Step = collections.namedtuple("Step", "name argv after")

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def matrix_steps(top, kernels, boot_list, work, results):
    """The steps of a matrix run: prepare/KERNEL for each kernel, in
    order, each after the one before; boot/KERNEL/FIRST_SUITE for each
    boot of boot_list ((cost, kernel, suite files), longest first), each
    after its kernel's preparation."""
    steps, prev = [], None
    for k in kernels:
        steps.append(Step(f"prepare/{k}",
                          [os.path.join(top, "ci/run/matrix-prepare.sh"), k, work],
                          prev))
        prev = f"prepare/{k}"
    for _cost, k, files in boot_list:
        first = matrix_plan.suite_name(files[0])
        steps.append(Step(f"boot/{k}/{first}", functools.partial(
            boot_group.boot, top, k, work, results, list(files)),
            f"prepare/{k}"))
    return steps


def start_command(argv, log=None):
    """argv started, its output appended to log when one is given; the
    environment without a `make matrix`'s MAKEFLAGS."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    if log is None:
        return subprocess.Popen(argv, env=env)
    with open(log, "ab") as f:
        return subprocess.Popen(argv, env=env, stdout=f,
                                stderr=subprocess.STDOUT)


class Run:
    """One run of steps; failed lists (name, why) once run() returns."""

    def __init__(self, steps, jobs, start=start_command):
        names = [s.name for s in steps]
        if len(set(names)) != len(names):
            raise ValueError("two steps of one name")
        for s in steps:
            if s.after is not None and s.after not in names:
                raise ValueError(f"step {s.name} waits for {s.after}, "
                                 "which is no step")
        if jobs < 1:
            raise ValueError(f"jobs {jobs}: want 1 or more")
        self.waiting = list(steps)
        self.jobs = jobs
        self.start = start
        self.running = {}       # pid -> (step, process, generator)
        self.done = set()
        self.failed = []
        self.caught = None

    def _catch(self, signum, _frame):
        self.caught = signum
        for _step, proc, _gen in self.running.values():
            try:
                proc.send_signal(signum)
            except OSError:
                pass

    def _launch(self):
        """Start what may start; drop the steps whose wait failed."""
        while True:
            failed = {name for name, _why in self.failed}
            for s in list(self.waiting):
                if s.after is not None and s.after in failed:
                    self.waiting.remove(s)
                    self.failed.append((s.name,
                                        f"not run: {s.after} failed"))
                    failed.add(s.name)
            if self.caught is not None or len(self.running) >= self.jobs:
                return
            ready = [s for s in self.waiting
                     if s.after is None or s.after in self.done]
            if not ready:
                return
            s = ready[0]
            self.waiting.remove(s)
            if callable(s.argv):
                self._next(s, s.argv(), None)
            else:
                self._start(s, None, s.argv, None)

    def _next(self, step, gen, status):
        """Run the generator step on to its next command, or its end."""
        try:
            if self.caught is not None:
                gen.close()
                self.failed.append((step.name, "stopped by a signal"))
                return
            cmd = next(gen) if status is None else gen.send(status)
        except StopIteration:
            self.done.add(step.name)
            return
        except Exception as e:  # a harness bug: the step fails, not the run
            self.failed.append((step.name, f"{type(e).__name__}: {e}"))
            return
        self._start(step, gen, cmd.argv, cmd.log)

    def _start(self, step, gen, argv, log):
        try:
            proc = self.start(argv) if log is None else self.start(argv, log)
        except OSError as e:
            self.failed.append((step.name, f"could not start {argv[0]}: {e}"))
            if gen is not None:
                gen.close()
            return
        self.running[proc.pid] = (step, proc, gen)

    def run(self):
        """Run every step; True when all of them succeeded."""
        old = {}
        for sig in SIGNALS:
            if signal.getsignal(sig) != signal.SIG_IGN:
                old[sig] = signal.signal(sig, self._catch)
        try:
            self._launch()
            while self.running:
                pid, status = os.wait()
                if pid not in self.running:
                    continue
                step, proc, gen = self.running.pop(pid)
                proc.returncode = os.waitstatus_to_exitcode(status)
                if gen is not None:
                    self._next(step, gen, proc.returncode)
                elif proc.returncode == 0:
                    self.done.add(step.name)
                else:
                    self.failed.append((step.name,
                                        f"exit {proc.returncode}"))
                self._launch()
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
        if self.caught is not None:
            signal.signal(self.caught, signal.SIG_DFL)
            os.kill(os.getpid(), self.caught)
        return not self.failed
