#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-kbuild-diagnostics.sh [ENV_FILE...]
# A module's own warning fails its build on every kernel, whatever its
# kbuild (compat/kbuild-diagnostics.sh, ci/run/build-module.sh):
#   the logs   canned logs of both kbuild layouts, against a made-up
#              kernel tree and module directory: up to 6.12 kbuild runs
#              the compiler in the kernel tree (the module's files named
#              by absolute paths, the kernel's relative), from 6.13 on in
#              the module's directory (the module's files relative, the
#              kernel's headers absolute); each diagnostic must be told
#              the module's or the kernel's, and --retry-flags must refuse
#              a log with an error of the module's
#   planted    for each kernel given (one per kind and X.Y release: the
#              re-created rows share src-6.1's kbuild), a copy of the
#              self-test module with an unused variable of its own must
#              fail to build with ci/run/build-module.sh, naming that
#              warning, and leave no .ko; a kbuild of 6.13+ among them is
#              named (a run without one says so in a SKIP line)
# Output: "ok N - ...", then "kbuild-diagnostics: N passed, M failed".
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

base=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/kbuild-diagnostics-tests
rm -rf "$base"
mkdir -p "$base"
base=$(cd "$base" && pwd -P)
diag=$MNCOMPAT_TOP/compat/kbuild-diagnostics.sh

# The made-up trees: a kernel tree (a Makefile, a header) and a module.
fake_kdir=$base/kdir fake_mdir=$base/mod
mkdir -p "$fake_kdir/include/linux" "$fake_mdir"
echo "# made up" >"$fake_kdir/Makefile"
echo "/* made up */" >"$fake_kdir/include/linux/module.h"
echo "/* made up */" >"$fake_mdir/planted.c"
echo "/* made up */" >"$fake_mdir/planted.h"

# whose LOG: kbuild-diagnostics.sh's WHOSE<TAB>SEVERITY<TAB>FLAG of LOG.
whose() {
	"$diag" "$fake_kdir" "$fake_mdir" "$1" | cut -f 1-3
}
# expect WHAT LOG WANT: the diagnostics of LOG are WANT (one a line).
expect() {
	printf '%s\n' "$3" >"$base/want"
	if whose "$2" >"$base/got" 2>&1 && cmp -s "$base/want" "$base/got"; then
		ok "$1"
	else
		diff "$base/want" "$base/got" >"$base/diff" 2>&1 || true
		not_ok "$1 (< want, > got)" "$base/diff"
	fi
}
kernel_warning="include/linux/module.h:132:13: warning: 'init_module' specifies less restrictive attribute than its target 'planted_init': 'cold' [-Wmissing-attributes]"
module_error="planted.c:11:13: error: unused variable 'planted_unused' [-Werror=unused-variable]"

# Up to 6.12: the compiler runs in KDIR.
printf '%s\n' "$fake_mdir/$module_error" "./$kernel_warning" "$fake_mdir/planted.h:2:1: warning: no previous prototype for 'f' [-Wmissing-prototypes]" \
	>"$base/old.log"
expect "kbuild up to 6.12: the module's files by absolute path are the module's, ./include/... is the kernel's" \
	"$base/old.log" "$(printf 'module\terror\t-Werror=unused-variable\nkernel\twarning\t-Wmissing-attributes\nmodule\twarning\t-Wmissing-prototypes')"
# From 6.13: the compiler runs in the module's directory.
printf '%s\n' "$module_error" "$fake_kdir/$kernel_warning" "planted.h:2:1: warning: no previous prototype for 'f' [-Wmissing-prototypes]" \
	"./planted.c:12:2: error: implicit declaration of function 'gone' [-Werror=implicit-function-declaration]" \
	>"$base/new.log"
expect "kbuild 6.13+: planted.c, ./planted.c and planted.h (relative, in the module's dir) are the module's, the absolute kernel header the kernel's" \
	"$base/new.log" "$(printf 'module\terror\t-Werror=unused-variable\nkernel\twarning\t-Wmissing-attributes\nmodule\twarning\t-Wmissing-prototypes\nmodule\terror\t-Werror=implicit-function-declaration')"
# A relative path that names no file of the module is the kernel's.
printf '%s\n' "$kernel_warning" >"$base/rel.log"
expect "a relative path naming no file of the module's dir is resolved against the kernel tree" \
	"$base/rel.log" "$(printf 'kernel\twarning\t-Wmissing-attributes')"
# --retry-flags: -Wno-error= for the kernel's errors only.
for layout in old new; do
	case $layout in
	old) printf '%s\n' "./${kernel_warning%%: warning:*}: error: ${kernel_warning#*: warning: }" ;;
	new) printf '%s\n' "$fake_kdir/${kernel_warning%%: warning:*}: error: ${kernel_warning#*: warning: }" ;;
	esac | sed 's/\[-Wmissing-attributes\]$/[-Werror=missing-attributes]/' >"$base/kernel-$layout.log"
	cat "$base/kernel-$layout.log" "$base/$layout.log" >"$base/both-$layout.log"
	rc=0
	flags=$("$diag" --retry-flags "$fake_kdir" "$fake_mdir" "$base/kernel-$layout.log") || rc=$?
	rc2=0
	"$diag" --retry-flags "$fake_kdir" "$fake_mdir" "$base/both-$layout.log" >/dev/null || rc2=$?
	if [ "$rc" -eq 0 ] && [ "$flags" = "-Wno-error=missing-attributes" ] && [ "$rc2" -eq 1 ]; then
		ok "--retry-flags ($layout layout): -Wno-error=missing-attributes for the kernel's error alone, exit 1 once the module has one"
	else
		echo "kernel's error alone: exit $rc, flags '$flags'; with the module's: exit $rc2 (want 0, -Wno-error=missing-attributes, 1)" >"$base/retry.out"
		not_ok "--retry-flags ($layout layout)" "$base/retry.out"
	fi
done

# A copy of the self-test module with a warning of its own.
mkdir -p "$base/planted"
cp -RL "$MNCOMPAT_TOP/ci/run/selftest/selftest_warn" "$base/planted/selftest_warn"
printf '\nstatic int planted_unused;\n' >>"$base/planted/selftest_warn/selftest_warn.c"
seen="" new_kbuild=""
for env_file; do
	kernel_fields "$env_file" KERNEL_NAME KERNEL_KIND KERNEL_RELEASE KDIR
	series=$(echo "$KERNEL_RELEASE" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
	case " $seen " in
	*" $KERNEL_KIND-$series "*) continue ;;
	esac
	seen="$seen $KERNEL_KIND-$series"
	out=$base/build-$KERNEL_NAME
	rc=0
	MNCOMPAT_CONFIG=$base/config-$KERNEL_NAME "$MNCOMPAT_TOP/ci/run/build-module.sh" \
		"$KERNEL_NAME" "$KDIR" "$base/planted/selftest_warn" "$out" \
		>"$out.log" 2>&1 || rc=$?
	# Where this kbuild runs the compiler: the module's dir from 6.13 on.
	if cat "$out"/build*.log 2>/dev/null | grep -q "^selftest_warn.c:[0-9:]* error: "; then
		layout="6.13+ kbuild"
		new_kbuild="$new_kbuild $KERNEL_NAME"
	else
		layout="kbuild up to 6.12"
	fi
	if [ "$rc" -ne 0 ] && [ ! -e "$out/selftest_warn.ko" ] &&
		grep -q "selftest_warn.c:[0-9:]* error: .planted_unused. defined but not used \[-Werror=unused-variable\]" "$out.log"; then
		ok "$KERNEL_NAME ($layout): the module's own warning fails its build, named"
	else
		not_ok "$KERNEL_NAME ($layout): build exit $rc, want a failure naming planted_unused" "$out.log"
	fi
done
if [ -n "$new_kbuild" ]; then
	ok "a 6.13+ kbuild was among them:$new_kbuild"
else
	ok "# SKIP no kernel of this run has a 6.13+ kbuild (src-7.3 is one)"
fi
tap_end kbuild-diagnostics
