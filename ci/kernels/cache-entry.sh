# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# How a cache entry (a Debian kernel, a source tree, a built kernel) is
# prepared: under a lock, aside, checked, then renamed into place. Source
# it after ci/lib.sh; do not run it.
#   cache_lock FILE WHAT   hold an exclusive lock on FILE until the script
#                          ends: a second run preparing the same entry waits
#                          (and says so), then finds it ready and uses it
#   entry_aside FINAL      make entry_tmp, an empty folder next to FINAL
#                          (.NAME.tmp-PID), where the entry is prepared;
#                          what an interrupted run left there goes first (the
#                          lock says no one else is at it), and entry_tmp
#                          goes when this script stops before publishing it
#   entry_run LOG WHAT CMD...  run a step of the preparation, its output in a
#                          file outside the cache (a full cache filesystem
#                          must not lose it), kept as LOG (or dropped: -);
#                          a line every 30 s while it runs; when it fails:
#                          one error line naming a full filesystem and what
#                          is free, else the end of its output and an
#                          error line, and entry_tmp removed
#   entry_publish FINAL    rename entry_tmp to FINAL: a reader sees no entry
#                          or a whole one, never a part; a FINAL that failed
#                          its check goes first

# cache_lock FILE WHAT: see above (fd 9; the programs this script runs
# inherit it, so the lock lasts until the last of them ends).
cache_lock() {
	mkdir -p "$(dirname "$1")" 2>/dev/null ||
		die "cannot create $(dirname "$1") (MNCOMPAT_CACHE=$MNCOMPAT_CACHE)"
	exec 9>"$1" || die "cannot open the lock $1"
	if ! flock -n 9; then
		log "$2: another run is preparing it; waiting for its lock ($1)"
		flock 9
		log "$2: the other run is done"
	fi
}

# cache_free DIR: the space left on DIR's filesystem, human-readable.
cache_free() {
	df -Ph "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'
}

entry_tmp=""
# entry_cleanup: remove entry_tmp (at exit, unless published).
entry_cleanup() {
	[ -z "$entry_tmp" ] || rm -rf "$entry_tmp"
	entry_tmp=""
}

# entry_interrupted: a signal stops the step running and the script (its
# EXIT trap removes entry_tmp).
_er_pid="" _er_ticker=""
entry_interrupted() {
	[ -z "$_er_pid" ] || kill "$_er_pid" 2>/dev/null
	[ -z "$_er_ticker" ] || kill -USR1 "$_er_ticker" 2>/dev/null
	exit 1
}

# entry_aside FINAL: see above.
entry_aside() {
	_parent=$(dirname "$1") _base=$(basename "$1")
	for _old in "$_parent/.$_base".tmp-*; do
		[ -e "$_old" ] || continue
		log "removing what an interrupted preparation left: $_old"
		rm -rf "$_old"
	done
	mkdir -p "$_parent" 2>/dev/null ||
		die "cannot create $_parent ($(cache_free "$(dirname "$_parent")") free)"
	trap entry_cleanup EXIT
	trap entry_interrupted HUP INT TERM
	# (mkdir, not mktemp -d: the entry gets the umask's mode, as the rest
	# of the cache, not 0700; the earlier ones of the lock are gone above)
	entry_tmp=$_parent/.$_base.tmp-$$
	mkdir "$entry_tmp" 2>/dev/null || {
		entry_tmp=""
		die "cannot create a folder in $_parent ($(cache_free "$_parent") free)"
	}
}

# entry_run LOG WHAT CMD...: see above.
entry_run() {
	_er_log=$1 _er_what=$2
	shift 2
	_er_out=$(mktemp "${TMPDIR:-/tmp}/mncompat-step.XXXXXX")
	"$@" >"$_er_out" 2>&1 &
	_er_pid=$!
	# The ticker, stopped by SIGUSR1 (dash loses a SIGTERM that comes
	# before the subshell's own trap while the script traps SIGTERM); its
	# sleep holds no lock and no output of the caller's open.
	(
		exec 9>&- >/dev/null
		_er_t=0 _er_sleep=""
		trap 'kill "$_er_sleep" 2>/dev/null; exit 0' USR1
		while :; do
			sleep 30 >/dev/null 2>&1 &
			_er_sleep=$!
			wait "$_er_sleep"
			_er_t=$((_er_t + 30))
			log "$_er_what: ${_er_t}s, $(wc -l <"$_er_out") log lines ($_er_out)"
		done
	) &
	_er_ticker=$!
	_er_rc=0
	wait "$_er_pid" || _er_rc=$?
	kill -USR1 "$_er_ticker" 2>/dev/null || true
	wait "$_er_ticker" 2>/dev/null || true
	_er_pid="" _er_ticker=""
	if [ "$_er_rc" -ne 0 ]; then
		if grep -q 'No space left on device\|Disk quota exceeded' "$_er_out"; then
			_er_dir=$(dirname "${entry_tmp:-$MNCOMPAT_CACHE/.}")
			entry_cleanup
			rm -f "$_er_out"
			die "no space left on the cache filesystem ($_er_dir) while $_er_what; the partial tree is removed ($(cache_free "$_er_dir") free now): free some, or set MNCOMPAT_CACHE elsewhere"
		fi
		tail -n 30 "$_er_out" >&2
		entry_cleanup
		die "$_er_what failed, its output: $_er_out"
	fi
	if [ "$_er_log" = - ]; then
		rm -f "$_er_out"
	else
		# (a new file, with the umask's mode: the step's is 0600)
		cat "$_er_out" >"$_er_log" 2>/dev/null || true
		rm -f "$_er_out"
	fi
}

# entry_publish FINAL: see above.
entry_publish() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		mv -T "$1" "$entry_tmp.old" && rm -rf "$entry_tmp.old"
	fi
	mv -T "$entry_tmp" "$1" || die "cannot rename $entry_tmp to $1"
	entry_tmp=""
}
