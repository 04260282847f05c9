#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install every Debian package the kit needs on a fresh Debian 12 host.
# Kernel packages are resolved at run time by ci/get-deb-kernel.sh and
# ci/build-src-kernel.sh; this script installs the tools only.
set -eu

packages="
	bc bison flex cpio xz-utils zstd gzip libelf-dev libssl-dev dwarves kmod
	gcc make binutils libc6-dev ccache
	qemu-system-x86 busybox-static
	linux-source-6.1 linux-source-6.12
	sparse coccinelle quilt shellcheck python3 dkms spin tcc unifdef
	chromium
"

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: must run as root (apt-get install)" >&2
	exit 1
fi

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done

export DEBIAN_FRONTEND=noninteractive
echo ">> apt-get update"
apt-get update -q >/dev/null
if [ -n "$missing" ]; then
	echo ">> apt-get install$missing"
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
else
	echo ">> all tool packages present"
fi
