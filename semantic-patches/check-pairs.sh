#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/check-pairs.sh [OLD-NEW...]
#
# The real-pair checks (check-pair.sh) of the pairs named, default every
# pair that has a pairs/OLD-NEW.explained (5.10-6.12, 6.1-6.12, 6.12-7.3),
# each on the trees ci/kernels/unpack-source.sh gives: "ok N - OLD -> NEW"
# or "not ok N - ..." with its output, then "later-breaks: N passed, M
# failed" and its wall seconds. Exit status 1 when one failed.
set -u

sp=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$sp/.." && pwd)
. "$top/ci/tap.sh"

if [ $# -eq 0 ]; then
	for f in "$sp"/pairs/*.explained; do
		f=${f##*/}
		set -- "$@" "${f%.explained}"
	done
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-pairs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
for pair in "$@"; do
	old=${pair%%-*} new=${pair#*-}
	start=$(date +%s)
	if "$sp/check-pair.sh" "$old" "$new" >"$tmp/out" 2>&1; then
		ok "$old -> $new: every difference from upstream explained ($(($(date +%s) - start)) s)"
		grep -E '^(notifier users|hunks of the conversion):' "$tmp/out" | sed 's/^/# /'
	else
		# the unexplained differences, stale explanations and errors first
		{ grep -E -A3 'UNEXPLAINED|stale explanation|error|usage|failed' "$tmp/out" || :
			grep -E '^(notifier users|hunks of the conversion):' "$tmp/out" || :
		} >"$tmp/why"
		[ -s "$tmp/why" ] || cp "$tmp/out" "$tmp/why"
		not_ok "$old -> $new ($(($(date +%s) - start)) s)" "$tmp/why"
	fi
done
tap_end later-breaks
