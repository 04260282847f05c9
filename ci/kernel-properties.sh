#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernel-properties.sh ENV_FILE CONFIG_DIR
# The properties of the kernel of ENV_FILE that a suite's "needs" lines
# test (ci/suite-needs.sh), one a line:
#   kind=deb, kind=src, kind=user   its ci/kernels.list row's kind
#   recreated, recreated=SERIES     built with the kernel-patches/SERIES
#                                   series (a re-created kernel)
#   release=RELEASE                 its release, from its build tree
#   PROBE                           each compat probe that compiled
#                                   (compat/probes/PROBE.c, e.g.
#                                   invalidate_page, mmu_interval_notifier;
#                                   ci/compat-probes.sh into CONFIG_DIR)
#   CONFIG_NAME                     each option set to y or m in its build
#                                   tree (include/config/auto.conf)
#   kmemleak                        kmemleak built in and on at boot (not
#                                   turned off by the row's boot arguments)
# When the probes fail, the other properties are still printed (the
# suites that build a module then fail with the probes' error).
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: kernel-properties.sh ENV_FILE CONFIG_DIR"
env_file=$1 config=$2
# shellcheck disable=SC1090
. "$env_file"
"$MNCOMPAT_TOP/ci/compat-probes.sh" "$env_file" "$config" >/dev/null 2>&1 ||
	log "$KERNEL_NAME: compat probes failed ($config.log): no probe properties"

echo "kind=$KERNEL_KIND"
case ${KERNEL_PATCHES:--} in
-) ;;
*) printf 'recreated\nrecreated=%s\n' "$KERNEL_PATCHES" ;;
esac
echo "release=$KERNEL_RELEASE"
[ ! -r "$config/mncompat_config.h" ] ||
	sed -n 's/^#define MNCOMPAT_HAVE_\([A-Z0-9_]*\) 1$/\1/p' \
		"$config/mncompat_config.h" | tr '[:upper:]' '[:lower:]'
auto=$KDIR/include/config/auto.conf
sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=[ym]$/\1/p' "$auto"
# kmemleak: on at boot unless built default-off or the row turns it off.
if grep -q '^CONFIG_DEBUG_KMEMLEAK=y$' "$auto"; then
	on=yes
	! grep -q '^CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF=y$' "$auto" || on=""
	for arg in ${KERNEL_APPEND:-}; do
		case $arg in
		kmemleak=off) on="" ;;
		kmemleak=on) on=yes ;;
		esac
	done
	[ -z "$on" ] || echo kmemleak
fi
