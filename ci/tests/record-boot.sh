#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/record-boot.sh OUT KERNEL BOOT CASE
# Record one guest boot of a finished matrix run (MNCOMPAT_OUT=OUT) as a
# case of the unit tier: ci/tests/data/boots/CASE/ gets what
# ci/report/parse_run.py reads of the boot (status, ktap.log, console.log,
# boot-seconds, accel, retry, timeout), each suite's plan under
# suites/SUITE/plan, and the run's own results of each suite (results.tsv,
# status, test-seconds, boot-seconds) under expected/SUITE/: what
# parse_run.py must write again from the recorded boot
# (ci/tests/unit/test_parse_run.py). The run's checkout (OUT/..) and the
# kernel cache become /mncompat and /cache, so nothing of this machine is
# kept; a console keeps at most 200 lines between two suite frame lines
# (a 5.12 WARN repeated for a minute is 7000 lines): the test checks that
# the recorded results still follow from what is kept.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || die "usage: record-boot.sh OUT KERNEL BOOT CASE"
out=$1 kernel=$2 boot=$3 case=$4
bootdir=$out/work/boot/$kernel/$boot
[ -d "$bootdir" ] || die "no boot folder $bootdir"
dest=$MNCOMPAT_TOP/ci/tests/data/boots/$case
[ ! -e "$dest" ] || die "$dest exists: remove it first"
# The boot's suites: its line in work/boots ("SLOT KERNEL SUITE_FILE..."),
# the one whose first suite names the boot folder.
suites=$(awk -v k="$kernel" -v b="$boot" '$2 == k {
		n = split($3, p, "/"); first = p[n]; sub(/\.suite$/, "", first)
		if (first != b) next
		for (i = 3; i <= NF; i++) { n = split($i, p, "/"); s = p[n]
			sub(/\.suite$/, "", s); printf "%s ", s }
		exit }' "$out/work/boots")
[ -n "$suites" ] || die "$kernel/$boot is not a boot of $out/work/boots"
mkdir -p "$dest"
checkout=$(cd "$out/.." && pwd)
# keep FILE: FILE's text with this machine's paths replaced.
keep() {
	sed -e "s|$checkout/|/mncompat/|g" -e "s|$MNCOMPAT_CACHE/|/cache/|g" "$1"
}
for f in status ktap.log boot-seconds accel retry timeout; do
	[ ! -e "$bootdir/$f" ] || keep "$bootdir/$f" >"$dest/$f"
done
keep "$bootdir/console.log" | awk '/mncompat-suite-(begin|end) / { n = 0; print; next }
	++n <= 200' >"$dest/console.log"
echo "$kernel" >"$dest/kernel"
for s in $suites; do
	# A suite not for this kernel has no folder (KERNEL/not-run.tsv).
	[ -r "$out/results/$kernel/$s/plan" ] || continue
	mkdir -p "$dest/suites/$s" "$dest/expected/$s"
	keep "$out/results/$kernel/$s/plan" >"$dest/suites/$s/plan"
	for f in results.tsv status test-seconds boot-seconds retry; do
		[ ! -e "$out/results/$kernel/$s/$f" ] ||
			keep "$out/results/$kernel/$s/$f" >"$dest/expected/$s/$f"
	done
done
log "recorded $kernel/$boot ($suites) as $dest"
