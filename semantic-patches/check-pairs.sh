#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/check-pairs.sh [OLD-NEW...]
#
# The real-pair checks (check-pair.sh) of the pairs named, default every
# pair that has a pairs/OLD-NEW.explained (5.10-6.12, 6.1-6.12, 6.12-7.3),
# each on the trees ci/kernels/unpack-source.sh gives: "ok N - OLD -> NEW"
# or "not ok N - ..." with its output, then "later-breaks: N passed, M
# failed". First pairdiff.py's own test (it must fail on an unexplained
# difference and on a stale explanation). Exit status 1 when one failed.
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

# First the comparison itself, on three files of one line: a hunk equal
# to upstream's passes; one that differs fails unless explained; an
# explanation that explains nothing fails.
st=$tmp/self
mkdir -p "$st/old" "$st/conv" "$st/new"
printf 'int a = old_call(x);\nint b = old_call(y);\n' >"$st/old/f.c"
printf 'int a = new_call(x);\nint b = new_call(y);\n' >"$st/conv/f.c"
printf 'int a = new_call(x);\nint b = other_call(y);\n' >"$st/new/f.c"
echo f.c >"$st/users"
: >"$st/none"
printf 'f.c\tdiffers\tother_call\tupstream renamed it otherwise\n' >"$st/why"
cp "$st/why" "$st/stale"
printf 'f.c\tmissed\tnothing_here\tnothing\n' >>"$st/stale"
selftest() {
	python3 "$sp/pairdiff.py" "$st/old" "$st/conv" "$st/new" "$st/users" "$st/$1" \
		old_call >"$st/out.$1" 2>&1
}
if ! selftest none && grep -q UNEXPLAINED "$st/out.none" &&
	selftest why && ! selftest stale && grep -q 'stale explanation' "$st/out.stale"; then
	ok "pairdiff.py: a difference from upstream fails unless explained, a stale explanation fails"
else
	cat "$st/out.none" "$st/out.why" "$st/out.stale" >"$st/all" 2>/dev/null
	not_ok "pairdiff.py: a difference from upstream fails unless explained, a stale explanation fails" "$st/all"
fi
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
