# SPDX-License-Identifier: GPL-2.0
"""The shell leaf steps' argument handling and failure paths.

Each step is started as the matrix starts it, with arguments it must
refuse: it exits non-zero with one "usage:" or "error:" line naming the
problem, prints no shell error of its own (a "parameter not set", a
command not found), and writes nothing into the cache or the run's
output (both point into an empty scratch folder).
"""
import os
import re
import subprocess
import tempfile
import unittest

from unit_data import TOP

# (step, arguments, what its message must say)
REFUSALS = [
    ("ci/kernels/get-deb-kernel.sh", [], r"usage: get-deb-kernel\.sh"),
    ("ci/kernels/build-src-kernel.sh", ["src-x"], r"usage: build-src-kernel"),
    ("ci/kernels/register-user-kernel.sh", [], r"usage: register-user"),
    ("ci/kernels/register-user-kernel.sh",
     ["u", "/nonexistent/tree", "/nonexistent/bzImage", "-"],
     r"/nonexistent/tree"),
    ("ci/kernels/compat-probes.sh", [], r"usage: compat-probes\.sh"),
    ("ci/run/build-module.sh", ["k"], r"usage: build-module\.sh"),
    ("ci/run/boot.sh", ["k", "v"], r"usage: boot\.sh"),
    ("ci/run/boot-suites.sh", [], r"usage: boot-suites\.sh"),
    ("ci/run/accel.sh", [], r"usage: accel\.sh"),
    ("ci/run/stage-suite.sh", ["k"], r"usage: stage-suite\.sh"),
    ("ci/run/convert-module.sh", [], r"usage: convert-module\.sh"),
    ("ci/run/convert-module.sh", ["--bogus", "/nonexistent", "/tmp/x"],
     r"--bogus"),
    ("ci/run/matrix.sh", [], r"usage: matrix\.sh"),
    ("ci/run/matrix.sh", ["/nonexistent/x.suite"], r"/nonexistent/x\.suite"),
    ("ci/report/merge-results.sh", [], r"usage: merge-results\.sh"),
    ("compat/configure.sh", [], r"usage: .*KDIR OUTDIR"),
    ("compat/configure.sh", ["/nonexistent/kdir", "OUT"],
     r"/nonexistent/kdir"),
    ("compat/kbuild-diagnostics.sh", [], r"usage: kbuild-diagnostics\.sh"),
    ("semantic-patches/convert.sh", ["/nonexistent/driver"],
     r"/nonexistent/driver"),
]
# What a shell says of itself when a script lost control of its input.
SHELL_ERROR = re.compile(r"parameter not set|not found|unbound variable|"
                         r"Syntax error|No such file or directory$|"
                         r"Traceback")


def scratch_files(root):
    return sorted(os.path.relpath(os.path.join(d, f), root)
                  for d, _, files in os.walk(root) for f in files)


class LeafSteps(unittest.TestCase):
    """One test per refusal (added below)."""

    def refuse(self, step, args, says):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, MNCOMPAT_CACHE=os.path.join(tmp, "cache"),
                       MNCOMPAT_OUT=os.path.join(tmp, "out"))
            run = subprocess.run([os.path.join(TOP, step)] + args, env=env,
                                 cwd=tmp, stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True, timeout=60)
            said = run.stdout + run.stderr
            self.assertNotEqual(run.returncode, 0, f"{step} {args}: {said}")
            # One line says it: "error: ...", "usage: ..." or, as
            # compat/configure.sh and convert.sh word theirs, the step's
            # name first.
            self.assertRegex(said, r"(^|\n)([\w.-]+\.sh: )?((error|usage): )?"
                             r"[^\n]*" + says, f"{step} {args}")
            self.assertRegex(said, r"(^|\n)(([\w.-]+\.sh: )|error: |usage: )")
            self.assertIsNone(SHELL_ERROR.search(said), said)
            left = [f for f in scratch_files(tmp)
                    if not f.startswith(("out/work/log", "out/work/phases"))]
            self.assertEqual(left, [], f"{step} {args} wrote files")


def _add(n, step, args, says):
    def test(self):
        self.refuse(step, args, says)
    test.__doc__ = f"{step} {' '.join(args)}: refused"
    setattr(LeafSteps, f"test_{n:02d}_" + re.sub(r"\W", "_",
            os.path.basename(step)), test)


for _n, (_step, _args, _says) in enumerate(REFUSALS, 1):
    _add(_n, _step, _args, _says)
