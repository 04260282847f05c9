#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/prepare-kernel.sh [NAME...]
# Make each kernel NAME of the matrix ready (download or build, cached) and
# print its env file, one a line. No NAME: the kernels of $KERNELS (default:
# all of ci/kernels.list). The env file is the kernel's handle: every later
# step (ci/stage-suite.sh, ci/build-module.sh, ci/boot.sh) takes it. This is
# the one place that reads a kernel's ci/kernels.list row.
set -eu
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2046
[ $# -gt 0 ] || set -- $(selected_kernels)
for name in "$@"; do
	line=$(kernel_line "$name") || exit 1
	# shellcheck disable=SC2086
	set -- $line
	# The row's own fields, checked here and added to the env file below
	# (with the kernel's generation):
	# the boot arguments (6th column), the kernel-patches series of a
	# source row (5th), the features a user row lacks (7th, lacks=...).
	append=$(echo "${6:--}" | sed 's/^-$//' | tr ',' ' ')
	patches=-
	[ "$2" != src ] || patches=${5:--}
	lacks=""
	if [ "$2" = user ] && [ -n "${7:-}" ]; then
		case $7 in
		-) ;;
		lacks=*) lacks=$(echo "${7#lacks=}" | sed 's/^-$//' | tr ',' ' ') ;;
		*) die "$name: want lacks=FEATURE,... (or -) as the 7th field, not '$7'" ;;
		esac
		for feature in $lacks; do
			awk -v f="$feature" '$1 == f { found = 1 } END { exit !found }' \
				"$MNCOMPAT_TOP/ci/lacks.list" ||
				die "$name: lacks=$feature: not a feature of ci/lacks.list ($(awk '$1 !~ /^#/ && NF { print $1 }' "$MNCOMPAT_TOP/ci/lacks.list" | sort -u | tr '\n' ' '))"
		done
	fi
	case $2 in
	deb) env_file=$("$MNCOMPAT_TOP/ci/get-deb-kernel.sh" "$name" "$3") ;;
	src) env_file=$("$MNCOMPAT_TOP/ci/build-src-kernel.sh" "$name" "$3" "$4" "$5") ;;
	user)
		[ $# -ge 5 ] ||
			die "$name: a user row needs BUILD_TREE IMAGE MODULES_DIR (or -), see $KERNELS_LIST"
		env_file=$("$MNCOMPAT_TOP/ci/register-user-kernel.sh" "$name" "$3" "$4" "$5")
		;;
	*) die "$name: unknown kernel kind '$2' in $KERNELS_LIST" ;;
	esac
	# The generation the kernel stands for (the reports order kernels by
	# it): a re-created kernel's is its series', any other's its release's.
	if [ "$patches" != - ]; then
		generation=$(sed -n 's/^# generation: \([0-9.]*\).*/\1/p' \
			"$MNCOMPAT_TOP/kernel-patches/$patches/series")
		[ -n "$generation" ] ||
			die "kernel-patches/$patches/series has no '# generation: X.Y' line"
	else
		# shellcheck disable=SC1090 # the kind's script wrote it
		generation=$(. "$env_file" && echo "$KERNEL_RELEASE" |
			sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
	fi
	{
		cat "$env_file"
		echo "KERNEL_APPEND='$append'"
		echo "KERNEL_PATCHES=$patches"
		echo "KERNEL_LACKS='$lacks'"
		echo "KERNEL_GENERATION=$generation"
	} >"$env_file.tmp.$$"
	mv "$env_file.tmp.$$" "$env_file"
	echo "$env_file"
done
