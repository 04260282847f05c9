#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run-suite.sh ENV_FILE SUITE_FILE RESULTS_DIR
# Run one suite on the kernel of ENV_FILE (the handle ci/prepare-kernel.sh
# prints): build and stage it (ci/stage-suite.sh, which documents the
# suite file), boot it on its own (ci/boot-suites.sh) and write
# RESULTS_DIR/results.tsv. RESULTS_DIR/build-seconds gets the seconds the
# builds took, boot-seconds those of the guest run, test-seconds the
# guest's own time from the suite's start to its end.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: run-suite.sh ENV_FILE SUITE_FILE RESULTS_DIR"
"$MNCOMPAT_TOP/ci/stage-suite.sh" "$@"
[ -d "$3" ] || exit 0	# not for this kernel
"$MNCOMPAT_TOP/ci/boot-suites.sh" "$1" "$3/boot" "$3"
