#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-cells.sh RESULTS_DIR
# Which suites ran where (the "needs" lines of the suites,
# ci/matrix_plan.py, against each kernel's properties):
#   cells      for each packaged kernel of RESULTS_DIR (a run of every
#              suite with --selftests, make test's matrix part), the suites
#              that ran are those of ci/tests/fixtures/packaged-cells (the
#              self-tests of the first kernel aside), no more, no fewer
#   the words  ci/matrix_plan.py needs on a made-up kernel: all words of a line,
#              any line, !, |, release>=, behaviours (NAME=VALUE, an
#              unknown one meets no value), and a misspelt word, an
#              unknown behaviour value or a negated behaviour is an error
# Output: "ok N - ...", then "cells: N passed, M failed".
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

[ $# -eq 1 ] || die "usage: check-cells.sh RESULTS_DIR"
results=$1
fixture=$MNCOMPAT_TOP/ci/tests/fixtures/packaged-cells
work=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/cells-tests
rm -rf "$work"
mkdir -p "$work"

for kdir in "$results"/*/; do
	k=$(basename "$kdir")
	grep -q "^$k " "$fixture" || {
		echo "# $k: not a packaged kernel of $fixture, not compared"
		continue
	}
	for d in "$kdir"*/; do
		s=$(basename "$d")
		[ -e "$d/results.tsv" ] || continue
		case $s in
		bare | clean | fail | warn | hang) continue ;;
		esac
		echo "$s"
	done | sort >"$work/$k.ran"
	awk -v k="$k" '$1 == k { print $2 }' "$fixture" | sort >"$work/$k.want"
	if diff "$work/$k.want" "$work/$k.ran" >"$work/$k.diff"; then
		ok "$k: the $(wc -l <"$work/$k.ran") suites of $(basename "$fixture")"
	else
		not_ok "$k: other suites than $(basename "$fixture") says (< missing, > extra)" "$work/$k.diff"
	fi
done

# needs WANT LINE...: a suite of the needs LINEs on the made-up kernel;
# ci/matrix_plan.py needs must exit WANT.
props=$work/props
printf '%s\n' kind=user release=4.12.4 invalidate_page CONFIG_NUMA kmemleak \
	failed-start=cannot-fail tlb-hook=core itree=unknown >"$props"
needs() {
	_want=$1
	shift
	printf 'needs %s\n' "$@" >"$work/t.suite"
	_rc=0
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" needs "$work/t.suite" \
		"$props" >"$work/t.out" 2>&1 || _rc=$?
	if [ "$_rc" -eq "$_want" ]; then
		ok "needs $(printf '%s; ' "$@")exit $_want"
	else
		not_ok "needs $(printf '%s; ' "$@")exit $_rc, want $_want" "$work/t.out"
	fi
}
needs 0 "invalidate_page CONFIG_NUMA kmemleak kind=user"
needs 1 "invalidate_page mmu_interval_notifier"
needs 0 "!mmu_interval_notifier !recreated"
needs 1 "!invalidate_page"
needs 0 "arch_invalidate_secondary_tlbs|invalidate_page"
needs 0 "release>=4.12 !release>=4.13"
needs 1 "release>=5.4"
needs 0 "recreated=4.11-4.12" "CONFIG_KSM|kmemleak"
needs 1 "recreated" "CONFIG_KSM"
needs 2 "invalidate_pgae"
needs 2 "recreated=4.99-fix"
needs 2 "release>=five"
needs 0 "failed-start=cannot-fail|failed-start=no-end tlb-hook=core"
needs 1 "failed-start=end-all|failed-start=no-end"
needs 1 "itree=none|itree=one-pass|itree=two-pass"
needs 2 "!failed-start=end-all"
needs 2 "tlb-hook=wide"
needs 2 "itree=unknown"
printf 'kernels deb-6.1\n' >"$work/k.suite"
echo "KERNEL_NAME=made-up" >"$work/k.env"
if ! "$MNCOMPAT_TOP/ci/run/stage-suite.sh" made-up "$work/k.env" "$work/nowhere" "" \
	"$work/k.suite" "$work/k/made-up/k" >"$work/k.out" 2>&1 &&
	grep -q "a suite says what it needs of a kernel ('needs' lines), not which kernels" "$work/k.out"; then
	ok "a kernels line is refused, with what to write instead"
else
	not_ok "a kernels line is not refused" "$work/k.out"
fi
tap_end cells
