#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/accel.sh VMLINUZ OUTDIR
# Choose the guests' QEMU accelerator and write it to OUTDIR/accel: a line
# "kvm" or "tcg", then a line saying why. MNCOMPAT_ACCEL picks it:
#   tcg         TCG, no questions asked
#   kvm         KVM or nothing: exit 1 with the reason when it is unusable
#   auto, unset KVM when /dev/kvm opens read-write and a probe boot of
#               the kernel image VMLINUZ reaches its init under KVM, else TCG
# The probe guest prints a line and powers off (a second or two under KVM);
# a KVM that cannot run it (nested virtualisation without the features the
# guest needs: "KVM internal error", "emulation failure") is stopped at once.
# The probe's verdict is kept in $MNCOMPAT_CACHE/accel-probe under a key of
# the host kernel, the QEMU version, /dev/kvm's mode and owner and the
# user: a machine is probed again only when one of them changes.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: accel.sh VMLINUZ OUTDIR"
vmlinuz=$1 outdir=$2
mkdir -p "$outdir"

# probe_kvm: succeed when a guest reaches its init under KVM; else print
# why not.
probe_kvm() {
	if [ ! -e /dev/kvm ]; then
		echo "no /dev/kvm on this host"
		return 1
	fi
	if ! (: <>/dev/kvm) 2>/dev/null; then
		echo "/dev/kvm cannot be opened read-write by uid $(id -u) (group kvm?)"
		return 1
	fi
	p=$outdir/probe
	rm -rf "$p"
	mkdir -p "$p/root/bin" "$p/root/dev"
	cp /bin/busybox "$p/root/bin/busybox"
	cat >"$p/root/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox echo mncompat-kvm-probe-reached-init >/dev/ttyS0
/bin/busybox poweroff -f
EOF
	chmod +x "$p/root/init"
	(cd "$p/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$p/initrd"
	qemu-system-x86_64 -nodefaults -display none -no-reboot \
		-machine pc,accel=kvm -m 256M -kernel "$vmlinuz" \
		-initrd "$p/initrd" -serial "file:$p/console.log" \
		-append "console=ttyS0 rdinit=/init panic=-1 quiet" \
		</dev/null >"$p/qemu.log" 2>&1 &
	pid=$!
	waited=0
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q mncompat-kvm-probe-reached-init "$p/console.log" 2>/dev/null ||
			grep -qE 'KVM internal error|emulation failure|failed to initialize kvm' \
				"$p/qemu.log" || [ "$waited" -ge 300 ]; then
			kill "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.1
		waited=$((waited + 1))
	done
	wait "$pid" 2>/dev/null || true
	if grep -q mncompat-kvm-probe-reached-init "$p/console.log" 2>/dev/null; then
		rm -rf "$p"
		return 0
	fi
	why=$(grep -m 1 -E 'KVM|kvm|emulation failure' "$p/qemu.log" || true)
	[ "$waited" -lt 300 ] || why="no init after 30 s"
	echo "/dev/kvm opens, but a probe boot under KVM failed: ${why:-qemu exited} (probed with $(basename "$vmlinuz"))"
	return 1
}

# probe_kvm_cached: probe_kvm, its verdict kept under the key above.
probe_kvm_cached() {
	cache=$MNCOMPAT_CACHE/accel-probe
	key="probe 2, host $(uname -r), $(qemu-system-x86_64 --version | head -n 1), /dev/kvm $(stat -c '%a %u:%g' /dev/kvm 2>/dev/null || echo none), uid $(id -u)"
	if [ "$(head -n 1 "$cache" 2>/dev/null)" = "$key" ]; then
		sed -n 3p "$cache"
		return "$(sed -n 2p "$cache")"
	fi
	rc=0
	why=$(probe_kvm) || rc=$?
	mkdir -p "$MNCOMPAT_CACHE"
	printf '%s\n%s\n%s\n' "$key" "$rc" "$why" >"$cache.tmp.$$"
	mv "$cache.tmp.$$" "$cache"
	echo "$why"
	return "$rc"
}

case ${MNCOMPAT_ACCEL:-auto} in
tcg) printf 'tcg\nMNCOMPAT_ACCEL=tcg\n' >"$outdir/accel" ;;
kvm | auto)
	if why=$(probe_kvm_cached); then
		printf 'kvm\n/dev/kvm works (a probe boot reached init)\n' >"$outdir/accel"
	elif [ "${MNCOMPAT_ACCEL:-auto}" = kvm ]; then
		die "MNCOMPAT_ACCEL=kvm, but KVM is unusable here: $why; unset MNCOMPAT_ACCEL (or set it to tcg) to run under TCG"
	else
		printf 'tcg\n%s\n' "$why" >"$outdir/accel"
	fi
	;;
*) die "MNCOMPAT_ACCEL='$MNCOMPAT_ACCEL': give kvm, tcg or auto" ;;
esac
head -n 1 "$outdir/accel"
