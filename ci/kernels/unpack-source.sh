#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/unpack-source.sh SERIES
# Unpack the pristine linux-source-SERIES tree into the cache (read-only
# reference for checkpatch, coccicheck, kselftest_harness.h and the 6.1 ->
# 6.12 conversion check) and print its path.
set -eu
. "$(dirname "$0")/../lib.sh"

series=$1
pkg=linux-source-$series
version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
	die "$pkg is not installed: run ci/install-deps.sh"
dir=$MNCOMPAT_CACHE/src/$pkg-$version
if [ ! -e "$dir/.done" ]; then
	log "unpacking $pkg $version into $dir"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xf "/usr/src/$pkg.tar.xz" -C "$dir" --strip-components=1
	touch "$dir/.done"
fi
echo "$dir"
