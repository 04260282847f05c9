#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/bench.sh [--runs N] [--top N] [TREE...] [-- FILE...]
#
# How fast convert.sh is, against its goals:
#  - a dry run over a whole kernel tree within 3x `grep -rl mmu_notifier`
#    over the same tree (the two timed alternately, --runs times each, best
#    of each, page cache warmed first);
#  - no file over 10 s: every file of the trees that a step of the series
#    works on, and every FILE given after --, converted on its own
#    (convert.sh FILE --quiet, all steps); the --top slowest are listed.
# TREEs default to linux-source-6.1 and linux-source-6.12 from
# ci/kernels/unpack-source.sh: the two ratios are printed one per tree.  Prints the
# machine's load too: timings on a shared machine move with it.
# Exit status: 0 when every goal is met, 1 when one is not, 2 usage.
set -eu

sp=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$sp/.." && pwd)
runs=3
ntop=10
trees=
files=
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=${2:?}; shift ;;
	--top) ntop=${2:?}; shift ;;
	--) shift; files=$*; break ;;
	-*) sed -n '3s/^# //p' "$0" >&2; exit 2 ;;
	*) trees="$trees $1" ;;
	esac
	shift
done
case $runs$ntop in *[!0-9]*) echo "bench.sh: --runs and --top want numbers" >&2; exit 2 ;; esac
if [ -z "$trees" ] && [ -z "$files" ]; then
	trees="$("$top/ci/kernels/unpack-source.sh" 6.1) $("$top/ci/kernels/unpack-source.sh" 6.12)"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

now() {
	date +%s.%N
}

# secs START END
secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'
}

# timed LABEL CMD...: run CMD, append "LABEL SECONDS" to $tmp/times.
timed() {
	_l=$1
	shift
	_t0=$(now)
	"$@" >/dev/null 2>&1 || [ $? -eq 3 ] || {
		echo "bench.sh: failed: $*" >&2
		exit 1
	}
	echo "$_l $(secs "$_t0" "$(now)")" >>"$tmp/times"
}

best() {
	awk -v l="$1" '$1 == l && (m == "" || $2 < m) { m = $2 } END { print m }' \
		"$tmp/times"
}

# (series.awk reads the series: GEN FILE NEEDS PAST WHOLE a line)
needs=$(awk -f "$sp/series.awk" "$sp/series" |
	awk '{ printf "%s%s", sep, $3; sep = "|" }')
met=yes
: >"$tmp/times"
: >"$tmp/perfile"
for t in $trees; do
	[ -d "$t" ] || { echo "bench.sh: $t: not a directory" >&2; exit 2; }
	name=$(basename "$t")
	grep -rl mmu_notifier "$t" >/dev/null 2>&1 || true
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		timed "grep:$name" grep -rl mmu_notifier "$t"
		timed "convert:$name" "$sp/convert.sh" "$t" --quiet
	done
	g=$(best "grep:$name")
	c=$(best "convert:$name")
	r=$(awk -v c="$c" -v g="$g" 'BEGIN { printf "%.1f", c / g }')
	ok=$(awk -v r="$r" 'BEGIN { print (r <= 3.0) ? "met" : "NOT met" }')
	[ "$ok" = met ] || met=no
	echo "tree $name: grep -rl mmu_notifier $g s, convert.sh dry run $c s (best of $runs each): ${r}x grep (goal <= 3x: $ok)"
	# The files a step works on, for the per-file times.
	grep -rlE --include='*.c' --include='*.h' "$needs" "$t" 2>/dev/null |
		xargs -r grep -lF mmu_notifier 2>/dev/null |
		grep -vE '(^|/)(include/linux/mmu_notifier\.h|mm/mmu_notifier\.c)$' |
		while IFS= read -r f; do
			printf '%s\t%s\n' "$f" "$name: ${f#"$t"/}"
		done >>"$tmp/perfile" || true
done
for f in $files; do
	printf '%s\t%s\n' "$f" "$f" >>"$tmp/perfile"
done

# Each file on its own, every step.
while IFS="$(printf '\t')" read -r f label; do
	t0=$(now)
	"$sp/convert.sh" "$f" --quiet >/dev/null 2>&1 || [ $? -eq 3 ] || {
		echo "bench.sh: convert.sh failed on $f" >&2
		exit 1
	}
	printf '%s\t%s\n' "$(secs "$t0" "$(now)")" "$label"
done <"$tmp/perfile" >"$tmp/perfile.unsorted"
sort -rn "$tmp/perfile.unsorted" >"$tmp/perfile.times"
n=$(wc -l <"$tmp/perfile.times")
if [ "$n" -gt 0 ]; then
	max=$(head -n 1 "$tmp/perfile.times" | cut -f1)
	ok=$(awk -v m="$max" 'BEGIN { print (m <= 10) ? "met" : "NOT met" }')
	[ "$ok" = met ] || met=no
	echo "per file ($n files a step works on, each converted on its own): slowest $max s (goal <= 10 s: $ok)"
	head -n "$ntop" "$tmp/perfile.times" |
		awk -F'\t' '{ printf "  %6.2f s  %s\n", $1, $2 }'
fi
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ $met = yes ] || { echo "goals: NOT met"; exit 1; }
echo "goals: met"
