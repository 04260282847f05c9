#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/prepare-kernel.sh NAME
# Make kernel NAME of the matrix ready (download or build, cached) and print
# its env file.
set -eu
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2046
set -- $(kernel_line "$1")
case $2 in
deb) exec "$MNCOMPAT_TOP/ci/get-deb-kernel.sh" "$1" ;;
src) exec "$MNCOMPAT_TOP/ci/build-src-kernel.sh" "$1" ;;
*) die "$1: unknown kernel kind '$2' in $KERNELS_LIST" ;;
esac
