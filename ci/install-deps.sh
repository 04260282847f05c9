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

# One dpkg-query for them all (one start per package took 0.3 s of every
# make matrix): the installed ones, a line each.
# shellcheck disable=SC2086 # the package names, one word each
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' $packages 2>/dev/null |
	awk '$2 == "ii" { print $1 }') || true
missing=""
for p in $packages; do
	echo "$installed" | grep -qxF "$p" || missing="$missing $p"
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
