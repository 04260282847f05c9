# SPDX-License-Identifier: GPL-2.0
"""ci/scheduler.py with stub leaf steps: the steps of a matrix run, the
order and the number of steps at a time, a failing step and what waits
for it, a generator step, a signal passed on to the running steps; and
ci/boot_group.py's boot driven by hand."""
import io
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from contextlib import redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
import scheduler  # noqa: E402  (ci/scheduler.py)

# A stub leaf step: logs "start NAME" and "end NAME", sleeps, and exits
# with the status its name asks for (a name with "fail" in it: 3).
STUB = textwrap.dedent("""\
    log=$1; shift
    name=$(basename "$1")/$2
    echo "start $name" >>"$log"
    sleep 0.15
    echo "end $name" >>"$log"
    case $2 in *fail*) exit 3 ;; esac
    exit 0
    """)


class Stubs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.tmp.name, "log")
        open(self.log, "w").close()

    def tearDown(self):
        self.tmp.cleanup()

    def start(self, argv, log=None):
        self.assertIsNone(log)
        return subprocess.Popen(["sh", "-c", STUB, "stub", self.log] + argv)

    def events(self):
        with open(self.log) as f:
            return [line.split() for line in f]

    def steps(self, kernels, boots):
        return scheduler.matrix_steps("/top", kernels, boots, "/w", "/r")

    def stubbed(self, kernels, boots):
        """The steps of a matrix run, each boot a generator of one stub
        command "boot-group.sh KERNEL" (sent its status, it ends)."""
        def boot(kernel):
            yield scheduler.boot_group.Command(
                ["/top/ci/run/boot-group.sh", kernel], None)
        return [s._replace(argv=lambda k=s.argv.args[1]: boot(k))
                if callable(s.argv) else s
                for s in self.steps(kernels, boots)]


class MatrixSteps(Stubs):
    def test_preparations_chained_boots_after_their_kernel(self):
        steps = self.steps(["k1", "k2"], [(9, "k2", ["/s/a.suite",
                                                     "/s/b.suite"]),
                                          (3, "k1", ["/s/c.suite"])])
        self.assertEqual([(s.name, s.after) for s in steps], [
            ("prepare/k1", None), ("prepare/k2", "prepare/k1"),
            ("boot/k2/a", "prepare/k2"), ("boot/k1/c", "prepare/k1")])
        self.assertEqual(steps[0].argv,
                         ["/top/ci/run/matrix-prepare.sh", "k1", "/w"])
        self.assertIs(steps[2].argv.func, scheduler.boot_group.boot)
        self.assertEqual(steps[2].argv.args,
                         ("/top", "k2", "/w", "/r",
                          ["/s/a.suite", "/s/b.suite"]))

    def test_a_step_waiting_for_no_step_is_refused(self):
        with self.assertRaises(ValueError):
            scheduler.Run([scheduler.Step("a", ["x"], "nothing")], 1)
        with self.assertRaises(ValueError):
            scheduler.Run([], 0)


class Running(Stubs):
    def run_steps(self, steps, jobs):
        run = scheduler.Run(steps, jobs, start=self.start)
        return run, run.run()

    def test_never_more_than_jobs_at_a_time_and_waits_kept(self):
        steps = self.stubbed(["k1", "k2"], [(5, "k1", ["/s/a.suite"]),
                                            (4, "k2", ["/s/b.suite"]),
                                            (3, "k1", ["/s/c.suite"]),
                                            (2, "k2", ["/s/d.suite"])])
        run, ok = self.run_steps(steps, 2)
        self.assertTrue(ok)
        self.assertEqual(run.failed, [])
        ev = self.events()
        running = peak = 0
        ended = set()
        for what, name in ev:
            if what == "start":
                running += 1
                peak = max(peak, running)
                kernel = name.split("/")[1]
                if name.startswith("boot-group.sh"):
                    self.assertIn(f"matrix-prepare.sh/{kernel}", ended)
            else:
                running -= 1
                ended.add(name)
        self.assertEqual(peak, 2)
        self.assertEqual(sorted(n for w, n in ev if w == "start"), sorted(
            ["matrix-prepare.sh/k1", "matrix-prepare.sh/k2",
             "boot-group.sh/k1", "boot-group.sh/k1", "boot-group.sh/k2",
             "boot-group.sh/k2"]))
        # the second preparation starts only once the first has ended
        order = [f"{w} {n}" for w, n in ev]
        self.assertLess(order.index("end matrix-prepare.sh/k1"),
                        order.index("start matrix-prepare.sh/k2"))

    def test_one_at_a_time_keeps_the_plan_order(self):
        steps = self.stubbed(["k1"], [(5, "k1", ["/s/a.suite"]),
                                      (3, "k1", ["/s/b.suite"])])
        run, ok = self.run_steps(steps, 1)
        self.assertTrue(ok)
        self.assertEqual([n for w, n in self.events() if w == "start"],
                         ["matrix-prepare.sh/k1", "boot-group.sh/k1",
                          "boot-group.sh/k1"])

    def test_a_failed_step_stops_only_what_waits_for_it(self):
        steps = self.stubbed(["fail1", "k2"], [(5, "fail1", ["/s/a.suite"]),
                                               (4, "k2", ["/s/b.suite"])])
        steps.append(scheduler.Step("boot/x/fail",
                                    ["/top/ci/run/boot-group.sh", "xfail"],
                                    None))
        steps.append(scheduler.Step("boot/x/ok",
                                    ["/top/ci/run/boot-group.sh", "x"],
                                    None))
        run, ok = self.run_steps(steps, 2)
        self.assertFalse(ok)
        self.assertEqual(sorted(run.failed), sorted([
            ("prepare/fail1", "exit 3"),
            ("boot/fail1/a", "not run: prepare/fail1 failed"),
            ("prepare/k2", "not run: prepare/fail1 failed"),
            ("boot/k2/b", "not run: prepare/k2 failed"),
            ("boot/x/fail", "exit 3")]))
        self.assertIn(["end", "boot-group.sh/x"], self.events())

    def test_a_generator_step_is_sent_each_status_and_may_fail(self):
        seen = []

        def two():
            seen.append((yield scheduler.boot_group.Command(
                ["/x/ok.sh", "one"], None)))
            seen.append((yield scheduler.boot_group.Command(
                ["/x/ok.sh", "fail"], None)))

        def broken():
            yield scheduler.boot_group.Command(["/x/ok.sh", "three"], None)
            raise KeyError("KDIR")

        def nothing():
            return
            yield

        run, ok = self.run_steps([scheduler.Step("two", two, None),
                                  scheduler.Step("broken", broken, None),
                                  scheduler.Step("nothing", nothing, None),
                                  scheduler.Step("after", ["/x/ok.sh", "4"],
                                                 "nothing")], 1)
        self.assertFalse(ok)
        self.assertEqual(seen, [0, 3])
        self.assertEqual(run.failed, [("broken", "KeyError: 'KDIR'")])
        self.assertEqual(run.done, {"two", "nothing", "after"})

    def test_a_signal_reaches_the_running_steps_then_ends_the_run(self):
        # The runner in a child process: SIGTERM to it alone must end its
        # running step (which would sleep 30 s) and then the runner, by
        # SIGTERM; the waiting step never starts.
        ci = os.path.dirname(scheduler.__file__)
        code = textwrap.dedent(f"""\
            import sys
            sys.path.insert(0, {ci!r})
            import scheduler
            steps = [scheduler.Step("a", ["sh", "-c",
                     "echo started >{self.log}; exec sleep 30"], None),
                     scheduler.Step("b", ["sh", "-c", "echo b >>{self.log}"],
                     "a")]
            scheduler.Run(steps, 1).run()
            """)
        runner = subprocess.Popen([sys.executable, "-c", code],
                                  start_new_session=True)
        try:
            for _ in range(200):
                if os.path.getsize(self.log):
                    break
                time.sleep(0.05)
            runner.send_signal(signal.SIGTERM)
            self.assertEqual(runner.wait(10), -signal.SIGTERM)
        finally:
            try:
                os.killpg(runner.pid, signal.SIGKILL)
            except OSError:
                pass
        with open(self.log) as f:
            self.assertEqual(f.read(), "started\n")


class BootGroup(Stubs):
    """ci/boot_group.py boot() driven by hand: the commands it yields,
    the harness rows and suite lines it writes."""

    def setUp(self):
        super().setUp()
        d = self.tmp.name
        self.work, self.results = f"{d}/work", f"{d}/results"
        os.makedirs(f"{self.work}/env")
        os.makedirs(f"{self.work}/log")
        self.suites = [f"{d}/a.suite", f"{d}/b.suite"]

    def rows(self, suite):
        path = f"{self.results}/k/{suite}/results.tsv"
        with open(path) as f:
            return [line.rstrip("\n").split("\t")[2:] for line in f]

    def summary(self, suite):
        with open(f"{self.work}/summary/k/{suite}") as f:
            return f.read()

    def test_a_kernel_not_prepared_gives_each_suite_a_harness_row(self):
        with open(f"{self.work}/log/prepare-k.log", "w") as f:
            f.write("error: first\nerror: no package linux-image-9\n")
        gen = scheduler.boot_group.boot("/top", "k", self.work,
                                        self.results, self.suites)
        with redirect_stderr(io.StringIO()):
            self.assertEqual(list(gen), [])
        for suite in ("a", "b"):
            (test, result, detail), = self.rows(suite)
            self.assertEqual((test, result), (f"{suite}/harness", "fail"))
            self.assertTrue(detail.startswith(
                "kernel k was not prepared: no package linux-image-9 ("),
                detail)
            self.assertIn(f"  k/{suite}: harness error: kernel k",
                          self.summary(suite))

    def test_a_failed_stage_is_a_harness_row_the_others_boot(self):
        d = self.tmp.name
        env = f"{d}/k.env"
        with open(env, "w") as f:
            f.write("KERNEL_NAME=k\nKERNEL_KIND=deb\nKERNEL_RELEASE=6.1.0\n"
                    f"KDIR={d}/kdir\nKMODDIR={d}/mod\nVMLINUZ={d}/vmlinuz\n"
                    "KERNEL_APPEND='a=1 b'\n")
        with open(f"{self.work}/env/k", "w") as f:
            f.write(env + "\n")
        log = f"{self.work}/log/k/a.log"
        gen = scheduler.boot_group.boot("/top", "k", self.work,
                                        self.results, self.suites)
        cmd = next(gen)
        self.assertEqual(cmd, scheduler.boot_group.Command(
            ["/top/ci/run/stage-suite.sh", "k", env, f"{d}/kdir",
             f"{d}/mod", self.suites[0], f"{self.results}/k/a"], log))
        with open(log, "a") as f:
            f.write("error: no module a\n")
        cmd = gen.send(1)
        self.assertEqual(cmd.argv[0], "/top/ci/run/stage-suite.sh")
        os.makedirs(f"{self.results}/k/b")
        cmd = gen.send(0)
        self.assertEqual(cmd, scheduler.boot_group.Command(
            ["/top/ci/run/boot-suites.sh", "k", f"{d}/vmlinuz", "a=1 b",
             f"{self.work}/boot/k/a", f"{self.results}/k/b"], log))
        with self.assertRaises(StopIteration), \
                redirect_stderr(io.StringIO()):
            gen.send(2)
        self.assertEqual(self.rows("a"), [
            ["a/harness", "fail",
             "ci/run/stage-suite.sh failed: error: no module a"]])
        self.assertEqual(self.rows("b")[0][:2], ["b/harness", "fail"])
        self.assertIn("boot-suites.sh failed", self.rows("b")[0][2])
        with open(f"{self.results}/k/kernel.env") as f, open(env) as g:
            self.assertEqual(f.read(), g.read())


if __name__ == "__main__":
    unittest.main()
