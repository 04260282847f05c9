#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/install-deps.sh   (`make deps`; `make matrix` and `make test` run it)
# The Debian tool packages the kit needs (compilers, qemu, spatch, ...).
# As root: apt-get update, then install what is missing; this is the only
# step of the kit that needs root. As any other user: check that they are
# all installed and, if not, name them and the command to run as root.
# Kernel packages are never installed: ci/kernels/get-deb-kernel.sh downloads and
# unpacks them into the cache.
set -eu

packages="
	bc bison flex cpio xz-utils zstd gzip libelf-dev libssl-dev dwarves kmod
	gcc gcc-12 make binutils libc6-dev ccache
	qemu-system-x86 busybox-static
	linux-source-6.1 linux-source-6.12
	sparse coccinelle quilt shellcheck python3 pyflakes3 pycodestyle dkms time
	spin tcc unifdef yq
	chromium
"

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done

if [ "$(id -u)" != 0 ]; then
	[ -z "$missing" ] && exit 0
	top=$(cd "$(dirname "$0")/.." && pwd)
	echo "error: missing tool packages:$missing" >&2
	echo "error: run once as root: make -C $top deps" >&2
	exit 1
fi

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
