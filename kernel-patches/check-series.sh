#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: kernel-patches/check-series.sh PRISTINE_TREE [SERIES...]
# Check every patch series under kernel-patches/ (a directory with a
# `series` file) against an unpacked, unpatched kernel tree:
#   apply      each patch passes `patch -p1 --dry-run`, then applies
#   quilt      `quilt push -a` with QUILT_PATCHES=<series dir>
#   git-am     `git am` of the series on a git-initialised tree
#   checkpatch scripts/checkpatch.pl of the tree is clean on each patch
# The temporary trees hold only the files the series touches, so a run
# takes seconds. Prints one ok/not ok line per check and a summary, and
# exits non-zero if any check failed.
#
# checkpatch runs with --ignore UNKNOWN_COMMIT_ID: the packaged tree has
# no git history, so the upstream commit ids the messages cite cannot be
# looked up.
set -eu

usage() {
	echo "usage: $0 PRISTINE_TREE [SERIES...]" >&2
	exit 2
}

[ $# -ge 1 ] || usage
tree=$(cd "$1" && pwd) || usage
shift
[ -x "$tree/scripts/checkpatch.pl" ] || {
	echo "error: $tree/scripts/checkpatch.pl missing" >&2
	exit 2
}
here=$(cd "$(dirname "$0")" && pwd)

# A series file is read by ci/matrix_plan.py alone (its format is
# documented there, PatchSeries): "patches NAME" prints the series' patch
# files, in order, a path a line, once they are checked; "patches" alone
# the series there are.
patches() {
	"${MNCOMPAT_PYTHON:-python3}" "$here/../ci/matrix_plan.py" patches "$@"
}

if [ $# -eq 0 ]; then
	names=$(patches) || exit 2
	# shellcheck disable=SC2086 # the series' folder names, words
	set -- $names
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/check-series.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
. "$here/../ci/tap.sh"

result() { # result STATUS NAME [DETAIL]
	if [ "$1" = 0 ]; then
		ok "$2"
	else
		not_ok "$2${3:+: $3}"
	fi
}

# mktree DIR FILE...: DIR with pristine copies of the files that exist.
mktree() {
	_dir=$1
	shift
	mkdir -p "$_dir"
	for _f in "$@"; do
		[ -e "$tree/$_f" ] || continue
		mkdir -p "$_dir/$(dirname "$_f")"
		cp "$tree/$_f" "$_dir/$_f"
	done
}

for name in "$@"; do
	sdir=$here/$name
	if ! list=$(patches "$name" 2>"$work/$name.err"); then
		result 1 "$name: series" "$(sed 's/^error: //' "$work/$name.err")"
		continue
	fi
	# shellcheck disable=SC2086 # one patch path per word, no spaces
	files=$(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' $list | sort -u)
	base=$work/$name

	# patch -p1: dry run each patch on the tree the previous ones made
	# shellcheck disable=SC2086
	mktree "$base/patch" $files
	err=""
	for p in $list; do
		if ! patch -d "$base/patch" -p1 -s --dry-run <"$p" >"$base/patch.log" 2>&1 ||
			! patch -d "$base/patch" -p1 -s --no-backup-if-mismatch <"$p" \
				>>"$base/patch.log" 2>&1; then
			err="$(basename "$p") does not apply"
			break
		fi
	done
	rc=0
	[ -z "$err" ] || rc=1
	result $rc "$name: patch -p1" "$err"

	# quilt push -a
	# shellcheck disable=SC2086
	mktree "$base/quilt" $files
	rc=0
	(cd "$base/quilt" && QUILT_PATCHES=$sdir QUILT_PC=.pc \
		quilt push -a -q) >"$base/quilt.log" 2>&1 || rc=$?
	result $rc "$name: quilt push -a" "$(tail -n 1 "$base/quilt.log")"

	# git am
	# shellcheck disable=SC2086
	mktree "$base/git" $files
	rc=0
	(
		cd "$base/git"
		git init -q
		git add -A
		git -c user.name=check -c user.email=check@invalid \
			commit -q -m pristine
		# shellcheck disable=SC2086
		git -c user.name=check -c user.email=check@invalid am -q $list
	) >"$base/git.log" 2>&1 || rc=$?
	result $rc "$name: git am" "$(head -n 1 "$base/git.log")"

	# checkpatch, per patch
	for p in $list; do
		rc=0
		"$tree/scripts/checkpatch.pl" --root="$tree" -q \
			--ignore UNKNOWN_COMMIT_ID "$p" >"$base/checkpatch.log" 2>&1 ||
			rc=$?
		result $rc "$name: checkpatch $(basename "$p")" \
			"$(grep -m 1 -E '^(ERROR|WARNING|CHECK)' "$base/checkpatch.log")"
	done
done

tap_end kernel-patches
