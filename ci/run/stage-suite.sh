#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/stage-suite.sh KERNEL ENV_FILE KDIR KMODDIR SUITE_FILE RESULTS_DIR
# The first half of running a suite (ci/boot_group.py; ci/run/boot-suites.sh
# boots it): build its modules against the kernel KERNEL (ENV_FILE: its
# handle, ci/kernels/prepare-kernel.sh prints it, for the matrix plan; KDIR: its
# build tree; KMODDIR: its own modules, empty when it has them built in;
# the matrix plan reads both from ENV_FILE) and its guest tests into
# RESULTS_DIR/staging (plan, modules/, tests/) and write the boot options
# to RESULTS_DIR/boot.conf, the build seconds to RESULTS_DIR/build-seconds.
# The plan is data, a step a line: "step<TAB>NAME<TAB>ACTION<TAB>ARG",
# ACTION one of insmod (ARG: /modules/NAME.ko), load_kmod (a kernel
# module's file), rmmod (a module's name), run (a test's file) and
# wrapped (a test's file, run through /suite/wrapper); the guest's init
# reads it and runs nothing else (ci/run/guest/init).
# When a module does not build, RESULTS_DIR/results.tsv gets a failing
# "build:NAME" row instead and there is nothing to boot. Warnings of the
# kernel's own headers (not the module's) go to
# RESULTS_DIR/kernel-warnings.log, "MODULE: WARNING" a line. Within a matrix
# run ($MNCOMPAT_RUN_CACHE, ci/lib.sh once_per_run) a module is built once
# per kernel and build options, converted once, and a guest test built
# once, whichever suites use them.
#
# A suite file has one directive per line (paths relative to the repo top,
# or absolute):
#   module DIR [MAKEVAR=VALUE...]
#                     build DIR against the kernel, insmod it, rmmod at end
#   converted-module DIR --compat|--native|--atomic [--naive=HOW]
#                    [MAKEVAR=VALUE...]
#                     like module, but first convert a copy of DIR with
#                     semantic-patches/convert.sh in that mode
#                     (ci/run/convert-module.sh; convert-NAME.report and
#                     convert-NAME.patch beside the results); --naive=HOW:
#                     a conversion known to be wrong, to show a test
#                     failing on it (drivers-sample/shapes, see
#                     ci/run/convert-module.sh)
#   kmod NAME         load the kernel's own module NAME (with its
#                     dependencies) where the kernel has it as a module
#   test FILE.c       build a static guest test, run it (prints KTAP)
#   exec FILE         run FILE in the guest as it is (a static binary or a
#                     busybox sh script; prints KTAP)
#   timeout SECONDS   kill the guest after this long (default 300)
#   needs WORD...     run only on a kernel that has every WORD (no needs
#                     line: every kernel; several: any one of them will
#                     do): a property of the kernel
#                     (ci/matrix_plan.py: a compat probe that
#                     compiled, e.g. invalidate_page; a config option set,
#                     e.g. CONFIG_NUMA; kmemleak on at boot; kind=user;
#                     recreated, recreated=SERIES of kernel-patches/),
#                     release>=X.Y, !WORD (it lacks it), A|B (either)
#   qemu ARGS...      extra QEMU arguments for the boot (e.g. a benchmark's
#                     -icount shift=0,sleep=off: guest time counts
#                     instructions, whatever the load of the host)
#   append ARGS...    extra kernel command line arguments (e.g. maxcpus=1:
#                     6.1 hangs bringing up the second CPU under -icount)
#   wrapper FILE.c    build FILE.c as a static guest binary and run the test
#                     and exec lines after this one through it (WRAPPER
#                     /tests/NAME), e.g. ci/run/guest/as_old_kernel.c
#   alone             boot this suite on its own, never in one boot with
#                     other suites (ci/run/matrix.sh): its console is expected
#                     to show a splat, or its guest to hang
set -eu
. "$(dirname "$0")/../lib.sh"
tab=$(printf '\t')

[ $# -eq 6 ] ||
	die "usage: stage-suite.sh KERNEL ENV_FILE KDIR KMODDIR SUITE_FILE RESULTS_DIR"
kernel=$1 env_file=$2 kdir=$3 kmoddir=$4 suite_file=$5 rundir=$6
suite=$(basename "$suite_file" .suite)
[ -r "$env_file" ] || die "no kernel env file $env_file (ci/kernels/prepare-kernel.sh)"
[ -r "$suite_file" ] || die "no suite file $suite_file"
# One compat probe pass per kernel, shared by its suites (the probes that
# compiled are properties of the kernel).
mkdir -p "$(dirname "$rundir")"
kdir_results=$(cd "$(dirname "$rundir")" && pwd)
export MNCOMPAT_CONFIG="${MNCOMPAT_CONFIG:-$kdir_results/compat}"
"$MNCOMPAT_TOP/ci/kernels/compat-probes.sh" "$kdir" "$MNCOMPAT_CONFIG" \
	>/dev/null 2>&1 ||
	log "$kernel: compat probes failed ($MNCOMPAT_CONFIG.log): no probe properties"
# The matrix plan (ci/matrix_plan.py stage) checks the suite, writes the
# kernel's properties beside its results (KERNEL/properties, what the
# needs lines test) and answers: not for this kernel (the needs lines),
# or the boot options and the steps.
props=$kdir_results/properties
rc=0
staged=$("$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" stage \
	"$suite_file" "$env_file" "$MNCOMPAT_CONFIG" "$props") || rc=$?
[ "$rc" -le 1 ] || exit 1
if [ "$rc" -eq 1 ]; then
	# Not for this kernel: nothing is written for the suite but its line
	# in KERNEL/not-run.tsv (ci/matrix_plan.py: its format, its reader).
	why=$(printf "%s\n" "$staged" | tr '\n' ';' | sed 's/;$//')
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" not-run \
		"$kdir_results/not-run.tsv" "$suite" "$why" "$kernel" || exit 1
	log "$kernel/$suite: not for this kernel ($why; its properties: $props)"
	exit 0
fi

rm -rf "$rundir"
mkdir -p "$rundir"
rundir=$(cd "$rundir" && pwd)
staging=$rundir/staging
mkdir -p "$staging/modules" "$staging/tests"
: >"$staging/plan"
modules="" build_failed="" run=run

# plan_step NAME ACTION ARG: one line of the guest's plan.
plan_step() {
	printf 'step\t%s\t%s\t%s\n' "$1" "$2" "$3" >>"$staging/plan"
}

# tree_sum DIR...: a digest of stdin and of the files under each DIR
# (names relative to DIR, and contents): the key of a build that reads only
# them.
tree_sum() {
	{
		cat
		for _d; do
			(cd "$_d" && find . -type f | LC_ALL=C sort | while read -r f; do
				echo "$f"
				cat "$f"
			done)
		done
	} | sha256sum | cut -c1-16
}

# build_guest_binary SOURCE.c OUT: ci/run/build-guest-test.sh, once per run
# for SOURCE (its path is the key: sources do not change during a run, and
# the build does not depend on the kernel).
build_guest_binary() {
	_name=$(basename "$1" .c)
	once_per_run "test-$_name-$(printf '%s' "$1" | tree_sum)" "$rundir/test-$_name" \
		phase guest-tests "$MNCOMPAT_TOP/ci/run/build-guest-test.sh" "$1" \
		"$rundir/test-$_name/$_name"
	mv "$rundir/test-$_name/$_name" "$2"
	rmdir "$rundir/test-$_name"
}

# stage_kernel_module NAME: copy NAME and what it depends on from the
# kernel's module tree (modules.dep), dependencies first, and plan insmod.
stage_kernel_module() {
	[ -n "$kmoddir" ] || return 0	# built into source kernels
	line=$(grep -E "(^|/)$1\.ko(\.xz)?:" "$kmoddir/modules.dep") ||
		die "$kernel has no module $1"
	for rel in $(echo "$line" | tr -d ':' |
		awk '{ for (i = NF; i > 1; i--) print $i; print $1 }'); do
		ko=$(basename "$rel" .xz)
		[ -e "$staging/modules/$ko" ] && continue
		case $rel in
		*.xz) xz -dc "$kmoddir/$rel" >"$staging/modules/$ko" ;;
		*) cp "$kmoddir/$rel" "$staging/modules/$ko" ;;
		esac
		plan_step "kmod:${ko%.ko}" load_kmod "/modules/$ko"
	done
}

build_start=$(date +%s%N)
# The matrix plan's steps: TAB-separated words (ci/matrix_plan.py step_lines),
# split on TABs only and never globbed.
while IFS= read -r words; do
	[ -n "$words" ] || continue	# a suite of no steps
	set -f
	IFS=$tab
	# shellcheck disable=SC2086
	set -- $words
	unset IFS
	set +f
	directive=$1 arg=${2-}
	shift
	case $directive in
	module | converted-module)
		dir=$1
		shift
		name=$(basename "$dir")
		if [ "$directive" = converted-module ]; then
			mode=$1
			shift
			naive=
			case ${1-} in
			--naive=*)
				naive=$1
				shift
				;;
			esac
			once_per_run "convert$mode$naive-$name-$(tree_sum "$dir" \
				"$MNCOMPAT_TOP/semantic-patches" </dev/null)" \
				"$rundir/convert" \
				phase convert "$MNCOMPAT_TOP/ci/run/convert-module.sh" "$mode" ${naive:+"$naive"} "$dir" \
				"$rundir/convert" ||
				die "converting $dir failed: $rundir/convert/convert.report"
			cp "$rundir/convert/convert.report" "$rundir/convert-$name.report"
			cp "$rundir/convert/convert.patch" "$rundir/convert-$name.patch"
			dir=$rundir/convert/$name
		fi
		if once_per_run "module-$kernel-$name-$(echo "$kdir" "$@" |
			tree_sum "$dir" "$MNCOMPAT_TOP/compat")" \
			"$rundir/build/$name" \
			"$MNCOMPAT_TOP/ci/run/build-module.sh" "$kernel" "$kdir" \
			"$dir" "$rundir/build/$name" "$@" \
			2>"$rundir/build-$name.err"; then
			cp "$rundir/build/$name/$name.ko" "$staging/modules/"
			# The kernel's own header warnings (ci/run/build-module.sh).
			kw=$rundir/build/$name/kernel-warnings.log
			[ ! -s "$kw" ] ||
				sed "s|^|$name: |" "$kw" >>"$rundir/kernel-warnings.log"
			plan_step "insmod:$name" insmod "/modules/$name.ko"
			modules="$name $modules"
		else
			build_failed="$build_failed $name"
		fi
		;;
	kmod)
		stage_kernel_module "$arg"
		;;
	test)
		name=$(basename "$arg" .c)
		build_guest_binary "$arg" "$staging/tests/$name"
		plan_step "$name" "$run" "/tests/$name"
		;;
	exec)
		name=$(basename "$arg")
		name=${name%.*}
		cp "$arg" "$staging/tests/$name"
		chmod 755 "$staging/tests/$name"
		plan_step "$name" "$run" "/tests/$name"
		;;
	wrapper)
		# /suite is the running suite's folder (ci/run/guest/init).
		build_guest_binary "$arg" "$staging/wrapper"
		run=wrapped
		;;
	*) die "$suite_file: step '$directive' (ci/matrix_plan.py's steps)" ;;
	esac
done <<EOF
$(printf "%s\n" "$staged" | grep -v '^conf ')
EOF
# Seconds the module and guest test builds took (matrix.html shows them).
awk -v ns=$(($(date +%s%N) - build_start)) 'BEGIN { printf "%.3f\n", ns / 1e9 }' \
	>"$rundir/build-seconds"

if [ -n "$build_failed" ]; then
	# One failing "build:NAME" row per module, its first error line.
	set --
	for name in $build_failed; do
		set -- "$@" "build:$name" "$(head -n 1 "$rundir/build-$name.err")"
	done
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/report/results.py" fail-rows "$rundir" \
		"$kernel" "$suite" "$@"
	log "$kernel/$suite: build failed:$build_failed"
	exit 0
fi
for name in $modules; do
	plan_step "rmmod:$name" rmmod "$name"
done

printf "%s\n" "$staged" | sed -n 's/^conf //p' >"$rundir/boot.conf"
