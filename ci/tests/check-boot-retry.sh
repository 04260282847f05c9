#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-boot-retry.sh
# A guest that dies before its first step (a TCG race while the kernel
# boots, say) is an infrastructure fault: ci/run/boot.sh boots it once more,
# and the report names the retry; it is never a silent pass, nor a failed
# driver. MNCOMPAT_TEST_BOOT_DIES=N makes the first N guest runs of a boot
# die that way (their init does not exist: the kernel panics). The clean
# self-test on deb-6.12 (the matrix runs it without a death):
#   - one death: passes, and the suite line and the text report name the
#     retry and the panic
#   - two deaths: fails, its line says the guest never reached its init and
#     names the retry
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-retry.XXXXXX")
trap 'rm -rf "$work"' EXIT

# run N: the clean self-test with N planted deaths; log in $work/N.log,
# exit status in $work/N.rc.
run() {
	rc=0
	MNCOMPAT_TEST_BOOT_DIES=$1 MNCOMPAT_OUT=$work/out-$1 KERNELS=deb-6.12 \
		"$MNCOMPAT_TOP/ci/run/matrix.sh" "$MNCOMPAT_TOP/ci/run/selftest/clean.suite" \
		>"$work/$1.log" 2>&1 || rc=$?
	echo "$rc" >"$work/$1.rc"
}

# said N TEXT: the log of run N has a line starting with TEXT.
said() {
	grep -q "^$2" "$work/$1.log"
}

# lacks FILE TEXT: no line of FILE holds TEXT.
lacks() {
	! grep -q "$2" "$1"
}

run 1
check "one death: the clean self-test still passes" \
	test "$(cat "$work/1.rc")" -eq 0
check "one death: the suite line names the retry and the panic" \
	said 1 "  deb-6.12/clean: .*infrastructure retry: the first guest died before its first step (done: Kernel panic"
check "one death: the text report names the retry" \
	said 1 "infrastructure retry: deb-6.12/clean: the first guest died before its first step"
check "one death: the first guest's console is kept" \
	grep -q 'Kernel panic' "$work/out-1/work/boot/deb-6.12/clean/first-console.log"

run 2
check "two deaths: the run fails" test "$(cat "$work/2.rc")" -ne 0
check "two deaths: the guest never reached its init, and the retry is named" \
	said 2 "  deb-6.12/clean: the guest never reached its init .*infrastructure retry: "
check "two deaths: no row passes" \
	lacks "$work/out-2/results/deb-6.12/clean/results.tsv" "	pass	"
tap_end boot-retry
