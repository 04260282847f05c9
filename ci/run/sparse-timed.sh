#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: (kbuild's CHECK) ci/run/sparse-timed.sh SPARSE_ARGS...
# sparse, with its seconds added to $MNCOMPAT_PHASES as phase "sparse"
# (ci/run/build-module.sh passes it as CHECK when the matrix times phases).
exec /usr/bin/time -q -f "sparse	%e	%U	%S" -a -o "$MNCOMPAT_PHASES" sparse "$@"
