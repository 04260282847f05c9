#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/driver-matrix.sh [--timeout S] [--expect FILE]
#                            [--compat | --native | --atomic | --convert=MODE]
#                            [--] DRIVER [TESTS]
# (`make matrix DRIVER=... [TESTS=...]`.) Run an out-of-tree driver through
# the matrix on the kernels of $KERNELS (default: all of ci/kernels/kernels.list):
#
#   1. check the input; nothing is written before it passes;
#   2. write the suite $MNCOMPAT_OUT/driver/NAME/NAME.suite: a
#      converted-module line for DRIVER in the chosen mode, a test or exec
#      line per guest test, the timeout;
#   3. run it on every kernel with the matrix runner (ci/run/matrix.sh), like
#      any suite: it converts a copy of DRIVER once (ci/run/convert-module.sh;
#      DRIVER is never written), builds the guest tests once, and builds,
#      boots and judges on each kernel; results in
#      $MNCOMPAT_OUT/results/KERNEL/NAME/ (the previous results go): one
#      line per kernel, the text report, the report files (junit.xml,
#      matrix.html, KERNEL/ktap.tap);
#   4. copy the conversion's report and patch to NAME/convert.report and
#      NAME/convert.patch and name them; exit 1 on any unexpected result.
#
# DRIVER: a directory named after its module (its Kbuild or Makefile has
# obj-m += NAME.o); its top-level files are the module's sources. It may
# include <mncompat/mmu_notifier.h> with
# ccflags-y += -I$(MNCOMPAT_INCLUDE) -I$(MNCOMPAT_CONFIG) (ci/run/build-module.sh
# passes both). Built with W=1, sparse and -Werror.
# TESTS: one file or a directory of them. FILE.c is built as a static
# guest binary (kselftest_harness.h, headers from its directory and the one
# above); any other executable file (a static binary, or a #!/bin/sh script
# for the guest's busybox) is run as it is. Each prints KTAP on stdout;
# exit status non-zero fails it. Without TESTS the run loads and unloads
# the module and checks the console for splats. A test's name (its file
# name without the extension) names its rows and its file in the guest:
# A-Z a-z 0-9 _ . + - only, and not starting with '.' or '-'.
# Names: the paths of DRIVER and TESTS may have any character but a
# control character (TAB, newline, ...); the driver directory's name is
# the module's ([A-Za-z0-9_-]); $MNCOMPAT_OUT, where the modules are built,
# may have no blank, quote, $, backslash or control character (kbuild cannot
# take them). Anything else is refused with one error line, before
# anything is written.
# --timeout S: kill a guest after S seconds (default 300).
# --expect FILE: judge with FILE instead of ci/report/expectations (same format).
# --compat (the default): convert.sh --compat, compat's include path added
#   to the copy's Kbuild (or Makefile).
# --native: convert.sh without --compat: the newest API as upstream has
#   it, no compat header; such a driver misses invalidations on kernels
#   that still call invalidate_page (before 4.13).
# --atomic: convert.sh --atomic (implies --native).
# --convert=MODE: --MODE (compat, native or atomic: make's CONVERT=MODE).
set -eu
. "$(dirname "$0")/../lib.sh"

usage() {
	echo "usage: ci/run/driver-matrix.sh [--timeout S] [--expect FILE] [--compat | --native | --atomic | --convert=MODE] [--] DRIVER [TESTS]" >&2
	exit 2
}

timeout_s=300 expect=$MNCOMPAT_TOP/ci/report/expectations mode=--compat
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
	--compat | --native | --atomic)
		mode=$1
		shift
		;;
	--convert=compat | --convert=native | --convert=atomic)
		mode=--${1#--convert=}
		shift
		;;
	--convert=*)
		printf "error: CONVERT='%s': give compat, native or atomic\n" "${1#--convert=}" >&2
		exit 2
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

# carried NAME WHAT: refuse a path the kit cannot carry (a control
# character: the suite is lines, the steps are TAB-separated), named with
# each such character shown as ? (one line).
carried() {
	case $1 in
	*[[:cntrl:]]*)
		die "$2 '$(shown "$1")': a control character (TAB, newline, ...) in a path: the kit cannot carry it; rename it or link it from a plain path"
		;;
	esac
}

# 1. Check everything before writing anything.
[ -n "$driver" ] || die "DRIVER is empty"
carried "$driver" DRIVER
[ -z "$tests" ] || carried "$tests" TESTS
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

# test_name FILE NAME: refuse a test whose NAME (FILE's name without its
# extension) the guest and the reports cannot carry.
test_name() {
	case $2 in
	'' | [.-]* | *[!A-Za-z0-9_.+-]*)
		die "test '$1': its name '$2' names its rows and its file in the guest: A-Z a-z 0-9 _ . + - only, not starting with . or - (rename it)"
		;;
	esac
}

# The test list: "c FILE" or "exec FILE" lines; names must not clash.
test_list=""
add_test() {
	case $1 in
	*.c) ;;
	*)
		if [ ! -x "$1" ]; then
			[ "$2" != single ] ||
				die "test '$1' is neither a .c file nor executable"
			return 0
		fi
		;;
	esac
	carried "$1" test
	_n=$(basename "$1")
	case $1 in
	*.c)
		test_name "$1" "${_n%.c}"
		test_list="$test_list
c $1"
		;;
	*)
		test_name "$1" "${_n%.*}"
		test_list="$test_list
exec $1"
		;;
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
dups=$(printf '%s\n' "$test_list" | awk 'NF { n = $0; sub(".*/", "", n); sub("\\.[^.]*$", "", n); print n }' |
	sort | uniq -d)
[ -z "$dups" ] || die "two tests would share the name: $dups"

out=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}
plain_out "$out"
mkdir -p "$out/driver"
out=$(cd "$out" && pwd)
case $driver/ in
"$out"/*) die "driver '$driver' is inside the output directory $out" ;;
esac
area=$out/driver/$name
new=$out/driver/.$name.new
rm -rf "$new"
trap 'rm -rf "$new"' EXIT
mkdir -p "$new"

# 2. The suite: the runner's only input, written by the code that reads
# suites (ci/matrix_plan.py driver-suite), each test "c FILE" or "exec FILE".
set --
while IFS= read -r line; do
	case $line in
	'c '*) set -- "$@" c "${line#c }" ;;
	'exec '*) set -- "$@" exec "${line#exec }" ;;
	esac
done <<EOF
$test_list
EOF
"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" driver-suite \
	"$new/$name.suite" "$driver" "$mode" "$timeout_s" "$@" ||
	die "could not write the suite of '$driver' (ci/matrix_plan.py driver-suite)"
rm -rf "$area"
mv "$new" "$area"
trap - EXIT

# 3. The matrix runner: every kernel, each on its own (one that fails does
# not stop the rest).
rc=0
MNCOMPAT_OUT=$out "$MNCOMPAT_TOP/ci/run/matrix.sh" --expect "$expect" \
	"$area/$name.suite" || rc=$?

# 4. The conversion (done once for every kernel): its report and patch.
for report in "$out"/results/*/"$name/convert-$name.report"; do
	[ -f "$report" ] || continue
	cp "$report" "$area/convert.report"
	cp "${report%.report}.patch" "$area/convert.patch"
	echo "driver $name: $(grep -c '\] converted' "$report" || true) conversions, $(grep -c '\] review' "$report" || true) items to review"
	echo "conversion report: $area/convert.report"
	echo "conversion patch:  $area/convert.patch"
	break
done
exit "$rc"
