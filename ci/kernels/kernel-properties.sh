#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/kernel-properties.sh ENV_FILE CONFIG_DIR
# The properties of the kernel of ENV_FILE that a suite's "needs" lines
# test (ci/matrix_model.py), one a line:
#   kind=deb, kind=src, kind=user   its ci/kernels/kernels.list row's kind
#   recreated, recreated=SERIES     built with the kernel-patches/SERIES
#                                   series (a re-created kernel)
#   release=RELEASE                 its release, from its build tree
#   PROBE                           each compat probe that compiled
#                                   (compat/probes/PROBE.c, e.g.
#                                   invalidate_page, mmu_interval_notifier;
#                                   ci/kernels/compat-probes.sh into CONFIG_DIR)
#   CONFIG_NAME                     each option set to y or m in its build
#                                   tree (include/config/auto.conf)
#   kmemleak                        kmemleak built in and on at boot (not
#                                   turned off by the row's boot arguments)
# When the probes fail, the other properties are still printed (the
# suites that build a module then fail with the probes' error).
set -eu
. "$(dirname "$0")/../lib.sh"

[ $# -eq 2 ] || die "usage: kernel-properties.sh ENV_FILE CONFIG_DIR"
env_file=$1 config=$2
# shellcheck disable=SC1090
. "$env_file"
"$MNCOMPAT_TOP/ci/kernels/compat-probes.sh" "$env_file" "$config" >/dev/null 2>&1 ||
	log "$KERNEL_NAME: compat probes failed ($config.log): no probe properties"

"$MNCOMPAT_PYTHON" "$MNCOMPAT_TOP/ci/matrix_model.py" properties "$env_file" \
	"$config"
