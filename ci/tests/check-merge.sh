#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-merge.sh WORKDIR
# Per-kernel runs merged by ci/report/merge-results.sh must report what one run
# over both kernels reports: run two small suites on deb-6.1 and deb-6.12
# separately and together (8 short boots), merge the separate ones, and
# compare the text report (but its timings), junit.xml and each ktap.tap
# byte for byte.
set -eu
. "$(dirname "$0")/../lib.sh"
top=$MNCOMPAT_TOP

[ $# -eq 1 ] || die "usage: check-merge.sh WORKDIR"
work=$1
mkdir -p "$work"
suites="$top/ci/run/selftest/clean.suite $top/ci/run/selftest/fail.suite"

# run NAME KERNELS: one matrix run into WORKDIR/NAME.
run() {
	# shellcheck disable=SC2086
	KERNELS=$2 MNCOMPAT_OUT=$work/$1 "$top/ci/run/matrix.sh" $suites \
		>"$work/$1.log" 2>&1 || die "matrix run $1 failed: $work/$1.log"
}
run one-6.1 deb-6.1
run one-6.12 deb-6.12
run both deb-6.1,deb-6.12
rm -rf "$work/merged"
"$top/ci/report/merge-results.sh" "$work/merged" \
	"$work/one-6.1/results" "$work/one-6.12/results" \
	>"$work/merged.txt" 2>"$work/merged.log" ||
	die "merge failed: $work/merged.log"
python3 "$top/ci/report/report.py" "$top/ci/report/expectations" \
	"$work/both/results" >"$work/both.txt"
# The slowest-runs list holds each run's own timings: not compared.
for f in both merged; do
	awk '/^slowest suite runs/ { skip = 1; next } skip && /^  / { next }
		{ skip = 0; print }' "$work/$f.txt" >"$work/$f.cmp"
done

bad=0
same() {
	if cmp -s "$1" "$2"; then
		echo "# same: $2"
	else
		echo "# differs: $1 $2"
		diff "$1" "$2" | head -n 10 | sed 's/^/#   /'
		bad=1
	fi
}
same "$work/both.cmp" "$work/merged.cmp"
same "$work/both/results/junit.xml" "$work/merged/junit.xml"
for k in deb-6.1 deb-6.12; do
	same "$work/both/results/$k/ktap.tap" "$work/merged/$k/ktap.tap"
done
grep -q '^matrix: [1-9][0-9]* passed' "$work/merged.txt" ||
	{ echo "# merged report has no passed cells"; bad=1; }
exit "$bad"
