#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/checks/host-state.sh
# Print what a run of the kit must leave as it found it on the host: the
# installed linux-image-*/linux-headers-*/linux-kbuild-*/linux-source-*
# packages (name, version, status; the kit downloads them into its cache,
# never installs one) and every file under /boot and /lib/modules (path, size,
# modification time). ci/test.sh records it first and
# ci/tests/check-host-untouched.sh compares at the end.
set -eu

echo "# packages"
dpkg-query -W -f='${Package} ${Version} ${Status}\n' \
	'linux-image-*' 'linux-headers-*' 'linux-kbuild-*' 'linux-source-*' 2>/dev/null |
	grep -v ' not-installed$' | sort || true
for d in /boot /lib/modules; do
	echo "# $d"
	[ -e "$d" ] || continue
	find "$d" -printf '%p %y %s %T@\n' 2>/dev/null | sort
done
