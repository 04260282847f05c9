#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-reports.sh RESULTS_DIR...
# The "reports" part of ci/test.sh: check the report files of matrix runs
# (ci/test.sh gives the main matrix's and a driver front end run's) against
# their results.tsv rows (README "Reports"):
#   - every <kernel>/ktap.tap goes through the kernel's kunit.py parse
#   - junit.xml is well-formed and its counts and verdicts match
#   - matrix.html, rendered by headless chromium: the DOM has every kernel
#     column, test row and cell text; the screenshot is not blank
#   - self-checks: each check fails on a broken copy of its file
#   - per-kernel runs merged by ci/report/merge-results.sh = one run (own small
#     deb-kernel matrix in a temp dir, about a minute)
# Ends with "reports: N passed, M failed".
set -eu
. "$(dirname "$0")/../lib.sh"
top=$MNCOMPAT_TOP

[ $# -ge 1 ] || die "usage: check-reports.sh RESULTS_DIR..."
for results; do
	[ -d "$results" ] || die "no results directory $results"
done
tests=$top/ci/tests
expectations=$top/ci/report/expectations
kunit=$("$top/ci/kernels/unpack-source.sh" 6.12)/tools/testing/kunit/kunit.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/ci/tap.sh"

# fails CMD...: succeed when CMD fails (a check must see a broken file).
fails() {
	! "$@" >/dev/null 2>&1
}

# browser ARGS... PAGE: headless chromium (root needs --no-sandbox).
browser() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$tmp/chromium" "$@" 2>>"$tmp/chromium.log"
}

# kernels_of RESULTS_DIR: the kernels with suite results there.
kernels_of() {
	for kdir in "$1"/*; do
		ls "$kdir"/*/results.tsv >/dev/null 2>&1 &&
			basename "$kdir"
	done
	return 0
}

# check_files RESULTS_DIR DOM: the report files of one run; the DOM of
# its matrix.html is kept in DOM.
check_files() {
	results=$1 dom=$2
	kernels=$(kernels_of "$results")
	[ -n "$kernels" ] || die "no kernel results under $results"
	for k in $kernels; do
		check "kunit.py parse $results/$k/ktap.tap" \
			python3 "$tests/check_ktap.py" "$kunit" "$expectations" "$results" "$k"
	done
	check "$results/junit.xml matches results.tsv" \
		python3 "$tests/check_junit.py" "$expectations" "$results"
	page="file://$(cd "$results" && pwd)/matrix.html"
	browser --dump-dom "$page" >"$dom" || true
	[ -s "$dom" ] ||
		echo "# chromium gave no DOM: $(tail -n 3 "$tmp/chromium.log" 2>&1)"
	check "$results/matrix.html DOM (chromium --dump-dom) matches results.tsv" \
		python3 "$tests/check_html.py" "$expectations" "$results" "$dom"
	browser --screenshot="$tmp/matrix.png" --window-size=1280,1600 "$page" \
		>/dev/null || true
	check "$results/matrix.html screenshot (chromium --screenshot) is not blank" \
		python3 "$tests/check_png.py" "$tmp/matrix.png" 1280 1600
}

n=0
for results; do
	n=$((n + 1))
	check_files "$results" "$tmp/dom.$n.html"
done
# The self-checks break copies of the first run's files.
results=$1
k=$(kernels_of "$results" | head -n 1)
cp "$tmp/dom.1.html" "$tmp/dom.html"
awk '!done && /^    ok / { sub(/^    ok/, "    not ok"); done = 1 } 1' \
	"$results/$k/ktap.tap" >"$tmp/flipped.tap"
check "self-check: ktap.tap with one result flipped fails" \
	fails python3 "$tests/check_ktap.py" "$kunit" "$expectations" "$results" \
	"$k" "$tmp/flipped.tap"
awk '!done && /<testcase / { done = 1; if (/\/>/) next; skip = 1 }
	skip { if (/<\/testcase>/) skip = 0; next } 1' \
	"$results/junit.xml" >"$tmp/dropped.xml"
check "self-check: junit.xml without its first testcase fails" \
	fails python3 "$tests/check_junit.py" "$expectations" "$results" \
	"$tmp/dropped.xml"
sed 's/>pass</>changed</' "$tmp/dom.html" >"$tmp/changed.html"
check "self-check: DOM with its pass cells renamed fails" \
	fails python3 "$tests/check_html.py" "$expectations" "$results" \
	"$tmp/changed.html"
echo '<!DOCTYPE html><html><body></body></html>' >"$tmp/blank.html"
browser --screenshot="$tmp/blank.png" --window-size=640,480 \
	"file://$tmp/blank.html" >/dev/null || true
check "self-check: a blank screenshot fails" \
	fails python3 "$tests/check_png.py" "$tmp/blank.png" 640 480

check "per-kernel runs + ci/report/merge-results.sh = one run" \
	"$tests/check-merge.sh" "$tmp/merge"

tap_end reports
