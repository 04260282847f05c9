#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/bench/benchmark.sh [warm] [driver] [cold]   (default: warm driver)
# Time the kit's front doors on this machine and print each figure with
# its ratio to the previous benchmark's figure of the same name (kept in
# $MNCOMPAT_CACHE/benchmark.tsv; README "Timings" has the current figures, TIMINGS.md every one):
#   warm    make matrix: every sample suite on every kernel, kernels cached
#   driver  make matrix DRIVER=drivers-sample/shadow TESTS=.../tests
#           KERNELS=deb-6.1,deb-6.12, kernels cached
#   cold    make test with an empty kernel cache (a new MNCOMPAT_CACHE,
#           removed afterwards; tool packages stay installed): every
#           kernel downloaded or built, then every part of the tests
# Each run writes into its own MNCOMPAT_OUT under out/benchmark/. A figure
# is recorded only when its run succeeded; a failed run prints its log.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -gt 0 ] || set -- warm driver
for what; do
	case $what in
	warm | driver | cold) ;;
	*) die "usage: benchmark.sh [warm] [driver] [cold]" ;;
	esac
done
out=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/benchmark
mkdir -p "$out" "$MNCOMPAT_CACHE"
record=$MNCOMPAT_CACHE/benchmark.tsv
commit=$(git -C "$MNCOMPAT_TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)

# measure NAME CMD...: time CMD, print and record the figure.
measure() {
	name=$1
	shift
	log "benchmark $name: $*"
	start=$(date +%s)
	rc=0
	"$@" >"$out/$name.log" 2>&1 || rc=$?
	secs=$(($(date +%s) - start))
	if [ "$rc" -ne 0 ]; then
		tail -n 40 "$out/$name.log"
		die "benchmark $name failed (exit $rc) after ${secs}s: $out/$name.log"
	fi
	prev=$(awk -F '\t' -v n="$name" '$1 == n { s = $2 } END { print s }' \
		"$record" 2>/dev/null || true)
	ratio=""
	[ -z "$prev" ] ||
		ratio=$(awk -v a="$secs" -v b="$prev" 'BEGIN { printf ", %.2fx the previous %ds", a / b, b }')
	printf '%-7s %5ds (%dm%02ds)%s\n' "$name" "$secs" $((secs / 60)) \
		$((secs % 60)) "$ratio"
	printf '%s\t%s\t%s\t%s\n' "$name" "$secs" "$(date -u +%Y-%m-%dT%H:%MZ)" \
		"$commit" >>"$record"
	# Where the time went (README "Timings"): the matrix's phases, and for
	# the test command its parts.
	[ ! -r "$out/$name/work/phases.tsv" ] ||
		python3 "$MNCOMPAT_TOP/ci/report/phases.py" "$out/$name"
	[ ! -r "$out/$name/part-seconds.tsv" ] ||
		awk -F '\t' 'BEGIN { print "part            wall s  CPU s" } { printf "  %-15s %5d  %5d\n", $1, $2, $3 }' \
			"$out/$name/part-seconds.tsv"
}

cd "$MNCOMPAT_TOP"
for what; do
	case $what in
	warm)
		"$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" >/dev/null
		# shellcheck disable=SC2046
		MNCOMPAT_OUT=$out/warm measure warm \
			"$MNCOMPAT_TOP/ci/run/matrix.sh" $(ls drivers-sample/*/*.suite)
		;;
	driver)
		KERNELS=deb-6.1,deb-6.12 "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" >/dev/null
		KERNELS=deb-6.1,deb-6.12 MNCOMPAT_OUT=$out/driver measure driver \
			"$MNCOMPAT_TOP/ci/run/driver-matrix.sh" drivers-sample/shadow \
			drivers-sample/shadow/tests
		;;
	cold)
		cache=/var/tmp/mncompat-benchmark-cold
		rm -rf "$cache"
		MNCOMPAT_CACHE=$cache MNCOMPAT_OUT=$out/cold measure cold \
			"$MNCOMPAT_TOP/ci/test.sh"
		rm -rf "$cache"
		;;
	esac
done
