#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run-suite.sh KERNEL SUITE_FILE RESULTS_DIR
# Build a suite's modules against KERNEL and its guest tests, boot KERNEL
# with them and write RESULTS_DIR/results.tsv.
#
# A suite file has one directive per line (paths relative to the repo top,
# or absolute):
#   module DIR [MAKEVAR=VALUE...]
#                     build DIR against the kernel, insmod it, rmmod at end
#   converted-module DIR [MAKEVAR=VALUE...]
#                     like module, but first run semantic-patches/convert.sh
#                     --apply on a copy of DIR (report: convert-NAME.report)
#   kmod NAME         load the kernel's own module NAME (with its
#                     dependencies) where the kernel has it as a module
#   test FILE.c       build a static guest test, run it (prints KTAP)
#   exec FILE         run FILE in the guest as it is (a static binary or a
#                     busybox sh script; prints KTAP)
#   timeout SECONDS   kill the guest after this long (default 300)
#   kernels NAME...   run on these kernels only (default: every kernel)
#   qemu ARGS...      extra QEMU arguments for the boot (e.g. a benchmark's
#                     -icount shift=0,sleep=off: guest time counts
#                     instructions, whatever the load of the host)
#   append ARGS...    extra kernel command line arguments (e.g. maxcpus=1:
#                     6.1 hangs bringing up the second CPU under -icount)
set -eu
. "$(dirname "$0")/lib.sh"

kernel=$1 suite_file=$2 rundir=$3
suite=$(basename "$suite_file" .suite)
env_file=$MNCOMPAT_CACHE/kernels/$kernel.env
[ -r "$env_file" ] || die "kernel $kernel is not prepared ($env_file)"
# shellcheck disable=SC1090
. "$env_file"
[ -r "$suite_file" ] || die "no suite file $suite_file"

only=$(awk '$1 == "kernels" { $1 = ""; print }' "$suite_file")
if [ -n "$only" ]; then
	case " $only " in
	*" $kernel "*) ;;
	*) exit 0 ;;
	esac
fi

rm -rf "$rundir"
mkdir -p "$rundir"
rundir=$(cd "$rundir" && pwd)
# One compat probe pass per kernel, shared by its suites.
export MNCOMPAT_CONFIG="${MNCOMPAT_CONFIG:-$(dirname "$rundir")/compat}"
staging=$rundir/staging
mkdir -p "$staging/modules" "$staging/tests"
: >"$staging/plan"
timeout_s=300 modules="" build_failed="" qemu_args="" append=""

# top_path PATH: PATH as is when absolute, else relative to the repo top.
top_path() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$MNCOMPAT_TOP/$1" ;;
	esac
}

# stage_kernel_module NAME: copy NAME and what it depends on from the
# kernel's module tree (modules.dep), dependencies first, and plan insmod.
stage_kernel_module() {
	[ -n "${KMODDIR:-}" ] || return 0	# built into source kernels
	line=$(grep -E "(^|/)$1\.ko(\.xz)?:" "$KMODDIR/modules.dep") ||
		die "$KERNEL_NAME has no module $1"
	for rel in $(echo "$line" | tr -d ':' |
		awk '{ for (i = NF; i > 1; i--) print $i; print $1 }'); do
		ko=$(basename "$rel" .xz)
		[ -e "$staging/modules/$ko" ] && continue
		case $rel in
		*.xz) xz -dc "$KMODDIR/$rel" >"$staging/modules/$ko" ;;
		*) cp "$KMODDIR/$rel" "$staging/modules/$ko" ;;
		esac
		echo "step kmod:${ko%.ko} insmod /modules/$ko" >>"$staging/plan"
	done
}

build_start=$(date +%s%N)
while read -r directive arg; do
	case $directive in
	'' | '#'*) continue ;;
	module | converted-module)
		# shellcheck disable=SC2086
		set -- $arg
		dir=$(top_path "$1")
		shift
		name=$(basename "$dir")
		if [ "$directive" = converted-module ]; then
			rm -rf "$rundir/convert/$name"
			mkdir -p "$rundir/convert"
			cp -r "$dir" "$rundir/convert/$name"
			dir=$rundir/convert/$name
			# exit 3: converted, with items to review
			"$MNCOMPAT_TOP/semantic-patches/convert.sh" "$dir" --apply \
				>"$rundir/convert-$name.report" 2>&1 || [ $? -eq 3 ] ||
				die "converting $1 failed: $rundir/convert-$name.report"
		fi
		if "$MNCOMPAT_TOP/ci/build-module.sh" "$env_file" \
			"$dir" "$rundir/build/$name" "$@" \
			2>"$rundir/build-$name.err"; then
			cp "$rundir/build/$name/$name.ko" "$staging/modules/"
			echo "step insmod:$name insmod /modules/$name.ko" >>"$staging/plan"
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
		"$MNCOMPAT_TOP/ci/build-guest-test.sh" "$(top_path "$arg")" \
			"$staging/tests/$name"
		echo "step $name /tests/$name" >>"$staging/plan"
		;;
	exec)
		name=$(basename "$arg")
		name=${name%.*}
		cp "$(top_path "$arg")" "$staging/tests/$name"
		chmod 755 "$staging/tests/$name"
		echo "step $name /tests/$name" >>"$staging/plan"
		;;
	timeout) timeout_s=$arg ;;
	kernels) ;;
	qemu) qemu_args="$qemu_args $arg" ;;
	append) append="$append $arg" ;;
	*) die "$suite_file: unknown directive '$directive'" ;;
	esac
done <"$suite_file"
# Seconds the module and guest test builds took (matrix.html shows them).
awk -v ns=$(($(date +%s%N) - build_start)) 'BEGIN { printf "%.3f\n", ns / 1e9 }' \
	>"$rundir/build-seconds"

results=$rundir/results.tsv
if [ -n "$build_failed" ]; then
	for name in $build_failed; do
		printf '%s\t%s\t%s/build:%s\tfail\t%s\n' "$kernel" "$suite" "$suite" \
			"$name" "$(head -n 1 "$rundir/build-$name.err")"
	done >"$results"
	log "$kernel/$suite: build failed:$build_failed"
	exit 0
fi
for name in $modules; do
	echo "step rmmod:$name rmmod $name" >>"$staging/plan"
done

"$MNCOMPAT_TOP/ci/mkinitramfs.sh" "$staging" "$rundir/initramfs.cpio.gz"
cp "$staging/plan" "$rundir/plan"
log "$kernel/$suite: booting (timeout ${timeout_s}s)"
BOOT_QEMU_ARGS="${BOOT_QEMU_ARGS:-}$qemu_args" BOOT_APPEND="${BOOT_APPEND:-}$append" \
	"$MNCOMPAT_TOP/ci/boot.sh" "$env_file" "$rundir/initramfs.cpio.gz" "$rundir" "$timeout_s"
python3 "$MNCOMPAT_TOP/ci/parse_run.py" "$kernel" "$suite" "$rundir"
log "$kernel/$suite: $(cat "$rundir/status") in $(cat "$rundir/boot-seconds")s"
