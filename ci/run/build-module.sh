#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/build-module.sh KERNEL KDIR MODULE_DIR OUT_DIR [MAKEVAR=VALUE...]
# Build an out-of-tree module against the kernel built in KDIR (KERNEL:
# its name, for the messages) with W=1,
# sparse and -Werror, in a copy under OUT_DIR (the source tree stays clean).
# Any warning or error located in the module's files (or compat/) fails it;
# warnings located in the kernel tree's own headers do not
# (compat/kbuild-diagnostics.sh): they are listed in
# OUT_DIR/kernel-warnings.log.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -ge 4 ] || die "usage: build-module.sh KERNEL KDIR MODULE_DIR OUT_DIR [MAKEVAR=VALUE...]"
kernel=$1 kdir=$2 moddir=$3 outdir=$4
shift 4
[ -r "$moddir/Kbuild" ] || [ -r "$moddir/Makefile" ] ||
	die "$moddir has no Kbuild or Makefile"
rm -rf "$outdir"
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
# Copy the module's own files, not its tests/ or other samples (a link to
# a file, e.g. drivers-sample/devpt's, as the file it names).
find -L "$moddir" -maxdepth 1 -type f -exec cp {} "$outdir/" \;
# Probe the kernel once for compat/ (MNCOMPAT_CONFIG may name a dir shared
# by the suites of a kernel).
config=${MNCOMPAT_CONFIG:-$outdir/compat}
"$MNCOMPAT_TOP/ci/kernels/compat-probes.sh" "$kdir" "$config"
# sparse, timed as a phase of its own when the matrix times phases.
checker=sparse
! phases_on || checker=$MNCOMPAT_TOP/ci/run/sparse-timed.sh
# V (make matrix V=1, kbuild's verbosity: its commands in build.log).
verbose=$(kbuild_verbosity) || exit 1
# build EXTRA_KCFLAGS MAKEVAR...: the module build (-k: every file gets
# compiled, so every diagnostic is in the log).
build() {
	_extra=$1
	shift
	phase kbuild make -k -C "$kdir" M="$outdir" W=1 C=1 -j"$MNCOMPAT_JOBS" \
		CHECK="$checker" \
		KCFLAGS="${KCFLAGS:+$KCFLAGS }$_extra" \
		MNCOMPAT_INCLUDE="$MNCOMPAT_TOP/compat/include" MNCOMPAT_CONFIG="$config" \
		${verbose:+"$verbose"} "$@" modules >"$outdir/build.log" 2>&1
}
# build_failed: show the module's first error (else the log's), fail.
build_failed() {
	whose | awk -F '\t' '$1 == "module" && $2 == "error" { print $4; exit }' |
		grep . >&2 ||
		grep -m1 'error:' "$outdir/build.log" >&2 ||
		grep -m1 'Error' "$outdir/build.log" >&2 || tail -n 5 "$outdir/build.log" >&2
	die "building $moddir for $kernel failed, log: $outdir/build.log"
}
whose() {
	"$MNCOMPAT_TOP/compat/kbuild-diagnostics.sh" "$@" "$kdir" "$outdir" \
		"$outdir/build.log"
}
# The kernel's own headers may warn (-Werror makes it an error) where the
# driver is not at fault: a kernel before 5.0 built with gcc 9+ in its
# <linux/module.h>. Build again with those warnings left warnings; the
# module's own warnings stay errors (and fail below if they are not).
# The first build's log stays as build-werror.log, the flags in no-error.
if ! build "" "$@"; then
	no_error=$(whose --retry-flags) || build_failed
	[ -n "$no_error" ] || build_failed
	mv "$outdir/build.log" "$outdir/build-werror.log"
	echo "$no_error" >"$outdir/no-error"
	build "$no_error" "$@" || build_failed
fi
whose >"$outdir/diagnostics.tsv"
if awk -F '\t' '$1 == "module" { print $4; found = 1 } END { exit !found }' \
	"$outdir/diagnostics.tsv" >&2; then
	die "building $moddir for $kernel gave warnings"
fi
# The kernel's warnings: listed (the matrix shows and counts them).
awk -F '\t' '$1 == "kernel" { print $4 }' "$outdir/diagnostics.tsv" \
	>"$outdir/kernel-warnings.log"
