#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/run/build-guest-test.sh SOURCE.c OUT
# Build one in-guest test as a static binary. It may include
# kselftest_harness.h, headers from its own directory and its parent, and
# the samples' shared test headers (drivers-sample/include: guest_mm.h).
set -eu
. "$(dirname "$0")/../lib.sh"

src=$1 out=$2
selftests=$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" 6.12)/tools/testing/selftests
dir=$(dirname "$src")
mkdir -p "$(dirname "$out")"
gcc -static -O2 -g -Wall -Werror -D_GNU_SOURCE -pthread \
	-I"$selftests" -I"$dir" -I"$dir/.." \
	-I"$MNCOMPAT_TOP/drivers-sample/include" -o "$out.tmp" "$src" ||
	die "building guest test $src failed"
mv "$out.tmp" "$out"
