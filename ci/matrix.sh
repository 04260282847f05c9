#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/matrix.sh [--selftests] SUITE_FILE...
# Prepare every kernel of $KERNELS (default: all of ci/kernels.list), run
# every suite on every kernel, print the matrix and exit non-zero on any
# unexpected result. --selftests adds the harness self-tests, run on the
# first kernel only (the kmemleak one on the kernels its suite names). Results go to $MNCOMPAT_OUT/results.
set -eu
. "$(dirname "$0")/lib.sh"

selftests=""
if [ "${1:-}" = --selftests ]; then
	selftests="bare clean fail warn hang"
	shift
fi
kernels=$(selected_kernels)
for k in $kernels; do
	kernel_line "$k" >/dev/null
done
for s in "$@"; do
	[ -r "$s" ] || die "no suite file $s"
done

out=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}
results=$out/results
rm -rf "$results"
mkdir -p "$results"
start=$(date +%s)

# Each kernel on its own: a harness failure on one (ci/lib.sh
# run_on_kernel) is a failing row there, the others still run.
first="" harness_failed=""
for k in $kernels; do
	log "kernel $k"
	here=""
	if [ -n "$selftests" ]; then
		# leak.suite names the kernels with kmemleak it runs on.
		here=leak
		if [ -z "$first" ]; then
			first=$k
			here="$selftests leak"
		fi
	fi
	# One run_on_kernel (one kernel preparation) for the suites and the
	# self-tests; the subshell keeps "$@" as given for the next kernel.
	if ! (
		for s in $here; do
			set -- "$@" "$MNCOMPAT_TOP/ci/selftest/$s.suite"
		done
		run_on_kernel "$k" "$results" "$@"
	); then
		harness_failed="$harness_failed $k"
	fi
done

echo
echo "boot seconds (kernel suite seconds status):"
for f in "$results"/*/*/boot-seconds; do
	[ -e "$f" ] || continue
	d=$(dirname "$f")
	echo "  $(basename "$(dirname "$d")") $(basename "$d") $(cat "$f") $(cat "$d/status")"
done
echo "matrix wall time: $(($(date +%s) - start))s"
echo
echo "compat macros set per kernel (compat/configure.sh):"
for k in $kernels; do
	h=$results/$k/compat/mncompat_config.h
	[ -r "$h" ] || continue
	echo "  $k: $(sed -n 's/^#define MNCOMPAT_HAVE_\([A-Z0-9_]*\) 1$/\1/p' "$h" |
		tr '\n' ' ')"
done
echo
rc=0
python3 "$MNCOMPAT_TOP/ci/report.py" "$MNCOMPAT_TOP/ci/expectations" "$results" || rc=$?
# junit.xml, matrix.html, per-kernel console.log and ktap.tap (README: Reports)
"$MNCOMPAT_TOP/ci/write-reports.sh" "$results"
if [ -n "$harness_failed" ]; then
	echo "harness errors on:$harness_failed" >&2
	rc=1
fi
exit "$rc"
