#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/matrix-prepare.sh KERNEL WORK_DIR   (a step of ci/run/matrix.sh)
# Prepare KERNEL (ci/kernels/prepare-kernel.sh) and keep the path of its env file,
# the kernel's handle, in WORK_DIR/env/KERNEL; on failure leave none (the
# kernel's suite runs then get a failing "harness" row). Log:
# WORK_DIR/log/prepare-KERNEL.log, also shown as it goes.
set -eu
. "$(dirname "$0")/../lib.sh"
# The kernel build has its own -j: not a sub-make of the matrix's.
unset MAKEFLAGS MFLAGS MAKELEVEL

k=$1 work=$2
log=$work/log/prepare-$k.log
# The env path on stdout into a file; the messages (stderr) shown and kept.
{
	rc=0
	phase kernel-prep "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" "$k" 2>&1 \
		>"$work/env/$k.out" || rc=$?
	echo "$rc" >"$work/env/$k.rc"
} | tee "$log" >&2
env_file=$(tail -n 1 "$work/env/$k.out")
if [ "$(cat "$work/env/$k.rc")" -eq 0 ] && [ -r "$env_file" ]; then
	echo "$env_file" >"$work/env/$k"
else
	log "$k: could not be prepared, see $log"
fi
rm -f "$work/env/$k.out" "$work/env/$k.rc"
