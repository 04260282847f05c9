#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/mkinitramfs.sh STAGING OUT.cpio.gz
# Pack STAGING (plan, tests/, modules/) with busybox and the guest init into
# a gzip'd newc initramfs.
set -eu
. "$(dirname "$0")/lib.sh"

staging=$1 out=$2
[ -x /bin/busybox ] || die "busybox-static missing: run ci/install-deps.sh"
[ -r "$staging/plan" ] || die "$staging has no plan"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
cp "$MNCOMPAT_TOP/ci/guest/init" "$root/init"
cp -r "$staging/." "$root/"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
