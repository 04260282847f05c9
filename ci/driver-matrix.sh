#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/driver-matrix.sh [--timeout S] [--expect FILE]
#                            [--compat | --native | --atomic] DRIVER [TESTS]
# (`make matrix DRIVER=... [TESTS=...]`.) Run an out-of-tree driver through
# the matrix on the kernels of $KERNELS (default: all of ci/kernels.list):
#
#   1. check the input; nothing is written before it passes;
#   2. copy DRIVER to $MNCOMPAT_OUT/driver/NAME/ (DRIVER is never written),
#      run semantic-patches/convert.sh --apply --compat on the copy and
#      add compat's include path to its Kbuild (or Makefile): convert.report,
#      convert.patch (diff of the copy before and after);
#   3. build the guest tests once (NAME/tests/) and write NAME/NAME.suite;
#   4. run the suite on every kernel with the matrix runner (ci/matrix.sh),
#      results in $MNCOMPAT_OUT/results/KERNEL/NAME/ (the previous results
#      go): one line per kernel, the text report, the report files
#      (junit.xml, matrix.html, KERNEL/ktap.tap), exit 1 on any unexpected
#      result.
#
# DRIVER: a directory named after its module (its Kbuild or Makefile has
# obj-m += NAME.o); its top-level files are the module's sources. It may
# include <mncompat/mmu_notifier.h> with
# ccflags-y += -I$(MNCOMPAT_INCLUDE) -I$(MNCOMPAT_CONFIG) (ci/build-module.sh
# passes both). Built with W=1, sparse and -Werror.
# TESTS: one file or a directory of them. FILE.c is built as a static
# guest binary (kselftest_harness.h, headers from its directory and the one
# above); any other executable file (a static binary, or a #!/bin/sh script
# for the guest's busybox) is run as it is. Each prints KTAP on stdout;
# exit status non-zero fails it. Without TESTS the run loads and unloads
# the module and checks the console for splats.
# --timeout S: kill a guest after S seconds (default 300).
# --expect FILE: judge with FILE instead of ci/expectations (same format).
# --compat (the default): convert.sh --compat, as in step 2.
# --native: convert.sh without --compat: the newest API as upstream has
#   it, no compat header; such a driver misses invalidations on kernels
#   that still call invalidate_page (before 4.13).
# --atomic: convert.sh --atomic (implies --native).
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	echo "usage: ci/driver-matrix.sh [--timeout S] [--expect FILE] [--compat | --native | --atomic] DRIVER [TESTS]" >&2
	exit 2
}

timeout_s=300 expect=$MNCOMPAT_TOP/ci/expectations mode=--compat
while [ $# -gt 0 ]; do
	case $1 in
	--timeout)
		[ $# -ge 2 ] || usage
		timeout_s=$2
		shift 2
		;;
	--expect)
		[ $# -ge 2 ] || usage
		expect=$2
		shift 2
		;;
	--compat)
		mode=--compat
		shift
		;;
	--native)
		mode=""
		shift
		;;
	--atomic)
		mode=--atomic
		shift
		;;
	--) shift && break ;;
	-*) usage ;;
	*) break ;;
	esac
done
case $# in
1 | 2) ;;
*) usage ;;
esac
driver=$1 tests=${2:-}

# 1. Check everything before writing anything.
[ -n "$driver" ] || die "DRIVER is empty"
[ -e "$driver" ] || die "no driver directory '$driver'"
[ -d "$driver" ] || die "driver '$driver' is not a directory"
driver=$(cd "$driver" && pwd)
name=$(basename "$driver")
case $name in
*[!A-Za-z0-9_-]* | '') die "driver directory name '$name': want [A-Za-z0-9_-], the module's name" ;;
esac
kbuild=""
for f in Kbuild Makefile; do
	[ -f "$driver/$f" ] && kbuild="$kbuild $f"
done
[ -n "$kbuild" ] ||
	die "driver '$driver' has no Kbuild or Makefile: nothing tells kbuild what to build"
kbuild_file=${kbuild# }
kbuild_file=${kbuild_file%% *}
# shellcheck disable=SC2086
(cd "$driver" && grep -Eq "obj-m[[:space:]]*[:+]?=.*(^|[[:space:]=])$name\\.o" $kbuild) ||
	die "driver '$driver': no 'obj-m += $name.o' in$kbuild (the module must be named after its directory)"
case $timeout_s in
'' | *[!0-9]*) die "--timeout '$timeout_s': want seconds" ;;
esac
[ "$timeout_s" -gt 0 ] || die "--timeout must be more than 0"
[ -r "$expect" ] || die "no expectations file '$expect'"
expect=$(cd "$(dirname "$expect")" && pwd)/$(basename "$expect")
kernels=$(selected_kernels)
[ -n "$(echo "$kernels" | tr -d ' ')" ] || die "KERNELS selects no kernel"
# shellcheck disable=SC2086
check_kernels $kernels

# The test list: "c FILE" or "exec FILE" lines; names must not clash.
test_list=""
add_test() {
	case $1 in
	*.c) test_list="$test_list
c $1" ;;
	*) if [ -x "$1" ]; then
		test_list="$test_list
exec $1"
	elif [ "$2" = single ]; then
		die "test '$1' is neither a .c file nor executable"
	fi ;;
	esac
}
if [ -n "$tests" ]; then
	[ -e "$tests" ] || die "no tests '$tests'"
	if [ -d "$tests" ]; then
		tests=$(cd "$tests" && pwd)
		for f in "$tests"/*; do
			[ -f "$f" ] && add_test "$f" dir
		done
		[ -n "$test_list" ] ||
			die "no tests in '$tests' (want *.c files or executables)"
	else
		[ -f "$tests" ] || die "tests '$tests' is not a file or directory"
		tests=$(cd "$(dirname "$tests")" && pwd)/$(basename "$tests")
		add_test "$tests" single
	fi
fi
dups=$(echo "$test_list" | awk 'NF { n = $2; sub(".*/", "", n); sub("\\.[^.]*$", "", n); print n }' |
	sort | uniq -d)
[ -z "$dups" ] || die "two tests would share the name: $dups"

out=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}
mkdir -p "$out/driver"
out=$(cd "$out" && pwd)
case $driver/ in
"$out"/*) die "driver '$driver' is inside the output directory $out" ;;
esac
area=$out/driver/$name
new=$out/driver/.$name.new
rm -rf "$new"
trap 'rm -rf "$new"' EXIT
mkdir -p "$new/tests"

# 2. Copy and convert; the user's tree is only read.
cp -R "$driver" "$new/src"
cp -R "$driver" "$new/$name"
# shellcheck disable=SC2086 # exit 3: converted, with items to review
"$MNCOMPAT_TOP/semantic-patches/convert.sh" "$new/$name" --apply --quiet \
	$mode >"$new/convert.report" 2>&1 || [ $? -eq 3 ] || {
	cat "$new/convert.report" >&2
	die "converting '$driver' failed (semantic-patches/convert.sh)"
}
if [ "$mode" = --compat ] && ! grep -q 'MNCOMPAT_INCLUDE' "$new/$name/$kbuild_file"; then
	{
		echo
		echo "# <mncompat/mmu_notifier.h> and the target kernel's probed config"
		echo "# (ci/build-module.sh sets both; see compat/README.md)."
		# shellcheck disable=SC2016 # make variables, not shell ones
		echo 'ccflags-y += -I$(MNCOMPAT_INCLUDE) -I$(MNCOMPAT_CONFIG)'
	} >>"$new/$name/$kbuild_file"
fi
rc=0
(cd "$new" && diff -ruN src "$name" >convert.diff) || rc=$?
[ "$rc" -le 1 ] || die "diff of the converted copy failed"
# No time stamps: the same driver gives the same patch.
sed -E 's/^((---|\+\+\+) [^	]*)	.*/\1/' "$new/convert.diff" >"$new/convert.patch"
rm "$new/convert.diff"

# 3. Guest tests, built once for every kernel.
echo "$test_list" | while read -r kind file; do
	[ -n "$kind" ] || continue
	t=$(basename "$file")
	t=${t%.*}
	if [ "$kind" = c ]; then
		"$MNCOMPAT_TOP/ci/build-guest-test.sh" "$file" "$new/tests/$t" ||
			die "guest test '$file' does not build"
	else
		cp "$file" "$new/tests/$t"
	fi
done
rm -rf "$area"
mv "$new" "$area"
trap - EXIT
suite=$area/$name.suite
{
	echo "# Generated by ci/driver-matrix.sh for $driver"
	echo "module $area/$name"
	for t in "$area"/tests/*; do
		[ -f "$t" ] && echo "exec $t"
	done
	echo "timeout $timeout_s"
} >"$suite"
log "driver $name: $(grep -c '\] converted' "$area/convert.report" || true) conversions, $(grep -c '\] review' "$area/convert.report" || true) items to review: $area/convert.report"

# 4. The matrix runner: every kernel, each on its own (one that fails does
# not stop the rest), results in $MNCOMPAT_OUT/results/KERNEL/NAME/ (the
# previous results go), one line per kernel, the report and its files.
echo "conversion report: $area/convert.report"
echo "conversion patch:  $area/convert.patch"
MNCOMPAT_OUT=$out exec "$MNCOMPAT_TOP/ci/matrix.sh" --expect "$expect" "$suite"
