#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/get-deb-kernel.sh NAME SERIES[/RELEASE]
#        (ci/kernels/prepare-kernel.sh runs it, holding the row's lock)
# Resolve the newest Debian kernel ABI of the row's series in RELEASE
# (default: the machine's own release; its -security suite included)
# through the meta packages, download its unsigned image and its headers
# (the arch tree, the -common tree and linux-kbuild) through the kit's apt
# state (ci/kernels/apt-state.sh) and unpack them all into the cache:
# nothing is installed on the host, nothing is written to /boot or
# /lib/modules, no package hook runs. The entry is prepared aside, checked
# and renamed into place (ci/kernels/cache-entry.sh); an entry that fails
# its check is prepared again. A tree whose packaged headers name a
# compiler this machine lacks (bullseye's gcc-10) is set to build with the
# machine's gcc, and its env file says so (KERNEL_CC_NOTE). Writes the env
# file.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/kernels/cache-entry.sh"

[ $# -eq 2 ] || die "usage: get-deb-kernel.sh NAME SERIES[/RELEASE]"
name=$1 series=${2%%/*}
apt_state() {
	"$MNCOMPAT_TOP/ci/kernels/apt-state.sh" "$@"
}
release=$(apt_state release "$2")

# headers_of META SERIES_PREFIX: the newest META package in the release,
# and of its dependencies the first whose name starts SERIES_PREFIX.
headers_of() {
	_v=$(apt_state newest "$1" "$release") || return 0
	apt_state depends "$1=$_v" | awk -v p="$2" 'index($0, p) == 1 { print; exit }'
}
# linux-headers-6.12-amd64 exists for a series that is not the release's
# default; the default series is reached through linux-headers-amd64.
headers=$(headers_of "linux-headers-$series-amd64" "linux-headers-$series")
[ -n "$headers" ] ||
	headers=$(headers_of linux-headers-amd64 "linux-headers-$series.")
[ -n "$headers" ] ||
	die "no Debian headers package for series $series in $release (the kit's apt state, $MNCOMPAT_CACHE/apt)"
abi=${headers#linux-headers-}
image=linux-image-$abi-unsigned
version=$(apt_state newest "$headers" "$release") ||
	die "no package $headers in $release"
deps=$(apt_state depends "$headers=$version")
common=$(echo "$deps" | awk 'index($0, "linux-headers-") == 1 { print; exit }')
kbuild=$(echo "$deps" | awk 'index($0, "linux-kbuild-") == 1 { print; exit }')
{ [ -n "$common" ] && [ -n "$kbuild" ]; } ||
	die "$headers: cannot resolve its -common and linux-kbuild packages"
[ "$(apt_state newest "$image" "$release" || true)" = "$version" ] ||
	die "no package $image $version in $release"
log "$name: series $series ($release) resolves to $abi $version"

# Bump when the unpacked layout changes: an older cache entry is redone.
layout=2
dir=$MNCOMPAT_CACHE/kernels/$name-$abi-$version
root=$dir/root
kdir=$root/usr/src/$headers
vmlinuz=$root/boot/vmlinuz-$abi

# entry_ok DIR: DIR is a whole entry for this kernel, its trees pointing at
# the final place ($dir): the image, the arch tree with its
# Module.symvers and config, the -common tree it includes, linux-kbuild's
# scripts through the arch tree's link (a tree without them is what an
# interrupted unpack left, issue 45).
entry_ok() {
	_kdir=$1/root/usr/src/$headers
	[ "$(cat "$1/.done" 2>/dev/null)" = "layout $layout" ] &&
		[ -r "$1/root/boot/vmlinuz-$abi" ] &&
		[ -r "$_kdir/Module.symvers" ] && [ -r "$_kdir/.config" ] &&
		grep -q "^include $root/usr/src/$common/Makefile\$" "$_kdir/Makefile" &&
		[ -r "$1/root/usr/src/$common/Makefile" ] &&
		[ -r "$_kdir/scripts/Makefile.build" ] &&
		[ -x "$_kdir/scripts/basic/fixdep" ] &&
		[ -x "$_kdir/scripts/mod/modpost" ]
}

# The compiler the packaged tree names ($(CROSS_COMPILE)gcc-NN in
# .kernelvariables): when this machine lacks it, the machine's gcc-MM
# builds the modules instead ("MM NN" in $dir/compiler).
compiler_named() {
	sed -n 's/^CC = .*)\(gcc-[0-9][0-9]*\)$/\1/p' "$1/.kernelvariables" 2>/dev/null
}

if ! entry_ok "$dir"; then
	[ ! -e "$dir" ] || log "$name: $dir fails its check: preparing it again"
	entry_aside "$dir"
	# shellcheck disable=SC2154 # set by entry_aside (cache-entry.sh)
	tmp=$entry_tmp
	mkdir "$tmp/deb"
	log "$name: downloading $image $headers $common $kbuild ($version)"
	apt_state download "$tmp/deb" "$image=$version" "$headers=$version" \
		"$common=$version" "$kbuild=$version"
	for deb in "$tmp"/deb/*.deb; do
		entry_run - "unpacking $(basename "$deb") into $dir" \
			dpkg-deb -x "$deb" "$tmp/root"
	done
	rm -rf "$tmp/deb"
	# The arch tree's Makefile includes the -common tree by its absolute
	# path under /usr/src, and lib/modules/RELEASE/build and source point
	# there: make them point into the cache (the entry's final place).
	entry_run - "pointing $headers at its -common tree" \
		sed -i "s|^include /usr/src/|include $root/usr/src/|" \
		"$tmp/root/usr/src/$headers/Makefile"
	for link in build source; do
		target=$(readlink "$tmp/root/lib/modules/$abi/$link") || continue
		case $target in
		/usr/src/*) ln -sfn "../../..$target" "$tmp/root/lib/modules/$abi/$link" ;;
		esac
	done
	named=$(compiler_named "$tmp/root/usr/src/$headers")
	if [ -n "$named" ] && ! command -v "$named" >/dev/null 2>&1; then
		own=gcc-$(gcc -dumpversion | cut -d . -f 1)
		command -v "$own" >/dev/null 2>&1 ||
			die "$headers names $named, which this machine lacks, and $own is not on PATH either"
		log "$name: $headers names $named, which this machine lacks: its modules are built with $own"
		entry_run - "setting $headers to build with $own" \
			sed -i "s/^\(CC = .*)\)$named\$/\1$own/" \
			"$tmp/root/usr/src/$headers/.kernelvariables"
		echo "$own $named" >"$tmp/compiler"
	fi
	# The package leaves modules.dep to the installer; suites that load
	# the kernel's own modules (kmod directive) need it.
	entry_run - "depmod of $abi in $dir" depmod -b "$tmp/root" "$abi"
	echo "layout $layout" >"$tmp/.done"
	entry_ok "$tmp" ||
		die "$name: the unpacked $abi lacks files a module build needs"
	entry_publish "$dir"
fi

# This row's entries for other ABIs or uploads are superseded: go.
for old in "$MNCOMPAT_CACHE/kernels/$name"-*; do
	{ [ -d "$old" ] && [ "$old" != "$dir" ]; } || continue
	log "$name: removing superseded $old"
	rm -rf "$old"
done

# The kernel's own source, the linux-source of the same upload (the same
# version, from the same release): its behaviours are read there
# (ci/kernels/behaviours.py, when ci/matrix_plan.py finish-env completes
# the env file). When there is none, the behaviours are unknown.
ksrc=$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" "$series/$release" "$version" \
	2>/dev/null) || {
	log "$name: no linux-source-$series $version in $release: its behaviours are unknown"
	ksrc=""
}
cc_note=""
if [ -r "$dir/compiler" ]; then
	read -r own named <"$dir/compiler"
	cc_note="built with $own: the packaged headers name $named, which this machine lacks"
fi
write_kernel_env "$name" deb "$image $version" "$abi" "$kdir" "$ksrc" \
	"$root/lib/modules/$abi" "$vmlinuz" "$cc_note"
