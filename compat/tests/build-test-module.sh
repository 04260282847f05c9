#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: compat/tests/build-test-module.sh KDIR CONFIG_DIR BUILD_DIR [CFLAGS]
#
# Build compat/tests/module (the test module) with W=1 and -Werror against
# KDIR, using CONFIG_DIR/mncompat_config.h and the extra CFLAGS.  The
# build log is BUILD_DIR/build.log; the exit status is make's. The
# kernel's own header warnings do not fail it (see compat/configure.sh).
# MNCOMPAT_MAKE_ARGS adds make arguments (e.g. C=2 for sparse),
# MNCOMPAT_TEST_MODULE names another module directory to build (e.g. a
# sample: its Kbuild reads MNCOMPAT_CONFIG, set here too).
set -eu

[ $# -ge 3 ] || {
	echo "usage: build-test-module.sh KDIR CONFIG_DIR BUILD_DIR [CFLAGS]" >&2
	exit 2
}
kdir=$1
config_dir=$(cd "$2" && pwd)
build=$3
cflags=${4:-}
compat=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$build"
mkdir -p "$build"
build=$(cd "$build" && pwd)
# MNCOMPAT_TEST_MODULE: another test module directory (tests/interval).
module=${MNCOMPAT_TEST_MODULE:-$compat/tests/module}
cp "$module"/Kbuild "$module"/*.c "$build"/
for h in "$module"/*.h; do
	[ -e "$h" ] && cp "$h" "$build"/
done
# build EXTRA_KCFLAGS: make's exit status.
build() {
	# shellcheck disable=SC2086 # MNCOMPAT_MAKE_ARGS is a word list
	${MAKE:-make} -C "$kdir" M="$build" W=1 ${MNCOMPAT_MAKE_ARGS:-} -j"${MNCOMPAT_JOBS:-$(nproc)}" \
		KCFLAGS="${KCFLAGS:+$KCFLAGS }$1" \
		MNCOMPAT_INCLUDE="$compat/include" \
		MNCOMPAT_CONFIG="$config_dir" \
		MNCOMPAT_TEST_CFLAGS="$cflags" >"$build/build.log" 2>&1
}
# Errors that are only the kernel's own header warnings under -Werror (a
# kernel before 5.0 with gcc 9+): build again with them left warnings
# (compat/kbuild-diagnostics.sh); the module's errors stay.
build "" && exit 0
no_error=$("$compat/kbuild-diagnostics.sh" --retry-flags "$kdir" "$build" \
	"$build/build.log") || exit 1
[ -n "$no_error" ] || exit 1
mv "$build/build.log" "$build/build-werror.log"
build "$no_error"
