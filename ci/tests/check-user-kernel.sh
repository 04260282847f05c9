#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-user-kernel.sh
# Tests of the "user" kernel rows (README "Your own kernel"), made from the
# packaged deb-6.12 kernel (its headers tree, image and modules), in a
# kernels list of their own, run in one matrix run of mirror.suite:
#   mine-6.12    the kernel registered as a user kernel: the same rows and
#                results as deb-6.12 in that run
#   mine-nonuma  booted with numa=off, lacks=numa: the migration tests
#                skip ("one NUMA node only"), which its note makes expected
#   mine-oldhdr  a hard-linked copy of the headers trees whose
#                <linux/module.h> warns as a kernel before 5.0 does with
#                gcc 9+ (init_module/cleanup_module without the attributes
#                of their targets, -Wmissing-attributes; a6e60d84989f):
#                mirror builds, passes as on deb-6.12, and the report
#                lists the kernel's warnings; a copy of mirror with a
#                warning of its own (mirror-planted.suite, on every user
#                row) fails to build there, naming its own warning
#   the judge    a skip that says the kernel predates an API ("no X
#                (5.4+)") is expected on a 4.12 kernel, not on a 6.12 one
#   bad rows     no image, an image that is no bzImage, a tree without
#                Module.symvers, a tree of another architecture, an
#                unknown lacks= feature, an image that never reaches init:
#                each one clear line and a failing row of its own, while
#                the good rows still run
# Output: "ok N - ...", then "user-kernel: N passed, M failed".
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

base=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/user-kernel-tests
rm -rf "$base"
mkdir -p "$base/trees"
base=$(cd "$base" && pwd)
env612=$(KERNELS=deb-6.12 "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh")
kernel_fields "$env612" KDIR VMLINUZ KMODDIR

# Broken trees: hard-linked copies of the headers tree, one file changed.
tree_without() {
	cp -al "$KDIR" "$base/trees/$1"
	rm -f "$base/trees/$1/$2"
}
tree_without no-symvers Module.symvers
tree_without arm64 include/config/auto.conf
sed 's/^CONFIG_X86_64=y$/CONFIG_ARM64=y/' "$KDIR/include/config/auto.conf" \
	>"$base/trees/arm64/include/config/auto.conf"
head -c 4096 /dev/urandom >"$base/trees/garbage.img"

# replace FILE: FILE becomes a file of its own with stdin's content (in a
# hard-linked tree, never write into a linked file: it is the cache's).
replace() {
	cat >"$1.new"
	rm -f "$1"
	mv "$1.new" "$1"
}
# An old kernel's header warning, planted in a copy of the headers trees:
# the tree the build tree's Makefile includes (Debian's -common tree)
# lives beside it, with the kbuild tree its symlinks point to: copy their
# common parent's parent (usr/), hard-linked.
srctree=$(sed -n 's|^include[[:space:]]*\(/.*\)/Makefile$|\1|p' "$KDIR/Makefile")
[ -n "$srctree" ] || srctree=$KDIR
usr=$(dirname "$(dirname "$KDIR")")
case $srctree in
"$usr"/*) ;;
*) echo "error: $srctree is not under $usr: cannot copy the headers trees" >&2 && exit 1 ;;
esac
cp -al "$usr" "$base/trees/oldhdr"
oldhdr=$base/trees/oldhdr/${KDIR#"$usr"/}
oldsrc=$base/trees/oldhdr/${srctree#"$usr"/}
[ "$srctree" = "$KDIR" ] ||
	sed "s|$srctree|$oldsrc|" "$KDIR/Makefile" | replace "$oldhdr/Makefile"
# As before 5.0: init_module/cleanup_module without __copy() of their
# targets' attributes, and __init/__exit always __cold (6.12 drops
# __cold where functions are aligned).
sed 's/ __copy(initfn)//; s/ __copy(exitfn)//' "$srctree/include/linux/module.h" |
	replace "$oldsrc/include/linux/module.h"
sed 's/^#if defined(CONFIG_CC_HAS_SANE_FUNCTION_ALIGNMENT) || (CONFIG_FUNCTION_ALIGNMENT == 0)$/#if 1/' \
	"$srctree/include/linux/compiler_types.h" |
	replace "$oldsrc/include/linux/compiler_types.h"
if ! grep -q '__copy(initfn)' "$srctree/include/linux/module.h" ||
	cmp -s "$srctree/include/linux/compiler_types.h" \
		"$oldsrc/include/linux/compiler_types.h"; then
	echo "error: the headers of $srctree changed: the old-kernel warning cannot be planted" >&2
fi
# A copy of mirror with a warning of its own, and its suite.
mkdir -p "$base/planted"
cp -RL "$MNCOMPAT_TOP/drivers-sample/mirror" "$base/planted/mirror"
printf '\nstatic int mirror_planted_unused;\n' >>"$base/planted/mirror/mirror_dev.c"
cat >"$base/planted/mirror-planted.suite" <<EOT
# mirror with a warning of its own: the build must fail on every user row.
needs kind=user
module $base/planted/mirror
timeout 120
EOT

list=$base/kernels.list
cat >"$list" <<EOF
deb-6.12       deb   6.12  -  -  -
mine-6.12      user  $KDIR  $VMLINUZ  $KMODDIR  -  -
mine-nonuma    user  $KDIR  $VMLINUZ  $KMODDIR  numa=off  lacks=numa
mine-oldhdr    user  $oldhdr  $VMLINUZ  $KMODDIR  -  -
no-image       user  $KDIR  $base/trees/no-such-image  -  -  -
not-bzimage    user  $KDIR  $base/trees/garbage.img  -  -  -
no-symvers     user  $base/trees/no-symvers  $VMLINUZ  -  -  -
arm64-tree     user  $base/trees/arm64  $VMLINUZ  -  -  -
bad-lacks      user  $KDIR  $VMLINUZ  -  -  lacks=wings
no-init        user  $KDIR  $VMLINUZ  $KMODDIR  rdinit=/no-such-init  -
EOF
kernels=$(awk '{ print $1 }' "$list" | tr '\n' ',')
start=$(date +%s)
rc=0
KERNELS_LIST=$list KERNELS=${kernels%,} MNCOMPAT_OUT=$base/out \
	"$MNCOMPAT_TOP/ci/run/matrix.sh" "$MNCOMPAT_TOP/drivers-sample/mirror/mirror.suite" \
	"$base/planted/mirror-planted.suite" >"$base/run.log" 2>&1 || rc=$?
results=$base/out/results

if [ "$rc" -eq 1 ]; then
	ok "the matrix run fails (bad rows), exit 1"
else
	not_ok "the matrix run exits $rc, want 1" "$base/run.log"
fi

# rows KERNEL: test and result of each row of KERNEL's mirror suite.
rows() {
	cut -f 3,4 "$results/$1/mirror/results.tsv" 2>/dev/null
}
if [ -n "$(rows deb-6.12)" ] && [ "$(rows deb-6.12)" = "$(rows mine-6.12)" ]; then
	ok "mine-6.12: the same $(rows mine-6.12 | wc -l) rows and results as deb-6.12"
else
	rows deb-6.12 >"$base/deb.rows"
	rows mine-6.12 | diff "$base/deb.rows" - >"$base/mine.diff" || true
	not_ok "mine-6.12: rows differ from deb-6.12" "$base/mine.diff"
fi
if [ -n "$(rows deb-6.12)" ] && [ "$(rows deb-6.12)" = "$(rows mine-oldhdr)" ] &&
	grep -q "^  mine-oldhdr/mirror: .* pass, 0 not pass; 2 warnings of the kernel's own headers" "$base/run.log"; then
	ok "mine-oldhdr: mirror builds despite the kernel's own header warnings, the same $(rows mine-oldhdr | wc -l) rows and results as deb-6.12"
else
	rows deb-6.12 >"$base/deb.rows"
	{
		grep "^  mine-oldhdr/mirror: " "$base/run.log"
		rows mine-oldhdr | diff "$base/deb.rows" - || true
	} >"$base/oldhdr.diff"
	not_ok "mine-oldhdr: mirror does not pass as on deb-6.12" "$base/oldhdr.diff"
fi
if grep -q "^  mine-oldhdr: 2 in 1 suite(s)" "$base/run.log" &&
	grep -q "^    .*/include/linux/module.h:[0-9:]* warning: .init_module. specifies less restrictive attribute than its target .mirror_init.*\[-Wmissing-attributes\]$" "$base/run.log" &&
	grep -q "init_module" "$results/mine-oldhdr/mirror/kernel-warnings.log"; then
	ok "mine-oldhdr: the report counts and lists the kernel's 2 warnings (module.h, -Wmissing-attributes)"
else
	not_ok "mine-oldhdr: the report does not show the kernel's warnings" "$base/run.log"
fi
planted_line() {
	grep "^  $1/mirror-planted: " "$base/run.log"
}
if planted_line mine-oldhdr | grep -q "build failed: .*/mirror_dev.c:[0-9:]* error: .mirror_planted_unused. defined but not used \[-Werror=unused-variable\]" &&
	planted_line mine-6.12 | grep -q "build failed: .*mirror_planted_unused" &&
	[ -z "$(planted_line deb-6.12)" ]; then
	ok "mirror-planted: the module's own warning fails its build, with or without the kernel's ($(planted_line mine-oldhdr | sed 's/.*error: //' | cut -c1-60))"
else
	{
		planted_line mine-oldhdr
		planted_line mine-6.12
		planted_line deb-6.12
	} >"$base/planted.lines"
	not_ok "mirror-planted: not failed on its own warning on the user rows only" "$base/planted.lines"
fi
if grep -q 'mirror.migrate_to_other_node	skip	one NUMA node only' \
	"$results/mine-nonuma/mirror/results.tsv" 2>/dev/null &&
	grep -q '^mirror/mirror_tests/mirror.migrate_to_other_node .* xskip ' "$base/run.log"; then
	ok "mine-nonuma: migrate_to_other_node skips, as lacks=numa makes expected"
else
	not_ok "mine-nonuma: no expected skip of migrate_to_other_node" "$base/run.log"
fi

# bad KERNEL TEXT: KERNEL's summary line says TEXT.
bad() {
	if grep -q "^  $1/mirror: .*$2" "$base/run.log"; then
		ok "$1: $(grep -m1 "^  $1/mirror: " "$base/run.log" | sed 's/^ *//' | cut -c1-160)"
	else
		not_ok "$1: no '$2' in its line" "$base/run.log"
	fi
}
bad no-image "image '.*no-such-image' does not exist"
bad not-bzimage "is not an x86 bzImage"
bad no-symvers "has no Module.symvers"
bad arm64-tree "build tree for another architecture"
bad bad-lacks "lacks=wings: not a feature"
bad no-init "never reached its init"
echo "# user-kernel wall time: $(($(date +%s) - start))s"

# The judge (ci/report/results.py): a skip for an API the kernel predates.
judge=$base/judge
for k in old:4.12.4 new:6.12.0-1-amd64; do
	mkdir -p "$judge/${k%%:*}/s"
	echo "KERNEL_RELEASE=${k#*:}" >"$judge/${k%%:*}/kernel.env"
	printf '%s\ts\ts/t/x.swap_out\tskip\tmadvise(MADV_PAGEOUT): EINVAL: no MADV_PAGEOUT (5.4+) in this kernel\n' \
		"${k%%:*}" >"$judge/${k%%:*}/s/results.tsv"
done
rc=0
python3 "$MNCOMPAT_TOP/ci/report/report.py" "$MNCOMPAT_TOP/ci/report/expectations" "$judge" \
	>"$judge.log" 2>&1 || rc=$?
# Columns: new, old (first seen in the sorted walk).
if [ "$rc" -eq 1 ] && grep -q '^s/t/x.swap_out  *skip!  *xskip *$' "$judge.log" &&
	grep -q '^matrix: 1 passed, 1 failed$' "$judge.log"; then
	ok "the judge: a skip for MADV_PAGEOUT (5.4+) is expected on 4.12, unexpected on 6.12"
else
	not_ok "the judge: an API skip not judged by the kernel's release" "$judge.log"
fi
tap_end user-kernel
