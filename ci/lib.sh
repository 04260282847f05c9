# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Common helpers for the ci/ scripts. Source it; do not run it.

# The top of the repository: the nearest directory above the sourcing
# script's that holds ci/lib.sh (one up for ci/*.sh, two up for the stage
# folders ci/kernels/, ci/run/, ci/report/, ci/checks/, for ci/tests/ and
# compat/tests/).
MNCOMPAT_TOP=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$MNCOMPAT_TOP/ci/lib.sh" ] || MNCOMPAT_TOP=$(cd "$MNCOMPAT_TOP/.." && pwd)
# Kernels and other downloads: root's in /var/cache, anyone else's in the
# user's XDG cache.
if [ -z "${MNCOMPAT_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		MNCOMPAT_CACHE=/var/cache/mncompat
	else
		MNCOMPAT_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/mncompat
	fi
fi
KERNELS_LIST=${KERNELS_LIST:-$MNCOMPAT_TOP/ci/kernels/kernels.list}
# When the command began (the outermost kit script sets it, the scripts it
# runs inherit it): the kit's apt state is refreshed once per command
# (ci/kernels/apt-state.sh).
if [ -z "${MNCOMPAT_RUN_START:-}" ]; then
	MNCOMPAT_RUN_START=$(date +%s)
	export MNCOMPAT_RUN_START
fi
# The sbin tools the kit runs need no root (depmod writes a Debian kernel's
# modules.dep in the cache, dkms builds in a private tree), but a stock
# Debian login's PATH (/usr/local/bin:/usr/bin:/bin) has no sbin folder:
# they are added here, once, after the user's own PATH.
for _sbin in /usr/sbin /sbin; do
	case ":$PATH:" in
	*":$_sbin:"*) ;;
	*) PATH=$PATH:$_sbin ;;
	esac
done
export PATH
MNCOMPAT_JOBS=${MNCOMPAT_JOBS:-$(nproc)}
# The Python of the kit's scripts (standard library only): the
# distribution's python3 where there is one. A version manager's shim
# first in PATH (pyenv) costs 0.2 s of every start, and the matrix starts
# one per suite run.
if [ -z "${MNCOMPAT_PYTHON:-}" ]; then
	MNCOMPAT_PYTHON=python3
	[ ! -x /usr/bin/python3 ] || MNCOMPAT_PYTHON=/usr/bin/python3
fi
export MNCOMPAT_PYTHON

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

log() {
	echo ">> $*" >&2
}

# tool_package TOOL: the Debian package that brings TOOL (ci/install-deps.sh
# installs them all).
tool_package() {
	case $1 in
	qemu-system-x86_64) echo qemu-system-x86 ;;
	depmod) echo kmod ;;
	spatch) echo coccinelle ;;
	apt-get) echo apt ;;
	dpkg-deb) echo dpkg ;;
	flock | setpriv) echo util-linux ;;
	timeout | sha256sum) echo coreutils ;;
	xz) echo xz-utils ;;
	*) echo "$1" ;;
	esac
}

# require_tools TOOL...: stop before any work, naming the first TOOL that
# is not on PATH and its package, rather than fail later, half done.
require_tools() {
	for _tool; do
		command -v "$_tool" >/dev/null 2>&1 ||
			die "$_tool: not found on PATH ($PATH); it comes with the Debian package $(tool_package "$_tool"): run once as root: make -C $MNCOMPAT_TOP deps"
	done
}

# write_kernel_env NAME KIND VERSION RELEASE KDIR KSRC KMODDIR VMLINUZ
# [CC_NOTE]: write what a kind's script (get-deb-kernel, build-src-kernel,
# register-user-kernel) found of kernel NAME (CC_NOTE: how its modules'
# compiler differs from the one its tree names) into its env file, the
# kernel's handle (KEY=VALUE lines, written and read only by
# ci/matrix_plan.py: kernel_fields below), in one step; print its path.
# ci/kernels/prepare-kernel.sh then adds the fields of the kernel's
# ci/kernels/kernels.list row.
write_kernel_env() {
	wke_file=$MNCOMPAT_CACHE/kernels/$1.env
	mkdir -p "$MNCOMPAT_CACHE/kernels"
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" write-env "$wke_file" \
		"$@" || exit 1
	echo "$wke_file"
}

# kernel_fields ENV_FILE FIELD...: set the shell variables FIELD... to
# the kernel's values (ci/matrix_plan.py kernel, the one reader of env
# files, prints them a line each; e.g. kernel_fields "$env" KDIR VMLINUZ).
# Read as data: nothing of the file is evaluated as shell.
kernel_fields() {
	_kf=$("$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" kernel "$@") ||
		exit 1
	shift
	read_lines "$_kf" "$@"
}

# read_lines TEXT NAME...: set the variable NAME... to the lines of TEXT,
# one each in order (empty past its end). The names are the caller's, never
# read from TEXT.
read_lines() {
	_rl_text=$1
	shift
	{
		for _rl_name; do
			# shellcheck disable=SC2229 # reads the variable it names
			IFS= read -r "$_rl_name" || :
		done
	} <<EOF
$_rl_text
EOF
}

# check_kernels NAME...: fail unless every NAME is a row of the matrix
# (ci/matrix_plan.py reads ci/kernels/kernels.list).
check_kernels() {
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" check-kernels \
		"$KERNELS_LIST" "$@" || exit 1
}

# kernel_names: every kernel in the matrix, in order.
kernel_names() {
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" names "$KERNELS_LIST"
}

# shown VALUE: VALUE as an error line can carry it, control characters
# (TAB, newline, ...) as '?'.
shown() {
	printf '%s' "$1" | tr '[:cntrl:]' '?'
}

# kbuild_path FORMAT PATH WHY: die unless PATH takes only what kbuild and
# make can carry under it (A-Z a-z 0-9 / . _ + , @ -); the error line is
# FORMAT (one %s: PATH, shown) then ": WHY, and kbuild cannot ...".
kbuild_path() {
	case $2 in
	*[!A-Za-z0-9/._+,@-]*)
		# shellcheck disable=SC2059 # FORMAT is the kit's own
		die "$(printf "$1" "$(shown "$2")"): $3, and kbuild cannot take every name: A-Z a-z 0-9 / . _ + , @ - only"
		;;
	esac
}

# selected_kernels: the kernels of $KERNELS (comma or space separated), or
# every kernel of the matrix when it is unset. A kernel's name is A-Z a-z
# 0-9 . _ -: anything else in KERNELS is refused here, before a shell
# splits it.
selected_kernels() {
	case ${KERNELS:-} in
	*[!A-Za-z0-9._,\ -]*)
		die "KERNELS='$(shown "$KERNELS")': kernel names (A-Z a-z 0-9 . _ -) separated by commas or blanks"
		;;
	esac
	echo "${KERNELS:-$(kernel_names)}" | tr ',' ' '
}

# plain_out DIR: refuse an output directory kbuild and make cannot take
# (modules are built under it): A-Z a-z 0-9 / . _ + , @ - only.
plain_out() {
	kbuild_path "output directory '%s' (MNCOMPAT_OUT)" "$1" "modules are built under it"
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

# phases_on: true when this run times its steps by phase (see phase).
phases_on() {
	[ -n "${MNCOMPAT_PHASES:-}" ] && [ -x /usr/bin/time ]
}

# phase NAME CMD...: run CMD (a program, not a function). With
# $MNCOMPAT_PHASES set (ci/run/matrix.sh sets it to work/phases.tsv of its run),
# also append "NAME<TAB>wall<TAB>user<TAB>sys" (seconds, CMD and everything
# it waited for) to that file: ci/report/phases.py sums them by phase
# (ci/bench/benchmark.sh, README "Timings").
phase() {
	_phase=$1
	shift
	if ! phases_on; then
		"$@"
		return
	fi
	/usr/bin/time -q -f "$_phase	%e	%U	%S" -a -o "$MNCOMPAT_PHASES" "$@"
}

# once_per_run KEY OUT CMD...: run CMD, which fills the directory OUT, once
# per matrix run for KEY. With $MNCOMPAT_RUN_CACHE set (ci/run/matrix.sh sets
# it to a folder of the run), a later call with the same KEY, from any
# cell, waits for the first and gets a copy of its OUT, its stderr and its
# exit status; unset, CMD just runs. Nothing is kept between runs.
once_per_run() {
	_key=$1 _out=$2
	shift 2
	if [ -z "${MNCOMPAT_RUN_CACHE:-}" ]; then
		"$@"
		return
	fi
	mkdir -p "$MNCOMPAT_RUN_CACHE"
	_entry=$MNCOMPAT_RUN_CACHE/$_key
	(
		flock 9
		if [ ! -e "$_entry/status" ]; then
			rm -rf "$_entry"
			mkdir -p "$_entry"
			_rc=0
			"$@" 2>"$_entry/stderr" || _rc=$?
			rm -rf "$_entry/out"
			cp -R "$_out" "$_entry/out" 2>/dev/null || mkdir -p "$_entry/out"
			echo "$_rc" >"$_entry/status"
		else
			rm -rf "$_out"
			mkdir -p "$(dirname "$_out")"
			cp -R "$_entry/out" "$_out"
		fi
	) 9>"$_entry.lock"
	cat "$_entry/stderr" >&2
	return "$(cat "$_entry/status")"
}

# kbuild_verbosity: "V=N" for kbuild when V (make matrix V=1) is 0, 1 or 2,
# nothing when V is unset or empty; any other V dies with one error line.
kbuild_verbosity() {
	case ${V:-} in
	0 | 1 | 2) echo "V=$V" ;;
	"") ;;
	*) die "V='$(shown "$V")': kbuild's verbosity is 0, 1 or 2" ;;
	esac
}

# The cache: kernel build trees live under it and kbuild builds against
# them, so its path takes what MNCOMPAT_OUT takes (A-Z a-z 0-9 / . _ + , @ -);
# a relative one is made absolute here (apt and kbuild would read it from
# other folders).
kbuild_path "MNCOMPAT_CACHE='%s'" "$MNCOMPAT_CACHE" "kernel build trees live under it"
case $MNCOMPAT_CACHE in
/*) ;;
*) MNCOMPAT_CACHE=$(pwd)/$MNCOMPAT_CACHE ;;
esac
export MNCOMPAT_CACHE
