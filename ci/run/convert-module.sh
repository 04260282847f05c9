#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/convert-module.sh --compat|--native|--atomic [--naive=HOW] DIR OUT
# The one conversion of a driver (a suite's converted-module line, so also
# the driver front end): OUT/NAME is a copy of DIR (NAME its basename)
# converted by semantic-patches/convert.sh --apply in the given mode (one
# of ci/matrix_plan.py's MODES: any other word is refused first), and
# with --compat its Kbuild (or else Makefile) gets compat's include path
# unless it has it; OUT/convert.report is convert.sh's report and
# OUT/convert.patch the change, as `diff -ruN` of src/ and NAME/ without
# time stamps (`patch -p1` applies it in DIR). DIR is only read. Exit 1
# when convert.sh fails (its report says why); its exit 3 (converted, with
# items to review) is success.
#   --compat   the tables through <mncompat/mmu_notifier.h>: one source
#              for every kernel (compat/README.md)
#   --native   the newest API as upstream has it, no compat header (misses
#              the invalidations of kernels that still call invalidate_page)
#   --atomic   --native with the non-sleeping conversion
# Symbolic links in DIR are copied as the files they name.
# --naive=HOW: a conversion known to be wrong, to show a test failing on
# it (drivers-sample/shapes); never for a real driver:
#   drop-page  the .invalidate_page fields are deleted first (a port that
#              takes the range callbacks to cover it; the callbacks stay,
#              marked __maybe_unused)
#   one-file   convert.sh with its module view off (MNCOMPAT_TEST_ONE_FILE:
#              each file on its own, a call the analysis cannot follow
#              taken as non-sleeping: the tool as it was)
#   page-to-range  each .invalidate_page = F becomes .invalidate_range = a
#              wrapper that calls F for every page of the range (the port
#              by hand that keeps the page callback as the secondary-TLB
#              hook beside the range callbacks), then converted
set -eu
. "$(dirname "$0")/../lib.sh"

naive=
case ${2-} in
--naive=drop-page | --naive=one-file | --naive=page-to-range)
	naive=${2#--naive=}
	mode=$1
	shift 2
	set -- "$mode" "$@"
	;;
--naive=*) die "convert-module.sh: ${2}: give --naive=drop-page, --naive=one-file or --naive=page-to-range" ;;
esac
[ $# -eq 3 ] || die "usage: convert-module.sh --compat|--native|--atomic [--naive=HOW] DIR OUT"
mode=$1 dir=$2 out=$3
# The modes are the matrix plan's one list (a suite's converted-module line is
# checked against it too): a word such as --quiet or --apply would pass
# convert.sh as an option, not a mode.
"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" mode "$mode" ||
	die "usage: convert-module.sh --compat|--native|--atomic [--naive=HOW] DIR OUT"
[ -d "$dir" ] || die "convert-module.sh: no directory '$dir'"
dir=$(cd "$dir" && pwd)
name=$(basename "$dir")

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
cp -RL "$dir" "$out/$name"
env=
case $naive in
drop-page)
	sed -n 's/^[[:space:]]*\.invalidate_page[[:space:]]*=[[:space:]]*\([A-Za-z_0-9]*\).*/\1/p' \
		"$out/$name"/*.[ch] | while read -r fn; do
		sed -i "s/^static void $fn(/static void __maybe_unused $fn(/" \
			"$out/$name"/*.c
	done
	sed -i '/^[[:space:]]*\.invalidate_page[[:space:]]*=/d' "$out/$name"/*.[ch]
	;;
one-file) env=MNCOMPAT_TEST_ONE_FILE=1 ;;
page-to-range)
	for f in "$out/$name"/*.c; do
		awk '
		/^static (const )?struct mmu_notifier_ops / { table = NR }
		{ lines[NR] = $0 }
		match($0, /^[[:space:]]*\.invalidate_page[[:space:]]*=[[:space:]]*[A-Za-z_0-9]+/) {
			fn = $0
			sub(/^[[:space:]]*\.invalidate_page[[:space:]]*=[[:space:]]*/, "", fn)
			sub(/[^A-Za-z_0-9].*/, "", fn)
			fns[fn] = table
			lines[NR] = "\t.invalidate_range = " fn "_as_range,"
		}
		END {
			for (i = 1; i <= NR; i++) {
				for (fn in fns)
					if (fns[fn] == i) {
						print "static void " fn "_as_range(struct mmu_notifier *mn, struct mm_struct *mm,"
						print "\t\t\t\tunsigned long start, unsigned long end)"
						print "{"
						print "\tfor (; start < end; start += PAGE_SIZE)"
						print "\t\t" fn "(mn, mm, start);"
						print "}"
						print ""
					}
				print lines[i]
			}
		}' "$f" >"$f.naive" && mv "$f.naive" "$f"
	done
	;;
esac
# Exit 3: converted, with items to review. On a failure, convert.sh's own
# messages first: its usage (exit 2) or its error lines.
rc=0
# shellcheck disable=SC2086 # no env, or one assignment without blanks
env $env "$MNCOMPAT_TOP/semantic-patches/convert.sh" "$out/$name" --apply \
	--quiet "$mode" >"$out/convert.report" 2>&1 || rc=$?
case $rc in
0 | 3) ;;
*)
	if [ "$rc" -eq 2 ]; then
		cat "$out/convert.report" >&2
	else
		grep '^convert\.sh: ' "$out/convert.report" >&2 || true
	fi
	die "converting $dir failed (semantic-patches/convert.sh): $out/convert.report"
	;;
esac
if [ "$mode" = --compat ]; then
	kbuild=$out/$name/Kbuild
	[ -f "$kbuild" ] || kbuild=$out/$name/Makefile
	if [ -f "$kbuild" ] && ! grep -q 'MNCOMPAT_INCLUDE' "$kbuild"; then
		{
			echo
			echo "# <mncompat/mmu_notifier.h> and the target kernel's probed config"
			echo "# (ci/run/build-module.sh sets both; see compat/README.md)."
			# shellcheck disable=SC2016 # make variables, not shell ones
			echo 'ccflags-y += -I$(MNCOMPAT_INCLUDE) -I$(MNCOMPAT_CONFIG)'
		} >>"$kbuild"
	fi
fi

# The patch: DIR against the converted copy, named src/ and NAME/ (no
# time stamps: the same driver gives the same patch).
ln -s "$dir" "$out/src"
rc=0
(cd "$out" && diff -ruN src/ "$name/" >convert.diff) || rc=$?
rm "$out/src"
[ "$rc" -le 1 ] || die "diff of the converted copy of $dir failed"
sed -E 's/^((---|\+\+\+) [^	]*)	.*/\1/' "$out/convert.diff" >"$out/convert.patch"
rm "$out/convert.diff"
