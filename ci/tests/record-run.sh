#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/record-run.sh RESULTS_DIR NAME KERNEL...
# Record the results of KERNEL... from a finished matrix run's RESULTS_DIR
# as a run of the unit tier: ci/tests/data/runs/NAME/results/ gets what the
# report code (ci/report/results.py and its writers) reads of each suite
# (results.tsv, status, accel, retry, kernel-warnings.log, boot.conf, the seconds
# files, the first 30 lines of console.log) and of each kernel
# (kernel.env, compat/mncompat_config.h, not-run.tsv), and
# ci/tests/data/runs/NAME/expectations a copy of ci/report/expectations.
# Then `ci/tests/unit/run.sh --update` writes what the reports make of
# it under runs/NAME/expected/, to be read and committed. Paths of this
# machine become /mncompat and /cache.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -ge 3 ] || die "usage: record-run.sh RESULTS_DIR NAME KERNEL..."
results=$1 name=$2
shift 2
dest=$MNCOMPAT_TOP/ci/tests/data/runs/$name
[ ! -e "$dest" ] || die "$dest exists: remove it first"
checkout=$(cd "$results/../.." 2>/dev/null && pwd) || checkout=/nonexistent
keep() {
	sed -e "s|$checkout/|/mncompat/|g" -e "s|$MNCOMPAT_CACHE/|/cache/|g" "$1"
}
mkdir -p "$dest/results"
cp "$MNCOMPAT_TOP/ci/report/expectations" "$dest/expectations"
for k; do
	[ -d "$results/$k" ] || die "no results of $k in $results"
	d=$dest/results/$k
	mkdir -p "$d/compat"
	for f in kernel.env not-run.tsv compat/mncompat_config.h; do
		[ ! -e "$results/$k/$f" ] || keep "$results/$k/$f" >"$d/$f"
	done
	for s in "$results/$k"/*/; do
		s=$(basename "$s")
		[ -e "$results/$k/$s/results.tsv" ] || continue
		mkdir -p "$d/$s"
		for f in results.tsv status accel retry kernel-warnings.log boot.conf \
			build-seconds boot-seconds test-seconds; do
			[ ! -e "$results/$k/$s/$f" ] || keep "$results/$k/$s/$f" >"$d/$s/$f"
		done
		[ ! -e "$results/$k/$s/console.log" ] ||
			keep "$results/$k/$s/console.log" | head -n 30 >"$d/$s/console.log"
	done
done
log "recorded $* of $results as $dest"
