#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/boot.sh KERNEL VMLINUZ APPEND INITRD OUTDIR TIMEOUT_S
# Boot the kernel image VMLINUZ (KERNEL: its name, for the messages; KVM
# or TCG, ci/run/accel.sh) with 2 vCPUs on 2 NUMA nodes. The console goes to
# OUTDIR/console.log, the test channel to OUTDIR/ktap.log. OUTDIR/status
# gets "done", "timeout" or "qemu-exit-N"; a hung guest never hangs us. A
# guest that dies before its first step is booted once more (OUTDIR/retry
# says why).
# The kernel gets APPEND (the boot arguments of its ci/kernels/kernels.list
# row), then BOOT_APPEND; BOOT_QEMU_ARGS adds
# QEMU arguments (split on blanks). ci/run/boot-suites.sh sets the two BOOT_
# ones from the suites' "append" and "qemu" lines. The accelerator is
# ci/run/accel.sh's choice (once per matrix run), TCG for -icount guests;
# OUTDIR/accel says which and why.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 6 ] || die "usage: boot.sh KERNEL VMLINUZ APPEND INITRD OUTDIR TIMEOUT_S"
kernel=$1 vmlinuz=$2 append=$3 initrd=$4 outdir=$5 timeout_s=$6
mkdir -p "$outdir"
rm -f "$outdir/status"

case " ${BOOT_QEMU_ARGS:-} " in
*" -icount "*) printf 'tcg\n-icount (a benchmark guest) needs TCG\n' >"$outdir/accel" ;;
*)
	if once_per_run accel "$outdir/accel.d" "$MNCOMPAT_TOP/ci/run/accel.sh" \
		"$vmlinuz" "$outdir/accel.d" >/dev/null 2>"$outdir/accel.err"; then
		cp "$outdir/accel.d/accel" "$outdir/accel"
	else
		# MNCOMPAT_ACCEL=kvm where KVM does not work: no guest.
		cat "$outdir/accel.err" >&2
		printf 'none\n%s\n' "$(cat "$outdir/accel.err")" >"$outdir/accel"
		echo kvm-unusable >"$outdir/status"
		echo 0.000 >"$outdir/boot-seconds"
		exit 0
	fi
	rm -rf "$outdir/accel.d" "$outdir/accel.err"
	;;
esac
accel=$(head -n 1 "$outdir/accel")
# MNCOMPAT_TCG_THREAD=single|multi: TCG's vCPUs on one host thread or one
# each (QEMU's default); -icount guests are single-threaded anyway.
accel_opt=$accel
case $accel:${MNCOMPAT_TCG_THREAD:-} in
*:) ;;
tcg:single | tcg:multi)
	case " ${BOOT_QEMU_ARGS:-} " in
	*" -icount "*) ;;
	*) accel_opt=tcg,thread=$MNCOMPAT_TCG_THREAD ;;
	esac
	;;
tcg:*) die "MNCOMPAT_TCG_THREAD='$MNCOMPAT_TCG_THREAD': give single or multi" ;;
esac

# guest_run [APPEND]: boot the guest once, with APPEND after the other
# boot arguments; sets status ("done", "timeout" or "qemu-exit-N").
# The vCPUs have RDRAND and the kernel trusts it (random.trust_cpu=on, for
# the kernels built without RANDOM_TRUST_CPU; a kernel without the option
# ignores it): the CRNG is ready while only the boot CPU runs, so the
# kernel never flips its crng_is_ready static key (5.18+) later. That flip,
# text patching with int3 while the other vCPU runs get_random_u32 from a
# test's allocations, is what showed as "Oops: int3" under TCG.
# pty.legacy_count=0: no BSD pseudo-terminals (/dev/ptyXX, which nothing in
# a guest opens). The source-built kernels have LEGACY_PTYS (tinyconfig's
# default) and register 256 pairs of them at boot: 4.6 s of a 21.5 s boot
# of src-6.1 under TCG with KASAN and lockdep (initcall_debug: pty_init),
# 9-16 s of wall time on a busy machine. Debian's kernels have none; a
# kernel without the parameter ignores it.
# No ACPI PCI hotplug (the two PIIX4_PM properties, QEMU 7.2 as Debian 12
# has it): nothing is plugged into a guest, and the hotplug slots' AML
# is most of the ACPI interpreter's work at boot: acpi_init 7.0 s -> 4.2 s
# of a src-6.1 boot under TCG, 16.9 s -> 12.6 s to power-off.
guest_run() {
	rm -f "$outdir/console.log" "$outdir/ktap.log"
	set +e
	# shellcheck disable=SC2086 # BOOT_QEMU_ARGS is a list of arguments
	timeout -k 5 "$timeout_s" qemu-system-x86_64 \
		-nodefaults -display none -no-reboot -machine pc -accel "$accel_opt" \
		-global PIIX4_PM.acpi-root-pci-hotplug=off \
		-global PIIX4_PM.acpi-pci-hotplug-with-bridge-support=off \
		-cpu qemu64,+rdrand -smp 2,sockets=2,cores=1,threads=1 -m 1G \
		-object memory-backend-ram,id=mem0,size=512M \
		-object memory-backend-ram,id=mem1,size=512M \
		-numa node,nodeid=0,cpus=0,memdev=mem0 \
		-numa node,nodeid=1,cpus=1,memdev=mem1 \
		${BOOT_QEMU_ARGS:-} \
		-kernel "$vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 rdinit=/init panic=-1 loglevel=5 random.trust_cpu=on pty.legacy_count=0 $append ${BOOT_APPEND:-} ${1:-}" \
		-serial "file:$outdir/console.log" -serial "file:$outdir/ktap.log" \
		</dev/null >"$outdir/qemu.log" 2>&1 &
	pid=$!
	# A guest whose init has said nothing after MNCOMPAT_BOOT_INIT_TIMEOUT
	# seconds (default 300) will not: an image that does not boot is
	# stopped then, not at the end of its suites' timeouts.
	waited=0 no_init=""
	while [ ! -s "$outdir/ktap.log" ] && kill -0 "$pid" 2>/dev/null; do
		if [ "$waited" -ge "$((${MNCOMPAT_BOOT_INIT_TIMEOUT:-300} * 5))" ]; then
			no_init=yes
			kill "$pid"
			break
		fi
		sleep 0.2
		waited=$((waited + 1))
	done
	wait "$pid"
	rc=$?
	set -e
	case $rc in
	0) status="done" ;;
	124 | 137) status=timeout ;;
	*) status=qemu-exit-$rc ;;
	esac
	[ -z "$no_init" ] || status=timeout
}

# died_early: the guest ended by itself (not stopped by us) before its
# init began the first step of a plan: nothing of the suites ran.
died_early() {
	[ "$status" != timeout ] &&
		! grep -q '^# mncompat-\(begin \|done\)' "$outdir/ktap.log" 2>/dev/null
}

# early_death_reason: the first panic, Oops or BUG line of the console (or
# its last line), for the report.
early_death_reason() {
	{
		grep -m 1 -E 'Kernel panic|Oops|BUG:|general protection fault' \
			"$outdir/console.log" ||
			grep -v '^[[:space:]]*$' "$outdir/console.log" | tail -n 1
	} 2>/dev/null | tr -d '\r' | sed 's/^\[[ 0-9.]*\] *//' | cut -c1-160
}

# MNCOMPAT_TEST_BOOT_DIES=N (the harness's own test): the first N guest
# runs of this boot get an init that does not exist, so they die before
# their first step, as a guest that crashes while booting does.
dies=${MNCOMPAT_TEST_BOOT_DIES:-0}
planted() {
	[ "$dies" -gt "$1" ] && echo rdinit=/mncompat-test-no-such-init
	return 0
}

start=$(date +%s%N)
rm -f "$outdir/retry" "$outdir"/first-*
guest_run "$(planted 0)"
# A guest that dies before its first step is an infrastructure fault (a
# TCG race while the kernel boots, say), not a result of the suites: it
# is booted once more, and the report names the retry
# (OUTDIR/retry: why; the first run's logs kept as OUTDIR/first-*).
if died_early; then
	echo "$status: $(early_death_reason)" >"$outdir/retry"
	for f in console.log ktap.log qemu.log; do
		mv "$outdir/$f" "$outdir/first-$f" 2>/dev/null || true
	done
	log "$kernel: the guest died before its first step ($(cat "$outdir/retry")): booting it once more"
	guest_run "$(planted 1)"
fi
echo "$status" >"$outdir/status"
# Wall time of the whole guest run, in seconds with milliseconds.
echo "$((($(date +%s%N) - start) / 1000000))" |
	sed 's/\(...\)$/.\1/; s/^\./0./' >"$outdir/boot-seconds"
