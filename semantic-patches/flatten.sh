#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/flatten.sh FILE.cocci >OUT.cocci
#
# One semantic patch that spatch can run from any directory: FILE with the
# files its header #includes put in as spatch reads them (their virtual
# declarations next to FILE's, their rules before FILE's), and a first
# @initialize:python@ that puts FILE's directory (mncocci.py, the planners,
# mnmodule.py) on Python's path.  spatch before 1.3.1 looks an #include up
# from the current directory only: convert.sh (which runs spatch in a
# scratch directory) and make coccicheck (in the kernel tree) are given
# this copy.
# An #include is found next to the file that names it; an included file
# includes nothing itself.
set -eu

die() {
	echo "flatten.sh: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: flatten.sh FILE.cocci"
if [ ! -f "$1" ] || [ ! -r "$1" ]; then
	die "$1: no such readable file"
fi
dir=$(cd "$(dirname "$1")" && pwd -P)
case $dir in
*\'* | *\\*) die "$dir: a directory name with a quote or a backslash" ;;
esac

# The header (before the first rule) and the rules of a file.
header() {
	awk '/^@/ { exit } { print }' "$1"
}
rules() {
	awk 'r || /^@/ { r = 1; print }' "$1"
}
# The files the header of $1 includes, one a line.
included() {
	header "$1" | sed -n 's/^#include[[:space:]]*"\(.*\)"[[:space:]]*$/\1/p'
}

incs=$(included "$1")
for i in $incs; do
	[ -r "$dir/$i" ] || die "$1 includes $i, which is not in $dir"
	[ -z "$(included "$dir/$i")" ] || die "$dir/$i includes a file itself"
done
header "$1" | grep -v '^#include[[:space:]]*"' || true
# (An included file's header: its virtual declarations, without comments.)
for i in $incs; do
	header "$dir/$i" | grep -v -e '^//' -e '^[[:space:]]*$' || true
done
printf '\n@initialize:python@\n@@\nimport sys\nsys.path.insert(0, %s)\n\n' \
	"'$dir'"
for i in $incs; do
	rules "$dir/$i"
	echo
done
rules "$1"
