#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/build-src-kernel.sh NAME SERIES[/RELEASE] FRAGMENTS PATCHES
#        (ci/kernels/prepare-kernel.sh runs it with the fields of the row,
#        holding the row's lock)
# Build the newest linux-source-SERIES of RELEASE (default: the machine's
# own release; the pristine tree from ci/kernels/unpack-source.sh), with
# the row's kernel-patches series applied, from tinyconfig + the row's
# fragments, and write the kernel's env file. A build is cached under a
# key of (package version, fragments, patches), prepared aside, checked and
# renamed into place (ci/kernels/cache-entry.sh); the row's builds under
# other keys are removed once this one is there.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/kernels/cache-entry.sh"

[ $# -eq 4 ] || die "usage: build-src-kernel.sh NAME SERIES[/RELEASE] FRAGMENTS PATCHES"
name=$1 spec=$2 fragments=$3 patches=$4
series=${spec%%/*}
release=$("$MNCOMPAT_TOP/ci/kernels/apt-state.sh" release "$spec")
pkg=linux-source-$series
version=$("$MNCOMPAT_TOP/ci/kernels/apt-state.sh" newest "$pkg" "$release") ||
	die "no package $pkg in Debian $release (the kit's apt state, $MNCOMPAT_CACHE/apt)"

# The inputs, each checked here (a die inside the $(... | sha256sum)
# below would end only its subshell, and hash what was read so far).
frag_files=""
for f in $(echo "$fragments" | tr ',' ' '); do
	[ "$f" != - ] || continue
	[ -r "$MNCOMPAT_TOP/ci/kernels/config/$f.config" ] ||
		die "$name: no fragment ci/kernels/config/$f.config"
	frag_files="$frag_files $MNCOMPAT_TOP/ci/kernels/config/$f.config"
done
# The series' patch files, in order, a path a line, checked by the one
# reader of a series file (ci/matrix_plan.py patches, PatchSeries).
patch_files=""
if [ "$patches" != - ]; then
	patch_files=$("$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" patches "$patches") ||
		die "$name: kernel-patches/$patches/series is not a series ci/matrix_plan.py takes"
fi
# shellcheck disable=SC2086 # lists of the kit's own paths
key=$({ echo "$pkg $version" && cat $frag_files $patch_files; } | sha256sum | cut -c1-12)
dir=$MNCOMPAT_CACHE/kernels/$name-$key

# entry_ok DIR: DIR is a whole build whose trees point at the final place
# ($dir): the image, what a module build reads (Module.symvers, the
# config, modpost), the build tree's Makefile naming $dir/src and no other
# folder of the cache's kernels, its source link naming $dir/src.
entry_ok() {
	[ "$(grep -o "$MNCOMPAT_CACHE/kernels/[^/]*" "$1/build/Makefile" 2>/dev/null |
		sort -u)" = "$dir" ] &&
		[ -e "$1/.done" ] &&
		[ -r "$1/build/arch/x86/boot/bzImage" ] &&
		[ -r "$1/build/Module.symvers" ] &&
		[ -r "$1/build/include/config/kernel.release" ] &&
		[ -r "$1/build/include/config/auto.conf" ] &&
		[ -x "$1/build/scripts/mod/modpost" ] &&
		grep -qx "include $dir/src/Makefile" "$1/build/Makefile" &&
		[ "$(readlink "$1/build/source")" = "$dir/src" ] &&
		[ -r "$1/src/Makefile" ]
}

# Kernels of one series share most objects (the re-created kernels differ
# from src-6.1 in a few files): ccache keyed relative to the folder the
# build runs in, whose src/ and build/ have the same layout in every
# kernel, serves them all.
export CCACHE_DIR="$MNCOMPAT_CACHE/ccache" CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=8G

if entry_ok "$dir"; then
	log "$name: cached build $dir"
else
	[ ! -e "$dir" ] || log "$name: $dir fails its check: building it again"
	tree=$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" "$series/$release" "$version")
	entry_aside "$dir"
	# shellcheck disable=SC2154 # set by entry_aside (cache-entry.sh)
	tmp=$entry_tmp
	export CCACHE_BASEDIR="$tmp"
	log "$name: building $pkg $version ($release, key $key) in $tmp, for $dir"
	mkdir "$tmp/build"
	entry_run - "$name: copying $tree" cp -a "$tree" "$tmp/src"
	rm -f "$tmp/src/.done"
	for p in $patch_files; do
		log "$name: applying kernel-patches/$patches/${p##*/}"
		entry_run - "$name: applying kernel-patches/$patches/${p##*/}" \
			patch -d "$tmp/src" -p1 -s --no-backup-if-mismatch -i "$p"
	done
	entry_run - "$name: make tinyconfig" \
		make -s -C "$tmp/src" O="$tmp/build" ARCH=x86_64 CC="ccache gcc" tinyconfig
	# shellcheck disable=SC2086,SC2016 # the fragments; $1 is sh -c's
	entry_run "$tmp/config.log" "$name: merging $fragments" \
		sh -c 'cd "$1" && shift && ARCH=x86_64 scripts/kconfig/merge_config.sh "$@"' \
		sh "$tmp/src" -m -O "$tmp/build" "$tmp/build/.config" $frag_files
	entry_run - "$name: make olddefconfig" \
		make -s -C "$tmp/src" O="$tmp/build" ARCH=x86_64 CC="ccache gcc" olddefconfig
	# A requested option that Kconfig dropped means a dependency is
	# missing from the fragments: fail rather than test the wrong kernel.
	# shellcheck disable=SC2086
	missing=$(grep -h '^CONFIG_.*=y$' /dev/null $frag_files | while read -r opt; do
		grep -qx "$opt" "$tmp/build/.config" || echo "$opt"
	done)
	[ -z "$missing" ] || die "$name: config lost: $(echo "$missing" | tr '\n' ' ')"
	start=$(date +%s)
	entry_run "$tmp/build.log" "$name: make" \
		make -C "$tmp/src" O="$tmp/build" ARCH=x86_64 -j"$MNCOMPAT_JOBS" \
		CC="ccache gcc" bzImage modules
	log "$name: built in $(($(date +%s) - start))s ($(ccache -s | grep -iE 'hits:' | head -n 1 | tr -s ' '))"
	# kbuild names the trees by their absolute paths in the build tree's
	# Makefile (the source tree; 6.13+ the build tree too, KBUILD_OUTPUT)
	# and source link: name the final place.
	entry_run - "$name: pointing its build tree at $dir" \
		sed -i "s|$tmp/|$dir/|g" "$tmp/build/Makefile"
	ln -sfn "$dir/src" "$tmp/build/source"
	echo "$pkg $version" >"$tmp/.done"
	entry_ok "$tmp" || die "$name: the build lacks files a module build needs"
	entry_publish "$dir"
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
	"$dir/src" "" "$dir/build/arch/x86/boot/bzImage" ""
