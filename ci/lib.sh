# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Common helpers for the ci/ scripts. Source it; do not run it.

MNCOMPAT_TOP=$(cd "$(dirname "$0")/.." && pwd)
MNCOMPAT_CACHE=${MNCOMPAT_CACHE:-/var/cache/mncompat}
KERNELS_LIST=${KERNELS_LIST:-$MNCOMPAT_TOP/ci/kernels.list}
JOBS=${JOBS:-$(nproc)}

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo ">> $*" >&2
}

# kernel_line NAME: print the kernels.list row for NAME, or fail.
kernel_line() {
	awk -v n="$1" '$1 == n && $1 !~ /^#/ { print; found = 1 } END { exit !found }' \
		"$KERNELS_LIST" || die "kernel '$1' is not in $KERNELS_LIST"
}

# kernel_names: every kernel in the matrix, in order.
kernel_names() {
	awk '$1 !~ /^#/ && NF { print $1 }' "$KERNELS_LIST"
}

# selected_kernels: the kernels of $KERNELS (comma or space separated), or
# every kernel of the matrix when it is unset.
selected_kernels() {
	echo "${KERNELS:-$(kernel_names)}" | tr ',' ' '
}

# run_with_progress LOG LABEL CMD...: run CMD with its output in LOG and
# print a line every 30 s so a long step is never silent.
run_with_progress() {
	_log=$1 _label=$2
	shift 2
	"$@" >"$_log" 2>&1 &
	_pid=$!
	_t=0
	while kill -0 "$_pid" 2>/dev/null; do
		sleep 5
		_t=$((_t + 5))
		[ $((_t % 30)) -eq 0 ] &&
			log "$_label: ${_t}s, $(wc -l <"$_log") log lines ($_log)"
	done
	wait "$_pid" || {
		tail -n 30 "$_log" >&2
		die "$_label failed, full log: $_log"
	}
}

# run_on_kernel KERNEL RESULTS SUITE_FILE...: prepare KERNEL and run each
# suite into RESULTS/KERNEL/<suite file name without .suite>. A harness
# failure (kernel not prepared, ci/run-suite.sh failed) leaves that suite a
# failing "harness" row instead of stopping the caller, so the other
# kernels still run; returns 1 after one.
run_on_kernel() {
	_k=$1 _res=$2
	shift 2
	_prepared=yes _rc=0
	"$MNCOMPAT_TOP/ci/prepare-kernel.sh" "$_k" >/dev/null || _prepared=no
	for _s; do
		_dir=$_res/$_k/$(basename "$_s" .suite)
		if [ $_prepared = no ] ||
			! "$MNCOMPAT_TOP/ci/run-suite.sh" "$_k" "$_s" "$_dir"; then
			_rc=1
			mkdir -p "$_dir"
			printf '%s\t%s\t%s/harness\tfail\t%s\n' "$_k" \
				"$(basename "$_dir")" "$(basename "$_dir")" \
				"ci/prepare-kernel.sh or ci/run-suite.sh failed, see the log above" \
				>"$_dir/results.tsv"
		fi
	done
	return $_rc
}
