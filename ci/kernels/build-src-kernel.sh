#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/build-src-kernel.sh NAME SERIES FRAGMENTS PATCHES
#        (ci/kernels/prepare-kernel.sh runs it with the fields of the row)
# Unpack linux-source-SERIES, apply the row's kernel-patches series, build it
# with tinyconfig + the row's fragments, and write the kernel's env file.
# A build is cached under a key of (package version, fragments, patches);
# the row's builds under other keys are removed once this one is there.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] || die "usage: build-src-kernel.sh NAME SERIES FRAGMENTS PATCHES"
name=$1 series=$2 fragments=$3 patches=$4

pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
version=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
	die "$pkg is not installed: run ci/install-deps.sh"
[ -r "$tarball" ] || die "$tarball missing: reinstall $pkg"

inputs() {
	echo "$pkg $version"
	echo "$fragments" | tr ',' '\n' | while read -r f; do
		cat "$MNCOMPAT_TOP/ci/kernels/config/$f.config" ||
			die "no fragment ci/kernels/config/$f.config"
	done
	if [ "$patches" != - ]; then
		series_file=$MNCOMPAT_TOP/kernel-patches/$patches/series
		[ -r "$series_file" ] || die "no patch series $series_file"
		grep -v '^#' "$series_file" | while read -r p; do
			[ -n "$p" ] && cat "$MNCOMPAT_TOP/kernel-patches/$patches/$p"
		done
	fi
}
key=$(inputs | sha256sum | cut -c1-12)
dir=$MNCOMPAT_CACHE/kernels/$name-$key

# Kernels of one series share most objects (the re-created kernels differ
# from src-6.1 in a few files): ccache keyed relative to $dir, whose src/
# and build/ have the same layout in every kernel, serves them all.
export CCACHE_DIR="$MNCOMPAT_CACHE/ccache" CCACHE_BASEDIR="$dir" \
	CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=8G

if [ -e "$dir/.done" ]; then
	log "$name: cached build $dir"
else
	log "$name: building $pkg $version (key $key) in $dir"
	rm -rf "$dir"
	mkdir -p "$dir/src" "$dir/build"
	log "$name: unpacking $tarball"
	tar -xf "$tarball" -C "$dir/src" --strip-components=1
	if [ "$patches" != - ]; then
		log "$name: applying kernel-patches/$patches"
		grep -v '^#' "$MNCOMPAT_TOP/kernel-patches/$patches/series" |
			while read -r p; do
				[ -n "$p" ] || continue
				patch -d "$dir/src" -p1 -s --no-backup-if-mismatch \
					<"$MNCOMPAT_TOP/kernel-patches/$patches/$p" ||
					die "patch $p does not apply"
			done
	fi
	make -s -C "$dir/src" O="$dir/build" ARCH=x86_64 CC="ccache gcc" tinyconfig >/dev/null
	frag_files=$(echo "$fragments" | tr ',' '\n' |
		sed "s|.*|$MNCOMPAT_TOP/ci/kernels/config/&.config|")
	# shellcheck disable=SC2086
	(cd "$dir/src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -m \
		-O "$dir/build" "$dir/build/.config" $frag_files) >"$dir/config.log"
	make -s -C "$dir/src" O="$dir/build" ARCH=x86_64 CC="ccache gcc" olddefconfig >/dev/null
	# A requested option that Kconfig dropped means a dependency is
	# missing from the fragments: fail rather than test the wrong kernel.
	# shellcheck disable=SC2086
	missing=$(grep -h '^CONFIG_.*=y$' $frag_files | while read -r opt; do
		grep -qx "$opt" "$dir/build/.config" || echo "$opt"
	done)
	[ -z "$missing" ] || die "$name: config lost: $missing"
	start=$(date +%s)
	run_with_progress "$dir/build.log" "$name: make" \
		make -C "$dir/src" O="$dir/build" ARCH=x86_64 -j"$MNCOMPAT_JOBS" \
		CC="ccache gcc" bzImage modules
	log "$name: built in $(($(date +%s) - start))s ($(ccache -s | grep -iE 'hits:' | head -n 1 | tr -s ' '))"
	touch "$dir/.done"
fi

# Builds of this row with other inputs (~1.7 GB each) are superseded: go.
for old in "$MNCOMPAT_CACHE/kernels/$name"-*; do
	if [ ! -d "$old" ] || [ "$old" = "$dir" ]; then
		continue
	fi
	old_key=${old##*/"$name"-}
	case $old_key in
	*[!0-9a-f]* | '') continue ;;
	esac
	[ ${#old_key} -eq 12 ] || continue
	log "$name: removing superseded build $old"
	rm -rf "$old"
done

write_kernel_env "$name" src "$pkg $version" \
	"$(cat "$dir/build/include/config/kernel.release")" "$dir/build" \
	"$dir/src" "" "$dir/build/arch/x86/boot/bzImage"
