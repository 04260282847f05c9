#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/boot-group.sh KERNEL WORK_DIR RESULTS_DIR SUITE_FILE...
# (a step of ci/run/matrix.sh) Run suites on one prepared kernel in one guest
# boot: stage each (ci/run/stage-suite.sh) into RESULTS_DIR/KERNEL/SUITE, boot
# them together (ci/run/boot-suites.sh, the boot's own logs in
# WORK_DIR/boot/KERNEL/FIRST_SUITE), log in WORK_DIR/log/KERNEL/FIRST_SUITE.log.
# When the kernel was not prepared or the harness fails on a suite, that
# suite gets one failing "harness" row. Writes one summary line per suite
# to WORK_DIR/summary/KERNEL/SUITE and shows it.
set -eu
. "$(dirname "$0")/../lib.sh"
# Module builds have their own -j: not sub-makes of the matrix's.
unset MAKEFLAGS MFLAGS MAKELEVEL

k=$1 work=$2 results=$3
shift 3
first=$(basename "$1" .suite)
log=$work/log/$k/$first.log
bootdir=$work/boot/$k/$first
mkdir -p "$work/log/$k" "$work/summary/$k"
: >"$log"

# harness_row SUITE WHY: the suite's only result, a failing harness row.
harness_row() {
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/report/results.py" fail-rows \
		"$results/$k/$1" "$k" "$1" harness "$2"
}

env_file=$(cat "$work/env/$k" 2>/dev/null || true)
if [ -n "$env_file" ]; then
	# What the leaf scripts need of the kernel, asked once per boot.
	kernel_fields "$env_file" KDIR KMODDIR VMLINUZ KERNEL_APPEND
	# The kernel's env file beside its results (ci/report/results.py reads what
	# the kernel lacks there); written whole, as other boots may too.
	mkdir -p "$results/$k"
	cp "$env_file" "$results/$k/kernel.env.tmp$$"
	mv "$results/$k/kernel.env.tmp$$" "$results/$k/kernel.env"
fi
dirs=""
for s; do
	suite=$(basename "$s" .suite)
	if [ -z "$env_file" ]; then
		harness_row "$suite" "kernel $k was not prepared: $(grep '^error:' \
			"$work/log/prepare-$k.log" | tail -n 1 | sed 's/^error: //') (ci/kernels/prepare-kernel.sh, log: $work/log/prepare-$k.log)"
	elif ! "$MNCOMPAT_TOP/ci/run/stage-suite.sh" "$k" "$env_file" "$KDIR" \
		"$KMODDIR" "$s" "$results/$k/$suite" >>"$log" 2>&1; then
		harness_row "$suite" "ci/run/stage-suite.sh failed: $(grep '^error:' "$log" | tail -n 1)"
	elif [ -d "$results/$k/$suite" ]; then
		# (One not for this kernel has its line in KERNEL/not-run.tsv.)
		dirs="$dirs $results/$k/$suite"
	fi
done
# shellcheck disable=SC2086
if [ -n "$dirs" ] && ! "$MNCOMPAT_TOP/ci/run/boot-suites.sh" "$k" "$VMLINUZ" \
	"$KERNEL_APPEND" "$bootdir" $dirs >>"$log" 2>&1; then
	for d in $dirs; do
		[ -e "$d/results.tsv" ] ||
			harness_row "$(basename "$d")" "ci/run/boot-suites.sh failed: $(grep '^error:' "$log" | tail -n 1)"
	done
fi

for s; do
	suite=$(basename "$s" .suite)
	dir=$results/$k/$suite
	[ -d "$dir" ] || continue
	summary=$("$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/report/results.py" suite-line "$dir" "$bootdir")
	echo "  $k/$suite: $summary" >"$work/summary/$k/$suite"
	log "$k/$suite: $summary"
done
