#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/convert.sh [--apply] [--native | --atomic | --compat] [--to GEN]
#                                    [--jobs N] [--quiet] [--] DIR|FILE
#
# Move the MMU-notifier code under DIR (or one FILE) to a newer kernel API
# by running the semantic patches listed in "series" in order, up to and
# including generation GEN (4.13, 4.19, 5.0, 6.6, 6.10, 6.15, 7.1; default:
# all, i.e. the 7.3 API; --to 6.10 gives the 6.12 API).
#
# Dry run by default: prints a unified diff and a report (files changed,
# callbacks converted, items needing review, files that need nothing) and
# changes nothing.
# --apply   write the changed files, all or none: each through a temporary
#           file in its own directory and a rename; if one target is
#           read-only, in a read-only directory, or was changed since it
#           was read, or on INT/TERM/HUP or an error while writing, every
#           file is left as it was.  A reader of the output that goes away
#           (convert.sh --apply DIR | head) does not stop the writing: the
#           files are written and stderr says so.
# --native  the newest API as upstream has it, no compat header (the
#           default; the flag says so where a caller names the mode).
# --atomic  a notifier with only invalidate_page gets the non-sleeping
#           invalidate_range callback instead of invalidate_range_start/end.
# --compat  the result builds with <mncompat/mmu_notifier.h> on every
#           kernel: as --atomic for callbacks that cannot sleep (those that
#           may get the range callbacks, refused by compat before 4.13), an
#           invalidate_page next to range callbacks is kept as the
#           secondary-TLB hook where that is safe, and mn-compat-ops.cocci
#           then declares each table with MNCOMPAT_MMU_NOTIFIER_OPS.  The
#           driver's build needs -I for compat/include and the probed config
#           (ci/run/build-module.sh passes both).  Not with --to.
# --jobs N  spatch --jobs (default 2, at most 9999); the output does not
#           depend on it.
# --quiet   no diff, report only.
# --        ends the options (for a path that starts with '-').
# Two runs at once: each locks the directory converted and every directory
# with a file to convert (treelock.py: shared for a dry run, exclusive
# for --apply) from before it reads them until it has written them; a
# second run on any of them waits, says so, and then reads what the first
# one wrote.  The tree is all old or all new.
# Names: a file name may have blanks and TABs (diff headers quote them as
# git does); one with a newline is refused, nothing done.  A file without
# a newline at its end is written back without one.
# A FILE that is a symbolic link is read and written through the link.
# Files with CRLF line ends are converted as LF and written back as CRLF.
# MNCOMPAT_SPATCH_TIMEOUT (seconds, default 120) bounds one step on one
# file; a file it stops is reported for review.
# Exit status: 0 done, nothing needs review; 3 done, with items needing
# review (listed in the report; --apply wrote the changes); 1 failure
# (nothing written); 2 usage (a bad option or option value).  Review items
# depend on the code, not on whether it was converted before: a second run
# names again the hazards the code still has (hazards.py), and [check]
# reads code only (no comment, string or #if 0).
set -eu

sp=$(cd "$(dirname "$0")" && pwd)
prog=$(basename "$0")
tab=$(printf '\t')
cr=$(printf '\r')
nl='
'

die() {
	printf '%s\n' "$prog: error: $*" >&2
	exit 1
}

# one_line NAME: NAME with each newline shown as \n (for a message).
one_line() {
	printf '%s\n' "$1" | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 } END { print "" }'
}

# usage_error WHY: a bad option or option value (exit 2, as usage).
usage_error() {
	printf '%s\n' "$prog: error: $*" >&2
	exit 2
}

usage() {
	sed -n '3,5s/^# //p' "$0" >&2
	exit 2
}

path=
apply=no
atomic=no
compat=no
native=no
to=
jobs=2
quiet=no
while [ $# -gt 0 ]; do
	case $1 in
	--apply) apply=yes ;;
	--atomic) atomic=yes ;;
	--compat) compat=yes ;;
	--native) native=yes ;;
	--quiet) quiet=yes ;;
	--to)
		[ $# -ge 2 ] || usage
		to=$2
		shift
		;;
	--to=*) to=${1#--to=} ;;
	--jobs)
		[ $# -ge 2 ] || usage
		jobs=$2
		shift
		;;
	--jobs=*) jobs=${1#--jobs=} ;;
	-h | --help) usage ;;
	--)
		shift
		if [ $# -ne 1 ] || [ -n "$path" ]; then
			usage
		fi
		path=$1
		;;
	-*)
		printf '%s\n' "$prog: unknown option $1 (a path that starts with '-' goes after --)" >&2
		usage
		;;
	*)
		[ -z "$path" ] || usage
		path=$1
		;;
	esac
	shift
done
[ -n "$path" ] || usage
case $jobs in
'' | *[!0-9]* | 0* | ?????*) usage_error "--jobs wants a number from 1 to 9999, not '$jobs'" ;;
esac
timeout=${MNCOMPAT_SPATCH_TIMEOUT:-120}
case $timeout in
'' | *[!0-9]*) die "MNCOMPAT_SPATCH_TIMEOUT wants seconds, not '$timeout'" ;;
esac
[ $native = no ] || [ $compat = no ] ||
	usage_error "--native and --compat: give one of them"
if [ $compat = yes ]; then
	[ $atomic = no ] ||
		usage_error "--compat already converts as --atomic: give one of them"
	[ -z "$to" ] || usage_error "--compat converts to the newest API: no --to"
fi

# The path as given is what the report shows; $path is what we use: no
# trailing slash (diff headers would get "//"), and never an option.
shown=$path
while :; do
	case $path in
	*?/) path=${path%/} ;;
	*) break ;;
	esac
done
case $path in
-*) path=./$path ;;
esac

# The lists of files below are lines: a name with a newline cannot be
# carried (a TAB can).
case $path in
*"$nl"*) die "'$(one_line "$shown")': a name with a newline: convert.sh cannot carry it; rename it" ;;
esac
if [ ! -e "$path" ]; then
	[ -L "$path" ] && die "$shown: dangling symbolic link"
	die "$shown: no such file or directory (or a parent is not searchable)"
fi
[ -r "$path" ] || die "$shown: not readable"
if [ -d "$path" ]; then
	[ -x "$path" ] || die "$shown: directory not searchable"
elif [ -L "$path" ]; then
	# Work on the file the link names; the link stays a link.
	path=$(readlink -f -- "$path") || die "$shown: cannot resolve the symbolic link"
	shown="$shown -> $path"
fi
[ -d "$path" ] || [ -f "$path" ] || die "$shown: not a regular file or a directory"
command -v spatch >/dev/null || die "spatch (coccinelle) is not installed"
# The Python for spatch and for the scripts here: $MNCOMPAT_PYTHON, else
# the distribution's python3 where there is one (its packaged spatch was
# built for it).
# spatch otherwise runs the python3 first in PATH to find it, and where
# that is a version manager's shim (pyenv: hundreds of execs) each run
# costs 0.2 s more.
python=${MNCOMPAT_PYTHON:-python3}
[ -n "${MNCOMPAT_PYTHON:-}" ] || [ ! -x /usr/bin/python3 ] ||
	python=/usr/bin/python3

# The scripts to run, in order, up to --to.
# Every script of generation GEN runs, then none after it.
# (series.awk reads the series: GEN FILE NEEDS PAST WHOLE a line)
steps=$(awk -v to="$to" -f "$sp/series.awk" "$sp/series") ||
	usage_error "--to $to: not a generation in $sp/series ($(awk -v gens=1 -f "$sp/series.awk" "$sp/series"))"
last_gen=$(printf '%s\n' "$steps" | awk 'END { print $1 }')
# --compat: the tables onto MNCOMPAT_MMU_NOTIFIER_OPS, after the series.
[ $compat = no ] || steps="$steps
compat mn-compat-ops.cocci struct[[:space:]]+mmu_notifier_ops|mmu_notifier_range_blockable|mmu_notifier_((un)?register|get|put|synchronize)[[:space:]]*\( - *"

# The scratch folder's name is absolute: the steps read it from inside
# its folders, and spatch (which writes under TMPDIR) runs in one of
# them; a relative TMPDIR made every such read fail.
if [ -n "${TMPDIR:-}" ]; then
	given=$TMPDIR
	case $given in
	/*) TMPDIR=$given ;;
	*) TMPDIR=./$given ;; # (not looked up in CDPATH)
	esac
	TMPDIR=$(cd -- "$TMPDIR" 2>/dev/null && pwd) ||
		die "TMPDIR: no directory '$(one_line "$given")'; nothing changed"
	export TMPDIR
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-convert.XXXXXX")
phase=reading
said_written=no
workers=
locker='' locked=no
# The write phase: every target gets a staged copy (.NAME.mncompat.*) and
# a hard link to its old contents (.NAME.mncompat-old.*) in its own
# directory before the first rename; undoing restores the old link where
# the rename happened and removes the rest.
# staged_paths LINE: t, b and f of a line of $tmp/staged, "T<TAB>B<TAB>REL":
# the random suffixes of the staged copy and of the old file's link, then
# the file's name (relative to $base; it may have TABs).
# shellcheck disable=SC2317 # called from the EXIT trap
staged_paths() {
	f=${1#*"$tab"*"$tab"}
	t=${1%%"$tab"*}
	b=${1#*"$tab"}
	b=${b%%"$tab"*}
	case $f in
	*/*) t=$base/${f%/*}/.${f##*/}.mncompat.$t b=$base/${f%/*}/.${f##*/}.mncompat-old.$b ;;
	*) t=$base/.$f.mncompat.$t b=$base/.$f.mncompat-old.$b ;;
	esac
	f=$base/$f
}
# shellcheck disable=SC2317 # called from the EXIT trap
rollback() {
	[ -s "$tmp/staged" ] || return 0
	while IFS= read -r line; do
		staged_paths "$line"
		if [ -e "$t" ]; then
			rm -f "$t" "$b"
		elif [ -e "$b" ]; then
			mv -f "$b" "$f"
		fi
	done <"$tmp/staged"
	: >"$tmp/staged"
}
# shellcheck disable=SC2317 # the EXIT trap
finish() {
	st=$?
	trap '' INT TERM HUP
	for w in $workers; do
		kill -TERM -- "-$w" 2>/dev/null || kill "$w" 2>/dev/null || :
		wait "$w" 2>/dev/null || :
	done
	if [ "$phase" = writing ]; then
		rollback
		echo "$prog: stopped while writing: every file is as it was" >&2
	elif [ "$phase" = written ]; then
		while IFS= read -r line; do
			staged_paths "$line"
			rm -f -- "$b"
		done <"$tmp/staged"
		[ "$said_written" = yes ] || say "written: $nchanged file(s)"
		[ "$stdout_closed" = no ] ||
			echo "$prog: standard output was closed before the report ended: written: $nchanged file(s), items needing review: $nrev" >&2
	fi
	# The lock goes last (treelock.py ends when its pipe closes); a
	# helper still waiting for it holds nothing.
	if [ -n "$locker" ]; then
		exec 8>&- 7<&-
		[ "$locked" = yes ] || kill -KILL "$locker" 2>/dev/null || :
		wait "$locker" 2>/dev/null || :
	fi
	rm -rf "$tmp"
	exit "$st"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
# A reader that goes away (convert.sh ... | head) does not stop a run
# half-way: the output stops (show, say), an --apply still writes all its
# files and says so on stderr.
trap '' PIPE
stdout_closed=no
# show FILE...: FILE to stdout, unless stdout is closed.
show() {
	[ "$stdout_closed" = no ] || return 0
	cat -- "$@" 2>/dev/null || stdout_closed=yes
}
# say LINE: LINE to stdout, unless stdout is closed.
say() {
	[ "$stdout_closed" = no ] || return 0
	printf '%s\n' "$1" 2>/dev/null || stdout_closed=yes
}

# 1. Prefilter: C files that mention mmu_notifier at all (every user
# includes <linux/mmu_notifier.h>; files that only know cleancache or
# frontswap, whose ops also have an invalidate_page, are never touched).
: >"$tmp/review.extra"
if [ -d "$path" ]; then
	base=$path
	# The .c and .h files (symbolic links inside the tree are not
	# followed, as grep -r does not: each one that leads to code
	# mentioning mmu_notifier is named below), read by one grep per
	# --jobs (at most 8), each on every Nth file: the tree is read in
	# half the time on two CPUs.
	find -H "$path" -mindepth 1 \( -type l -fprint0 "$tmp/links0" \) -o \
		\( -type f \( -name '*.c' -o -name '*.h' \) -print0 \) \
		>"$tmp/files0" 2>"$tmp/read.err" || true
	greps=$jobs
	[ "$greps" -le 8 ] || greps=8
	awk -v RS='\0' -v ORS='\0' -v n="$greps" -v out="$tmp/files0." \
		'{ print >(out (NR % n)) }' "$tmp/files0"
	i=0
	pids=
	while [ "$i" -lt "$greps" ]; do
		if [ -e "$tmp/files0.$i" ]; then
			xargs -0 -r grep -lZF mmu_notifier -- \
				<"$tmp/files0.$i" >"$tmp/candidates0.$i" \
				2>"$tmp/read.err.$i" &
			pids="$pids $!"
		fi
		i=$((i + 1))
	done
	for pid in $pids; do
		wait "$pid" || :
	done
	cat "$tmp/read.err" "$tmp/read.err".* >"$tmp/grep.err" 2>/dev/null || :
	cat "$tmp/candidates0".* >"$tmp/candidates0" 2>/dev/null || :
	if [ -s "$tmp/grep.err" ]; then
		cat "$tmp/grep.err" >&2
		die "could not read all of $shown (see above); nothing changed"
	fi
	# A file to convert, or a link that may lead to one, whose name has a
	# newline: named (as \n), nothing done.
	awk -v RS='\0' '/\n/ && (/\.[ch]$/ || FILENAME ~ /links0$/) {
		gsub(/\n/, "\\n"); print; exit }' \
		"$tmp/candidates0" "$tmp/links0" >"$tmp/newline"
	[ ! -s "$tmp/newline" ] ||
		die "'$(cat "$tmp/newline")': a name with a newline: convert.sh cannot carry it; rename it (nothing changed)"
	tr '\0' '\n' <"$tmp/candidates0" >"$tmp/candidates"
	tr '\0' '\n' <"$tmp/links0" >"$tmp/links"
	real_base=$(cd "$base" && pwd -P)
	while IFS= read -r l; do
		rel=${l#"$base"/}
		if [ -d "$l" ]; then
			target=$(readlink -f -- "$l") || target=
			# A directory of the tree is read where it is.
			case $target in "$real_base"/*) continue ;; esac
			n=$(grep -rlF --include='*.c' --include='*.h' mmu_notifier \
				-- "$l/" 2>/dev/null | wc -l) || n=0
			[ "$n" -eq 0 ] ||
				printf '%s\n' "$rel:1: [convert] review: symbolic link to a directory ($(readlink -- "$l")) with $n file(s) mentioning mmu_notifier: not followed, convert its target" >>"$tmp/review.extra"
			continue
		fi
		case $l in *.c | *.h) ;; *) continue ;; esac
		grep -qF mmu_notifier -- "$l" 2>/dev/null || continue
		target=$(readlink -f -- "$l") || target=
		case $target in
		"$real_base"/*) printf '%s\n' "$rel:1: [convert] symbolic link to ${target#"$real_base"/}: converted there" >>"$tmp/links.inside" ;;
		*) printf '%s\n' "$rel:1: [convert] review: symbolic link to $(readlink -- "$l"): not converted, convert its target" >>"$tmp/review.extra" ;;
		esac
	done <"$tmp/links"
else
	base=$(dirname -- "$path")
	: >"$tmp/candidates"
	if grep -qF mmu_notifier -- "$path"; then
		printf '%s\n' "$path" >"$tmp/candidates"
	fi
fi
# The API's own definitions are not users of it: never convert them, and
# say so.  By path (the kernel's), or by content: a file that defines
# struct mmu_notifier_ops or the __mmu_notifier_*() functions (a copy of
# the kernel's header or of mm/mmu_notifier.c in a driver's tree).
: >"$tmp/skipped"
grep -E '(^|/)(include/linux/mmu_notifier\.h|mm/mmu_notifier\.c)$' \
	"$tmp/candidates" >"$tmp/api" || true
tr '\n' '\0' <"$tmp/candidates" | xargs -0 -r grep -lE \
	'^struct[[:space:]]+mmu_notifier_ops[[:space:]]*\{|^(int|void)[[:space:]]+__mmu_notifier_(register|release|invalidate_range_start)[[:space:]]*\(' \
	-- >>"$tmp/api" 2>/dev/null || true
# Binary files (NUL bytes) are not C to convert: named, never rewritten.
tr '\n' '\0' <"$tmp/candidates" | LC_ALL=C xargs -0 -r grep -L \
	--binary-files=without-match -e '' -- >"$tmp/binary" 2>/dev/null || true
if [ -s "$tmp/binary" ] && [ ! -d "$path" ]; then
	die "$shown: not a text file (it has NUL bytes): not converted"
fi
sort -u "$tmp/api" | while IFS= read -r f; do
	printf '%s\t%s\n' "${f#"$base"/}" "the MMU-notifier API itself (it defines what drivers use), not a user of it"
done >>"$tmp/skipped"
while IFS= read -r f; do
	printf '%s\n' "${f#"$base"/}:1: [convert] review: not a text file (it has NUL bytes): not converted"
done <"$tmp/binary" >>"$tmp/review.extra"
sort -u "$tmp/api" "$tmp/binary" >"$tmp/out"
LC_ALL=C sort "$tmp/candidates" | LC_ALL=C comm -23 - "$tmp/out" \
	>"$tmp/candidates.users" || true
mv "$tmp/candidates.users" "$tmp/candidates"
ncand=$(wc -l <"$tmp/candidates")

# The lock: from before the files are read until every one is written (or
# put back), on the directory converted and each directory with a file to
# convert (treelock.py), shared for a dry run, exclusive for --apply. A
# second run on any of them waits (and says so) and then reads what the
# first one wrote: the tree is all old or all new, and a dry run never
# reads half of an --apply.
lock_mode=shared
[ $apply = no ] || lock_mode=exclusive
{
	printf '%s\n' "$base"
	cat "$tmp/candidates"
} >"$tmp/lock.list"
mkfifo "$tmp/lock.in" "$tmp/lock.out"
"$python" "$sp/treelock.py" "$lock_mode" "$tmp/lock.list" \
	<"$tmp/lock.in" >"$tmp/lock.out" &
locker=$!
exec 8>"$tmp/lock.in" 7<"$tmp/lock.out"
IFS= read -r lock_said <&7 || lock_said="the lock helper (treelock.py) ended"
[ "$lock_said" = locked ] || die "$lock_said; nothing changed"
locked=yes

# 2. Scratch copies, relative to $base, CRLF turned into LF (lineends.awk
# puts each line's end back afterwards); the files as read, to refuse a
# write over a file changed since.  New files: writable whatever the mode
# of the originals.
mkdir "$tmp/work" "$tmp/orig"
while IFS= read -r f; do
	printf '%s\n' "${f#"$base"/}"
done <"$tmp/candidates" >"$tmp/rels"
if [ -s "$tmp/rels" ]; then
	tar -C "$base" -cf - --verbatim-files-from -T "$tmp/rels" |
		tar -C "$tmp/orig" -xf - --no-same-owner ||
		die "could not copy the files to convert; nothing changed"
	chmod -R u+w "$tmp/orig"
	cp -R "$tmp/orig/." "$tmp/work"
fi
(cd "$tmp/orig" && grep -rl "$cr\$" . 2>/dev/null | sed 's|^\./||') \
	>"$tmp/crlf" || true
while IFS= read -r rel; do
	tr -d '\r' <"$tmp/orig/$rel" >"$tmp/work/$rel"
done <"$tmp/crlf"
# A file whose last line has no newline is converted with one (the tools
# end every line) and written back without it (step 5): $tmp/nonl.
(cd "$tmp/work" && tr '\n' '\0' <"$tmp/rels" | xargs -0 -r tail -qc1 --) |
	od -An -v -tx1 | tr -s ' ' '\n' | grep . |
	awk 'NR == FNR { last[NR] = $0; next } last[FNR] != "0a"' - "$tmp/rels" \
	>"$tmp/nonl" || true
while IFS= read -r rel; do
	echo >>"$tmp/work/$rel"
done <"$tmp/nonl"

# 3. The semantic patches, each on the scratch files that have its tokens.
: >"$tmp/notes"
wanted=
[ $atomic = no ] || wanted=atomic
[ $compat = no ] || wanted=compat
# spatch --jobs only parallelises --dir, so each step gets a directory
# with flat, numbered copies of just the files its pattern matches
# (spatch --dir does not cope with every file name); notes are mapped back
# to the real names.  In the background, so that a signal is handled now.
# spatch runs in a process group of its own (setsid) with its --jobs
# workers, so that a signal stops all of them.
run_step() {
	# shellcheck disable=SC2046,SC2086
	(cd "$tmp/step" && exec 7<&- 8>&- setsid spatch --python "$python" --quiet --no-show-diff \
		--parse-error-msg --verbose-parsing --timeout "$timeout" \
		$(sed -n 's|^// Options:||p' "$sp/$1" | head -n 1) \
		-D patch $2 --sp-file "$script" --in-place \
		--jobs "$jobs" --dir .) >"$tmp/spatch.out" 2>"$tmp/spatch.err" &
	workers=$!
	wait "$workers"
}
# spatch_step COCCI DEFS: run COCCI on $tmp/step (names in $tmp/map) and
# add its notes, the files it gave up on and the parse errors that hide
# something the step looks for, by real file name, to $tmp/stepnotes.
spatch_step() {
	script_for "$1"
	if ! run_step "$1" "$2"; then
		grep -v 'type defaults to' "$tmp/spatch.err" >&2
		die "spatch failed on $1; nothing changed"
	fi
	if grep -qE '^(Fatal error|Error in Python script|Traceback)' \
		"$tmp/spatch.err"; then
		grep -v 'type defaults to' "$tmp/spatch.err" >&2
		die "spatch reported errors on $1; nothing changed"
	fi
	# Notes (FILE:LINE: [GEN] ...), spatch giving up on a file, and parse
	# errors where the step had something to do: all to the report, by
	# the file's real name.
	awk -F'\t' -v gen="$gen" '
		NR == FNR { name[$1] = substr($0, length($1) + 2); next }
		function real(f) {
			sub(/^\.\//, "", f)
			return (f in name) ? name[f] : ""
		}
		/^[^ :]+:[0-9]+: \[[0-9a-z.]+\] / {
			i = index($0, ":")
			f = real(substr($0, 1, i - 1))
			if (f != "")
				print f substr($0, i)
			else
				print "(unknown file):0: [" gen "] review: note from spatch on code it had already changed, file unknown: " substr($0, index($0, "[" ))
			next
		}
		/^EXN: / {
			n = split($0, w, " ")
			f = real(w[n])
			why = $0
			sub(/^EXN: /, "", why)
			sub(/ in [^ ]*$/, "", why)
			gsub(/\.\/f[0-9]+\.[ch]:? ?/, "", why)
			print f ":1: [" gen "] review: spatch gave up on this file (" why "): the " gen " step did not convert it"
			next
		}
		/^ = File "/ {
			split($0, w, "\"")
			pf = real(w[2])
			pl = $0
			sub(/.*line /, "", pl)
			sub(/,.*/, "", pl)
			next
		}
		/^(bad|BAD):/ && pf != "" { region[pf ":" pl] = region[pf ":" pl] " " $0; next }
		END {
			# the region first, without its TABs; the name, which may
			# have TABs, last
			for (k in region) {
				r = region[k]
				gsub(/\t/, " ", r)
				print "PARSE\t" r "\t" k
			}
		}' "$tmp/map" "$tmp/spatch.err" >"$tmp/step.notes"
	grep -v '^PARSE' "$tmp/step.notes" | sort -t: -k1,1 -k2,2n -k3 -u \
		>>"$tmp/stepnotes" || true
	# A parse error only matters where it hides something the step looks
	# for: its tokens, mmu_notifier, or a callback named in an ops table.
	# (one awk for them all; a file's table callbacks read once)
	grep '^PARSE' "$tmp/step.notes" |
		MNCOMPAT_TOKENS=$tokens awk -F"$tab" -v gen="$gen" -v work="$tmp/work" '
		# names_of(rel): "|NAME" for each name assigned in a table of rel
		function names_of(rel,    f, t, s, out, ln) {
			f = work "/" rel
			t = 0
			out = ""
			while ((getline ln <f) > 0) {
				if (ln ~ /mmu_notifier_ops|MNCOMPAT_MMU_NOTIFIER_(GET_)?OPS/)
					t = 1
				if (t)
					while (match(ln, /= *[A-Za-z_][A-Za-z0-9_]*/)) {
						s = substr(ln, RSTART, RLENGTH)
						sub(/= */, "", s)
						out = out "|" s
						ln = substr(ln, RSTART + RLENGTH)
					}
				if (ln ~ /};|\);/)
					t = 0
			}
			close(f)
			return out
		}
		{
			where = substr($0, length($1) + length($2) + 3)
			rel = where
			sub(/:[^:]*$/, "", rel)
			line = where
			sub(/.*:/, "", line)
			if (!(rel in names))
				names[rel] = names_of(rel)
			if ($2 ~ ("mmu_notifier|" ENVIRON["MNCOMPAT_TOKENS"] names[rel]))
				printf "%s:%s: [%s] review: spatch could not parse the code around this line, which the %s step has to look at: it was not converted there\n", rel, line, gen, gen
		}' >>"$tmp/stepnotes"
}
# The scripts that judge callbacks by what they reach (may it sleep, do
# the range callbacks cover invalidate_page, ...) ask mnmodule.py about
# the module of the file at hand when they need to: every .c/.h of its
# directory (or of the whole tree when it is one driver), the scratch
# copies as they are at that step, the other files from the tree.
MNCOMPAT_MODULE_BASE=$(cd "$base" && pwd)
export MNCOMPAT_STEP_MAP="$tmp/map" MNCOMPAT_MODULE_BASE \
	MNCOMPAT_MODULE_WORK="$tmp/work"
# spatch runs in a scratch directory, where spatch before 1.3.1 would
# not find the files a script #includes: such a script runs as the one
# file flatten.sh makes of it (made when the step first runs).
mkdir "$tmp/cocci"
# script_for COCCI: $script, the file spatch runs for COCCI.
script_for() {
	script=$sp/$1
	grep -q '^#include "' "$script" || return 0
	script=$tmp/cocci/$1
	[ -s "$script" ] || "$sp/flatten.sh" "$sp/$1" >"$script" ||
		die "flatten.sh failed on $1; nothing changed"
}
# An array of ops tables: each element a table of its own, the array
# pointers to them (unarray.py), so that each table is converted.
(cd "$tmp/work" && tr '\n' '\0' <"$tmp/rels" |
	xargs -0 -r grep -lE 'mmu_notifier_ops[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\[' --) \
	>"$tmp/unarray" || true
if [ -s "$tmp/unarray" ]; then
	(cd "$tmp/work" && tr '\n' '\0' <"$tmp/unarray" |
		xargs -0 "$python" "$sp/unarray.py") \
		>>"$tmp/notes" || die "unarray.py failed; nothing changed"
fi
# A function whose header #if/#else splits (each branch opening the
# body): one whole definition per branch (unsplit.py), so that spatch
# and the brace check see functions.  Only in a file that a step works
# on (one with its tokens: the tokens of a later step appear only where
# an earlier one worked) or that has a table: no other file is changed.
step_tokens=$(printf '%s\n' "$steps" |
	awk 'NF >= 3 { printf "%s%s", sep, $3; sep = "|" }')
(cd "$tmp/work" && tr '\n' '\0' <"$tmp/rels" |
	xargs -0 -r grep -lZE '^[[:space:]]*#[[:space:]]*(else|elif)' -- |
	xargs -0 -r grep -lE "$step_tokens|mmu_notifier_ops|MNCOMPAT_MMU_NOTIFIER_(GET_)?OPS" --) \
	>"$tmp/unsplit" || true
if [ -s "$tmp/unsplit" ]; then
	(cd "$tmp/work" && tr '\n' '\0' <"$tmp/unsplit" |
		xargs -0 "$python" "$sp/unsplit.py") \
		>"$tmp/unsplit.notes" || die "unsplit.py failed; nothing changed"
	cat "$tmp/unsplit.notes" >>"$tmp/notes"
	# the brace check's "before": the definitions made whole
	cut -d: -f1 "$tmp/unsplit.notes" | sort -u | while IFS= read -r rel; do
		mkdir -p "$tmp/whole/$(dirname -- "$rel")"
		cp "$tmp/work/$rel" "$tmp/whole/$rel"
	done
fi
# The vendor's own version guards around .invalidate_page (its 4.13
# port): taken out, their branches merged, before anything judges the
# table (unguard.py); what they dropped is told to the 4.13 step.
# (Only a file with a line that starts with the field: all unguard.py
# merges.)
export MNCOMPAT_UNGUARDED="$tmp/unguarded"
: >"$MNCOMPAT_UNGUARDED"
(cd "$tmp/work" && tr '\n' '\0' <"$tmp/rels" |
	xargs -0 -r grep -lE '^[[:space:]]*\.invalidate_page' -- |
	tr '\n' '\0' | xargs -0 -r grep -lE '^[[:space:]]*#[[:space:]]*if' --) \
	>"$tmp/unguard" || true
if [ -s "$tmp/unguard" ]; then
	(cd "$tmp/work" && tr '\n' '\0' <"$tmp/unguard" |
		xargs -0 "$python" "$sp/unguard.py" --record "$MNCOMPAT_UNGUARDED") \
		>>"$tmp/notes" || die "unguard.py failed; nothing changed"
fi
# LINUX_VERSION_CODE guards around notifier code at a version compat's
# probes do not name (mnmodule.py guards), on the files as read.
(cd "$tmp/work" && tr '\n' '\0' <"$tmp/rels" |
	xargs -0 -r grep -l LINUX_VERSION_CODE --) >"$tmp/guarded" || true
if [ -s "$tmp/guarded" ]; then
	tr '\n' '\0' <"$tmp/guarded" |
		xargs -0 "$python" "$sp/mnmodule.py" guards --base "$tmp/work" \
		>>"$tmp/notes" || die "mnmodule.py guards failed; nothing changed"
fi
printf '%s\n' "$steps" >"$tmp/steps"
while read -r gen cocci tokens past whole; do
	[ -n "$gen" ] || continue
	(cd "$tmp/work" && grep -rlE "$tokens" . 2>/dev/null) \
		>"$tmp/files" || true
	if [ "$past" != - ] && [ -s "$tmp/files" ]; then
		# (a vendor's file for several kernels holds both forms under
		# its version guards: the old one is still converted)
		# (one grep for the past form, one for the guards of those)
		(cd "$tmp/work" && tr '\n' '\0' <"$tmp/files" |
			xargs -0 -r grep -lZE "$past" -- | tee "$tmp/past0" |
			xargs -0 -r grep -l LINUX_VERSION_CODE --) \
			>"$tmp/guarded.past" || true
		tr '\0' '\n' <"$tmp/past0" >"$tmp/past"
		awk 'FILENAME == ARGV[1] { done[$0] = 1; next }
			FILENAME == ARGV[2] { delete done[$0]; next }
			!($0 in done)' "$tmp/past" "$tmp/guarded.past" "$tmp/files" \
			>"$tmp/files.todo"
		mv "$tmp/files.todo" "$tmp/files"
	fi
	[ -s "$tmp/files" ] || continue
	fields=
	follow=0
	case $whole in
	fields:*) fields=${whole#fields:} ;;
	fields+:*) fields=${whole#fields+:} follow=1 ;;
	esac
	rm -rf "$tmp/step" "$tmp/excerpts"
	mkdir "$tmp/step" "$tmp/excerpts"
	i=0
	: >"$tmp/map"
	while IFS= read -r rel; do
		i=$((i + 1))
		case $rel in
		*.h) n=f$i.h ;;
		*) n=f$i.c ;;
		esac
		printf '%s\t%s\n' "$n" "${rel#./}" >>"$tmp/map"
	done <"$tmp/files"
	# Only the parts of the file the step needs (series, fifth column),
	# where the file's layout lets them be put back: one awk cuts them
	# all; a file it cannot cut (or all, if it fails) is copied whole.
	if [ "$whole" != "*" ]; then
		while IFS= read -r n; do
			rel=${n#*"$tab"} n=${n%%"$tab"*}
			printf '%s\t%s\n' "$n" "$tmp/work/$rel"
		done <"$tmp/map" >"$tmp/cut.map"
		cut -f2- "$tmp/cut.map" | tr '\n' '\0' |
			xargs -0 awk -v mode=cut -v re="$tokens" \
				-v fields="$fields" -v follow="$follow" \
				-v map="$tmp/cut.map" -v dir="$tmp/step" \
				-f "$sp/excerpt.awk" || rm -f "$tmp/step/"*
	fi
	set --
	while IFS= read -r n; do
		rel=${n#*"$tab"} n=${n%%"$tab"*}
		if [ -e "$tmp/step/$n" ]; then
			set -- "$@" "$tmp/step/$n"
		else
			cat "$tmp/work/$rel" >"$tmp/step/$n"
		fi
	done <"$tmp/map"
	# The excerpts as cut, to diff spatch's result against (one cp).
	[ $# -eq 0 ] || cp -- "$@" "$tmp/excerpts/"
	set --
	# -D only for the scripts that know it (spatch refuses the others).
	defs=
	for d in $wanted; do
		! grep -q "^virtual $d\$" "$sp/$cocci" || defs="$defs -D $d"
	done
	: >"$tmp/stepnotes"
	spatch_step "$cocci" "$defs"
	# Back into the scratch copies: a file copied whole as it is now, the
	# changes to the excerpts put back (one diff and one awk for them
	# all); an excerpt whose result cannot be put back is done again on
	# the whole file, and its notes with it.
	while IFS= read -r n; do
		rel=${n#*"$tab"} n=${n%%"$tab"*}
		[ -e "$tmp/excerpts/$n" ] || cat "$tmp/step/$n" >"$tmp/work/$rel"
	done <"$tmp/map"
	st=0
	(cd "$tmp" && diff -arU0 excerpts step) >"$tmp/step.diff" || st=$?
	[ "$st" -le 1 ] || die "diff failed on the results of $cocci; nothing changed"
	awk -v mode=paste -v map="$tmp/map" -v work="$tmp/work" \
		-v ex="$tmp/excerpts" -f "$sp/excerpt.awk" "$tmp/step.diff" \
		>"$tmp/redo" || die "the results of $cocci could not be put back; nothing changed"
	if [ -s "$tmp/redo" ]; then
		rm -rf "$tmp/step"
		mkdir "$tmp/step"
		while IFS= read -r n; do
			rel=${n#*"$tab"} n=${n%%"$tab"*}
			cat "$tmp/work/$rel" >"$tmp/step/$n"
		done <"$tmp/redo"
		cut -f2- "$tmp/redo" >"$tmp/redo.names"
		awk 'NR == FNR { redo[$0] = 1; next }
			{ f = $0; sub(/:[0-9]+: \[[^]]*\] .*$/, "", f) }
			!(f in redo)' \
			"$tmp/redo.names" "$tmp/stepnotes" >"$tmp/stepnotes.keep"
		mv "$tmp/stepnotes.keep" "$tmp/stepnotes"
		cp "$tmp/redo" "$tmp/map"
		spatch_step "$cocci" "$defs"
		while IFS= read -r n; do
			rel=${n#*"$tab"} n=${n%%"$tab"*}
			cat "$tmp/step/$n" >"$tmp/work/$rel"
		done <"$tmp/redo"
	fi
	cat "$tmp/stepnotes" >>"$tmp/notes"
done <"$tmp/steps"
workers=

# 4. Nothing left behind silently: what the last generation removed must
# be gone from every file, or the file is named for review.
gen_num() {
	case $1 in
	4.13) echo 1 ;;
	4.19) echo 2 ;;
	5.0) echo 3 ;;
	6.6) echo 4 ;;
	6.10) echo 5 ;;
	6.15) echo 6 ;;
	*) echo 7 ;;
	esac
}
upto=$(gen_num "$last_gen")
# It reads code only: comments, string and character literals and the
# lines under #if 0 are blanked first (the line numbers stay).
# shellcheck disable=SC2016 # an awk program
check_left='
		FNR == 1 {
			if (NR > 1) protos()
			rel = FILENAME
			sub(/^\.\//, "", rel)
			ops = 0; inmac = 0; nl = 0; incomment = 0; dead = 0; depth = 0
			split("", cb); split("", line); split("", young)
			split("", chain); split("", branch); split("", hookleft); split("", newhook)
		}
		function code(s,    out, t) {
			out = ""
			while (s != "") {
				if (incomment) {
					t = index(s, "*/")
					if (!t) return out
					s = substr(s, t + 2); incomment = 0; out = out " "
					continue
				}
				if (!match(s, /\/\*|\/\/|"([^"\\]|\\.)*"|\047([^\047\\]|\\.)*\047/))
					return out s
				out = out substr(s, 1, RSTART - 1)
				t = substr(s, RSTART, RLENGTH)
				s = substr(s, RSTART + RLENGTH)
				if (t == "/*") incomment = 1
				else if (t == "//") s = ""
				else out = out "0"
			}
			return out
		}
		{ $0 = code($0) }
		# the #if chain each line is in (chain[]: a number, branch[]: which
		# of its branches), for the module'"'"'s own switches between APIs
		/^[ \t]*#[ \t]*if/ { ids[++depth] = ++chains; br[depth] = 0; cond[chains] = $0 }
		/^[ \t]*#[ \t]*el(se|if)/ && depth { br[depth]++; cond[ids[depth]] = cond[ids[depth]] $0 }
		depth { chain[FNR] = ids[depth]; branch[FNR] = br[depth] }
		/^[ \t]*#[ \t]*endif/ && depth { depth-- }
		# #if 0 ... #else, #elif or #endif: no code (nested #if counted)
		dead {
			if ($0 ~ /^[ \t]*#[ \t]*if/) dead++
			else if ($0 ~ /^[ \t]*#[ \t]*endif/) dead--
			else if (dead == 1 && $0 ~ /^[ \t]*#[ \t]*el(se|if)/) dead = 0
			line[FNR] = ""
			next
		}
		/^[ \t]*#[ \t]*if[ \t]*\(?[ \t]*0[ \t]*\)?[ \t]*$/ { dead = 1; line[FNR] = ""; next }
		function left(what) {
			printf "%s:%d: [check] review: %s is still here after the conversion (not converted: see the notes for this file; spatch may not have parsed it)\n", rel, FNR, what
		}
		/struct[ \t]+mmu_notifier_ops[^;(*]*=[ \t]*\{?[ \t]*$/ {
			ops = 1
			if (compat == "yes" && $0 ~ /^static/)
				left("a struct mmu_notifier_ops table (compat wants MNCOMPAT_MMU_NOTIFIER_OPS)")
		}
		ops && /^[ \t]*\.invalidate_page[ \t]*=/ { left(".invalidate_page") }
		# (judged at the end: the other branch of a switch may follow)
		ops && upto >= 4 && /^[ \t]*\.invalidate_range[ \t]*=/ { hookleft[FNR] = 1 }
		ops && /^[ \t]*\.arch_invalidate_secondary_tlbs[ \t]*=/ { newhook[FNR] = 1 }
		ops && upto >= 5 && /^[ \t]*\.change_pte[ \t]*=/ { left(".change_pte") }
		ops && /^[ \t]*\.invalidate_range_(start|end)[ \t]*=/ {
			s = $0; sub(/.*=[ \t]*/, "", s); sub(/[ \t,].*/, "", s)
			cb[s] = ($0 ~ /_start/) ? "start" : "end"
		}
		ops && /}/ { ops = 0 }
		/MNCOMPAT_MMU_NOTIFIER_(GET_)?OPS\(/ { mac = "" ; inmac = 1; get = /GET_OPS\(/ }
		inmac { mac = mac $0 }
		inmac && /\)/ {
			inmac = 0
			sub(/.*MNCOMPAT_MMU_NOTIFIER_(GET_)?OPS\(/, "", mac)
			m = mac
			while (upto >= 7 && match(m, /\.(clear_flush_young|clear_young|test_young)[ \t]*=[ \t]*[A-Za-z_0-9]+/)) {
				s = substr(m, RSTART, RLENGTH); sub(/.*=[ \t]*/, "", s)
				if (s != "NULL" && s != "0") young[s] = 1
				m = substr(m, RSTART + RLENGTH)
			}
			n = split(mac, a, ",")
			for (i = 3 + 2 * get; i <= 4 + 2 * get && i <= n; i++) {
				gsub(/[ \t]/, "", a[i])
				if (a[i] != "NULL") cb[a[i]] = (i == 3 + 2 * get) ? "start" : "end"
			}
		}
		/(^|[^_A-Za-z0-9])mmu_notifier_invalidate_page[ \t]*\(/ { left("mmu_notifier_invalidate_page()") }
		upto >= 4 && /(^|[^_A-Za-z0-9])mmu_notifier_invalidate_range(_only_end)?[ \t]*\(/ { left("mmu_notifier_invalidate_range()") }
		upto >= 5 && /set_pte_at_notify[ \t]*\(|mmu_notifier_change_pte[ \t]*\(/ { left("set_pte_at_notify()/mmu_notifier_change_pte()") }
		upto >= 6 && /(^|[^_A-Za-z0-9])make_device_exclusive_range[ \t]*\(/ { left("make_device_exclusive_range()") }
		upto >= 7 && /(^|[^_A-Za-z0-9])p[tm]dp_clear_(flush_)?young_notify[ \t]*\(|(^|[^_A-Za-z0-9])(ptep|pmdp_huge|pudp_huge)_clear_flush_notify[ \t]*\(/ { left("a *_young_notify()/*_clear_flush_notify() call") }
		ops && upto >= 7 && /^[ \t]*\.(clear_flush_young|clear_young|test_young)[ \t]*=/ {
			s = $0; sub(/.*=[ \t]*/, "", s); sub(/[ \t,].*/, "", s)
			if (s != "NULL" && s != "0") young[s] = 1
		}
		upto >= 3 && /(^|[^_A-Za-z0-9])MMU_INVALIDATE_DOES_NOT_BLOCK([^_A-Za-z0-9]|$)/ { left("MMU_INVALIDATE_DOES_NOT_BLOCK (ops->flags, gone in 4.20)") }
		upto >= 4 && match($0, /(^|[^_A-Za-z0-9])mmu_notifier_(unregister_no_release|call_srcu)[ \t]*\(/) {
			s = substr($0, RSTART, RLENGTH); sub(/^[^m]*/, "", s); sub(/[ \t]*\($/, "", s)
			printf "%s:%d: [check] review: %s() is gone since Linux 5.4 (c96245148c1e), and no step converts it: convert it by hand (mmu_notifier_get()/_put() with a free_notifier, or mmu_notifier_unregister() where the release callback may run); with --compat, a table whose range_start may fail gets a gate that only mncompat_mmu_notifier_unregister() or _put() removes\n", rel, FNR, s
		}
		{ line[FNR] = $0; nl = FNR }
		END { if (NR > 0) protos() }
		# ownline(i, c): line i starts c at its first column, its return
		# type alone on the line before (static void / f(...)).
		function ownline(i, c) {
			return i > 1 && line[i] ~ "^" c "[ \t]*\\(" &&
				line[i - 1] ~ /^[a-z][^;(){}=,]*[A-Za-z0-9_*][ \t]*$/
		}
		# head(i, c): line i starts the definition or declaration of c,
		# its return type on that line or on the line before.
		function head(i, c) {
			return line[i] ~ "^[a-z].*[ \t*]" c "[ \t]*\\(" || ownline(i, c)
		}
		# header(i): the text of the header that starts on line i (up to
		# its ")", at most 8 lines); hend: its last line.
		function header(i,    h) {
			h = ""
			for (hend = i; hend <= nl && hend < i + 8; hend++) {
				h = h line[hend]
				if (line[hend] ~ /\)/) break
			}
			return h
		}
		# switched(i, c): the line of a definition of c with the 5.0
		# prototype in another branch of the #if chain line i is in
		# (the module'"'"'s own switch between kernel APIs), else 0.  Not
		# an #if on a kernel or distribution version (unguard.py'"'"'s
		# list): the steps convert the old branch of those.
		# version_if(n): #if chain n tests a kernel or distribution version
		function version_if(n) {
			return cond[n] ~ /(^|[^A-Za-z0-9_])(LINUX_VERSION_CODE|KERNEL_VERSION|RHEL_RELEASE_CODE|RHEL_RELEASE_VERSION|RHEL_MAJOR|RHEL_MINOR|SLE_VERSION_CODE|SLE_VERSION|SLE_LOCALVERSION_CODE|UTS_UBUNTU_RELEASE_ABI|UBUNTU_VERSION_CODE|KERNEL_VERSION_CODE)([^A-Za-z0-9_]|$)/
		}
		function switched(i, c,    k, h) {
			if (!(i in chain) || version_if(chain[i]))
				return 0
			for (k = 1; k <= nl; k++) {
				if (k == i || !(k in chain) || chain[k] != chain[i] ||
				    branch[k] == branch[i] || !head(k, c) || line[k] ~ /;[ \t]*$/)
					continue
				h = header(k)
				if (h ~ /mmu_notifier_range/ && !(line[hend] ~ /;[ \t]*$/ && line[hend] !~ /\{/))
					return k
			}
			return 0
		}
		function protos(    i, c, h, k) {
			for (i in hookleft) {
				k = 0
				if (compat != "yes" && (i in chain) && !version_if(chain[i]))
					for (c in newhook)
						if ((c in chain) && chain[c] == chain[i] && branch[c] != branch[i])
							k = c
				# (the module'"'"'s own switch: the 6.6 step left it and said so)
				if (!k)
					printf "%s:%d: [check] review: .invalidate_range is still here after the conversion (not converted: see the notes for this file; spatch may not have parsed it)\n", rel, i
			}
			for (i = 1; i <= nl; i++)
				for (c in young)
					if (line[i] ~ "^([a-z].*[ \t])?int[ \t]+" c "[ \t]*\\(" ||
					    ownline(i, c) && line[i - 1] ~ /(^|[ \t])int[ \t]*$/)
						printf "%s:%d: [check] review: %s, a young callback, still returns int after the conversion (7.1 wants bool, compat its mncompat_*_young_t: see the notes; spatch may not have parsed it)\n", rel, i, c
			if (upto < 2) return
			for (i = 1; i <= nl; i++) {
				for (c in cb) {
					if (!head(i, c) || line[i] ~ /;[ \t]*$/)
						continue
					h = header(i)
					if (line[hend] ~ /;[ \t]*$/ && line[hend] !~ /\{/)
						continue
					if (upto >= 3 && h !~ /mmu_notifier_range/ && (k = switched(i, c))) {
						if (compat == "yes")
							printf "%s:%d: [check] review: %s keeps its pre-5.0 prototype in this branch of the module'"'"'s own #if, and has 5.0'"'"'s in another (line %d): MNCOMPAT_MMU_NOTIFIER_OPS takes 5.0'"'"'s on every kernel, so this branch no longer builds: keep the other one alone (drop the module'"'"'s own switch)\n", rel, i, c, k
						else
							printf "%s:%d: [check] %s keeps its pre-5.0 prototype in this branch of the module'"'"'s own #if, and has 5.0'"'"'s in another (line %d): the module'"'"'s own switch between kernel APIs, left as it is\n", rel, i, c, k
					} else if (upto >= 3 && h !~ /mmu_notifier_range/)
						printf "%s:%d: [check] review: %s still has a pre-5.0 prototype after the conversion (not converted: see the notes; spatch may not have parsed it)\n", rel, i, c
					else if (upto == 2 && cb[c] == "start" && h !~ /bool/)
						printf "%s:%d: [check] review: %s still has a pre-4.19 prototype after the conversion (not converted: see the notes; spatch may not have parsed it)\n", rel, i, c
				}
			}
		}'
# Only the files with a word it looks for (in code or not: grep reads
# them all much faster than the awk above).  In the background, beside
# hazards.py (which reads only the steps' notes): its notes go first.
(cd "$tmp/work" && sed 's|^|./|' "$tmp/rels" | tr '\n' '\0' |
	xargs -0 -r grep -lZE 'mmu_notifier_ops|MNCOMPAT_MMU_NOTIFIER_(GET_)?OPS|mmu_notifier_invalidate_(page|range)|set_pte_at_notify|mmu_notifier_change_pte|make_device_exclusive_range|_young_notify|_clear_flush_notify|MMU_INVALIDATE_DOES_NOT_BLOCK|mmu_notifier_(unregister_no_release|call_srcu)' -- |
	xargs -0 -r awk -v upto="$upto" -v compat="$compat" "$check_left") \
	>"$tmp/left.notes" &
left_pid=$!
# The hazards the code as converted still has, named whether or not this
# run made them (hazards.py): a second run finds nothing to convert, but
# the hazard is still there. With --compat only the page loops (compat
# pairs start and end, and keeps the hook out of a paired table).
# Only the files with a range callback in a table can have them: most
# runs start no Python for it.
hazard_mode=
[ $compat = no ] || hazard_mode=--compat
(cd "$tmp/work" && tr '\n' '\0' <"$tmp/rels" |
	xargs -0 -r grep -lE '[.](invalidate_range_start|invalidate_range_end|invalidate_range|arch_invalidate_secondary_tlbs)[[:space:]]*=|MNCOMPAT_MMU_NOTIFIER_(GET_)?OPS[[:space:]]*[(]' --) \
	>"$tmp/hazard.files" || true
if [ -s "$tmp/hazard.files" ]; then
	# shellcheck disable=SC2086 # an option or none
	tr '\n' '\0' <"$tmp/hazard.files" | xargs -0 "$python" "$sp/hazards.py" \
		$hazard_mode --base "$MNCOMPAT_MODULE_BASE" --work "$tmp/work" \
		--upto "$last_gen" --notes "$tmp/notes" >"$tmp/hazards" ||
		die "hazards.py failed; nothing changed"
fi
wait "$left_pid" || die "the check for what the conversion left failed; nothing changed"
cat "$tmp/left.notes" >>"$tmp/notes"
[ ! -s "$tmp/hazards" ] || sort -u "$tmp/hazards" >>"$tmp/notes"
cat "$tmp/review.extra" >>"$tmp/notes"

# changed_files: the files the conversion changed so far, one a line
# ("Files orig/REL and work/REL differ": REL is there twice, same length).
changed_files() {
	(cd "$tmp" && diff -rq orig work) | awk '
		/^Files orig\/.* and work\/.* differ$/ {
			n = (length($0) - length("Files orig/ and work/ differ")) / 2
			print substr($0, length("Files orig/") + 1, n)
		}' || true
}

# An #if ... #endif around the removed code only (the 4.13-era ports
# guarded .invalidate_page and its callback so): nothing left between
# them, they go too. Only where the conversion emptied them.
# shellcheck disable=SC2016 # an awk program
empty_ifs='
	NR == FNR { if (prev ~ /^[ \t]*#[ \t]*if/ && $0 ~ /^[ \t]*#[ \t]*endif/) had[prev] = 1
		if (prev ~ /^[ \t]*#[ \t]*if/ && $0 ~ /^[ \t]*#[ \t]*else/) els[prev] = 1
		prev = $0; next }
	{ line[FNR] = $0; n = FNR }
	# nxt(k): the first line at or after k that is not blank
	function nxt(k) {
		while (k <= n && line[k] ~ /^[ \t]*$/) k++
		return k
	}
	END {
		for (i = 1; i <= n; i++) {
			if (i < n && line[i] ~ /^[ \t]*#[ \t]*if/ &&
			    line[i + 1] ~ /^[ \t]*#[ \t]*endif/ && !(line[i] in had)) {
				i++
				# no second blank line where the pair was
				if (last ~ /^[ \t]*$/ && i < n && line[i + 1] ~ /^[ \t]*$/)
					i++
				continue
			}
			# #if, #else and #endif with nothing left in either branch
			# (the definitions unsplit.py made whole per branch, removed)
			if (line[i] ~ /^[ \t]*#[ \t]*if/ && !(line[i] in els) &&
			    line[e = nxt(i + 1)] ~ /^[ \t]*#[ \t]*else/ &&
			    line[f = nxt(e + 1)] ~ /^[ \t]*#[ \t]*endif/) {
				i = f
				if (last ~ /^[ \t]*$/ && i < n && line[i + 1] ~ /^[ \t]*$/)
					i++
				continue
			}
			print line[i]
			last = line[i]
		}
	}'
# Only a file with an #if whose next line that is not blank is #endif or
# #else can have such a pair (one awk reads them all).
changed_files >"$tmp/touched"
# (Names as ./REL: awk takes an argument like NAME=VALUE, or one that
# starts with "-", for something else than a file.)
(cd "$tmp/work" && sed 's|^|./|' "$tmp/touched" | tr '\n' '\0' |
	xargs -0 -r awk '
	FNR == 1 { open = 0 }
	/^[ \t]*$/ { next }
	open && !(FILENAME in said) && /^[ \t]*#[ \t]*(endif|else)/ {
		said[FILENAME] = 1
		print substr(FILENAME, 3)
	}
	{ open = /^[ \t]*#[ \t]*if/ }') >"$tmp/touched.ifs"
while IFS= read -r rel; do
	tr -d '\r' <"$tmp/orig/$rel" | awk "$empty_ifs" - "$tmp/work/$rel" \
		>"$tmp/ifs.tmp"
	cmp -s "$tmp/ifs.tmp" "$tmp/work/$rel" && continue
	cat "$tmp/ifs.tmp" >"$tmp/work/$rel"
	printf '%s\n' "$rel:1: [convert] removed the #if ... #endif pairs the conversion left empty" >>"$tmp/notes"
done <"$tmp/touched.ifs"

# The braces of a changed file must balance outside comments, strings
# and preprocessor lines, before and after: where they do not, a macro
# opens or closes a block, spatch cannot see where the functions end, and
# what it removed or kept may be the wrong text (a stray brace).  Such a
# file stays as it was, named for review with the first brace that does
# not balance.
# shellcheck disable=SC2016 # an awk program
braces='
	# one verdict a file, in the order of the arguments (CRs dropped)
	FNR == 1 {
		if (NR > 1) verdict[name] = result()
		name = FILENAME
		c = 0; n = 0; split("", sk); p = 0; d = 0; e = 0; ebad = 0; bad = 0
	}
	{
		line = $0
		gsub(/\r/, "", line)
		# #if chains: braces of an #else/#elif branch are counted in d
		# only (e: first branches alone), to tell why they do not balance.
		if (!c && line ~ /^[ \t]*#[ \t]*if/) sk[++n] = 0
		else if (!c && n && line ~ /^[ \t]*#[ \t]*el(se|if)/) sk[n] = 1
		else if (!c && n && line ~ /^[ \t]*#[ \t]*endif/) n--
		if (!c && line ~ /^[ \t]*#/) { p = line ~ /\\$/; next }
		if (p) { p = line ~ /\\$/; next }
		out = ""
		while (line != "") {
			if (c) {
				k = index(line, "*/")
				if (!k) { line = ""; break }
				line = substr(line, k + 2); c = 0; continue
			}
			if (match(line, /\/\*|\/\/|"([^"\\]|\\.)*"|\047([^\047\\]|\\.)*\047/)) {
				out = out substr(line, 1, RSTART - 1)
				t = substr(line, RSTART, RLENGTH)
				line = substr(line, RSTART + RLENGTH)
				if (t == "/*") c = 1
				else if (t == "//") line = ""
				continue
			}
			out = out line
			line = ""
		}
		alt = 0
		for (i = 1; i <= n; i++) alt = alt || sk[i]
		o = gsub(/[{]/, "", out)
		k = gsub(/[}]/, "", out)
		d += o - k
		if (!alt) e += o - k
		if (e < 0) { e = 0; ebad = 1 }
		if (d < 0) { d = 0; if (!bad) bad = FNR }
	}
	function result() {
		if (!bad && d) bad = "end"
		if (bad + 0 == 0 && bad != "end") return "ok"
		if (!ebad && !e) return "if"
		return bad
	}
	END {
		if (NR > 0) verdict[name] = result()
		# (an empty file has no line: it balances)
		for (i = 1; i < ARGC; i++)
			print (ARGV[i] in verdict) ? verdict[ARGV[i]] : "ok"
	}'
# Each file's verdict before (the definitions unsplit.py made whole, or
# the file as read) and after, one awk for each side.
changed_files >"$tmp/touched.braces"
while IFS= read -r rel; do
	if [ -f "$tmp/whole/$rel" ]; then
		printf '%s\0' "$tmp/whole/$rel"
	else
		printf '%s\0' "$tmp/orig/$rel"
	fi
done <"$tmp/touched.braces" | xargs -0 -r awk "$braces" >"$tmp/braces.was"
while IFS= read -r rel; do
	printf '%s\0' "$tmp/work/$rel"
done <"$tmp/touched.braces" | xargs -0 -r awk "$braces" >"$tmp/braces.now"
paste "$tmp/braces.was" "$tmp/braces.now" "$tmp/touched.braces" |
while IFS= read -r rel; do
	# (the name last and whole: it may have TABs)
	was=${rel%%"$tab"*} rel=${rel#*"$tab"}
	now=${rel%%"$tab"*} rel=${rel#*"$tab"}
	[ "$was" != ok ] || [ "$now" != ok ] || continue
	tr -d '\r' <"$tmp/orig/$rel" >"$tmp/lf"
	! cmp -s "$tmp/lf" "$tmp/work/$rel" || continue
	cat "$tmp/lf" >"$tmp/work/$rel"
	awk -v f="$rel" 'index($0, f ":") != 1 || / review:/' "$tmp/notes" \
		>"$tmp/notes.keep"
	mv "$tmp/notes.keep" "$tmp/notes"
	why="a macro opens or closes a block"
	if [ "$was" = if ] || [ "$now" = if ]; then
		where="they do in the first branch of every #if"
		why="the #else or #elif branch of an #if opens or closes a block of its own (a function header under #if/#else, say)"
	elif [ "$was" != ok ]; then
		where="line $was"
		[ "$was" != end ] || where="the end of the file"
	else
		where="after the conversion, $now"
	fi
	printf '%s\n' "$rel:1: [convert] review: the braces of this file do not balance outside preprocessor lines ($where): $why, so where a function ends is not what spatch sees. Not converted (a change there could leave a stray brace): convert it by hand" >>"$tmp/notes"
done

# 5. Line ends as they were: a line the conversion kept keeps its own, a
# new line takes the end of the line it replaces (or follows); the diff.
while IFS= read -r rel; do
	tr -d '\r' <"$tmp/orig/$rel" >"$tmp/crlf.lf"
	{ diff -U0 "$tmp/crlf.lf" "$tmp/work/$rel" || :; } |
		awk -f "$sp/lineends.awk" "$tmp/orig/$rel" - >"$tmp/crlf.tmp"
	cat "$tmp/crlf.tmp" >"$tmp/work/$rel"
done <"$tmp/crlf"

# No newline where the file had none at its end.
while IFS= read -r rel; do
	[ "$(tail -c1 "$tmp/work/$rel" | od -An -tx1)" = " 0a" ] || continue
	head -c -1 "$tmp/work/$rel" >"$tmp/nonl.tmp"
	cat "$tmp/nonl.tmp" >"$tmp/work/$rel"
done <"$tmp/nonl"

changed_files | LC_ALL=C sort >"$tmp/changed"
: >"$tmp/diff"
# header_name NAME: $hn, NAME as a diff header gives it.  A name with a
# blank, a tab, a quote or a backslash goes in C-style quotes, as git
# writes it: patch -p1 and git apply read it.  (A plain name costs no
# process.)
header_name() {
	case $1 in
	*[[:space:]]* | *\"* | *\\*)
		hn=\"$(printf '%s' "$1" |
			sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e "s/$tab/\\\\t/g")\"
		;;
	*) hn=$1 ;;
	esac
}
# (--quiet shows no diff: none is made)
[ $quiet = yes ] || while IFS= read -r rel; do
	header_name "a/$rel"
	a=$hn
	header_name "b/$rel"
	b=$hn
	diff -u --label "$a" --label "$b" "$tmp/orig/$rel" "$tmp/work/$rel" \
		>>"$tmp/diff" || true
done <"$tmp/changed"

# A guard's review item is read from the files before the steps; where
# the conversion took the guard out with what it guarded (change_pte
# under #if < 6.12, gone with the 6.10 step), it is no longer true of the
# result: an item stays only while its file still has that #if.
if grep -q ': \[guard\] review: #if ' "$tmp/notes"; then
	# (FILE:LINE: [guard] review: #if COND guards ...: COND on an #if line of FILE)
	awk -v work="$tmp/work" '
		match($0, /:[0-9]+: \[guard\] review: #if /) {
			f = work "/" substr($0, 1, RSTART - 1)
			cond = substr($0, RSTART + RLENGTH)
			cond = substr(cond, 1, index(cond, " guards ") - 1)
			still = 0
			while ((getline l <f) > 0)
				if (l ~ /^[ \t]*#[ \t]*(el)?if/ && index(l, cond))
					still = 1
			close(f)
			if (!still)
				next
		}
		{ print }' "$tmp/notes" >"$tmp/notes.kept" ||
		die "the check of the guards' review items failed; nothing changed"
	cat "$tmp/notes.kept" >"$tmp/notes"
fi

# 6. The report.  Notes in step order; line numbers are those of the file
# when that step ran (the [check] lines: of the result).
nchanged=$(wc -l <"$tmp/changed")
nconv=$(grep -c '\] converted:' "$tmp/notes" || true)
nrem=$(grep -c '\] removed:' "$tmp/notes" || true)
nbr=$(grep -c '\] bracketed:' "$tmp/notes" || true)
# A note that asks for a review is an item needing review, whatever it
# starts with.
grep -E '\] review:|\] (converted|removed|bracketed):.*[^a-z_]review' \
	"$tmp/notes" >"$tmp/review" || true
nrev=$(wc -l <"$tmp/review")
sed 's/:[0-9]*: \[[^]]*\] .*$//' "$tmp/review" | sort -u >"$tmp/review.files"
nrevf=$(wc -l <"$tmp/review.files")
sort "$tmp/changed" "$tmp/review.files" | uniq >"$tmp/touched"
sort "$tmp/rels" | comm -23 - "$tmp/touched" >"$tmp/clean"
nclean=$(wc -l <"$tmp/clean")

{
	printf '%s\n' "== mncompat convert: $shown (up to ${to:-$last_gen}$([ $atomic = no ] || echo ', atomic')$([ $compat = no ] || echo ', compat'))"
	echo "files scanned: $ncand (those mentioning mmu_notifier)"
	echo "files changed: $nchanged"
	sed 's/^/  /' "$tmp/changed"
	echo "conversions (one per callback and step): $nconv"
	grep '\] converted:' "$tmp/notes" | sed 's/^/  /' || true
	echo "callbacks removed: $nrem"
	grep '\] removed:' "$tmp/notes" | sed 's/^/  /' || true
	echo "call sites bracketed: $nbr"
	grep '\] bracketed:' "$tmp/notes" | sed 's/^/  /' || true
	[ ! -s "$tmp/links.inside" ] || sed 's/^/  /' "$tmp/links.inside"
	# What was decided and how, where it is no conversion, removal or
	# bracket: informational.
	grep -vE '\] (converted|removed|bracketed):' "$tmp/notes" |
		grep -vxF -f "$tmp/review" >"$tmp/info" || true
	if [ -s "$tmp/info" ]; then
		echo "notes: $(wc -l <"$tmp/info")"
		sed 's/^/  /' "$tmp/info"
	fi
	echo "items needing review: $nrev (in $nrevf file(s))"
	sed 's/^/  /' "$tmp/review"
	echo "files unchanged, nothing to convert: $nclean"
	sed 's/^/  /' "$tmp/clean"
	if [ -s "$tmp/skipped" ]; then
		echo "files skipped: $(wc -l <"$tmp/skipped")"
		sed "s/^/  /; s/$tab\([^$tab]*\)\$/: \1/" "$tmp/skipped"
	fi
} >"$tmp/report"
if [ $quiet = yes ]; then
	show "$tmp/report"
else
	show "$tmp/diff" "$tmp/report"
fi

done_status=0
[ "$nrev" -eq 0 ] || done_status=3
if [ $apply = no ]; then
	[ "$nchanged" -eq 0 ] || say "(dry run: nothing written; --apply writes)"
	exit $done_status
fi
[ "$nchanged" -gt 0 ] || exit $done_status

# 7. --apply, all or nothing.  Check every target, stage every new file
# next to its target, then rename them all in; on any error or signal the
# EXIT trap puts back what was renamed.
# writable PATH: [ -w ] is always true for root: look at the mode bits too.
writable() {
	[ -w "$1" ] && [ -n "$(find "$1" -prune \( -perm -u=w -o -perm -g=w \
		-o -perm -o=w \) -print)" ]
}
bad=0
while IFS= read -r rel; do
	f=$base/$rel
	d=$(dirname -- "$f")
	if [ -L "$f" ] || [ ! -f "$f" ]; then
		printf '%s\n' "$prog: error: $f is no longer a regular file" >&2
		bad=1
	elif ! writable "$f"; then
		printf '%s\n' "$prog: error: $f is read-only" >&2
		bad=1
	elif ! writable "$d"; then
		printf '%s\n' "$prog: error: $d is read-only (a new file is renamed into it)" >&2
		bad=1
	elif ! cmp -s "$f" "$tmp/orig/$rel"; then
		printf '%s\n' "$prog: error: $f changed since it was read" >&2
		bad=1
	fi
done <"$tmp/changed"
[ $bad -eq 0 ] || die "refusing to write: nothing changed"

: >"$tmp/staged"
phase=writing
hook=${MNCOMPAT_CONVERT_TEST_HOOK:-}
n=0
while IFS= read -r rel; do
	f=$base/$rel
	d=$(dirname -- "$f")
	name=$(basename -- "$f")
	# Named and recorded before it exists: a signal at any point finds
	# every staged file in $tmp/staged (set -C: created, never reused).
	t=$(mktemp -u "$d/.$name.mncompat.XXXXXX")
	b=$(mktemp -u "$d/.$name.mncompat-old.XXXXXX")
	printf '%s\t%s\t%s\n' "${t##*.}" "${b##*.}" "$rel" >>"$tmp/staged"
	(set -C && : >"$t") 2>/dev/null ||
		die "cannot create a temporary file next to $f; nothing changed"
	[ -z "$hook" ] || "$hook" created "$((n + 1))" "$t"
	# cp -p keeps mode, owner and times; then the new contents.
	if ! cp -p -- "$f" "$t" || ! cat "$tmp/work/$rel" >"$t"; then
		die "cannot write $t; nothing changed"
	fi
	ln -- "$f" "$b" 2>/dev/null || cp -p -- "$f" "$b" ||
		die "cannot keep the old $f; nothing changed"
	n=$((n + 1))
	[ -z "$hook" ] || "$hook" stage "$n" "$f"
done <"$tmp/changed"
n=0
while IFS= read -r line; do
	staged_paths "$line"
	rel=${f#"$base"/}
	cmp -s "$f" "$tmp/orig/$rel" ||
		die "$f changed while the files were written; nothing changed"
	mv -f -- "$t" "$f" || die "renaming $t to $f failed; nothing changed"
	n=$((n + 1))
	[ -z "$hook" ] || "$hook" rename "$n" "$f"
done <"$tmp/staged"
phase=written
say "written: $nchanged file(s)"
said_written=yes
[ -z "$hook" ] || "$hook" written "$n" "$base"
while IFS= read -r line; do
	staged_paths "$line"
	rm -f -- "$b"
done <"$tmp/staged"
exit $done_status
