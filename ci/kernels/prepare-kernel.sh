#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/prepare-kernel.sh [NAME...]
# Make each kernel NAME of the matrix ready (download or build, cached) and
# print its env file, one a line. No NAME: the kernels of $KERNELS (default:
# all of ci/kernels/kernels.list). The env file is the kernel's handle:
# every later step (ci/run/stage-suite.sh, ci/run/build-module.sh,
# ci/run/boot.sh) takes it. The row itself is read by ci/matrix_plan.py.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/kernels/cache-entry.sh"

# Each row is prepared under its lock ($MNCOMPAT_CACHE/kernels/NAME.lock,
# ci/kernels/cache-entry.sh): a second run preparing it waits, then finds
# its cache entry ready; its env file is written whole by one run at a time.
if [ $# -eq 0 ]; then
	kernels=$(selected_kernels) || exit 1
	# shellcheck disable=SC2086 # kernel names, checked: no blanks, no globs
	set -- $kernels
fi
matrix_plan() {
	"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_plan.py" "$@"
}
for name in "$@"; do
	# The row's fields, checked (ci/matrix_plan.py row): kind, the kind's
	# three fields (series or build tree, ...), how many fields it has,
	# a line each.
	row=$(matrix_plan row "$KERNELS_LIST" "$name") || exit 1
	kind="" field3="" field4="" field5="" nfields=0
	read_lines "$row" kind field3 field4 field5 nfields
	cache_lock "$MNCOMPAT_CACHE/kernels/$name.lock" "$name"
	case $kind in
	deb) env_file=$("$MNCOMPAT_TOP/ci/kernels/get-deb-kernel.sh" "$name" "$field3") ;;
	src) env_file=$("$MNCOMPAT_TOP/ci/kernels/build-src-kernel.sh" "$name" "$field3" \
		"$field4" "$field5") ;;
	user)
		[ "$nfields" -ge 5 ] ||
			die "$name: a user row needs BUILD_TREE IMAGE MODULES_DIR (or -), see $KERNELS_LIST"
		env_file=$("$MNCOMPAT_TOP/ci/kernels/register-user-kernel.sh" "$name" \
			"$field3" "$field4" "$field5")
		;;
	*) die "$name: unknown kernel kind '$kind' in $KERNELS_LIST" ;;
	esac
	# The row's boot arguments, patch series and lacked features, and the
	# generation the kernel stands for (the reports order kernels by it),
	# added to the env file the kind's script wrote.
	matrix_plan finish-env "$KERNELS_LIST" "$name" "$env_file" || exit 1
	exec 9>&-
	echo "$env_file"
done
