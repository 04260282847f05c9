#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-driver-matrix.sh
# Tests of ci/run/driver-matrix.sh on deb-6.1 and deb-6.12: bad input (missing
# directory, no Kbuild, missing tests, unknown kernel, a word given
# ci/run/convert-module.sh as its mode that is none) fails with a clear
# message and writes nothing; a driver that does not compile on one kernel
# and a guest test that hangs on one kernel give a complete report (every
# kernel has a row; the one that hangs comes, with its driver, from a
# path with a blank, a quote, $, \, ;, () and a non-ASCII letter) judged
# against ci/tests/fixtures/expectations; the
# main matrix turns a suite the harness refuses into a failing row per
# kernel; the shadow sample, converted with compat, goes green on deb-6.1,
# deb-6.12, pre413-6.1, ent-6.1 (the RHEL 8.2+ shape) and src-7.3 where
# it is a row, built to ignore
# invalidations it fails every coherence test on deb-6.12
# (ci/tests/fixtures/expectations-shadow-broken), and converted without compat (--native) it misses the migrations on
# pre413-6.1 (ci/tests/fixtures/expectations-native, bug B2); the agedev
# sample (KVM's int young callbacks) goes green on deb-6.1 and deb-6.12,
# its ageing tests asking the converted callbacks, and fails them with
# callbacks that answer "old" (ci/tests/fixtures/expectations-agedev-no-young).
# Output: "ok N - ...", then
# "driver-matrix: N passed, M failed".
set -eu
. "$(dirname "$0")/../lib.sh"

KERNELS=deb-6.1,deb-6.12
export KERNELS
fixtures=$MNCOMPAT_TOP/ci/tests/fixtures
dm=$MNCOMPAT_TOP/ci/run/driver-matrix.sh
base=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/driver-matrix-tests
rm -rf "$base"
mkdir -p "$base"
base=$(cd "$base" && pwd)
. "$MNCOMPAT_TOP/ci/tap.sh"

# result ok|fail WHAT [LOG]
result() {
	if [ "$1" = ok ]; then
		ok "$2"
	else
		not_ok "$2" "${3:-}"
	fi
}

# run CASE ARGS...: ci/run/driver-matrix.sh ARGS with MNCOMPAT_OUT=$base/CASE,
# output in $base/CASE.log, exit status in $rc.
run() {
	c=$1
	shift
	rc=0
	MNCOMPAT_OUT=$base/$c "$dm" "$@" >"$base/$c.log" 2>&1 || rc=$?
}

# bad CASE MESSAGE ARGS...: must fail, say MESSAGE, write nothing.
bad() {
	c=$1 msg=$2
	shift 2
	run "$c" "$@"
	if [ "$rc" -ne 0 ] && grep -q "error: .*$msg" "$base/$c.log" &&
		[ ! -e "$base/$c" ]; then
		result ok "$c: exit $rc, '$(grep -m1 error: "$base/$c.log")', nothing written"
	else
		result fail "$c: exit $rc, want an error with '$msg' and no $base/$c" \
			"$base/$c.log"
	fi
}

# exit_is CASE RC: the run of CASE exited with RC.
exit_is() {
	if [ "$rc" -eq "$2" ]; then
		result ok "$1: exit $rc"
	else
		result fail "$1: exit $rc, want $2" "$base/$1.log"
	fi
}

# judge CASE [EXPECTATIONS]: every kernel has rows, judged by the fixture
# expectations.
judge() {
	c=$1
	for k in $(selected_kernels); do
		# The suite is named after the driver, not the case.
		if [ -n "$(find "$base/$c/results/$k" -name results.tsv -size +0 2>/dev/null)" ]; then
			result ok "$c: $k has a row"
		else
			result fail "$c: $k has no row" "$base/$c.log"
		fi
	done
	if python3 "$MNCOMPAT_TOP/ci/report/report.py" "${2:-$fixtures/expectations}" \
		"$base/$c/results" >"$base/$c.judged" 2>&1; then
		result ok "$c: as expected by ci/tests/fixtures/$(basename "${2:-expectations}")"
	else
		result fail "$c: unexpected results" "$base/$c.judged"
	fi
}

# has CASE TEXT WHAT: the log of CASE has a line with TEXT.
has() {
	if grep -q -- "$2" "$base/$1.log"; then
		result ok "$1: $3: $(grep -m1 -- "$2" "$base/$1.log" | sed 's/^ *//')"
	else
		result fail "$1: $3: no '$2' in the log" "$base/$1.log"
	fi
}

start=$(date +%s)
# A guest test that hangs on 6.12 only, started first: its guest idles
# until the timeout while the other cases run. The timeout also bounds
# 6.1's boot, which takes more than 30 s under TCG on a loaded machine.
# The driver and its tests come from a folder whose path has a blank, a
# quote, a $, a backslash, a semicolon, parentheses and a non-ASCII
# letter: carried as they are (the suite quotes them).
odd="$base/in dir's \$x;(1)\\é"
mkdir -p "$odd"
cp -R "$fixtures/plain" "$fixtures/hang-tests" "$odd/"
MNCOMPAT_OUT=$base/plain "$dm" --timeout 90 "$odd/plain" \
	"$odd/hang-tests" >"$base/plain.log" 2>&1 &
plain_pid=$!

bad missing "no driver directory" "$base/does-not-exist"
bad no-kbuild "has no Kbuild or Makefile" "$fixtures/no-kbuild"
bad no-tests "no tests" "$fixtures/plain" "$base/no-such-tests"
bad bad-timeout "want seconds" --timeout soon "$fixtures/plain"
KERNELS=deb-6.1,no-such-kernel bad bad-kernel "is not in" "$fixtures/plain"

# The conversion step alone: a word that is an option of convert.sh, not
# a mode, is refused before OUT is touched.
for word in --quiet --apply; do
	c=convert-mode$word
	mkdir -p "$base/$c"
	echo keep >"$base/$c/kept"
	rc=0
	"$MNCOMPAT_TOP/ci/run/convert-module.sh" "$word" "$fixtures/plain" \
		"$base/$c" >"$base/$c.log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] && grep -q "'$word' is no conversion mode" "$base/$c.log" &&
		[ "$(cat "$base/$c/kept")" = keep ]; then
		result ok "convert-module.sh $word: exit $rc, refused, OUT untouched"
	else
		result fail "convert-module.sh $word: exit $rc, want a refusal and OUT untouched" \
			"$base/$c.log"
	fi
done

# Builds on 6.1 only: 6.12 shows the compiler's first error, 6.1 still runs.
run only61 "$fixtures/only61"
exit_is only61 1
has only61 "deb-6.12/only61: build failed: .*error: #error" "6.12 build failed"
has only61 "deb-6.1/only61: [0-9]* pass, 0 not pass" "6.1 ran"
judge only61

# The hang: a timeout on 6.12, 6.1 passes.
rc=0
wait "$plain_pid" || rc=$?
exit_is plain 1
has plain "deb-6.12/plain: timeout after 90s in plain/hang_612" "6.12 timed out (the driver and test from a path with a blank, a quote, \$, \\, ;, () and é)"
has plain "deb-6.1/plain: [0-9]* pass, 0 not pass" "6.1 ran"
judge plain
if grep -q '^+ccflags-y += -I.(MNCOMPAT_INCLUDE) -I.(MNCOMPAT_CONFIG)' \
	"$base/plain/driver/plain/convert.patch"; then
	result ok "plain: convert.patch adds compat's include path to its Kbuild"
else
	result fail "plain: convert.patch does not add compat's include path" \
		"$base/plain/driver/plain/convert.patch"
fi

# The second legacy sample, converted at build time with compat: green,
# also on a kernel that still calls invalidate_page and on one with 4.x
# range callbacks next to the 5.x range struct (ent-6.1).
shadow=$MNCOMPAT_TOP/drivers-sample/shadow
sum_tree() {
	(cd "$1" && find . -type f | sort | xargs cat | md5sum)
}
before=$(sum_tree "$shadow")
# Its munmap_wide meets each way a kernel calls the secondary-TLB hook
# (ci/kernels/behaviours.md, tlb-hook): the mm core on deb-6.1, x86's
# widened flush on deb-6.12, the unwidened one on src-7.3 (where it is a
# row of the list).
shadow_kernels=deb-6.1,deb-6.12,pre413-6.1,ent-6.1
if "$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" names "$KERNELS_LIST" |
	grep -qx src-7.3; then
	shadow_kernels=$shadow_kernels,src-7.3
fi
KERNELS=$shadow_kernels run shadow "$shadow" "$shadow/tests"
exit_is shadow 0
has shadow "deb-6.1/shadow: [0-9]* pass, 0 not pass" "6.1"
has shadow "deb-6.12/shadow: [0-9]* pass, 0 not pass" "6.12"
has shadow "pre413-6.1/shadow: [0-9]* pass, 0 not pass" "pre-4.13"
has shadow "ent-6.1/shadow: [0-9]* pass, 0 not pass" "RHEL 8.2+ shape"
case $shadow_kernels in
*src-7.3) has shadow "src-7.3/shadow: [0-9]* pass, 0 not pass" "7.3" ;;
esac
has shadow "^shadow/shadow_tests/shadow.track.migrate_to_other_node *pass *pass *pass" \
	"coherence tests ran"
report=$base/shadow/driver/shadow/convert.report
patch=$base/shadow/driver/shadow/convert.patch
if grep -q '\[4.13\] converted: shadow_invalidate_page -> shadow_invalidate_range (invalidate_range, atomic: .*uses its address only as a range' "$report" &&
	grep -q '\[4.13\] compat: shadow_invalidate_page is not kept as the secondary-TLB hook of its table: no kernel needs it' "$report" &&
	grep -q '\[compat\] converted: shadow_track_ops' "$report" &&
	grep -q '^items needing review: 0 ' "$report" &&
	grep -q '^+	shadow_drop(sf, start, end);$' "$patch" &&
	grep -q '^conversions (one per callback and step): [1-9][0-9]*$' "$report" &&
	grep -q '^items needing review: ' "$report" &&
	grep -q '^+MNCOMPAT_MMU_NOTIFIER_OPS(shadow_track_ops' "$patch" &&
	! grep -q '^+ccflags-y += -I.(MNCOMPAT_INCLUDE)' "$patch"; then
	result ok "shadow: convert.report lists the conversions and no review item, convert.patch has the compat tables, the page callback takes a range (no per-page loop over the [0, ULONG_MAX) a 6.6+ full TLB flush hands the hook) and no second include path (shadow's Kbuild has one)"
else
	result fail "shadow: convert.report or convert.patch incomplete" "$report"
fi

# Built to ignore invalidations (SHADOW_SKIP_INVALIDATION=1, read by its
# Kbuild from make's environment), every coherence test fails
# (ci/tests/fixtures/expectations-shadow-broken); snap_shares_cpu_page,
# which has no event, passes.
SHADOW_SKIP_INVALIDATION=1 KERNELS=deb-6.12 run shadow-broken \
	--expect "$fixtures/expectations-shadow-broken" "$shadow" "$shadow/tests"
exit_is shadow-broken 0
has shadow-broken "deb-6.12/shadow: [0-9]* pass, 8 not pass" "6.12 fails the 8 coherence tests"
KERNELS=deb-6.12 judge shadow-broken "$fixtures/expectations-shadow-broken"

# Without compat (--native) the converted driver misses the migrations
# where the kernel still calls invalidate_page: the expected failure.
KERNELS=pre413-6.1 run shadow-native --native \
	--expect "$fixtures/expectations-native" "$shadow" "$shadow/tests"
exit_is shadow-native 0
has shadow-native "pre413-6.1/shadow: [0-9]* pass, 2 not pass" "pre-4.13 misses 2"
KERNELS=pre413-6.1 judge shadow-native "$fixtures/expectations-native"
# The sample with KVM's young callbacks (4.x: int, a page callback, range
# callbacks), converted with compat: green on deb-6.1 and deb-6.12, where
# its ageing tests ask the converted young callbacks (reclaim's
# clear_flush_young on 6.1, MGLRU's clear_young on 6.12). Built with young
# callbacks that answer "old" (AGEDEV_NO_YOUNG=1) those tests fail
# (ci/tests/fixtures/expectations-agedev-no-young).
agedev=$MNCOMPAT_TOP/drivers-sample/agedev
KERNELS=deb-6.1,deb-6.12 run agedev "$agedev" "$agedev/tests"
exit_is agedev 0
has agedev "deb-6.1/agedev: 7 pass, 1 not pass" "6.1 (mglru_aging skips there: its aging asks no secondary MMU)"
has agedev "deb-6.12/agedev: 7 pass, 1 not pass" "6.12 (reclaim skips there: no swap in a driver's run)"
has agedev "^agedev/agedev_tests/agedev.reclaim *pass *xskip" "reclaim asked the young callbacks on 6.1"
has agedev "^agedev/agedev_tests/agedev.mglru_aging *xskip *pass" "MGLRU's aging asked them on 6.12"
patch=$base/agedev/driver/agedev/convert.patch
if grep -q '^+.*\.clear_flush_young = agedev_clear_flush_young' "$patch" &&
	grep -q '^+.*\.clear_young = agedev_clear_young' "$patch" &&
	grep -q '^+.*\.test_young = agedev_test_young' "$patch" &&
	grep -q '^-.*\.invalidate_page = agedev_invalidate_page' "$patch"; then
	result ok "agedev: the compat table keeps the three young callbacks, the page callback goes"
else
	result fail "agedev: convert.patch lost a young callback" "$patch"
fi
AGEDEV_NO_YOUNG=1 KERNELS=deb-6.1,deb-6.12 run agedev-no-young \
	--expect "$fixtures/expectations-agedev-no-young" "$agedev" "$agedev/tests"
exit_is agedev-no-young 0
has agedev-no-young "deb-6.1/agedev: 6 pass, 2 not pass" "6.1 fails reclaim"
has agedev-no-young "deb-6.12/agedev: 6 pass, 2 not pass" "6.12 fails mglru_aging"
KERNELS=deb-6.1,deb-6.12 judge agedev-no-young "$fixtures/expectations-agedev-no-young"

if [ "$before" = "$(sum_tree "$shadow")" ]; then
	result ok "shadow: the driver's tree is unchanged"
else
	result fail "shadow: the driver's tree changed"
fi

# The main matrix on a suite the harness refuses: a failing harness row
# on each kernel (ci/lib.sh run_on_kernel), not a run that stops.
rc=0
MNCOMPAT_OUT=$base/matrix-harness "$MNCOMPAT_TOP/ci/run/matrix.sh" \
	"$fixtures/bad-directive.suite" >"$base/matrix-harness.log" 2>&1 || rc=$?
exit_is matrix-harness 1
has matrix-harness "harness errors on: deb-6.1/bad-directive deb-6.12/bad-directive" "every kernel ran"
has matrix-harness "^bad-directive/harness *fail! *fail!" "a harness row per kernel"

# Bad input after a good run: the previous results and build area stay.
before=$(sum_tree "$base/shadow")
rc=0
MNCOMPAT_OUT=$base/shadow "$dm" "$shadow" "$base/no-such-tests" \
	>"$base/rerun.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && [ "$before" = "$(sum_tree "$base/shadow")" ]; then
	result ok "shadow: bad input after a run leaves its output as it was"
else
	result fail "shadow: exit $rc, output changed" "$base/rerun.log"
fi

echo "driver-matrix wall time: $(($(date +%s) - start))s"
tap_end driver-matrix
