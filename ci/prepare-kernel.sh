#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/prepare-kernel.sh [NAME...]
# Make each kernel NAME of the matrix ready (download or build, cached) and
# print its env file, one a line. No NAME: the kernels of $KERNELS (default:
# all of ci/kernels.list). The env file is the kernel's handle: every later
# step (ci/run-suite.sh, ci/build-module.sh, ci/boot.sh) takes it. This is
# the one place that reads a kernel's ci/kernels.list row.
set -eu
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2046
[ $# -gt 0 ] || set -- $(selected_kernels)
for name in "$@"; do
	line=$(kernel_line "$name") || exit 1
	# shellcheck disable=SC2086
	set -- $line
	# Boot arguments of the row (6th column) go to the env file.
	KERNEL_APPEND=$(echo "${6:--}" | sed 's/^-$//' | tr ',' ' ')
	# The kernel-patches series of a source row (5th column) too.
	KERNEL_PATCHES=-
	[ "$2" != src ] || KERNEL_PATCHES=${5:--}
	export KERNEL_APPEND KERNEL_PATCHES
	case $2 in
	deb) "$MNCOMPAT_TOP/ci/get-deb-kernel.sh" "$name" "$3" ;;
	src) "$MNCOMPAT_TOP/ci/build-src-kernel.sh" "$name" "$3" "$4" "$5" ;;
	user)
		[ $# -ge 5 ] ||
			die "$name: a user row needs BUILD_TREE IMAGE MODULES_DIR (or -), see $KERNELS_LIST"
		"$MNCOMPAT_TOP/ci/register-user-kernel.sh" "$name" "$3" "$4" "$5" \
			"$(echo "${7:--}" | sed 's/^lacks=//')"
		;;
	*) die "$name: unknown kernel kind '$2' in $KERNELS_LIST" ;;
	esac
done
