#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/get-deb-kernel.sh NAME SERIES   (ci/kernels/prepare-kernel.sh runs it)
# Resolve the newest Debian kernel ABI of the row's series through the meta
# packages, download its unsigned image and its headers (the arch tree, the
# -common tree and linux-kbuild) with `apt-get download` and unpack them all
# into the cache: nothing is installed on the host, nothing is written to
# /boot or /lib/modules, no package hook runs. Writes the env file.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: get-deb-kernel.sh NAME SERIES"
name=$1 series=$2

# apt_cache ARGS...: apt-cache with its binary package cache kept in ours
# ($MNCOMPAT_CACHE/apt/pkgcache.bin, one writer at a time). Debian's
# container images set Dir::Cache::pkgcache "" (this build machine has
# it): each apt-cache start then rebuilds the cache from the package
# lists, 0.8 s, against 0.25 s to check and map a kept one. apt rebuilds
# a kept cache itself when the lists change (apt-get update).
apt_cache() {
	if mkdir -p "$MNCOMPAT_CACHE/apt" 2>/dev/null && [ -w "$MNCOMPAT_CACHE/apt" ]; then
		flock "$MNCOMPAT_CACHE/apt/lock" apt-cache \
			-o Dir::Cache::pkgcache="$MNCOMPAT_CACHE/apt/pkgcache.bin" "$@"
	else
		apt-cache "$@"
	fi
}

# depends PACKAGE...: "PACKAGE DEPENDENCY" lines of each PACKAGE apt
# knows, in apt-cache's order (one apt-cache start for them all: each
# start reads the whole package cache).
depends() {
	apt_cache depends "$@" 2>/dev/null |
		awk '/^[^ ]/ { p = $1 } $1 ~ /Depends:$/ { print p, $2 }'
}
# first_of PACKAGE PREFIX: of depends' lines on stdin, the first
# dependency of PACKAGE whose name starts PREFIX (the first alternative of
# an "or" is what apt-cache lists first).
first_of() {
	awk -v pkg="$1" -v p="$2" '$1 == pkg && index($2, p) == 1 { print $2; exit }'
}

# linux-headers-6.12-amd64 exists for the backported series; the default
# series of the release is reached through linux-headers-amd64.
meta=$(depends "linux-headers-$series-amd64" linux-headers-amd64)
headers=$(echo "$meta" | first_of "linux-headers-$series-amd64" "linux-headers-$series")
[ -n "$headers" ] ||
	headers=$(echo "$meta" | first_of linux-headers-amd64 "linux-headers-$series.")
[ -n "$headers" ] ||
	die "no Debian headers package for series $series (run 'make deps' as root: it runs apt-get update)"
abi=${headers#linux-headers-}
image=linux-image-$abi-unsigned
deps=$(depends "$headers")
common=$(echo "$deps" | first_of "$headers" linux-headers-)
kbuild=$(echo "$deps" | first_of "$headers" linux-kbuild-)
{ [ -n "$common" ] && [ -n "$kbuild" ]; } ||
	die "$headers: cannot resolve its -common and linux-kbuild packages"
log "$name: series $series resolves to $abi"

version=$(apt_cache policy "$image" | awk '$1 == "Candidate:" { print $2 }')
case $version in
'' | '(none)') die "no package $image" ;;
esac
# Bump when the unpacked layout changes: an older cache entry is redone.
layout=2
dir=$MNCOMPAT_CACHE/kernels/$name-$abi-$version
root=$dir/root
if [ "$(cat "$dir/.done" 2>/dev/null)" != "layout $layout" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/deb"
	# As root, apt drops privileges to _apt for the download.
	[ "$(id -u)" != 0 ] || chmod 0777 "$dir/deb"
	log "$name: downloading $image $headers $common $kbuild ($version)"
	(cd "$dir/deb" && apt-get download -q "$image=$version" \
		"$headers=$version" "$common=$version" "$kbuild=$version" \
		>"$dir/download.log" 2>&1) || {
		cat "$dir/download.log" >&2
		die "apt-get download of $abi $version failed"
	}
	for deb in "$dir"/deb/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
	rm -rf "$dir/deb" "$dir/download.log"
	# The arch tree's Makefile includes the -common tree by its absolute
	# path under /usr/src, and lib/modules/RELEASE/build and source point
	# there: make them point into the cache.
	sed -i "s|^include /usr/src/|include $root/usr/src/|" \
		"$root/usr/src/$headers/Makefile"
	for link in build source; do
		target=$(readlink "$root/lib/modules/$abi/$link") || continue
		case $target in
		/usr/src/*) ln -sfn "../../..$target" "$root/lib/modules/$abi/$link" ;;
		esac
	done
	# The package leaves modules.dep to the installer; suites that load
	# the kernel's own modules (kmod directive) need it.
	depmod -b "$root" "$abi"
	echo "layout $layout" >"$dir/.done"
fi
kdir=$root/usr/src/$headers
vmlinuz=$root/boot/vmlinuz-$abi
[ -r "$vmlinuz" ] || die "$image has no $vmlinuz"
grep -q "^include $root/usr/src/" "$kdir/Makefile" ||
	die "$kdir/Makefile does not include the cached -common tree"

# This row's entries for other ABIs or uploads are superseded: go.
for old in "$MNCOMPAT_CACHE/kernels/$name"-*; do
	{ [ -d "$old" ] && [ "$old" != "$dir" ]; } || continue
	log "$name: removing superseded $old"
	rm -rf "$old"
done

# The kernel's own source, the linux-source of the same upload: its
# behaviours are read there (ci/kernels/behaviours.py, when
# ci/matrix_model.py finish-env completes the env file). Another upload's
# tree may behave otherwise (6.12.117 and 6.12.118 do): none then, and the
# behaviours are unknown.
ksrc=$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" "$series" 2>/dev/null) || ksrc=""
case $ksrc in
*"-$version") ;;
*)
	log "$name: no linux-source-$series $version unpacked: its behaviours are unknown"
	ksrc=""
	;;
esac
write_kernel_env "$name" deb "$image $version" "$abi" "$kdir" "$ksrc" \
	"$root/lib/modules/$abi" "$vmlinuz"
