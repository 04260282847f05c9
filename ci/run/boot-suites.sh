#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/boot-suites.sh ENV_FILE BOOT_DIR SUITE_DIR...
# The second half of running suites (after ci/run/stage-suite.sh): boot the
# kernel of ENV_FILE once with every staged SUITE_DIR of the list; the
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

[ $# -ge 3 ] || die "usage: boot-suites.sh ENV_FILE BOOT_DIR SUITE_DIR..."
env_file=$1 bootdir=$2
shift 2
# shellcheck disable=SC1090
. "$env_file"
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
	# shellcheck disable=SC1091
	. "$dir/boot.conf"
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
log "$KERNEL_NAME:$names: booting (timeout ${total}s)"
BOOT_QEMU_ARGS="${BOOT_QEMU_ARGS:-}$first_qemu" \
	BOOT_APPEND="${BOOT_APPEND:-}$first_append" \
	phase guest "$MNCOMPAT_TOP/ci/run/boot.sh" "$env_file" "$bootdir/initramfs.cpio.gz" \
	"$bootdir" "$total"
# shellcheck disable=SC2086
"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/report/parse_run.py" "$KERNEL_NAME" "$bootdir" $staged
log "$KERNEL_NAME:$names: $(cat "$bootdir/status") in $(cat "$bootdir/boot-seconds")s"
