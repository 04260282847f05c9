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

first=""
for k in $kernels; do
	log "kernel $k"
	"$MNCOMPAT_TOP/ci/prepare-kernel.sh" "$k" >/dev/null
	for s in "$@"; do
		"$MNCOMPAT_TOP/ci/run-suite.sh" "$k" "$s" \
			"$results/$k/$(basename "$s" .suite)"
	done
	if [ -n "$selftests" ]; then
		# leak.suite names the kernels with kmemleak it runs on.
		here=leak
		if [ -z "$first" ]; then
			first=$k
			here="$selftests leak"
		fi
		for s in $here; do
			"$MNCOMPAT_TOP/ci/run-suite.sh" "$k" \
				"$MNCOMPAT_TOP/ci/selftest/$s.suite" "$results/$k/$s"
		done
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
exit "$rc"
