#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/matrix.sh [--selftests] [--expect FILE] SUITE_FILE...
# The matrix runner (make matrix, make test, the driver front end): prepare
# every kernel of $KERNELS (default: all of ci/kernels/kernels.list), run each
# suite on every kernel that has what its "needs" lines ask for (checked
# once the kernel is prepared: ci/matrix_plan.py),
# print one line per suite run and the report (ci/report/report.py: text matrix,
# slowest runs, report files), and exit non-zero on any unexpected result.
#   --selftests    add the harness self-tests: bare, clean, fail, warn and
#                  hang on the first kernel, leak where kmemleak is on
#   --expect FILE  judge with FILE instead of ci/report/expectations
# Results go to $MNCOMPAT_OUT/results (the previous ones go first), the
# run's logs, plan and per-run build cache to $MNCOMPAT_OUT/work.
#
# Scheduling (ci/scheduler.py, run by ci/matrix_plan.py run): kernels are
# prepared one at a time, in ci/kernels/kernels.list order (one apt, one
# kernel build at a time; the re-created kernels reuse src-6.1's objects
# through ccache), while the suite runs of the kernels already prepared
# fill $MNCOMPAT_MATRIX_JOBS slots (default: one per CPU), longest first by the
# last run's seconds ($MNCOMPAT_CACHE/suite-seconds, a scheduling hint
# only) or else by the suite's timeout. Every suite run builds and boots:
# only builds that several runs of this matrix run share (a module for
# one kernel and build options, a conversion, a guest test) are done once.
# A kernel that cannot be prepared or a suite the harness refuses gives
# that suite run a failing "harness" row; the others still run. Guests run
# under KVM where it works, else TCG (MNCOMPAT_ACCEL, ci/run/accel.sh).
set -eu
. "$(dirname "$0")/../lib.sh"

selftests="" expect=$MNCOMPAT_TOP/ci/report/expectations
usage="usage: matrix.sh [--selftests] [--expect FILE] SUITE_FILE..."
while [ $# -gt 0 ]; do
	case $1 in
	--selftests)
		selftests="bare clean fail warn hang"
		shift
		;;
	--expect)
		[ $# -ge 2 ] || die "--expect needs a file"
		expect=$2
		shift 2
		;;
	--) shift && break ;;
	-*) die "$usage" ;;
	*) break ;;
	esac
done
# Nothing to run is a usage error, found before the last results go.
[ $# -gt 0 ] || [ -n "$selftests" ] || die "$usage"
kbuild_verbosity >/dev/null || exit 1
[ -r "$expect" ] || die "no expectations file '$expect'"
# The guests' accelerator (ci/run/accel.sh): a wrong MNCOMPAT_ACCEL, or kvm
# without a /dev/kvm this user can open, stops here; whether KVM really
# runs a guest is probed at the first boot.
case ${MNCOMPAT_ACCEL:-auto} in
tcg | auto) ;;
kvm)
	(: <>/dev/kvm) 2>/dev/null ||
		die "MNCOMPAT_ACCEL=kvm, but /dev/kvm cannot be opened read-write by uid $(id -u); unset MNCOMPAT_ACCEL (or set it to tcg) to run under TCG"
	;;
*) die "MNCOMPAT_ACCEL='$MNCOMPAT_ACCEL': give kvm, tcg or auto" ;;
esac
# Every tool a run starts, looked up before any work: one missing from
# PATH (a login's PATH, say) is named here, not as failed cells later.
require_tools apt-get dpkg-deb depmod make gcc sparse ccache cpio gzip xz \
	zstd qemu-system-x86_64 python3 flock timeout spatch bc flex bison perl
kernels=$(selected_kernels)
[ -n "$(echo "$kernels" | tr -d ' ')" ] || die "KERNELS selects no kernel"
# shellcheck disable=SC2086
check_kernels $kernels
suites=""
for s in "$@"; do
	[ -r "$s" ] || die "no suite file $s"
	s=$(cd "$(dirname "$s")" && pwd)/$(basename "$s")
	# $suites and the plan's files ($work/suites, $work/boots) are
	# blank-separated
	case $s in
	*[[:space:][:cntrl:]\'\"\$\\]*)
		die "suite file path '$(shown "$s")': no blanks, quotes, \$, backslash or control characters"
		;;
	esac
	case $(basename "$s" .suite) in
	'' | *[!A-Za-z0-9_.+-]*) die "suite file '$s': its name may have A-Z a-z 0-9 _ . + - only" ;;
	esac
	suites="$suites $s"
done

out=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}
plain_out "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
results=$out/results work=$out/work
rm -rf "$results" "$work"
mkdir -p "$results" "$work/env" "$work/log" "$work/summary"
hints=$MNCOMPAT_CACHE/suite-seconds
start=$(date +%s)

MNCOMPAT_RUN_CACHE=$work/cache
# Seconds by phase, CPU and wall (ci/lib.sh phase, ci/report/phases.py).
MNCOMPAT_PHASES=$work/phases.tsv
export MNCOMPAT_RUN_CACHE MNCOMPAT_PHASES
# The plan and its run, one program (ci/matrix_plan.py run, ci/scheduler.py):
# every suite on every kernel, as a kernel's properties are known only
# once it is prepared (ci/run/stage-suite.sh then leaves out a suite whose
# needs the kernel does not meet; its boot goes on with the others),
# "kernel group cost suite" a line in $work/suites. Suites of a kernel
# that share their qemu and append lines share one boot, unless a suite
# says "alone" or takes more than the default 300 s timeout: "cost kernel
# suite..." a line in $work/boots, the longest first. The steps write
# failing rows for what fails in them; a step that fails itself is a
# harness bug, reported at the end (the others still run). Then it prints
# the suite runs' lines, the suites not for a kernel and compat's macros
# per kernel, and keeps this run's seconds per suite run in $hints, the
# next run's scheduling hints.
plan_rc=0
# shellcheck disable=SC2086
"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" run "$work" "$results" \
	"$hints" "$kernels" "$selftests" "${MNCOMPAT_MATRIX_JOBS:-$(nproc)}" \
	$suites || plan_rc=$?
[ "$plan_rc" -ne 2 ] || die "could not plan the run (ci/matrix_plan.py)"

echo
rc=0
phase reports "$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/report/report.py" "$expect" "$results" || rc=$?
echo "$(($(date +%s) - start))" >"$work/seconds"
# This shell's and all its children's CPU seconds (ci/report/phases.py: the
# share no phase accounts for).
times >"$work/times"
if [ "$plan_rc" -ne 0 ]; then
	echo "harness: ci/matrix_plan.py run failed (see above and $work/log)" >&2
	rc=1
fi
exit "$rc"
