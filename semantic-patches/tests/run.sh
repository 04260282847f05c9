#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/tests/run.sh [--no-coccicheck] [CASE...]
#
# Host-side tests of the semantic patches and of convert.sh, TAP-like:
#   - every tests/<case>/: apply the .cocci files named in its spec to
#     before.c, compare with after.c, apply again to after.c (idempotence),
#     check the expected report lines;
#   - every .cocci in every coccicheck mode on all test inputs;
#   - make coccicheck COCCI=... MODE=report|patch M=tests/ against the
#     linux-source-6.12 tree from ci/unpack-source.sh, when it is there;
#   - convert.sh behaviour (dry run, --apply, CRLF, read-only, errors,
#     --to, second run).
# Prints "ok N - name" / "not ok N - name" and a last line "cocci: N passed,
# M failed"; exits 1 when anything failed.
#
# spec lines: "cocci FILE" (in order; repeatable), "define NAME" (-D NAME
# for every cocci that declares "virtual NAME"), "report ERE" (a report
# line must match), "noreport ERE" (no report line may match).
set -u

here=$(cd "$(dirname "$0")" && pwd)
sp=$(cd "$here/.." && pwd)
top=$(cd "$sp/.." && pwd)
coccicheck=yes
if [ "${1-}" = --no-coccicheck ]; then
	coccicheck=no
	shift
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-sp-tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$top/ci/tap.sh"

# cocci_options FILE: the "// Options:" line, as coccicheck uses it.
cocci_options() {
	sed -n 's|^// Options:||p' "$1" | head -n 1
}

# run_spatch COCCI FILE DEFINES...: patch FILE in place, notes to stderr.
run_spatch() {
	_cocci=$1 _file=$2
	shift 2
	_defs=
	for _d in "$@"; do
		# Only where the script declares it (spatch refuses the rest).
		! grep -q "^virtual $_d\$" "$_cocci" || _defs="$_defs -D $_d"
	done
	# shellcheck disable=SC2046,SC2086
	spatch --very-quiet $(cocci_options "$_cocci") -D patch $_defs \
		--sp-file "$_cocci" --in-place "$_file" >/dev/null
}

spec_values() {
	sed -n "s/^$1 //p" "$2"
}

# build_module CASE FILE: build FILE as a module (W=1, warnings are
# failures) against every installed kernel's headers.
build_module() {
	_built=0
	for _kb in /lib/modules/*/build; do
		[ -f "$_kb/Makefile" ] || continue
		_kv=$(basename "$(dirname "$_kb")")
		_m=$tmp/build-$1-$_kv
		mkdir -p "$_m"
		cp "$2" "$_m/mncompat_case.c"
		echo 'obj-m := mncompat_case.o' >"$_m/Kbuild"
		if nice make -s -j1 -C "$_kb" M="$_m" W=1 >"$_m/log" 2>&1 &&
			! grep -E 'warning:|error:' "$_m/log" >/dev/null; then
			ok "$1: after.c builds against $_kv (W=1)"
		else
			not_ok "$1: after.c builds against $_kv (W=1)" "$_m/log"
		fi
		_built=1
	done
	[ $_built -eq 1 ] || echo "# $1: no kernel headers in /lib/modules: build skipped"
}

# --- 1. cases ---------------------------------------------------------
cases=$*
if [ -z "$cases" ]; then
	cases=$(cd "$here" && for d in */; do
		[ -f "$d/spec" ] && echo "${d%/}"
	done)
fi

for c in $cases; do
	d=$here/$c
	spec=$d/spec
	[ -f "$spec" ] || { not_ok "$c: no spec"; continue; }
	defs=$(spec_values define "$spec")
	work=$tmp/$c
	mkdir -p "$work"
	cp "$d/before.c" "$work/run1.c"
	cp "$d/after.c" "$work/run2.c"
	: >"$work/notes"
	status=0
	for cocci in $(spec_values cocci "$spec"); do
		# shellcheck disable=SC2086
		run_spatch "$sp/$cocci" "$work/run1.c" $defs \
			2>>"$work/notes" || status=1
		# shellcheck disable=SC2086
		run_spatch "$sp/$cocci" "$work/run2.c" $defs \
			2>/dev/null || status=1
	done
	if [ $status -ne 0 ]; then
		not_ok "$c: spatch failed" "$work/notes"
		continue
	fi
	if diff -u "$d/after.c" "$work/run1.c" >"$work/diff"; then
		ok "$c: before.c converts to after.c"
	else
		not_ok "$c: before.c converts to after.c" "$work/diff"
	fi
	if diff -u "$d/after.c" "$work/run2.c" >"$work/diff2"; then
		ok "$c: idempotent on after.c"
	else
		not_ok "$c: idempotent on after.c" "$work/diff2"
	fi
	spec_values report "$spec" >"$work/want"
	while IFS= read -r re; do
		if grep -Eq -- "$re" "$work/notes"; then
			ok "$c: report /$re/"
		else
			not_ok "$c: report /$re/" "$work/notes"
		fi
	done <"$work/want"
	spec_values noreport "$spec" >"$work/nowant"
	while IFS= read -r re; do
		if grep -Eq -- "$re" "$work/notes"; then
			not_ok "$c: no report /$re/" "$work/notes"
		else
			ok "$c: no report /$re/"
		fi
	done <"$work/nowant"
	if grep -q '^build$' "$spec"; then
		build_module "$c" "$d/after.c"
	fi
done

# --- 2. every .cocci in every mode with plain spatch ------------------
mkdir -p "$tmp/inputs"
for f in "$here"/*/before.c; do
	c=$(basename "$(dirname "$f")")
	cp "$f" "$tmp/inputs/$c.c"
done
for cocci in "$sp"/*.cocci; do
	name=$(basename "$cocci")
	for mode in patch report context org; do
		# shellcheck disable=SC2046
		if spatch --very-quiet $(cocci_options "$cocci") -D "$mode" \
			--sp-file "$cocci" --dir "$tmp/inputs" \
			>"$tmp/mode.out" 2>"$tmp/mode.err" &&
			! grep -qi 'error' "$tmp/mode.err"; then
			ok "$name: spatch -D $mode runs"
		else
			not_ok "$name: spatch -D $mode runs" "$tmp/mode.err"
		fi
	done
	case $name in
	*.cocci)
		if grep -q '^// Confidence:' "$cocci" &&
			grep -q '^// Options:' "$cocci" &&
			grep -q '^/// ' "$cocci" &&
			head -n 1 "$cocci" | grep -q 'SPDX-License-Identifier' &&
			grep -q '^virtual patch' "$cocci" &&
			grep -q '^virtual report' "$cocci" &&
			grep -q '^virtual context' "$cocci" &&
			grep -q '^virtual org' "$cocci"; then
			ok "$name: coccicheck header conventions"
		else
			not_ok "$name: coccicheck header conventions"
		fi
		;;
	esac
done

# --- 3. make coccicheck in a packaged tree ----------------------------
tree=
if [ $coccicheck = yes ]; then
	tree=$("$top/ci/unpack-source.sh" 6.12 2>/dev/null) || tree=
fi
if [ -n "$tree" ] && [ -f "$tree/scripts/coccicheck" ]; then
	for cocci in "$sp"/*.cocci; do
		name=$(basename "$cocci")
		for mode in report patch; do
			if make -s -C "$tree" coccicheck COCCI="$cocci" \
				MODE=$mode M="$tmp/inputs" J=2 \
				>"$tmp/cc.out" 2>"$tmp/cc.err" &&
				! grep -q 'coccicheck failed' "$tmp/cc.out" \
					"$tmp/cc.err" &&
				if [ $mode = patch ]; then
					grep -q '^+++ ' "$tmp/cc.out"
				else
					grep -q ': \[[0-9a-z.]*\] ' "$tmp/cc.out"
				fi; then
				ok "$name: make coccicheck MODE=$mode"
			else
				cat "$tmp/cc.err" >>"$tmp/cc.out"
				not_ok "$name: make coccicheck MODE=$mode" \
					"$tmp/cc.out"
			fi
		done
	done
else
	echo "# make coccicheck checks skipped: no linux-source-6.12 tree"
fi

# --- 4. convert.sh ----------------------------------------------------
cv=$sp/convert.sh
ct=$tmp/convert
series_files=$(awk '$1 !~ /^#/ && NF >= 3 { print $2 }' "$sp/series")

# expect FILE: FILE.expect = FILE after every .cocci of the series.
expect() {
	cp "$1" "$1.expect"
	for _c in $series_files; do
		run_spatch "$sp/$_c" "$1.expect" 2>/dev/null
	done
}

sums() {
	(cd "$1" && find . -type f ! -name '*.expect' -exec cksum {} + | sort)
}

mkdir -p "$ct/tree/sub" "$ct/ref"
cp "$here/4.13-only-page/before.c" "$ct/tree/mirror.c"
cp "$here/4.13-cleancache-frontswap/before.c" "$ct/tree/sub/tmem.c"
cp "$here/4.13-kvm-shape/before.c" "$ct/tree/sub/vmm.c"
echo 'int unrelated;' >"$ct/tree/other.c"
chmod 640 "$ct/tree/mirror.c"
cp "$ct/tree/mirror.c" "$ct/ref/mirror.c"
cp "$ct/tree/sub/vmm.c" "$ct/ref/vmm.c"
expect "$ct/ref/mirror.c"
expect "$ct/ref/vmm.c"
sums "$ct/tree" >"$ct/sum0"

"$cv" "$ct/tree" >"$ct/dry.out" 2>"$ct/dry.err"
st=$?
sums "$ct/tree" >"$ct/sum1"
check "convert.sh: dry run exits 0" test $st -eq 0
check "convert.sh: dry run prints a diff" grep -q '^+++ b/sub/vmm.c' "$ct/dry.out"
check "convert.sh: dry run report counts files" grep -q '^files changed: 2$' "$ct/dry.out"
check "convert.sh: dry run report lists conversions" \
	grep -q 'converted: mirror_invalidate_page' "$ct/dry.out"
check "convert.sh: dry run changes nothing" cmp -s "$ct/sum0" "$ct/sum1"

"$cv" "$ct/tree" --apply --quiet >"$ct/apply.out" 2>"$ct/apply.err"
check "convert.sh --apply exits 0" test $? -eq 0
check "convert.sh --apply: mirror.c converted to the 6.12 API" \
	cmp -s "$ct/tree/mirror.c" "$ct/ref/mirror.c.expect"
check "convert.sh --apply: sub/vmm.c converted to the 6.12 API" \
	cmp -s "$ct/tree/sub/vmm.c" "$ct/ref/vmm.c.expect"
check "convert.sh --apply: cleancache/frontswap file untouched" \
	cmp -s "$ct/tree/sub/tmem.c" "$here/4.13-cleancache-frontswap/before.c"
check "convert.sh --apply: file mode kept" \
	test -n "$(find "$ct/tree/mirror.c" -perm 640)"
check "convert.sh --apply: no temporary files left" \
	test -z "$(find "$ct/tree" -name '.*mncompat*')"
sums "$ct/tree" >"$ct/sum2"
"$cv" "$ct/tree" --apply >"$ct/again.out" 2>&1
sums "$ct/tree" >"$ct/sum3"
check "convert.sh: second run changes nothing" cmp -s "$ct/sum2" "$ct/sum3"
check "convert.sh: second run reports no changed file" \
	grep -q '^files changed: 0$' "$ct/again.out"

mkdir -p "$ct/to"
cp "$here/4.13-only-page/before.c" "$ct/to/a.c"
"$cv" "$ct/to/a.c" --apply --to 4.13 >/dev/null 2>&1
check "convert.sh --to 4.13 on one file stops at the 4.13 API" \
	cmp -s "$ct/to/a.c" "$here/4.13-only-page/after.c"
mkdir -p "$ct/atomic"
cp "$here/4.13-only-page-atomic/before.c" "$ct/atomic/a.c"
"$cv" "$ct/atomic" --apply --atomic --to 4.13 >/dev/null 2>&1
check "convert.sh --atomic --to 4.13 uses invalidate_range" \
	cmp -s "$ct/atomic/a.c" "$here/4.13-only-page-atomic/after.c"
mkdir -p "$ct/compat" "$ct/atomic-range"
cp "$here/pipeline-compat/before.c" "$ct/compat/a.c"
"$cv" "$ct/compat" --apply --compat >"$ct/compat.out" 2>&1
check "convert.sh --compat: the series with -D compat, then mn-compat-ops.cocci" \
	cmp -s "$ct/compat/a.c" "$here/pipeline-compat/after.c"
check "convert.sh --compat: the report says so" \
	grep -q '^== mncompat convert: .*(up to 6.10, compat)$' "$ct/compat.out"
"$cv" "$ct/compat" --compat >"$ct/compat2.out" 2>&1
check "convert.sh --compat: second run changes nothing" \
	grep -q '^files changed: 0$' "$ct/compat2.out"
cp "$here/pipeline-compat/before.c" "$ct/atomic-range/a.c"
"$cv" "$ct/atomic-range" --atomic >"$ct/atomic-range.out" 2>&1
check "convert.sh --atomic on a file with range callbacks runs every step" \
	grep -q '\[5.0\] converted: twin_range_start' "$ct/atomic-range.out"
"$cv" "$ct/compat" --compat --to 4.13 >"$ct/compat-to.out" 2>&1
st=$?
check "convert.sh --compat --to 4.13 is refused" test $st -eq 1
check "convert.sh --compat --to 4.13 says why" \
	grep -q 'newest API: no --to' "$ct/compat-to.out"
"$cv" "$ct/compat" --compat --atomic >"$ct/compat-atomic.out" 2>&1
st=$?
check "convert.sh --compat --atomic is refused" test $st -eq 1
"$cv" "$ct/to" --to 4.20 >"$ct/badto.out" 2>&1
st=$?
check "convert.sh --to 4.20 is refused" test $st -ne 0
check "convert.sh --to 4.20 says why" grep -q 'not a generation' "$ct/badto.out"

mkdir -p "$ct/crlf"
sed 's/$/\r/' "$here/4.13-only-page/before.c" >"$ct/crlf/a.c"
sed 's/$/\r/' "$here/4.13-only-page/after.c" >"$ct/crlf.expect"
"$cv" "$ct/crlf" --apply --to 4.13 >"$ct/crlf.out" 2>&1
check "convert.sh: CRLF file converted, CRLF kept" \
	cmp -s "$ct/crlf/a.c" "$ct/crlf.expect"
"$cv" "$ct/crlf" --to 4.13 >"$ct/crlf2.out" 2>&1
check "convert.sh: CRLF file, second run changes nothing" \
	grep -q '^files changed: 0$' "$ct/crlf2.out"

mkdir -p "$ct/ro"
cp "$here/4.13-only-page/before.c" "$ct/ro/a.c"
cp "$here/4.13-kvm-shape/before.c" "$ct/ro/b.c"
chmod 444 "$ct/ro/a.c"
sums "$ct/ro" >"$ct/ro0"
"$cv" "$ct/ro" --apply >"$ct/ro.out" 2>"$ct/ro.err"
st=$?
sums "$ct/ro" >"$ct/ro1"
check "convert.sh --apply refuses a read-only file" test $st -ne 0
check "convert.sh --apply says which file is read-only" \
	grep -q 'a.c is read-only' "$ct/ro.err"
check "convert.sh --apply writes nothing when one file is read-only" \
	cmp -s "$ct/ro0" "$ct/ro1"

"$cv" "$ct/does-not-exist" >"$ct/missing.out" 2>&1
st=$?
check "convert.sh refuses a missing path" test $st -ne 0
check "convert.sh says the path is missing" \
	grep -q 'does-not-exist: no such file' "$ct/missing.out"

mkdir -p "$ct/unreadable/d"
cp "$here/4.13-only-page/before.c" "$ct/unreadable/d/a.c"
chmod 755 "$tmp" "$ct" "$ct/unreadable"
chmod 000 "$ct/unreadable/d"
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$cv" "$ct/unreadable/d" >"$ct/unr.out" 2>&1
		st=$?
	else
		st=skip
	fi
else
	"$cv" "$ct/unreadable/d" >"$ct/unr.out" 2>&1
	st=$?
fi
chmod 755 "$ct/unreadable/d"
if [ "$st" = skip ]; then
	echo "# unreadable-path test skipped: root without setpriv"
else
	check "convert.sh refuses an unreadable path" test "$st" -ne 0
	check "convert.sh says the path is unreadable" \
		grep -q 'd: not readable' "$ct/unr.out"
fi
chmod 700 "$tmp"

mkdir -p "$ct/with space/sub dir"
cp "$here/pipeline-mirror-legacy/before.c" "$ct/with space/sub dir/a b.c"
"$cv" "$ct/with space" --apply --quiet >"$ct/space.out" 2>&1
check "convert.sh copes with spaces in file names" \
	cmp -s "$ct/with space/sub dir/a b.c" "$here/pipeline-mirror-legacy/after.c"
check "convert.sh reports with the real file name" \
	grep -q '^  sub dir/a b.c:[0-9]*: \[4.13\] converted' "$ct/space.out"

"$cv" >/dev/null 2>&1
st=$?
check "convert.sh without a path is a usage error" test $st -eq 2

tap_end cocci
