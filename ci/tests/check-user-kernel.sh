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
#   bad rows     no image, an image that is no bzImage, a tree without
#                Module.symvers, a tree of another architecture, an
#                unknown lacks= feature, an image that never reaches init:
#                each one clear line and a failing row of its own, while
#                the good rows still run
# Output: "ok N - ...", then "user-kernel: N passed, M failed".
set -eu
. "$(dirname "$0")/../lib.sh"
# lib.sh takes the repo top to be the parent of this script's directory.
MNCOMPAT_TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$MNCOMPAT_TOP/ci/tap.sh"

base=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/user-kernel-tests
rm -rf "$base"
mkdir -p "$base/trees"
base=$(cd "$base" && pwd)
env612=$(KERNELS=deb-6.12 "$MNCOMPAT_TOP/ci/prepare-kernel.sh")
KDIR="" VMLINUZ="" KMODDIR=""
# shellcheck disable=SC1090
. "$env612"

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

list=$base/kernels.list
cat >"$list" <<EOF
deb-6.12       deb   6.12  -  -  -
mine-6.12      user  $KDIR  $VMLINUZ  $KMODDIR  -  -
mine-nonuma    user  $KDIR  $VMLINUZ  $KMODDIR  numa=off  lacks=numa
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
	"$MNCOMPAT_TOP/ci/matrix.sh" "$MNCOMPAT_TOP/drivers-sample/mirror/mirror.suite" \
	>"$base/run.log" 2>&1 || rc=$?
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
tap_end user-kernel
