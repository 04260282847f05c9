#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/report/merge-results.sh [--expect FILE] OUT RESULTS_DIR...
# Combine the results dirs of per-kernel matrix runs (one CI job per
# kernel, each with KERNELS=<one>) into OUT: copy every kernel folder, then
# print the text report and write junit.xml, matrix.html, console.log and
# ktap.tap (ci/report/report.py) over all of them, judged with FILE (default
# ci/report/expectations, as ci/run/matrix.sh --expect). OUT must not exist; it
# appears whole or not at all. A kernel found in two inputs is an error.
# Exits like ci/report/report.py: 1 on any unexpected result.
set -eu
. "$(dirname "$0")/../lib.sh"

expect=$MNCOMPAT_TOP/ci/report/expectations
if [ "${1-}" = --expect ]; then
	[ $# -ge 2 ] || die "--expect needs a file"
	expect=$2
	shift 2
fi
[ -r "$expect" ] || die "no expectations file '$expect'"
[ $# -ge 2 ] || die "usage: merge-results.sh [--expect FILE] OUT RESULTS_DIR..."
out=$1
shift
[ ! -e "$out" ] || die "$out exists; merge into a new directory"
tmp=$out.tmp$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"

for dir in "$@"; do
	[ -d "$dir" ] || die "no results directory $dir"
	found=""
	for kdir in "$dir"/*; do
		[ -d "$kdir" ] || continue
		ls "$kdir"/*/results.tsv >/dev/null 2>&1 || continue
		kernel=$(basename "$kdir")
		[ ! -e "$tmp/$kernel" ] || die "kernel $kernel is in two inputs ($dir)"
		cp -R "$kdir" "$tmp/$kernel"
		found="$found $kernel"
	done
	[ -n "$found" ] || die "$dir has no kernel folder with results.tsv"
	log "merge: $dir:$found"
done

rc=0
"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/report/report.py" "$expect" "$tmp" || rc=$?
mv "$tmp" "$out"
trap - EXIT
exit "$rc"
