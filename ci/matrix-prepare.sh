#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/matrix-prepare.sh KERNEL RUN_DIR   (a step of ci/matrix.sh)
# Prepare KERNEL (ci/prepare-kernel.sh) and keep the path of its env file,
# the kernel's handle, in RUN_DIR/env/KERNEL; on failure leave none (the
# kernel's suite runs then get a failing "harness" row). Log:
# RUN_DIR/log/prepare-KERNEL.log, also shown as it goes.
set -eu
. "$(dirname "$0")/lib.sh"
# The kernel build has its own -j: not a sub-make of the matrix's.
unset MAKEFLAGS MFLAGS MAKELEVEL

k=$1 run=$2
log=$run/log/prepare-$k.log
# The env path on stdout into a file; the messages (stderr) shown and kept.
{
	rc=0
	"$MNCOMPAT_TOP/ci/prepare-kernel.sh" "$k" 2>&1 >"$run/env/$k.out" || rc=$?
	echo "$rc" >"$run/env/$k.rc"
} | tee "$log" >&2
env_file=$(tail -n 1 "$run/env/$k.out")
if [ "$(cat "$run/env/$k.rc")" -eq 0 ] && [ -r "$env_file" ]; then
	echo "$env_file" >"$run/env/$k"
else
	log "$k: could not be prepared, see $log"
fi
rm -f "$run/env/$k.out" "$run/env/$k.rc"
