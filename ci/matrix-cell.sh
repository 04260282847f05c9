#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/matrix-cell.sh KERNEL SUITE_FILE RUN_DIR RESULTS_DIR
# (a step of ci/matrix.sh) Run one suite on one prepared kernel into
# RESULTS_DIR/KERNEL/SUITE with ci/run-suite.sh, its log in
# RUN_DIR/log/KERNEL/SUITE.log. When the kernel was not prepared or the
# harness fails, the suite run gets one failing "harness" row. Writes the
# run's summary line to RUN_DIR/summary/KERNEL/SUITE and shows it.
set -eu
. "$(dirname "$0")/lib.sh"
# Module builds have their own -j: not sub-makes of the matrix's.
unset MAKEFLAGS MFLAGS MAKELEVEL

k=$1 suite_file=$2 run=$3 results=$4
suite=$(basename "$suite_file" .suite)
dir=$results/$k/$suite
log=$run/log/$k/$suite.log
mkdir -p "$run/log/$k" "$run/summary/$k"
harness=""
if [ ! -s "$run/env/$k" ]; then
	harness="kernel $k was not prepared (ci/prepare-kernel.sh), see $run/log/prepare-$k.log"
elif ! "$MNCOMPAT_TOP/ci/run-suite.sh" "$(cat "$run/env/$k")" "$suite_file" \
	"$dir" >"$log" 2>&1; then
	harness="ci/run-suite.sh failed: $(grep -m1 '^error:' "$log" || tail -n 1 "$log")"
fi
if [ -n "$harness" ]; then
	mkdir -p "$dir"
	printf '%s\t%s\t%s/harness\tfail\t%s\n' "$k" "$suite" "$suite" \
		"$harness" >"$dir/results.tsv"
	summary="harness error: $harness"
elif build=$(awk -F '\t' '$3 ~ /\/build:/ && $4 == "fail" { print $5; f = 1; exit }
	END { exit !f }' "$dir/results.tsv"); then
	summary="build failed: $build"
elif [ "$(cat "$dir/status" 2>/dev/null)" = timeout ]; then
	summary="timeout after $(awk '$1 == "timeout" { t = $2 } END { print t ? t : 300 }' \
		"$suite_file")s in $(awk -F '\t' '$4 == "timeout" && $5 == "never finished" { print $3; exit }' \
		"$dir/results.tsv")"
else
	summary="$(awk -F '\t' '$4 == "pass" { p++ } $4 != "pass" { f++ }
		END { printf "%d pass, %d not pass", p, f }' "$dir/results.tsv")"
fi
secs=$(cat "$dir/build-seconds" "$dir/boot-seconds" 2>/dev/null |
	awk '{ t += $1 } END { printf "%.1f", t }')
echo "  $k/$suite: $summary (${secs}s)" >"$run/summary/$k/$suite"
log "$k/$suite: $summary (${secs}s)"
