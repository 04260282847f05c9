#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/compat-probes.sh KDIR CONFIG_DIR
# Probe the kernel built in KDIR for compat/ once: compat/configure.sh
# writes CONFIG_DIR/mncompat_config.h unless it is there already. The
# suites of a kernel share CONFIG_DIR and may ask at the same time (a
# lock). On failure, configure.sh's messages and one error line, exit 1.
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: compat-probes.sh KDIR CONFIG_DIR"
kdir=$1 config=$2
mkdir -p "$(dirname "$config")"
(
	flock 9
	if [ ! -r "$config/mncompat_config.h" ]; then
		phase probes "$MNCOMPAT_TOP/compat/configure.sh" "$kdir" "$config" \
			>"$config.log" 2>&1 || {
			cat "$config.log" >&2
			die "compat probes failed for $kdir"
		}
	fi
) 9>"$config.lock"
