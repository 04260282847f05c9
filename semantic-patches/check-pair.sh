#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/check-pair.sh OLD NEW [OLD_TREE NEW_TREE]
#
# Ground truth for the conversion, from a real pair of kernel trees: the
# MMU-notifier users of linux-source-OLD (every file with a struct
# mmu_notifier_ops or mmu_interval_notifier_ops initializer, and every file
# that uses what a step between OLD and NEW converts) are converted by
# convert.sh in a scratch copy, up to the last generation of the series
# not newer than NEW, and each hunk of the conversion is compared with
# what upstream made of the same lines in linux-source-NEW
# (pairdiff.py): equal, within a larger upstream change, or otherwise
# (each such difference, and each upstream hunk on the converted API that
# the conversion left, explained by a line of semantic-patches/pairs/
# OLD-NEW.explained).  OLD and NEW are series (5.10, 6.1, 6.12, 7.3); the
# trees default to ci/kernels/unpack-source.sh OLD and NEW.
# Exit status: 0 every difference explained; 1 an unexplained difference
# or a stale explanation, or the conversion failed; 2 usage.
set -eu

sp=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$sp/.." && pwd)
usage() {
	echo "usage: $0 OLD NEW [OLD_TREE NEW_TREE]" >&2
	exit 2
}
[ $# -eq 2 ] || [ $# -eq 4 ] || usage
old=$1 new=$2
case $old$new in *[!0-9.]*) usage ;; esac
explained=$sp/pairs/$old-$new.explained
[ -f "$explained" ] || {
	echo "$0: no $explained: no pair $old -> $new" >&2
	exit 2
}
if [ $# -eq 4 ]; then
	a=$3 b=$4
else
	a=$("$top/ci/kernels/unpack-source.sh" "$old")
	b=$("$top/ci/kernels/unpack-source.sh" "$new")
fi
for t in "$a" "$b"; do
	[ -f "$t/include/linux/mmu_notifier.h" ] || {
		echo "$0: $t: not a kernel tree" >&2
		exit 2
	}
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-pair.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# The generations after OLD up to NEW: the last is convert.sh's --to; the
# steps' file patterns (series, third column) say which files use what
# they convert.
# (series.awk reads the series and orders the generations: GEN FILE
# NEEDS PAST WHOLE a line.)
awk -v after="$old" -v upto="$new" -f "$sp/series.awk" "$sp/series" |
	awk '{ print $1 "\t" $3 }' >"$tmp/steps"
[ -s "$tmp/steps" ] || {
	echo "$0: no step of the series between $old and $new" >&2
	exit 2
}
to=$(tail -n 1 "$tmp/steps" | cut -f1)
api=$(cut -f2 "$tmp/steps" | paste -sd'|' -)

# 1. The users and a scratch copy of them.
(cd "$a" && grep -rlE --include='*.c' --include='*.h' \
	"struct[[:space:]]+mmu(_interval)?_notifier_ops[[:space:]]+[A-Za-z0-9_]+[[:space:]]*=|$api" . |
	sed 's|^\./||' |
	grep -vE '^(include/linux/mmu_notifier\.h|mm/mmu_notifier\.c)$' |
	LC_ALL=C sort) >"$tmp/users"
mkdir "$tmp/scratch"
while IFS= read -r f; do
	mkdir -p "$tmp/scratch/$(dirname "$f")"
	cp "$a/$f" "$tmp/scratch/$f"
done <"$tmp/users"

# 2. Convert them (exit 3: converted, with items needing review).
start=$(date +%s)
"$sp/convert.sh" "$tmp/scratch" --apply --quiet --to "$to" >"$tmp/convert.out" 2>&1 ||
	[ $? -eq 3 ] || {
	cat "$tmp/convert.out" >&2
	echo "$0: convert.sh failed" >&2
	exit 1
}
secs=$(($(date +%s) - start))

# 3. Each hunk against upstream's.
echo "== $old -> $new: linux-source-$old ($a) converted up to $to, against linux-source-$new ($b)"
st=0
python3 "$sp/pairdiff.py" "$a" "$tmp/scratch" "$b" "$tmp/users" "$explained" "$api" || st=$?
echo "conversion: $(wc -l <"$tmp/users") files in $secs s; $(grep -E '^files changed' "$tmp/convert.out")"
# What convert.sh asked a person to check, as it said it.
sed -n '/^items needing review:/,/^files unchanged/p' "$tmp/convert.out" | sed '$d'
exit "$st"
