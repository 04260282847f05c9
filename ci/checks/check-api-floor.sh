#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/checks/check-api-floor.sh [--list FILE] [--tree DIR] [MODULE_DIR...]
# The API floor (Linux 4.4): kernel code outside compat/ uses none of the
# interfaces of ci/checks/api-floor.list, except inside blocks guarded by a compat
# probe (#ifdef MNCOMPAT_HAVE_...: those blocks are dropped with unifdef
# first, as if no probe had compiled). Comments and string literals do not
# count. A struct field (member STRUCT.FIELD) is found after the names code
# gives a struct mmu_notifier: mn, notifier, subscription.
#
# MODULE_DIR: the directories whose top-level *.c and *.h are checked;
# default: every directory with a Kbuild under drivers-sample/, compat/tests/
# and ci/run/selftest/. The list is checked too: each entry well-formed, each
# name present in the packaged 6.12 tree (--tree, default from
# ci/kernels/unpack-source.sh 6.12), so that a typo cannot hide a use.
# Prints one line per use found ("FILE:LINE: NAME (SINCE, COMMIT SUBJECT)"),
# then a summary; exits 1 on any use or bad entry.
set -eu
. "$(dirname "$0")/../lib.sh"

list=$MNCOMPAT_TOP/ci/checks/api-floor.list tree=""
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=$2 && shift 2 ;;
	--tree) tree=$2 && shift 2 ;;
	-*) die "usage: ci/checks/check-api-floor.sh [--list FILE] [--tree DIR] [MODULE_DIR...]" ;;
	*) break ;;
	esac
done
[ -r "$list" ] || die "no list $list"
command -v unifdef >/dev/null || die "unifdef missing: run ci/install-deps.sh"
[ -n "$tree" ] || tree=$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" 6.12)
[ -d "$tree/include/linux" ] || die "$tree is not a kernel source tree"
if [ $# -eq 0 ]; then
	cd "$MNCOMPAT_TOP"
	dirs=$(git ls-files 'drivers-sample/*/Kbuild' 'compat/tests/*/Kbuild' \
		'ci/run/selftest/*/Kbuild' | xargs -n 1 dirname)
	# shellcheck disable=SC2086 # directory names without blanks
	set -- $dirs
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
entries=$work/entries
bad=0

# 1. The list: KIND NAME SINCE COMMIT SUBJECT..., names in the 6.12 tree.
awk -v list="$list" '
/^[[:space:]]*(#|$)/ { next }
{
	ok = NF >= 5 && $1 ~ /^(header|ident|member)$/ &&
		($3 ~ /^[0-9]+\.[0-9]+$/ || $3 == "after-4.4") &&
		(($4 ~ /^[0-9a-f]+$/ && length($4) >= 12) || $4 == "unverified") &&
		($1 != "member" || $2 ~ /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/)
	if (!ok) {
		printf "%s:%d: bad entry: %s\n", list, NR, $0 > "/dev/stderr"
		bad = 1
		next
	}
	subject = $5
	for (i = 6; i <= NF; i++)
		subject = subject " " $i
	printf "%s\t%s\t%s\t%s\t%s\n", $1, $2, $3, $4, subject
}
END { exit bad }' "$list" >"$entries" || bad=1

idents=$(awk -F '\t' '$1 == "ident" { print $2 }' "$entries" | paste -sd '|')
grep -rhowE --include='*.h' "($idents)" "$tree/include" | sort -u >"$work/in-tree"
while IFS='	' read -r kind name since commit subject; do
	case $kind in
	header) [ -f "$tree/include/$name" ] ;;
	ident) grep -qx "$name" "$work/in-tree" ;;
	member) grep -rqE "^struct ${name%%.*} \\{" "$tree/include" ;;
	esac || {
		echo "$list: $kind $name is not in $tree/include: a typo?" >&2
		bad=1
	}
done <"$entries"

# strip FILE: FILE with comments and string/char literals blanked, line
# breaks kept (so that grep -n still gives the line).
strip() {
	awk '
	BEGIN { state = "code" }
	{
		out = ""
		n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			d = substr($0, i, 2)
			if (state == "block") {
				if (d == "*/") { state = "code"; i++ }
				out = out " "
			} else if (state == "str" || state == "chr") {
				if (c == "\\") { i++; out = out " "; continue }
				if ((state == "str" && c == "\"") ||
				    (state == "chr" && c == "'\''"))
					state = "code"
				out = out " "
			} else if (d == "/*") {
				state = "block"; i++; out = out " "
			} else if (d == "//") {
				break
			} else if (c == "\"") {
				state = "str"; out = out " "
			} else if (c == "'\''") {
				state = "chr"; out = out " "
			} else {
				out = out c
			}
		}
		print out
	}' "$1"
}

# What a kernel without any probe result compiles of FILE, comments out.
floor_view() {
	macros=$(grep -o 'MNCOMPAT_HAVE_[A-Z0-9_]*' "$1" | sort -u |
		sed 's/^/-U/' | tr '\n' ' ')
	rc=0
	# shellcheck disable=SC2086 # one -U per macro
	unifdef -b $macros "$1" >"$work/unifdef.c" || rc=$?
	[ "$rc" -le 1 ] || die "unifdef failed on $1"
	strip "$work/unifdef.c"
}

files=0
: >"$work/uses"
for dir; do
	[ -d "$dir" ] || die "no directory $dir"
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -f "$f" ] || continue
		files=$((files + 1))
		floor_view "$f" >"$work/view.c"
		while IFS='	' read -r kind name since commit subject; do
			# An include names a header, it does not use its words.
			include="^[0-9]+:[[:space:]]*#[[:space:]]*include"
			case $kind in
			header) pattern="^[[:space:]]*#[[:space:]]*include[[:space:]]*<$name>"
				include='^$' ;;
			ident) pattern="\\b$name\\b" ;;
			member) pattern="\\b(mn|notifier|subscription)[[:space:]]*(\\.|->)[[:space:]]*${name#*.}\\b" ;;
			esac
			grep -nE "$pattern" "$work/view.c" | grep -vE "$include" |
				cut -d: -f1 |
				while read -r line; do
					echo "$f:$line: $name ($since, $commit $subject)"
				done
		done <"$entries" >>"$work/uses"
	done
done
uses=$(wc -l <"$work/uses")
cat "$work/uses"
echo "api floor (4.4): $(wc -l <"$entries") listed interfaces, $files files in $# module directories, $uses uses"
[ "$uses" -eq 0 ] && [ "$bad" -eq 0 ]
