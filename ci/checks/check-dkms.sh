#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/checks/check-dkms.sh ENV_FILE...
# Build the mirror sample with `dkms build` against each Debian kernel's
# headers tree unpacked in the cache (--kernelsourcedir), in a private DKMS
# tree: nothing is installed on the host.
set -eu
. "$(dirname "$0")/../lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pkg=mncompat-mirror ver=0.1
src=$work/src/$pkg-$ver
mkdir -p "$src" "$work/tree"
# (links, to drivers-sample/devpt, as the files they name)
find -L "$MNCOMPAT_TOP/drivers-sample/mirror" -maxdepth 1 -type f \
	-exec cp {} "$src/" \;
cp -r "$MNCOMPAT_TOP/compat" "$src/compat"
require_tools dkms
dkms add -m "$pkg" -v "$ver" --sourcetree "$work/src" \
	--dkmstree "$work/tree" >"$work/add.log" 2>&1 ||
	{ cat "$work/add.log"; die "dkms add failed"; }

. "$MNCOMPAT_TOP/ci/tap.sh"
for env_file in "$@"; do
	kernel_fields "$env_file" KERNEL_KIND KERNEL_RELEASE KDIR
	[ "$KERNEL_KIND" = deb ] || continue
	if dkms build -m "$pkg" -v "$ver" -k "$KERNEL_RELEASE" \
		--kernelsourcedir "$KDIR" \
		--sourcetree "$work/src" --dkmstree "$work/tree" \
		>"$work/build.log" 2>&1 &&
		ls "$work/tree/$pkg/$ver/$KERNEL_RELEASE"/*/module/mirror.ko* \
			>/dev/null 2>&1; then
		ok "dkms build $pkg for $KERNEL_RELEASE"
	else
		not_ok "dkms build $pkg for $KERNEL_RELEASE" "$work/build.log"
		find "$work/tree" -name make.log -exec sed 's/^/# /' {} \;
	fi
done
tap_end dkms
