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
