#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/install-deps.sh   (`make deps`; `make matrix` and `make test` run it)
# The Debian tool packages the kit needs (compilers, qemu, spatch, ...).
# When they are all installed it does nothing else (no apt-get, no lock of
# apt's is taken). Otherwise, as root: apt-get update, then install what
# is missing, waiting for apt's lock while another program holds it (and
# for another run of this script); this is the only step of the kit that
# needs root. As any other user: name the missing packages and the
# command to run as root.
# No kernel package is installed on the host, linux-source-* included:
# ci/kernels/get-deb-kernel.sh and ci/kernels/unpack-source.sh download them
# through the kit's own apt state (ci/kernels/apt-state.sh) into the cache.
set -eu

packages="
	bc bison flex cpio xz-utils zstd gzip libelf-dev libssl-dev dwarves kmod
	gcc gcc-12 make binutils libc6-dev ccache
	qemu-system-x86 busybox-static debian-archive-keyring
	sparse coccinelle quilt shellcheck python3 pyflakes3 pycodestyle dkms time
	spin tcc unifdef yq
	chromium
"

# missing_packages: the packages of the list that are not installed, one
# dpkg-query for them all (one start per package took 0.3 s of every make
# matrix).
missing_packages() {
	# shellcheck disable=SC2086 # the package names, one word each
	_installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' $packages 2>/dev/null |
		awk '$2 == "ii" { print $1 }') || true
	for _p in $packages; do
		echo "$_installed" | grep -qxF "$_p" || printf ' %s' "$_p"
	done
}
missing=$(missing_packages)
if [ -z "$missing" ]; then
	[ "$(id -u)" != 0 ] || echo ">> all tool packages present"
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	echo "error: missing tool packages:$missing" >&2
	echo "error: run once as root: make -C $top deps" >&2
	exit 1
fi

# One run of this script at a time; then what another run installed
# meanwhile is no longer missing.
exec 9>/run/lock/mncompat-deps.lock
flock 9
missing=$(missing_packages)
if [ -z "$missing" ]; then
	echo ">> all tool packages present"
	exit 0
fi

# apt_waiting CMD...: run CMD (apt-get), again every 2 s for up to 10
# minutes while it fails because another program holds apt's lock.
apt_waiting() {
	_tries=0
	while :; do
		_rc=0
		"$@" 2>"$err" || _rc=$?
		[ "$_rc" -ne 0 ] || { cat "$err" >&2; return 0; }
		if grep -q 'Could not get lock\|Unable to acquire the dpkg frontend lock\|Unable to lock' "$err" &&
			[ "$_tries" -lt 300 ]; then
			[ "$_tries" -gt 0 ] ||
				echo ">> waiting for apt's lock: $(grep -m1 'lock' "$err")" >&2
			_tries=$((_tries + 1))
			sleep 2
			continue
		fi
		cat "$err" >&2
		return "$_rc"
	done
}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
export DEBIAN_FRONTEND=noninteractive
echo ">> apt-get update"
apt_waiting apt-get update -q >/dev/null
echo ">> apt-get install$missing"
# shellcheck disable=SC2086
apt_waiting apt-get install -y -q --no-install-recommends \
	-o DPkg::Lock::Timeout=600 $missing
