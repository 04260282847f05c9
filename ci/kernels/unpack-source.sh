#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/unpack-source.sh SERIES[/RELEASE] [VERSION]
# The pristine linux-source-SERIES tree in the cache,
# $MNCOMPAT_CACHE/src/linux-source-SERIES-VERSION, and print its path:
# the newest version in RELEASE (default: the machine's own release when it
# has the series, else the release that has it: 5.10 bullseye, 7.3
# trixie-backports), or VERSION. The package is downloaded through the kit's apt state
# (ci/kernels/apt-state.sh) and its tarball unpacked from it: nothing is
# installed on the host. A read-only reference for checkpatch,
# coccicheck, kselftest_harness.h and the conversion checks, and the tree
# ci/kernels/build-src-kernel.sh copies. Prepared under a lock, aside,
# checked and renamed into place (ci/kernels/cache-entry.sh); an entry
# that fails its check is prepared again. The trees of older versions of
# the package go once the newest is there.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/kernels/cache-entry.sh"

{ [ $# -ge 1 ] && [ $# -le 2 ]; } || die "usage: unpack-source.sh SERIES[/RELEASE] [VERSION]"
series=${1%%/*}
pkg=linux-source-$series
release=$("$MNCOMPAT_TOP/ci/kernels/apt-state.sh" release "$1" "$pkg")
version=${2:-}
if [ -z "$version" ]; then
	version=$("$MNCOMPAT_TOP/ci/kernels/apt-state.sh" newest "$pkg" "$release") ||
		die "no package $pkg in Debian $release (the kit's apt state, $MNCOMPAT_CACHE/apt)"
fi
dir=$MNCOMPAT_CACHE/src/$pkg-$version

# source_ok DIR: DIR holds the tree of this series (its Makefile says so)
# with the files the kit reads from it.
source_ok() {
	[ -e "$1/.done" ] &&
		[ "$(awk '$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 }
			END { print v "." p }' "$1/Makefile" 2>/dev/null)" = "$series" ] &&
		[ -r "$1/scripts/checkpatch.pl" ] &&
		[ -r "$1/include/linux/mmu_notifier.h" ] &&
		[ -r "$1/tools/testing/selftests/kselftest_harness.h" ]
}

if ! source_ok "$dir"; then
	cache_lock "$MNCOMPAT_CACHE/src/$pkg.lock" "$pkg"
	if ! source_ok "$dir"; then
		[ ! -e "$dir" ] || log "$dir fails its check: preparing it again"
		entry_aside "$dir"
		# shellcheck disable=SC2154 # set by entry_aside (cache-entry.sh)
		tmp=$entry_tmp
		log "downloading $pkg $version ($release) and unpacking it into $dir"
		mkdir "$tmp/.deb" "$tmp/.pkg"
		"$MNCOMPAT_TOP/ci/kernels/apt-state.sh" download "$tmp/.deb" \
			"$pkg=$version"
		entry_run - "unpacking $pkg $version into $dir" \
			dpkg-deb -x "$tmp"/.deb/*.deb "$tmp/.pkg"
		entry_run - "unpacking $pkg.tar.xz into $dir" \
			tar -xf "$tmp/.pkg/usr/src/$pkg.tar.xz" -C "$tmp" --strip-components=1
		rm -rf "$tmp/.deb" "$tmp/.pkg"
		echo "$pkg $version" >"$tmp/.done"
		source_ok "$tmp" ||
			die "$pkg $version: the unpacked tree lacks what the kit reads from it"
		entry_publish "$dir"
	fi
	# Older versions of this package are superseded.
	for old in "$MNCOMPAT_CACHE/src/$pkg"-*; do
		{ [ -d "$old" ] && [ "$old" != "$dir" ]; } || continue
		case ${old#"$MNCOMPAT_CACHE/src/$pkg"-} in
		[0-9]*) ;;
		*) continue ;;
		esac
		log "$pkg: removing superseded $old"
		rm -rf "$old"
	done
fi
echo "$dir"
