#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/convert.sh PATH [--apply] [--atomic | --compat]
#                                    [--to GEN] [--jobs N] [--quiet]
#
# Move the MMU-notifier code under PATH (a directory or one file) to a
# newer kernel API by running the semantic patches listed in "series" in
# order, up to and including generation GEN (4.13, 4.19, 5.0, 6.6, 6.10;
# default: all, i.e. the 6.12 API).
#
# Dry run by default: prints a unified diff and a report (files changed,
# callbacks converted, items needing review) and changes nothing.
# --apply   write the changed files: each one through a temporary file in
#           its own directory and a rename, keeping its mode; refuses
#           (and writes nothing at all) if one of them is read-only.
# --atomic  a notifier with only invalidate_page gets the non-sleeping
#           invalidate_range callback instead of invalidate_range_start/end.
# --compat  the result builds with <mncompat/mmu_notifier.h> on every
#           kernel: as --atomic, an invalidate_page next to range callbacks
#           is kept as the secondary-TLB hook (compat calls it from
#           invalidate_page before 4.13), and mn-compat-ops.cocci then
#           declares each table with MNCOMPAT_MMU_NOTIFIER_OPS. The
#           driver's build needs -I for compat/include and the probed
#           config (ci/build-module.sh passes both). Not with --to.
# --jobs N  spatch --jobs (default 2).
# --quiet   no diff, report only.
# Files with CRLF line ends are converted as LF and written back as CRLF.
# Exit status: 0 done (also when nothing changed), 1 failure, 2 usage.
set -eu

sp=$(cd "$(dirname "$0")" && pwd)
prog=$(basename "$0")

die() {
	echo "$prog: error: $*" >&2
	exit 1
}

usage() {
	sed -n '3,5s/^# //p' "$0" >&2
	exit 2
}

path=
apply=no
atomic=no
compat=no
to=
jobs=2
quiet=no
while [ $# -gt 0 ]; do
	case $1 in
	--apply) apply=yes ;;
	--atomic) atomic=yes ;;
	--compat) compat=yes ;;
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
	-*)
		echo "$prog: unknown option $1" >&2
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
'' | *[!0-9]*) die "--jobs wants a number, not '$jobs'" ;;
esac
if [ $compat = yes ]; then
	[ $atomic = no ] || die "--compat already converts as --atomic: give one of them"
	[ -z "$to" ] || die "--compat converts to the newest API: no --to"
fi

if [ ! -e "$path" ]; then
	[ -L "$path" ] && die "$path: dangling symbolic link"
	die "$path: no such file or directory (or a parent is not searchable)"
fi
[ -r "$path" ] || die "$path: not readable"
if [ -d "$path" ]; then
	[ -x "$path" ] || die "$path: directory not searchable"
fi
command -v spatch >/dev/null || die "spatch (coccinelle) is not installed"

# The scripts to run, in order, up to --to.
# Every script of generation GEN runs, then none after it.
steps=$(awk -v to="$to" '
	$1 ~ /^#/ || NF < 3 { next }
	found && $1 != to { exit }
	{ print $1, $2, $3, (NF >= 4 ? $4 : "-"); if ($1 == to) found = 1 }
	END { if (to != "" && !found) exit 1 }' "$sp/series") ||
	die "--to $to: not a generation in $sp/series ($(awk '$1 !~ /^#/ && NF { printf "%s ", $1 }' "$sp/series" | tr ' ' '\n' | uniq | tr '\n' ' '))"
# --compat: the tables onto MNCOMPAT_MMU_NOTIFIER_OPS, after the series.
[ $compat = no ] || steps="$steps
compat mn-compat-ops.cocci struct[[:space:]]+mmu_notifier_ops|mmu_notifier_range_blockable -"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-convert.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# 1. Prefilter: C files that mention mmu_notifier at all (every user
# includes <linux/mmu_notifier.h>; files that only know cleancache or
# frontswap, whose ops also have an invalidate_page, are never touched).
if [ -d "$path" ]; then
	base=$path
	grep -rlF --include='*.c' --include='*.h' mmu_notifier "$path" \
		>"$tmp/candidates" 2>"$tmp/grep.err" || true
	if [ -s "$tmp/grep.err" ]; then
		cat "$tmp/grep.err" >&2
		die "could not read all of $path (see above); nothing changed"
	fi
else
	base=$(dirname "$path")
	: >"$tmp/candidates"
	if grep -qF mmu_notifier "$path"; then
		echo "$path" >"$tmp/candidates"
	fi
fi
# The API's own definitions are not users of it: never convert them.
grep -vE '(^|/)(include/linux/mmu_notifier\.h|mm/mmu_notifier\.c)$' \
	"$tmp/candidates" >"$tmp/candidates.users" || true
mv "$tmp/candidates.users" "$tmp/candidates"
ncand=$(wc -l <"$tmp/candidates")

# 2. Scratch copies, relative to $base, CRLF turned into LF.
mkdir "$tmp/work"
: >"$tmp/crlf"
while IFS= read -r f; do
	rel=${f#"$base"/}
	mkdir -p "$tmp/work/$(dirname "$rel")"
	if grep -q "$(printf '\r')\$" "$f"; then
		echo "$rel" >>"$tmp/crlf"
		tr -d '\r' <"$f" >"$tmp/work/$rel"
	else
		cp "$f" "$tmp/work/$rel"
	fi
done <"$tmp/candidates"

# 3. The semantic patches, each on the scratch files that have its tokens.
wanted=
[ $atomic = no ] || wanted=atomic
[ $compat = no ] || wanted=compat
: >"$tmp/notes"
# spatch --jobs only parallelises --dir, so each step gets a directory
# with copies of just the files its pattern matches.
printf '%s\n' "$steps" | while read -r gen cocci tokens past; do
	[ -n "$gen" ] || continue
	(cd "$tmp/work" && grep -rlE "$tokens" . 2>/dev/null) \
		>"$tmp/files" || true
	if [ "$past" != - ] && [ -s "$tmp/files" ]; then
		while IFS= read -r rel; do
			grep -qE "$past" "$tmp/work/$rel" || echo "$rel"
		done <"$tmp/files" >"$tmp/files.todo"
		mv "$tmp/files.todo" "$tmp/files"
	fi
	[ -s "$tmp/files" ] || continue
	# Flat, numbered copies (spatch --dir does not cope with every
	# file name); notes are mapped back to the real names below.
	rm -rf "$tmp/step"
	mkdir "$tmp/step"
	i=0
	: >"$tmp/map"
	while IFS= read -r rel; do
		i=$((i + 1))
		case $rel in
		*.h) n=f$i.h ;;
		*) n=f$i.c ;;
		esac
		cp "$tmp/work/$rel" "$tmp/step/$n"
		printf '%s\t%s\n' "$n" "${rel#./}" >>"$tmp/map"
	done <"$tmp/files"
	# -D only for the scripts that know it (spatch refuses the others).
	defs=
	for d in $wanted; do
		! grep -q "^virtual $d\$" "$sp/$cocci" || defs="$defs -D $d"
	done
	# shellcheck disable=SC2046,SC2086
	if ! (cd "$tmp/step" && spatch --very-quiet --no-show-diff \
		$(sed -n 's|^// Options:||p' "$sp/$cocci" | head -n 1) \
		-D patch $defs --sp-file "$sp/$cocci" --in-place \
		--jobs "$jobs" --dir .) \
		>"$tmp/spatch.out" 2>"$tmp/spatch.err"; then
		cat "$tmp/spatch.err" >&2
		die "spatch failed on $cocci; nothing changed"
	fi
	grep '^\./.*: \[' "$tmp/spatch.err" | sed 's|^\./||' |
		sort -t: -k1,1 -k2,2n -k3 -u |
		awk -F'\t' 'NR == FNR { name[$1] = $2; next }
			{ i = index($0, ":"); f = substr($0, 1, i - 1)
			  print ((f in name) ? name[f] : f) substr($0, i) }' \
			"$tmp/map" - >>"$tmp/notes" || true
	if grep -v '^\./.*: \[' "$tmp/spatch.err" |
		grep -qiE 'error|exception'; then
		cat "$tmp/spatch.err" >&2
		die "spatch reported errors on $cocci; nothing changed"
	fi
	while IFS="$(printf '\t')" read -r n rel; do
		cat "$tmp/step/$n" >"$tmp/work/$rel"
	done <"$tmp/map"
done

# 4. Back to CRLF where the original had it; the diff.
while IFS= read -r rel; do
	sed 's/$/\r/' "$tmp/work/$rel" >"$tmp/crlf.tmp"
	cat "$tmp/crlf.tmp" >"$tmp/work/$rel"
done <"$tmp/crlf"

: >"$tmp/changed"
: >"$tmp/diff"
while IFS= read -r f; do
	rel=${f#"$base"/}
	if ! cmp -s "$f" "$tmp/work/$rel"; then
		echo "$rel" >>"$tmp/changed"
		diff -u --label "a/$rel" --label "b/$rel" "$f" \
			"$tmp/work/$rel" >>"$tmp/diff" || true
	fi
done <"$tmp/candidates"

# 5. The report.
# In step order; line numbers are those of the file when that step ran.
cp "$tmp/notes" "$tmp/notes.sorted"
nchanged=$(wc -l <"$tmp/changed")
nconv=$(grep -c '\] converted:' "$tmp/notes.sorted" || true)
nconvrev=$(grep '\] converted:' "$tmp/notes.sorted" | grep -c 'review' || true)
nrem=$(grep -c '\] removed:' "$tmp/notes.sorted" || true)
nbr=$(grep -c '\] bracketed:' "$tmp/notes.sorted" || true)
nrev=$(grep -c '\] review:' "$tmp/notes.sorted" || true)

[ $quiet = yes ] || cat "$tmp/diff"
{
	echo "== mncompat convert: $path (up to ${to:-6.10}$([ $atomic = no ] || echo ', atomic')$([ $compat = no ] || echo ', compat'))"
	echo "files scanned: $ncand (those mentioning mmu_notifier)"
	echo "files changed: $nchanged"
	sed 's/^/  /' "$tmp/changed"
	echo "conversions (one per callback and step): $nconv, $nconvrev of them with a point to review in their note"
	grep '\] converted:' "$tmp/notes.sorted" | sed 's/^/  /' || true
	echo "callbacks removed: $nrem"
	grep '\] removed:' "$tmp/notes.sorted" | sed 's/^/  /' || true
	echo "call sites bracketed: $nbr"
	grep '\] bracketed:' "$tmp/notes.sorted" | sed 's/^/  /' || true
	echo "items needing review: $nrev"
	grep '\] review:' "$tmp/notes.sorted" | sed 's/^/  /' || true
} >"$tmp/report"
cat "$tmp/report"

if [ $apply = no ]; then
	[ "$nchanged" -eq 0 ] || echo "(dry run: nothing written; --apply writes)"
	exit 0
fi
[ "$nchanged" -gt 0 ] || exit 0

# 6. --apply: check every target first, then temp file + rename each.
bad=0
while IFS= read -r rel; do
	f=$base/$rel
	# [ -w ] is always true for root: look at the mode bits as well.
	if [ ! -w "$f" ] || [ -z "$(find "$f" -prune \( -perm -u=w \
		-o -perm -g=w -o -perm -o=w \) -print)" ]; then
		echo "$prog: error: $f is read-only" >&2
		bad=1
	elif [ ! -w "$(dirname "$f")" ]; then
		echo "$prog: error: $(dirname "$f") is not writable (needed for the rename)" >&2
		bad=1
	fi
done <"$tmp/changed"
[ $bad -eq 0 ] || die "refusing to write: nothing changed"

while IFS= read -r rel; do
	f=$base/$rel
	t=$(mktemp "$(dirname "$f")/.$(basename "$f").mncompat.XXXXXX") ||
		die "cannot create a temporary file next to $f"
	# cp -p keeps mode, owner and times; then the new contents.
	if cp -p "$f" "$t" && cat "$tmp/work/$rel" >"$t" && mv -f "$t" "$f"; then
		:
	else
		rm -f "$t"
		die "writing $f failed (files written before it are complete)"
	fi
done <"$tmp/changed"
echo "written: $nchanged file(s)"
