#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/test.sh      (what `make test` and .ci/run run)
# Install what is missing, run the host-side checks, the harness self-tests
# and every sample suite on every kernel, then print one total line.
set -eu
. "$(dirname "$0")/lib.sh"

cd "$MNCOMPAT_TOP"
out=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}
mkdir -p "$out"
# The host's kernel packages, /boot and /lib/modules before anything runs:
# the last part checks the run left them as they were.
"$MNCOMPAT_TOP/ci/checks/host-state.sh" >"$out/host-state.before"
"$MNCOMPAT_TOP/ci/install-deps.sh"
summary=$out/test-summary.log
failed_parts=$out/failed-parts
: >"$summary"
: >"$out/part-seconds.tsv"
: >"$failed_parts"
status=0

# children_cpu: set cpu_now to the CPU seconds (user + system) of every
# process this shell has waited for so far. `times` must run in this
# shell: a command substitution's subshell has no children of its own.
children_cpu() {
	times >"$out/.times${lane:+-$lane}"
	cpu_now=$(sed -n 2p "$out/.times${lane:+-$lane}" | tr 'ms' '  ' |
		awk '{ printf "%.1f\n", $1 * 60 + $2 + $3 * 60 + $4 }')
}

# part NAME CMD...: run one part of the test command, keep its closing
# line; part-seconds.tsv gets its name, wall seconds and CPU seconds. In a
# lane (lane set, parts running side by side), the part's output goes to
# its log, which is shown whole when it ends, and its exit status is
# its own (out/failed-parts); outside a lane the pipeline's status is
# tee's, never the part's, and only the closing line below tells.
part() {
	name=$1
	shift
	log "test part: $name"
	_start=$(date +%s)
	children_cpu
	_cpu=$cpu_now
	if [ -n "${lane:-}" ]; then
		"$@" >"$out/$name.log" 2>&1 || echo "$name" >>"$failed_parts"
		flock "$out/.show.lock" cat "$out/$name.log"
	elif ! "$@" 2>&1 | tee "$out/$name.log"; then
		echo "$name" >>"$failed_parts" # tee itself failed
	fi
	children_cpu
	printf '%s\t%s\t%s\n' "$name" "$(($(date +%s) - _start))" \
		"$(awk -v a="$cpu_now" -v b="$_cpu" 'BEGIN { printf "%.0f", a - b }')" \
		>>"$out/part-seconds.tsv"
	# tee hides the exit status of the part: its closing line tells.
	line=$(grep -oE '^([a-z0-9-]+: )?[0-9]+ passed, [0-9]+ failed' \
		"$out/$name.log" | tail -n 1 | sed 's/^[a-z0-9-]*: //')
	echo "$name: ${line:-0 passed, 1 failed}" >>"$summary"
}

# The unit tier (make unit): the matrix plan, the KTAP/console parser and
# every report writer on recorded runs, the leaf steps' refusals, and the
# mutations that must make them fail; no kernel, no guest.
part unit "$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/tests/unit/unit.py"
part style "$MNCOMPAT_TOP/ci/checks/check-style.sh"
part templates "$MNCOMPAT_TOP/ci/tests/check-templates.sh"
part model "$MNCOMPAT_TOP/drivers-sample/mirror/model/run.sh"
part kernel-patches "$MNCOMPAT_TOP/kernel-patches/check-series.sh" \
	"$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" 6.1)"
# The matrix prepares the kernels (ci/run/matrix.sh); the later parts take
# their handles (env files) from it.
# shellcheck disable=SC2046
part matrix "$MNCOMPAT_TOP/ci/run/matrix.sh" --selftests $(ls drivers-sample/*/*.suite)
# Which suites ran on which packaged kernel (their needs lines).
part cells "$MNCOMPAT_TOP/ci/tests/check-cells.sh" "$out/results"
env_files="" deb_kernels=""
for k in $(selected_kernels); do
	[ -r "$out/work/env/$k" ] || continue
	env_file=$(cat "$out/work/env/$k")
	env_files="$env_files $env_file"
	kernel_fields "$env_file" KERNEL_KIND
	[ "$KERNEL_KIND" != deb ] || deb_kernels="$deb_kernels --kernel $env_file"
done
# Two lanes share the two cores from here: compat's per-kernel checks
# (about 1.8 cores by themselves) in one, the other parts in turn in the
# other (about 1.2 cores on average: each ends on one guest or one
# compile). One after the other they left about 480 core-seconds idle
# (part-seconds.tsv: 2 x wall - CPU, summed). Each lane is a shell of its
# own, so that a part's CPU seconds are its own lane's children only.
(
	lane=compat
	# shellcheck disable=SC2086
	part compat "$MNCOMPAT_TOP/compat/tests/run.sh" $env_files
) &
compat_lane=$!
(
	lane=others
	# The cocci part builds its converted cases against the Debian kernels.
	# shellcheck disable=SC2086
	part cocci "$MNCOMPAT_TOP/semantic-patches/tests/run.sh" $deb_kernels
	# The conversion judged on the real modules of ../shared/corpus/realmods
	# (MNCOMPAT_CORPUS): a named SKIP where that folder is absent.
	part corpus "$MNCOMPAT_TOP/semantic-patches/tests/check-corpus.sh"
	# The conversion against upstream's own hunks on a real pair of trees
	# (make later-breaks runs every pair; here the pair whose trees the
	# run unpacks anyway).
	part later-breaks "$MNCOMPAT_TOP/semantic-patches/check-pairs.sh" 6.1-6.12
	# shellcheck disable=SC2086
	part dkms "$MNCOMPAT_TOP/ci/checks/check-dkms.sh" $env_files
	part driver-matrix "$MNCOMPAT_TOP/ci/tests/check-driver-matrix.sh"
	# Issue 45's faults a user meets by hand: hostile names, the guest's
	# plan as data (one boot on deb-6.12), convert.sh at once, twice,
	# with odd names.
	part faults "$MNCOMPAT_TOP/ci/tests/check-faults.sh"
	part user-kernel "$MNCOMPAT_TOP/ci/tests/check-user-kernel.sh"
	# A module's own warning fails its build on every kbuild (6.13+ too).
	# shellcheck disable=SC2086
	part kbuild-diagnostics "$MNCOMPAT_TOP/ci/tests/check-kbuild-diagnostics.sh" \
		$env_files
	part unprivileged "$MNCOMPAT_TOP/ci/tests/check-unprivileged.sh"
	# The kernel cache under faults: two runs at once, a killed
	# preparation, a full filesystem; make deps and apt's lock.
	part cache-faults "$MNCOMPAT_TOP/ci/tests/check-cache-faults.sh"
	part boot-retry "$MNCOMPAT_TOP/ci/tests/check-boot-retry.sh"
	# The report files of the main matrix and of a driver front end run.
	part reports "$MNCOMPAT_TOP/ci/tests/check-reports.sh" "$out/results" \
		"$out/driver-matrix-tests/shadow/results"
) &
others_lane=$!
wait "$compat_lane" || echo compat-lane >>"$failed_parts"
wait "$others_lane" || echo others-lane >>"$failed_parts"
part host "$MNCOMPAT_TOP/ci/tests/check-host-untouched.sh" \
	"$out/host-state.before"

echo
cat "$summary"
awk '{ p += $2; f += $4 } END { printf "tests: %d passed, %d failed\n", p, f }' \
	"$summary"
if grep -qE ' [1-9][0-9]* failed' "$summary" || [ -s "$failed_parts" ]; then
	status=1
fi
exit "$status"
