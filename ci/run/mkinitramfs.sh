#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/mkinitramfs.sh GUEST_DIR OUT.cpio.gz
# Pack GUEST_DIR (suites/NN/ with name, plan, tests/, modules/: see
# ci/run/boot-suites.sh) with busybox and the guest init into a gzip'd newc
# initramfs.
set -eu
. "$(dirname "$0")/../lib.sh"

staging=$1 out=$2
[ -x /bin/busybox ] || die "busybox-static missing: run ci/install-deps.sh"
[ -d "$staging/suites" ] || die "$staging has no suites/"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
cp "$MNCOMPAT_TOP/ci/run/guest/init" "$root/init"
cp -r "$staging/." "$root/"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
