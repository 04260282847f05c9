#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: drivers-sample/mirror/model/regions.sh [--record]
#
# The C regions the spin model stands for, each a line "SHA256 FILE NAME"
# of regions.sha256: the function (or macro, or table) NAME defined in FILE
# (relative to the top of the repository). Checks that each region still
# hashes to what was recorded and that a .pml file names it; prints each
# region that changed and exits 1. After reviewing the model steps named
# after the changed regions, --record writes the current hashes (the list
# of regions stays as it is; add a line with any hash to add one).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
list=$here/regions.sha256

# region FILE NAME: the text of NAME's definition at the top level of FILE,
# from its first line (the line before, when that holds the return type) to
# its closing brace, its last continued macro line, or its ';'.
region() {
	awk -v name="$2" '
	function names(line) {
		return line ~ ("(^|[^A-Za-z0-9_])" name "([^A-Za-z0-9_]|$)")
	}
	!started {
		if ($0 ~ /^[A-Za-z_#]/ && names($0) && $0 !~ /;[ \t]*$/) {
			started = 1
			macro = $0 ~ /^#define/
			if (index($0, name) == 1 && prev != "")
				print prev
		} else {
			prev = ($0 ~ /^[A-Za-z_]/ && $0 !~ /[;{}]/) ? $0 : ""
			next
		}
	}
	{
		print
		if (macro) {
			if ($0 !~ /\\$/)
				exit
			next
		}
		if ($0 ~ /{/)
			body = 1
		if ((body && $0 ~ /^}/) || (!body && $0 ~ /;[ \t]*$/))
			exit
	}' "$top/$1"
}

# current_hash FILE NAME: the region's sha256, or nothing when it is gone.
# Hashed with its whitespace squeezed out (runs of blanks made one space,
# blank lines and line breaks dropped): re-indenting or re-wrapping a
# region is not a change the model needs to review; any other edit is.
current_hash() {
	[ -f "$top/$1" ] || return 0
	text=$(region "$1" "$2")
	[ -n "$text" ] || return 0
	printf '%s\n' "$text" |
		awk '{ gsub(/[ \t]+/, " "); sub(/^ /, ""); sub(/ $/, "") }
			$0 != "" { printf "%s ", $0 }' |
		sha256sum | cut -d' ' -f1
}

[ -f "$list" ] || { echo "error: $list is missing" >&2; exit 1; }
if [ $# -gt 1 ] || { [ $# -eq 1 ] && [ "$1" != --record ]; }; then
	echo "usage: $0 [--record]" >&2
	exit 2
fi

if [ "${1-}" = --record ]; then
	new=$(mktemp "$list.XXXXXX")
	trap 'rm -f "$new"' EXIT
	grep '^#' "$list" >"$new" || true
	grep -v '^#' "$list" | while read -r _ file name; do
		hash=$(current_hash "$file" "$name")
		if [ -z "$hash" ]; then
			echo "error: $file: no definition of $name" >&2
			exit 1
		fi
		echo "$hash $file $name"
	done >>"$new"
	mv "$new" "$list"
	trap - EXIT
	echo "recorded $(grep -vc '^#' "$list") regions in $list"
	exit 0
fi

status=0
while read -r want file name; do
	case $want in '#'* | '') continue ;; esac
	have=$(current_hash "$file" "$name")
	if [ -z "$have" ]; then
		echo "$file: $name: no definition found (the model stands for it)"
		status=1
	elif [ "$have" != "$want" ]; then
		echo "$file: $name changed: review the model step named $name in $here, then run $0 --record"
		status=1
	fi
	if ! grep -qw -- "$name" "$here"/*.pml; then
		echo "$name: no model step names it"
		status=1
	fi
done <"$list"
exit "$status"
