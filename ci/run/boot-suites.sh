#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/boot-suites.sh KERNEL VMLINUZ APPEND BOOT_DIR SUITE_DIR...
# The second half of running suites (after ci/run/stage-suite.sh): boot the
# kernel KERNEL (its image VMLINUZ, its row's boot arguments APPEND:
# ci/run/boot.sh) once with every staged SUITE_DIR of the list; the
# guest runs them one after the other (ci/run/guest/init), and each SUITE_DIR
# gets its own results.tsv, console.log, ktap.log, status, plan,
# boot-seconds and test-seconds (ci/report/parse_run.py splits the boot's logs).
# BOOT_DIR keeps the boot itself: initramfs, console.log, ktap.log, status,
# boot-seconds, timeout. The suites must share their qemu and append options (the
# first one's are used); the guest is killed after the sum of their
# timeouts. A SUITE_DIR without boot.conf (a module did not build, or the
# suite is not for this kernel) is left as it is.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -ge 5 ] || die "usage: boot-suites.sh KERNEL VMLINUZ APPEND BOOT_DIR SUITE_DIR..."
kernel=$1 vmlinuz=$2 kernel_append=$3 bootdir=$4
shift 4
mkdir -p "$bootdir"
bootdir=$(cd "$bootdir" && pwd)
guest=$bootdir/guest
rm -rf "$guest"
mkdir -p "$guest/suites"

n=0 total=0 staged="" names=""
for dir; do
	[ -r "$dir/boot.conf" ] || continue
	n=$((n + 1))
	timeout_s=300 qemu_args="" append=""
	# boot.conf (ci/matrix_plan.py Suite.boot_conf): NAME=VALUE lines, the
	# value as it is to the end of the line; read, not sourced.
	while IFS= read -r line; do
		case $line in
		timeout_s=*) timeout_s=${line#*=} ;;
		qemu_args=*) qemu_args=${line#*=} ;;
		append=*) append=${line#*=} ;;
		*) die "$dir/boot.conf: not a line of boot.conf: $(shown "$line")" ;;
		esac
	done <"$dir/boot.conf"
	case $timeout_s in
	'' | *[!0-9]*) die "$dir/boot.conf: timeout_s is no number of seconds: $(shown "$timeout_s")" ;;
	esac
	if [ "$n" -eq 1 ]; then
		first_qemu=$qemu_args first_append=$append
	fi
	total=$((total + timeout_s))
	slot=$guest/suites/$(printf '%02d' "$n")
	cp -R "$dir/staging" "$slot"
	basename "$dir" >"$slot/name"
	cp "$dir/staging/plan" "$dir/plan"
	staged="$staged $dir" names="$names $(basename "$dir")"
done
[ -n "$staged" ] || exit 0
echo "$total" >"$bootdir/timeout"

phase initramfs "$MNCOMPAT_TOP/ci/run/mkinitramfs.sh" "$guest" "$bootdir/initramfs.cpio.gz"
log "$kernel:$names: booting (timeout ${total}s)"
BOOT_QEMU_ARGS="${BOOT_QEMU_ARGS:-}$first_qemu" \
	BOOT_APPEND="${BOOT_APPEND:-}$first_append" \
	phase guest "$MNCOMPAT_TOP/ci/run/boot.sh" "$kernel" "$vmlinuz" "$kernel_append" \
	"$bootdir/initramfs.cpio.gz" "$bootdir" "$total"
# shellcheck disable=SC2086
"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/report/parse_run.py" "$kernel" "$bootdir" $staged
log "$kernel:$names: $(cat "$bootdir/status") in $(cat "$bootdir/boot-seconds")s"
