#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/register-user-kernel.sh NAME BUILD_TREE IMAGE MODULES_DIR
#        (ci/kernels/prepare-kernel.sh runs it for a "user" row of ci/kernels/kernels.list)
# Check a kernel the user already has and write its env file: BUILD_TREE is
# a prepared build tree of an x86_64 kernel with its Module.symvers (a full
# build, or the distribution's linux-headers / kernel-devel tree), IMAGE its
# bootable bzImage, MODULES_DIR (or -) its lib/modules/RELEASE folder for
# the suites' kmod lines (the row's boot arguments and lacks= are
# ci/kernels/prepare-kernel.sh's). Nothing is copied or built. Any problem: one
# "error:" line naming the row and what to do, exit 1.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 4 ] ||
	die "usage: register-user-kernel.sh NAME BUILD_TREE IMAGE MODULES_DIR"
name=$1 tree=$2 image=$3 mods=$4

[ -d "$tree" ] || die "$name: build tree '$tree' is not a directory"
tree=$(cd "$tree" && pwd)
[ -r "$tree/Makefile" ] || die "$name: '$tree' is not a kernel build tree (no Makefile)"
[ -r "$tree/Module.symvers" ] ||
	die "$name: '$tree' has no Module.symvers: out-of-tree modules cannot link against it; give a fully built tree (make, or make modules) or the distribution's headers/devel tree of the kernel"
config=$tree/include/config/auto.conf
[ -r "$config" ] ||
	die "$name: '$tree' is not prepared (no include/config/auto.conf): run 'make modules_prepare' in it"
grep -q '^CONFIG_X86_64=y$' "$config" ||
	die "$name: '$tree' is a build tree for another architecture (no CONFIG_X86_64=y in include/config/auto.conf); the guests are x86_64"
grep -q '^CONFIG_MMU_NOTIFIER=y$' "$config" ||
	log "$name: warning: CONFIG_MMU_NOTIFIER is not set in '$tree': compat/configure.sh will refuse it"
release=$(cat "$tree/include/config/kernel.release" 2>/dev/null) ||
	die "$name: '$tree' has no include/config/kernel.release: run 'make modules_prepare' in it"

[ -f "$image" ] || die "$name: image '$image' does not exist"
image=$(cd "$(dirname "$image")" && pwd)/$(basename "$image")
# An x86 boot image has "HdrS" at 0x202 (Documentation/arch/x86/boot.rst).
[ "$(dd if="$image" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] ||
	die "$name: '$image' is not an x86 bzImage (no HdrS boot header): give the kernel's arch/x86/boot/bzImage or /boot/vmlinuz-*"

kmoddir=""
if [ "$mods" != - ]; then
	[ -r "$mods/modules.dep" ] ||
		die "$name: modules folder '$mods' has no modules.dep (run depmod for it), or give - for none"
	kmoddir=$(cd "$mods" && pwd)
fi
log "$name: user kernel $release, tree $tree, image $image"
write_kernel_env "$name" user "user kernel $release" "$release" "$tree" "" \
	"$kmoddir" "$image"
