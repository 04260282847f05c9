# SPDX-License-Identifier: GPL-2.0
"""RESULTS_DIR/<kernel>/console.log: the console logs of a kernel's
suites, in byte order of their names, each after a line
"===== mncompat: KERNEL/SUITE console.log (status: STATUS) =====".
"""
import os

import results


def write(results_dir, cells):
    for kernel in results.ordered(c.kernel for c in cells):
        kdir = os.path.join(results_dir, kernel)
        out = []
        for suite in sorted(os.listdir(kdir)):
            sdir = os.path.join(kdir, suite)
            if not os.path.isfile(os.path.join(sdir, "results.tsv")):
                continue
            status = results.read_text(os.path.join(sdir, "status"),
                                       "not booted\n").strip()
            out.append(f"===== mncompat: {kernel}/{suite} console.log "
                       f"(status: {status}) =====\n")
            console = results.read_text(os.path.join(sdir, "console.log"))
            if console and not console.endswith("\n"):
                console += "\n"
            out.append(console)
        results.write_atomic(os.path.join(kdir, "console.log"), "".join(out))
