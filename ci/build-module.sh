#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/build-module.sh ENV_FILE MODULE_DIR OUT_DIR [MAKEVAR=VALUE...]
# Build an out-of-tree module against the kernel of ENV_FILE with W=1,
# sparse and -Werror, in a copy under OUT_DIR (the source tree stays clean).
set -eu
. "$(dirname "$0")/lib.sh"

env_file=$1 moddir=$2 outdir=$3
shift 3
# shellcheck disable=SC1090
. "$env_file"
[ -r "$moddir/Kbuild" ] || [ -r "$moddir/Makefile" ] ||
	die "$moddir has no Kbuild or Makefile"
rm -rf "$outdir"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
# Copy the module's own files, not its tests/ or other samples.
find "$moddir" -maxdepth 1 -type f -exec cp {} "$outdir/" \;
# Probe the kernel once for compat/ (MNCOMPAT_CONFIG may name a dir shared
# by the suites of a kernel, which may build at the same time).
config=${MNCOMPAT_CONFIG:-$outdir/compat}
mkdir -p "$(dirname "$config")"
(
	flock 9
	if [ ! -r "$config/mncompat_config.h" ]; then
		"$MNCOMPAT_TOP/compat/configure.sh" "$KDIR" "$config" \
			>"$outdir/configure.log" 2>&1 || {
			cat "$outdir/configure.log" >&2
			die "compat probes failed for $KERNEL_NAME"
		}
	fi
) 9>"$config.lock"
make -C "$KDIR" M="$outdir" W=1 C=1 -j"$JOBS" \
	MNCOMPAT_INCLUDE="$MNCOMPAT_TOP/compat/include" MNCOMPAT_CONFIG="$config" \
	"$@" modules >"$outdir/build.log" 2>&1 || {
	grep -m1 'error:' "$outdir/build.log" >&2 ||
		grep -m1 'Error' "$outdir/build.log" >&2 || tail -n 5 "$outdir/build.log" >&2
	die "building $moddir for $KERNEL_NAME failed, log: $outdir/build.log"
}
if grep -q 'warning:' "$outdir/build.log"; then
	grep 'warning:' "$outdir/build.log" >&2
	die "building $moddir for $KERNEL_NAME gave warnings"
fi
