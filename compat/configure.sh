#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: compat/configure.sh KDIR OUTDIR
#
# Compile every compat/probes/*.c against the kernel build tree KDIR with
# -Werror, and write OUTDIR/mncompat_config.h: one MNCOMPAT_HAVE_<PROBE> per
# probe, defined to 1 when the probe compiled, #undef otherwise.  The probe
# log is kept in OUTDIR/mncompat_probes.log.
#
# Two ways to the same answer (MNCOMPAT_PROBE_PASS):
#   one   (default) the probes whose one include is <linux/mmu_notifier.h>
#         are compiled as one unit, each under a #line naming its own file
#         and with its own identifiers (those that start with probe_ or
#         mncompat_probe_) renamed apart; a probe failed when a diagnostic
#         names its file. The unit is then compiled again without the
#         failed ones and must build with no diagnostic at all. A
#         diagnostic located in a kernel header (a probe's error inside a
#         macro, or the kernel's own warning) fails no probe by itself:
#         the second compile then decides, and if it does not build clean
#         the pass falls back to "each". The other probes are objects of
#         their own in the same kbuild pass (a header that may not exist:
#         sched_signal_h).
#   each  every probe a mini-module of its own, all in one parallel kbuild
#         pass: the reference the compat tests compare "one" against.
#
# Environment: MNCOMPAT_JOBS (default: one per CPU), MNCOMPAT_PROBES (probe
# directory, default: the probes/ directory next to this script),
# MNCOMPAT_PROBE_PASS (one or each), MAKE (default make).
set -eu

me=configure.sh
die() {
	echo "$me: $*" >&2
	exit 1
}

[ $# -eq 2 ] || die "usage: $me KDIR OUTDIR"
kdir=$1
outdir=$2
[ -r "$kdir/Makefile" ] || die "$kdir is not a kernel build tree (no Makefile)"
case $kdir in
/*) ;;
*) kdir=$(cd "$kdir" && pwd) ;;
esac

probes=${MNCOMPAT_PROBES:-$(cd "$(dirname "$0")" && pwd)/probes}
jobs=${MNCOMPAT_JOBS:-$(nproc)}
make=${MAKE:-make}
pass=${MNCOMPAT_PROBE_PASS:-one}
case $pass in
one | each) ;;
*) die "MNCOMPAT_PROBE_PASS='$pass': give one or each" ;;
esac

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
header=$outdir/mncompat_config.h
log=$outdir/mncompat_probes.log
# A header from an earlier run must not survive a failed one, nor its logs.
rm -f "$header" "$log.werror" "$log.unit"

now() {
	date +%s.%N | sed 's/\.N$/.0/'
}

work=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-probes.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

names=
for src in "$probes"/*.c; do
	[ -e "$src" ] || die "no probes in $probes"
	name=$(basename "$src" .c)
	case $name in
	mncompat_probes_unit*) die "$src: the name is the one-unit pass's own" ;;
	esac
	cp "$src" "$work/$name.c"
	names="$names $name"
done

# kbuild_pass LOG [KCFLAGS] OBJECT...: one kbuild pass over $work building
# OBJECTs (names without .o) with -Werror, output in LOG. Failing objects
# are the point: -k, then look at which .o files exist.
kbuild_pass() {
	kp_log=$1 kp_flags=$2
	shift 2
	rm -f "$work"/*.o
	{
		printf 'obj-m :='
		printf ' %s.o' "$@"
		echo
		echo "ccflags-y := -Werror"
	} >"$work/Kbuild"
	"$make" -C "$kdir" M="$work" -k -j"$jobs" \
		${kp_flags:+KCFLAGS="${KCFLAGS:+$KCFLAGS }$kp_flags"} \
		modules >"$kp_log" 2>&1 || true
}

# The "each" pass: every probe its own object. Warnings the kernel's own
# headers give (-Werror makes them errors; a kernel before 5.0 with gcc 9+,
# ...) are no probe's answer: probe again with them left warnings
# (compat/kbuild-diagnostics.sh). A probe's own errors stay errors.
each_pass() {
	# shellcheck disable=SC2086 # the probe names, one word each
	kbuild_pass "$log" "" $names
	no_error=$("$(dirname "$0")/kbuild-diagnostics.sh" --retry-flags "$kdir" \
		"$work" "$log" || true)
	if [ -n "$no_error" ]; then
		mv "$log" "$log.werror"
		# shellcheck disable=SC2086
		kbuild_pass "$log" "$no_error" $names
	fi
	for name in $names; do
		[ ! -e "$work/$name.o" ] || : >"$work/$name.yes"
	done
}

# unit_source FILE NAME...: the one unit of the probes NAME..., each under
# a #line that names its own copy in $work, its probe_ and mncompat_probe_
# identifiers suffixed with its name.
unit_source() {
	us_file=$1
	shift
	{
		echo "#include <linux/mmu_notifier.h>"
		for name in "$@"; do
			echo "#line 1 \"$work/$name.c\""
			sed -E "s/\<((mncompat_)?probe_[A-Za-z0-9_]*)/\1__$name/g" \
				"$work/$name.c"
		done
	} >"$work/$us_file.c"
}

# diagnosed LOG: the file of every error or warning in LOG, one a line.
diagnosed() {
	sed -n -E 's/^([^ :]+):[0-9]+(:[0-9]+)?: (fatal error|error|warning): .*/\1/p' "$1" |
		sort -u
}

# The "one" pass; falls back to each_pass, $why saying why.
one_pass() {
	together='' apart=''
	for name in $names; do
		if [ "$(grep -c '^[[:space:]]*#[[:space:]]*include' "$work/$name.c")" -eq 1 ] &&
			grep -q '^#include <linux/mmu_notifier\.h>$' "$work/$name.c"; then
			together="$together $name"
		else
			apart="$apart $name"
		fi
	done
	# shellcheck disable=SC2086
	unit_source mncompat_probes_unit $together
	# shellcheck disable=SC2086
	kbuild_pass "$log" "" mncompat_probes_unit $apart
	failed='' why='' stray=''
	for file in $(diagnosed "$log"); do
		case $file in
		"$work"/*.c) name=$(basename "$file" .c) ;;
		*)
			# Located in a kernel header (a macro that a probe
			# expanded): it fails no probe by itself. The second
			# compile below decides.
			stray="$stray $file"
			continue
			;;
		esac
		case " $together " in
		*" $name "*) failed="$failed $name" ;;
		*)
			case " $apart " in
			*" $name "*) [ ! -e "$work/$name.o" ] ||
				why="a diagnostic of $name.c, which built" ;;
			*) why="a diagnostic in $file" ;;
			esac
			;;
		esac
	done
	if [ -z "$why" ] && [ -z "$failed$stray" ] &&
		[ ! -e "$work/mncompat_probes_unit.o" ]; then
		why="the unit did not build, with no diagnostic of a probe"
	fi
	for name in $apart; do
		[ ! -e "$work/$name.o" ] || : >"$work/$name.yes"
	done
	# The probes not failed, again as one unit: they must build clean
	# (some warnings come only from passes an error earlier stopped).
	rest=
	for name in $together; do
		case " $failed " in
		*" $name "*) ;;
		*) rest="$rest $name" ;;
		esac
	done
	if [ -z "$why" ] && [ -n "$failed$stray" ] && [ -n "$rest" ]; then
		# shellcheck disable=SC2086
		unit_source mncompat_probes_unit_rest $rest
		kbuild_pass "$log.rest" "" mncompat_probes_unit_rest
		if [ ! -e "$work/mncompat_probes_unit_rest.o" ] ||
			[ -n "$(diagnosed "$log.rest")" ]; then
			why="the probes without a diagnostic did not build clean as one unit"
		fi
		{
			echo
			echo "=== the unit again without$failed"
			cat "$log.rest"
		} >>"$log"
		rm -f "$log.rest"
	fi
	if [ -n "$why" ]; then
		rm -f "$work"/*.yes
		mv "$log" "$log.unit"
		pass="each ($why: $log.unit)"
		each_pass
		return
	fi
	for name in $rest; do
		: >"$work/$name.yes"
	done
}

start=$(now)
no_error=
if [ "$pass" = one ]; then
	one_pass
else
	each_pass
fi
end=$(now)
seconds=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')

have() {
	[ -e "$work/$1.yes" ]
}

built=0
total=0
for name in $names; do
	total=$((total + 1))
	if have "$name"; then
		built=$((built + 1))
	fi
done
[ "$built" -gt 0 ] ||
	die "no probe compiled against $kdir: broken build tree? see $log"
have mmu_notifier_config ||
	die "$kdir: CONFIG_MMU_NOTIFIER is not set (or <linux/mmu_notifier.h> is unusable); see $log"

# Exactly one of the alternatives "$@" must have compiled.
one_of() {
	what=$1
	shift
	found=
	for name in "$@"; do
		if have "$name"; then
			found="$found $name"
		fi
	done
	case $found in
	" "*" "*) ;;
	" "*) return 0 ;;
	esac
	{
		echo "$me: $kdir: no known $what form."
		echo "  detected:${found:- none}"
		echo "  supported (probe: signature, kernels):"
		for name in "$@"; do
			echo "    $name: $(sed -n 's/^ \* Upstream: //p' \
				"$probes/$name.c")"
		done
		echo "  probe log: $log"
	} >&2
	exit 1
}

one_of "invalidate_range_start()" \
	range_start_void4 range_start_blockable range_start_range
one_of "invalidate_range_end()" range_end_void4 range_end_range
# struct mmu_notifier_range is probed apart from the callback forms: RHEL
# 8.2+ has it next to the 4.x (mn, mm, start, end) callbacks. Where the
# kernel has one, compat fills it, so it must say how to mark a range
# blockable (the helper alone only reads it).
for name in range_start_range range_end_range mmu_interval_notifier; do
	if have "$name" && ! have mmu_notifier_range; then
		die "$kdir: $name compiled but struct mmu_notifier_range (mm, start, end) did not: unknown kernel variant; see $log"
	fi
done
if have mmu_notifier_range && ! have range_flags_field &&
	! have range_blockable_field; then
	die "$kdir: the kernel's struct mmu_notifier_range has neither flags (5.2) nor bool blockable (5.0): unknown kernel variant; see $log"
fi
# The young callbacks: where one is there (in either return type), exactly
# one return type compiles (7.1 1fc7dc675e26 made them bool).
for name in clear_flush_young clear_young test_young; do
	presence=$name
	[ "$name" != clear_flush_young ] || presence=clear_flush_young_range
	if have "$presence"; then
		one_of "$name() return type" "${name}_int" "${name}_bool"
	fi
done
# Both secondary-TLB fields: upstream renamed one to the other (6.6), but
# openEuler's 5.10 backports arch_invalidate_secondary_tlbs beside the
# invalidate_range its core still calls; the header fills the latter.

release=$(cat "$kdir/include/config/kernel.release" 2>/dev/null || echo unknown)
tmp=$outdir/.mncompat_config.h.$$
{
	echo "/* SPDX-License-Identifier: GPL-2.0 */"
	echo "/*"
	echo " * Generated by compat/configure.sh: do not edit, do not commit."
	echo " * KDIR: $kdir" | sed 's|\*/|* /|g'
	echo " * Kernel release: $release"
	echo " * Probe pass: $built of $total probes compiled in ${seconds}s"
	echo " * Pass: $pass" | sed 's|\*/|* /|g'
	[ -z "$no_error" ] ||
		echo " * With $no_error: the kernel's own headers warn (probe log)"
	echo " *"
	for name in $names; do
		macro=MNCOMPAT_HAVE_$(echo "$name" | tr '[:lower:]' '[:upper:]')
		if have "$name"; then
			result=yes
		else
			result=no
		fi
		printf ' * %-3s %s\n *     %s\n' "$result" "$macro" \
			"$(sed -n 's/^ \* Upstream: //p' "$probes/$name.c")"
	done
	echo " */"
	echo "#ifndef MNCOMPAT_CONFIG_H"
	echo "#define MNCOMPAT_CONFIG_H"
	echo
	for name in $names; do
		macro=MNCOMPAT_HAVE_$(echo "$name" | tr '[:lower:]' '[:upper:]')
		if have "$name"; then
			echo "#define $macro 1"
		else
			echo "#undef $macro"
		fi
	done
	echo
	echo "#endif /* MNCOMPAT_CONFIG_H */"
} >"$tmp"
mv -f "$tmp" "$header"
echo "$me: $kdir: $built of $total probes compiled in ${seconds}s -> $header"
