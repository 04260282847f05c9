#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/write-reports.sh RESULTS_DIR
# Write the report files of a matrix run (see README "Reports"):
#   RESULTS_DIR/<kernel>/console.log  its suites' console logs, one header
#                                     line per suite
#   RESULTS_DIR/<kernel>/ktap.tap     ci/write_ktap.py
#   RESULTS_DIR/junit.xml             ci/write_junit.py
#   RESULTS_DIR/matrix.html           ci/write_html.py
# Verdicts come from $EXPECTATIONS (default ci/expectations).
set -eu
. "$(dirname "$0")/lib.sh"
# Suites in byte order, as ci/report.py lists them.
export LC_ALL=C

[ $# -eq 1 ] || die "usage: write-reports.sh RESULTS_DIR"
results=$1
[ -d "$results" ] || die "no results directory $results"
expectations=${EXPECTATIONS:-$MNCOMPAT_TOP/ci/expectations}

for kdir in "$results"/*/; do
	kdir=${kdir%/}
	[ -d "$kdir" ] || continue
	kernel=$(basename "$kdir")
	tmp=$kdir/console.log.tmp$$
	: >"$tmp"
	for sdir in "$kdir"/*; do
		[ -e "$sdir/results.tsv" ] || continue
		suite=$(basename "$sdir")
		echo "===== mncompat: $kernel/$suite console.log (status:" \
			"$(cat "$sdir/status" 2>/dev/null || echo "not booted")) =====" >>"$tmp"
		if [ -e "$sdir/console.log" ]; then
			awk 1 "$sdir/console.log" >>"$tmp"	# ends in a newline
		fi
	done
	mv "$tmp" "$kdir/console.log"
done

for writer in write_ktap write_junit write_html; do
	python3 "$MNCOMPAT_TOP/ci/$writer.py" "$expectations" "$results"
done
log "reports: $results/junit.xml, $results/matrix.html, $results/*/ktap.tap"
