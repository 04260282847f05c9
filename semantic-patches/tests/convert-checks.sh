# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by semantic-patches/tests/run.sh (which sets here, sp, tmp and
# the ok/not_ok/check helpers): the checks of convert.sh.  The sh -c
# programs below get their values as positional parameters.
# shellcheck disable=SC2154,SC2016
cv=$sp/convert.sh
ct=$tmp/convert
series_files=$(awk -f "$sp/series.awk" "$sp/series" | awk '{ print $2 }')

# expect FILE: FILE.expect = FILE after every .cocci of the series.
expect() {
	cp "$1" "$1.expect"
	for _c in $series_files; do
		run_spatch "$sp/$_c" "$1.expect" 2>/dev/null
	done
}

sums() {
	(cd "$1" && find . ! -name '*.expect' \( -type f -o -type l \) \
		-exec ls -ld {} + | awk '{ print $1, $NF }' | sort &&
		find . -type f ! -name '*.expect' -exec cksum {} + | sort)
}

# no_leftovers DIR: no staged or kept-old file of --apply anywhere.
no_leftovers() {
	test -z "$(find "$1" -name '.*mncompat*' -print)"
}

mkdir -p "$ct/tree/sub" "$ct/ref"
cp "$here/4.13-only-page/before.c" "$ct/tree/mirror.c"
cp "$here/4.13-cleancache-frontswap/before.c" "$ct/tree/sub/tmem.c"
cp "$here/4.13-kvm-shape/before.c" "$ct/tree/sub/vmm.c"
# spatch gets excerpts of these (the 6.6 and 6.10 steps): same result
cp "$here/6.6-secondary-tlbs/before.c" "$ct/tree/sub/tlbs.c"
cp "$here/6.10-change-pte/before.c" "$ct/tree/sub/pte.c"
cat >"$ct/tree/sub/done.c" <<'EOF'
#include <linux/mmu_notifier.h>

static int done_start(struct mmu_notifier *mn,
		      const struct mmu_notifier_range *range)
{
	return 0;
}

static const struct mmu_notifier_ops done_ops = {
	.invalidate_range_start = done_start,
};
EOF
echo 'int unrelated;' >"$ct/tree/other.c"
chmod 640 "$ct/tree/mirror.c"
cp "$ct/tree/mirror.c" "$ct/ref/mirror.c"
cp "$ct/tree/sub/vmm.c" "$ct/ref/vmm.c"
cp "$ct/tree/sub/tlbs.c" "$ct/tree/sub/pte.c" "$ct/ref/"
for f in mirror.c vmm.c tlbs.c pte.c; do
	expect "$ct/ref/$f"
done
sums "$ct/tree" >"$ct/sum0"

"$cv" "$ct/tree" >"$ct/dry.out" 2>"$ct/dry.err"
st=$?
sums "$ct/tree" >"$ct/sum1"
check "convert.sh: dry run with items needing review exits 3" test $st -eq 3
check "convert.sh: dry run prints a diff" grep -q '^+++ b/sub/vmm.c' "$ct/dry.out"
check "convert.sh: dry run report counts files" grep -q '^files changed: 4$' "$ct/dry.out"
check "convert.sh: dry run report lists conversions" \
	grep -q 'converted: mirror_invalidate_page' "$ct/dry.out"
check "convert.sh: a file that needs nothing is named as such" \
	grep -A1 -q '^files unchanged, nothing to convert: 1$' "$ct/dry.out"
check "convert.sh: dry run changes nothing" cmp -s "$ct/sum0" "$ct/sum1"

"$cv" "$ct/tree" --apply --quiet >"$ct/apply.out" 2>"$ct/apply.err"
st=$?
check "convert.sh --apply with items needing review exits 3" test $st -eq 3
check "convert.sh --apply: mirror.c converted to the 6.12 API" \
	cmp -s "$ct/tree/mirror.c" "$ct/ref/mirror.c.expect"
check "convert.sh --apply: sub/vmm.c converted to the 6.12 API" \
	cmp -s "$ct/tree/sub/vmm.c" "$ct/ref/vmm.c.expect"
check "convert.sh --apply: excerpts for 6.6 give what the whole file gives" \
	cmp -s "$ct/tree/sub/tlbs.c" "$ct/ref/tlbs.c.expect"
check "convert.sh --apply: excerpts for 6.10 give what the whole file gives" \
	cmp -s "$ct/tree/sub/pte.c" "$ct/ref/pte.c.expect"
# excerpt.awk's paste, on its own: a change outside the blanked
# functions goes into the file; a change inside one leaves the file as it
# was and names it (map line, name whole) for the step to redo on the
# whole file.
pd=$ct/paste
mkdir -p "$pd/work/a b" "$pd/excerpts" "$pd/step"
printf 'int x;\nstatic void f(void)\n{\n\tg();\n}\nint y;\n' >"$pd/work/a b/one.c"
cp "$pd/work/a b/one.c" "$pd/work/two	.c"
cp "$pd/work/a b/one.c" "$pd/orig.c"
printf 'int x;\n\n\n\n;\nint y;\n' >"$pd/excerpts/f1.c"
cp "$pd/excerpts/f1.c" "$pd/excerpts/f2.c"
printf 'int x;\n\n\n\n;\nlong y;\n' >"$pd/step/f1.c"
printf 'int x;\n\n\n\tg();\n;\nint y;\n' >"$pd/step/f2.c"
printf 'f1.c\ta b/one.c\nf2.c\ttwo\t.c\n' >"$pd/map"
(cd "$pd" && diff -arU0 excerpts step) >"$pd/diff"
awk -v mode=paste -v map="$pd/map" -v work="$pd/work" -v ex="$pd/excerpts" \
	-f "$sp/excerpt.awk" "$pd/diff" >"$pd/redo"
st=$?
printf 'int x;\nstatic void f(void)\n{\n\tg();\n}\nlong y;\n' >"$pd/one.expect"
check "excerpt.awk paste: a change outside blanked functions is put into the file" \
	sh -c 'test "$1" -eq 0 && cmp -s "$2" "$3"' sh "$st" "$pd/work/a b/one.c" "$pd/one.expect"
check "excerpt.awk paste: a change inside a blanked function leaves the file and names it for the redo" \
	sh -c 'cmp -s "$1" "$2" && test "$(cat "$3")" = "$(printf "f2.c\ttwo\t.c")"' \
	sh "$pd/work/two	.c" "$pd/orig.c" "$pd/redo"
check "convert.sh --apply: cleancache/frontswap file untouched" \
	cmp -s "$ct/tree/sub/tmem.c" "$here/4.13-cleancache-frontswap/before.c"
check "convert.sh --apply: file mode kept" \
	test -n "$(find "$ct/tree/mirror.c" -perm 640)"
check "convert.sh --apply: no temporary files left" no_leftovers "$ct/tree"
sums "$ct/tree" >"$ct/sum2"
"$cv" "$ct/tree" --apply >"$ct/again.out" 2>&1
sums "$ct/tree" >"$ct/sum3"
check "convert.sh: second run changes nothing" cmp -s "$ct/sum2" "$ct/sum3"
check "convert.sh: second run reports no changed file" \
	grep -q '^files changed: 0$' "$ct/again.out"

mkdir -p "$ct/clean"
cp "$here/4.13-start-only-no-end/before.c" "$ct/clean/a.c"
"$cv" "$ct/clean" --quiet --to 4.13 >"$ct/clean.out" 2>&1
st=$?
check "convert.sh: nothing to review exits 0" test $st -eq 0
check "convert.sh: nothing to review says 0 items" \
	grep -q '^items needing review: 0 ' "$ct/clean.out"

mkdir -p "$ct/to"
cp "$here/4.13-only-page/before.c" "$ct/to/a.c"
"$cv" "$ct/to/a.c" --apply --to 4.13 >/dev/null 2>&1
check "convert.sh --to 4.13 on one file stops at the 4.13 API" \
	cmp -s "$ct/to/a.c" "$here/4.13-only-page/after.c"
mkdir -p "$ct/atomic"
cp "$here/4.13-only-page-atomic/before.c" "$ct/atomic/a.c"
"$cv" "$ct/atomic" --apply --atomic --to 4.13 >/dev/null 2>&1
check "convert.sh --atomic --to 4.13 uses invalidate_range" \
	cmp -s "$ct/atomic/a.c" "$here/4.13-only-page-atomic/after.c"
mkdir -p "$ct/compat" "$ct/atomic-range"
cp "$here/pipeline-compat/before.c" "$ct/compat/a.c"
"$cv" "$ct/compat" --apply --compat >"$ct/compat.out" 2>&1
check "convert.sh --compat: the series with -D compat, then mn-compat-ops.cocci" \
	cmp -s "$ct/compat/a.c" "$here/pipeline-compat/after.c"
check "convert.sh --compat: the report says so" \
	grep -q '^== mncompat convert: .*(up to 7.1, compat)$' "$ct/compat.out"
"$cv" "$ct/compat" --compat >"$ct/compat2.out" 2>&1
check "convert.sh --compat: second run changes nothing" \
	grep -q '^files changed: 0$' "$ct/compat2.out"
cp "$here/pipeline-compat/before.c" "$ct/atomic-range/a.c"
"$cv" "$ct/atomic-range" --atomic --to 5.0 >"$ct/atomic-range.out" 2>&1
check "convert.sh --atomic on a file with range callbacks runs every step" \
	grep -q '\[5.0\] converted: twin_range_start' "$ct/atomic-range.out"
"$cv" "$ct/compat" --compat --to 4.13 >"$ct/compat-to.out" 2>&1
st=$?
check "convert.sh --compat --to 4.13 is refused (a usage error)" test $st -eq 2
check "convert.sh --compat --to 4.13 says why" \
	grep -q 'newest API: no --to' "$ct/compat-to.out"
"$cv" "$ct/compat" --compat --atomic >"$ct/compat-atomic.out" 2>&1
st=$?
check "convert.sh --compat --atomic is refused (a usage error)" test $st -eq 2
"$cv" "$ct/compat" --native --compat >"$ct/native-compat.out" 2>&1
st=$?
check "convert.sh --native --compat is refused (a usage error), with the reason" \
	sh -c '[ "$1" -eq 2 ] && grep -q -- "--native and --compat: give one of them" "$2"' \
	sh "$st" "$ct/native-compat.out"
"$cv" "$ct/to" --quiet >"$ct/default.out" 2>&1 || true
"$cv" "$ct/to" --native --quiet >"$ct/native.out" 2>&1 || true
check "convert.sh --native reports what the default does" \
	cmp -s "$ct/default.out" "$ct/native.out"
"$cv" "$ct/to" --to 4.20 >"$ct/badto.out" 2>&1
st=$?
check "convert.sh --to 4.20 is refused" test $st -ne 0
check "convert.sh --to 4.20 says why" grep -q 'not a generation' "$ct/badto.out"

mkdir -p "$ct/crlf"
sed 's/$/\r/' "$here/4.13-only-page/before.c" >"$ct/crlf/a.c"
sed 's/$/\r/' "$here/4.13-only-page/after.c" >"$ct/crlf.expect"
"$cv" "$ct/crlf" --apply --to 4.13 >"$ct/crlf.out" 2>&1
check "convert.sh: CRLF file converted, CRLF kept" \
	cmp -s "$ct/crlf/a.c" "$ct/crlf.expect"
"$cv" "$ct/crlf" --to 4.13 >"$ct/crlf2.out" 2>&1
check "convert.sh: CRLF file, second run changes nothing" \
	grep -q '^files changed: 0$' "$ct/crlf2.out"

# --- nothing dropped silently ------------------------------------------
# One tree, one dry run up to 5.0: the rmap shape (its goto note
# comes from code the step already changed), an ops table spatch cannot
# parse next to a good file, callbacks a later step cannot parse or that
# the driver calls itself, a table split by #if, symbolic links.
r=$ct/report
mkdir -p "$r/in" "$ct/outside"
cp "$here/4.13-rmap-shape/before.c" "$r/rmap.c"
cp "$here/4.13-only-page/before.c" "$r/good.c"
sed 's/^\t\.invalidate_page = \(.*\),$/\t.invalidate_page = \1,,/' \
	"$here/4.13-amdgpu-shape/before.c" >"$r/bad.c"
cp "$here/pipeline-direct-calls/before.c" "$r/later.c"
cp "$here/4.13-if-only/before.c" "$r/ifonly.c"
cp "$here/4.13-only-page/before.c" "$ct/outside/far.c"
cp "$here/4.13-only-page/before.c" "$r/in/near.c"
ln -s ../outside/far.c "$r/far.c"
ln -s in/near.c "$r/near.c"
ln -s ../outside "$r/dir"
"$cv" "$r" --quiet --to 5.0 >"$ct/report.out" 2>&1
st=$?
check "convert.sh: items needing review give exit 3" test $st -eq 3
check "convert.sh: the goto out of a bracket is an item needing review" \
	grep -q '^  rmap.c:149: \[4.13\] review: count_one: goto out at line 138' \
	"$ct/report.out"
check "convert.sh: an unparsable ops table is named for review" \
	grep -qE '^  bad\.c:[0-9]+: \[4\.13\] review: spatch could not parse' \
	"$ct/report.out"
check "convert.sh: the .invalidate_page left in it is named for review" \
	grep -qE '^  bad\.c:[0-9]+: \[check\] review: \.invalidate_page is still here' \
	"$ct/report.out"
check "convert.sh: the good file next to it is converted" \
	grep -q '^  good.c:[0-9]*: \[4.13\] converted' "$ct/report.out"
check "convert.sh: a callback split by #if is named for review" \
	grep -q '^  later.c:[0-9]*: \[check\] review: split_range_start still has a pre-5.0 prototype' \
	"$ct/report.out"
check "convert.sh: a callback the driver calls itself is named for review" \
	grep -q '^  later.c:30: \[5.0\] review: dev_range_start is called here' \
	"$ct/report.out"
check "convert.sh: a table split by #if is an item needing review" \
	grep -q '^  ifonly.c:28: \[4.13\] review: cfg_invalidate_page' "$ct/report.out"
check "convert.sh: a link to a file outside the tree is named for review" \
	grep -q '^  far.c:1: \[convert\] review: symbolic link to ../outside/far.c: not converted' \
	"$ct/report.out"
check "convert.sh: a link to a directory is named for review" \
	grep -q '^  dir:1: \[convert\] review: symbolic link to a directory' \
	"$ct/report.out"
check "convert.sh: a link to a file inside the tree is converted there" \
	grep -q '^  near.c:1: \[convert\] symbolic link to in/near.c: converted there' \
	"$ct/report.out"
check "convert.sh: every file is converted, unchanged or named for review" \
	sh -c 'for f in rmap.c good.c bad.c later.c ifonly.c in/near.c far.c dir; do
		grep -qE "^  $f(:|\$)" "$1" || exit 1
	done' sh "$ct/report.out"

# A callback whose return type has a line of its own (static void /
# f(...)), in a branch of the vendor's own #if that keeps the pre-5.0
# prototype, and a young callback written so: named as on one line (the
# first as the module's own switch between APIs: a note).
mkdir -p "$ct/ownline"
cat >"$ct/ownline/a.c" <<'EOF'
#include <linux/mmu_notifier.h>
#if VENDOR_MN_VERSION == 2
static void
own_range_end(struct mmu_notifier *mn, const struct mmu_notifier_range *r)
{
}
#else
static void
own_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
	      unsigned long start, unsigned long end)
{
}
#endif
static int
own_young(struct mmu_notifier *mn, struct mm_struct *mm,
	  unsigned long start, unsigned long end)
{
	return 0;
}
static const struct mmu_notifier_ops own_ops = {
	.invalidate_range_end = own_range_end,
	.clear_young = own_young,
};
EOF
"$cv" "$ct/ownline" --quiet >"$ct/ownline.out" 2>&1
check "convert.sh: a pre-5.0 prototype with its return type on the line before is named (the module's own switch: a note)" \
	grep -q '^  a.c:9: \[check\] own_range_end keeps its pre-5.0 prototype in this branch of the module.s own #if, and has 5.0.s in another (line 4)' \
	"$ct/ownline.out"

# mempool_alloc() sleeps or not by its gfp argument, mempool_free() never
# (found on HPE kdreg2: GFP_NOWAIT was "cannot tell", a may-sleep table).
mkdir -p "$ct/mempool"
cat >"$ct/mempool/a.c" <<'EOF'
#include <linux/mmu_notifier.h>
#include <linux/mempool.h>
struct pool_dev {
	struct mmu_notifier mn;
	mempool_t *pool;
};
static int pool_range_start(struct mmu_notifier *mn,
			    const struct mmu_notifier_range *r)
{
	struct pool_dev *d = container_of(mn, struct pool_dev, mn);
	void *e = mempool_alloc(d->pool, GFP_NOWAIT);

	if (!e)
		return -ENOMEM;
	mempool_free(e, d->pool);
	return 0;
}
static void pool_range_end(struct mmu_notifier *mn,
			   const struct mmu_notifier_range *r)
{
}
static const struct mmu_notifier_ops pool_ops = {
	.invalidate_range_start = pool_range_start,
	.invalidate_range_end = pool_range_end,
};
EOF
"$cv" "$ct/mempool" --compat --quiet >"$ct/mempool-nowait.out" 2>&1
sed -i 's/GFP_NOWAIT/GFP_KERNEL/' "$ct/mempool/a.c"
"$cv" "$ct/mempool" --compat --quiet >"$ct/mempool-kernel.out" 2>&1
check "convert.sh --compat: mempool_alloc(GFP_NOWAIT) and mempool_free() do not sleep: a table that never sleeps, nothing to review" \
	sh -c 'grep -q "MNCOMPAT_MMU_NOTIFIER_OPS(\.\.\., 0)" "$1" && grep -q "^items needing review: 0" "$1"' sh "$ct/mempool-nowait.out"
check "convert.sh --compat: mempool_alloc(GFP_KERNEL) sleeps: a may-sleep table, named" \
	grep -q 'allocates with a sleeping gfp (mempool_alloc)' "$ct/mempool-kernel.out"

# --- paths ---------------------------------------------------------------
mkdir -p "$ct/slash"
cp "$here/4.13-only-page/before.c" "$ct/slash/a.c"
cp -r "$ct/slash" "$ct/slash-patched"
"$cv" "$ct/slash/" --to 4.13 >"$ct/slash.out" 2>&1
check "convert.sh DIR/: plain diff headers" \
	grep -q '^--- a/a.c$' "$ct/slash.out"
check "convert.sh DIR/: the diff applies with patch -p1" \
	sh -c 'sed -n "/^--- a\//,/^== mncompat/p" "$1" | sed "\$d" |
		patch -s -p1 -d "$2"' sh "$ct/slash.out" "$ct/slash-patched"
mkdir -p "$ct/dash/-x"
cp "$here/4.13-start-only-no-end/before.c" "$ct/dash/-x/a.c"
(cd "$ct/dash" && "$cv" -- -x --quiet) >"$ct/dash.out" 2>&1
st=$?
check "convert.sh -- -x --quiet: everything after -- is a path (usage error)" \
	test $st -eq 2
(cd "$ct/dash" && "$cv" --quiet --to 4.13 -- -x) >"$ct/dash.out" 2>&1
st=$?
check "convert.sh --quiet -- -x converts the directory -x" \
	sh -c 'test "$1" -eq 0 && grep -q "^files changed: 1$" "$2"' sh "$st" "$ct/dash.out"
(cd "$ct/dash" && "$cv" -x) >"$ct/dash2.out" 2>&1
st=$?
check "convert.sh -x is a usage error that names --" \
	sh -c 'test "$1" -eq 2 && grep -q "goes after --" "$2"' sh "$st" "$ct/dash2.out"
# A relative TMPDIR: the same output as an absolute one (before, every
# read of the scratch folder from inside it failed, and a header split by
# #if/#else was left unconverted, exit 1).
mkdir -p "$ct/reltmp/t" "$ct/reltmp/rt"
cp "$here/guard-split-header/before.c" "$ct/reltmp/t/a.c"
(cd "$ct/reltmp" && "$cv" t >abs.out 2>&1; echo $? >>abs.out
	TMPDIR=rt "$cv" t >rel.out 2>&1; echo $? >>rel.out)
check "convert.sh with a relative TMPDIR: the same output as with an absolute one" \
	sh -c 'cmp -s "$1/abs.out" "$1/rel.out" && test -z "$(ls -A "$1/rt")"' \
	sh "$ct/reltmp"
# A FILE that is a symbolic link: written through, the link stays.
mkdir -p "$ct/flink"
cp "$here/4.13-only-page/before.c" "$ct/flink/real.c"
ln -s real.c "$ct/flink/link.c"
"$cv" "$ct/flink/link.c" --apply --to 4.13 >"$ct/flink.out" 2>&1
check "convert.sh FILE that is a link: the target is converted" \
	cmp -s "$ct/flink/real.c" "$here/4.13-only-page/after.c"
check "convert.sh FILE that is a link: the link stays a link" \
	test -L "$ct/flink/link.c"
cp "$here/4.13-only-page/before.c" "$ct/flink/ro.c"
chmod 444 "$ct/flink/ro.c"
ln -s ro.c "$ct/flink/rolink.c"
"$cv" "$ct/flink/rolink.c" --apply --to 4.13 >"$ct/flink-ro.out" 2>&1
st=$?
check "convert.sh FILE that links to a read-only file is refused" \
	sh -c 'test "$1" -eq 1 && cmp -s "$2" "$3"' sh "$st" "$ct/flink/ro.c" \
	"$here/4.13-only-page/before.c"

# --- read-only, unreadable, missing --------------------------------------
mkdir -p "$ct/ro"
cp "$here/4.13-only-page/before.c" "$ct/ro/a.c"
cp "$here/4.13-kvm-shape/before.c" "$ct/ro/b.c"
chmod 444 "$ct/ro/a.c"
sums "$ct/ro" >"$ct/ro0"
"$cv" "$ct/ro" --apply --to 4.13 >"$ct/ro.out" 2>"$ct/ro.err"
st=$?
sums "$ct/ro" >"$ct/ro1"
check "convert.sh --apply refuses a read-only file" test $st -eq 1
check "convert.sh --apply says which file is read-only" \
	grep -q 'a.c is read-only' "$ct/ro.err"
check "convert.sh --apply writes nothing when one file is read-only" \
	cmp -s "$ct/ro0" "$ct/ro1"
mkdir -p "$ct/rodir/d"
cp "$here/4.13-only-page/before.c" "$ct/rodir/d/a.c"
chmod 555 "$ct/rodir/d"
sums "$ct/rodir" >"$ct/rodir0"
"$cv" "$ct/rodir" --apply --to 4.13 >"$ct/rodir.out" 2>"$ct/rodir.err"
st=$?
sums "$ct/rodir" >"$ct/rodir1"
chmod 755 "$ct/rodir/d"
check "convert.sh --apply refuses a read-only directory (as root too)" \
	sh -c 'test "$1" -eq 1 && grep -q "d is read-only" "$2"' sh "$st" \
	"$ct/rodir.err"
check "convert.sh --apply writes nothing into a read-only directory" \
	cmp -s "$ct/rodir0" "$ct/rodir1"

"$cv" "$ct/does-not-exist" >"$ct/missing.out" 2>&1
st=$?
check "convert.sh refuses a missing path" test $st -ne 0
check "convert.sh says the path is missing" \
	grep -q 'does-not-exist: no such file' "$ct/missing.out"

# as_user CMD...: CMD as an unprivileged user (root runs it via setpriv).
as_user() {
	if [ "$(id -u)" -ne 0 ]; then
		"$@"
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	fi
}
if [ "$(id -u)" -ne 0 ] || command -v setpriv >/dev/null; then
	chmod 755 "$tmp" "$ct"
	mkdir -p "$ct/unreadable/d" "$ct/rosrc"
	cp "$here/4.13-only-page/before.c" "$ct/unreadable/d/a.c"
	chmod 755 "$ct/unreadable"
	chmod 000 "$ct/unreadable/d"
	as_user "$cv" "$ct/unreadable/d" >"$ct/unr.out" 2>&1
	st=$?
	chmod 755 "$ct/unreadable/d"
	check "convert.sh refuses an unreadable path" test "$st" -ne 0
	check "convert.sh says the path is unreadable" \
		grep -q 'd: not readable' "$ct/unr.out"
	# A read-only source tree: a dry run works, --apply is refused.
	cp "$here/4.13-start-only-no-end/before.c" "$ct/rosrc/a.c"
	chmod 444 "$ct/rosrc/a.c"
	chmod 555 "$ct/rosrc"
	sums "$ct/rosrc" >"$ct/rosrc0"
	as_user env TMPDIR=/tmp "$cv" "$ct/rosrc" --to 4.13 >"$ct/rosrc.out" 2>&1
	st=$?
	check "convert.sh dry run as a user on a read-only tree works" \
		sh -c 'test "$1" -eq 0 && grep -q "^+++ b/a.c" "$2"' sh "$st" \
		"$ct/rosrc.out"
	as_user env TMPDIR=/tmp "$cv" "$ct/rosrc" --apply --to 4.13 >"$ct/rosrc2.out" 2>&1
	st=$?
	sums "$ct/rosrc" >"$ct/rosrc1"
	check "convert.sh --apply as a user on a read-only tree is refused, nothing written" \
		sh -c 'test "$1" -eq 1 && cmp -s "$2" "$3"' sh "$st" "$ct/rosrc0" \
		"$ct/rosrc1"
	chmod 755 "$ct/rosrc"
	chmod 700 "$tmp"
else
	echo "# unprivileged checks skipped: root without setpriv"
fi

# --- all or nothing: signals and changes while writing -------------------
# A tree of 12 files to convert; the test hook runs after each file is
# staged and after each rename, and here sends a signal at one of them.
# A shell started with a signal ignored (nohup, `&` in a script, some CI
# runners) cannot trap it and passes the ignoring on to what it starts, so
# convert.sh's handlers would never run: the signal checks start it through
# $cv_sig, with SIGINT, SIGHUP and SIGTERM at their defaults (coreutils'
# env --default-signal), and pass however this run was started.
cv_sig=$ct/convert-default-signals
cat >"$cv_sig" <<EOF
#!/bin/sh
exec env --default-signal=INT,HUP,TERM "$cv" "\$@"
EOF
chmod 755 "$cv_sig"
mkdir -p "$ct/sig0"
i=0
while [ $i -lt 12 ]; do
	i=$((i + 1))
	sed "s/mirror_/m${i}_/g" "$here/4.13-only-page/before.c" \
		>"$ct/sig0/f$i.c"
done
cat >"$ct/hook" <<'EOF'
#!/bin/sh
# MNCOMPAT_CONVERT_TEST_HOOK for the checks: at "$HOOK_AT" (phase:n)
# send HOOK_SIG to convert.sh, or change another file under it.
[ "$1:$2" = "$HOOK_AT" ] || exit 0
case $HOOK_SIG in
EDIT) echo '/* edited meanwhile */' >>"$HOOK_FILE" ;;
*) kill -"$HOOK_SIG" "$PPID" ;;
esac
EOF
chmod 755 "$ct/hook"
sums "$ct/sig0" >"$ct/sig0.sum"
for case in TERM:rename:5 INT:stage:3 HUP:rename:12; do
	sig=${case%%:*}
	at=${case#*:}
	rm -rf "$ct/sig"
	cp -a "$ct/sig0" "$ct/sig"
	HOOK_AT=$at HOOK_SIG=$sig MNCOMPAT_CONVERT_TEST_HOOK=$ct/hook \
		"$cv_sig" "$ct/sig" --apply --quiet --to 4.13 >"$ct/sig.out" 2>&1
	st=$?
	(cd "$ct/sig" && sums .) >"$ct/sig.sum"
	(cd "$ct/sig0" && sums .) >"$ct/sig0.sum"
	check "convert.sh --apply, SIG$sig after $at: stopped with its status" \
		test $st -gt 128
	check "convert.sh --apply, SIG$sig after $at: every file as before" \
		cmp -s "$ct/sig0.sum" "$ct/sig.sum"
	check "convert.sh --apply, SIG$sig after $at: no temporary file left" \
		no_leftovers "$ct/sig"
done
rm -rf "$ct/sig"
cp -a "$ct/sig0" "$ct/sig"
HOOK_AT=stage:2 HOOK_SIG=EDIT HOOK_FILE=$ct/sig/f7.c \
	MNCOMPAT_CONVERT_TEST_HOOK=$ct/hook \
	"$cv" "$ct/sig" --apply --quiet --to 4.13 >"$ct/edit.out" 2>&1
st=$?
check "convert.sh --apply: a file changed while writing is refused" \
	sh -c 'test "$1" -eq 1 && grep -q "f7.c changed while" "$2"' sh "$st" \
	"$ct/edit.out"
check "convert.sh --apply: the change made meanwhile is kept" \
	grep -q 'edited meanwhile' "$ct/sig/f7.c"
check "convert.sh --apply: the other files are as before" \
	sh -c 'for f in "$1"/*.c; do
		[ "$f" = "$1/f7.c" ] || cmp -s "$f" "$2/$(basename "$f")" || exit 1
	done' sh "$ct/sig" "$ct/sig0"
check "convert.sh --apply: refused, no temporary file left" \
	no_leftovers "$ct/sig"
rm -rf "$ct/sig"
cp -a "$ct/sig0" "$ct/sig"
"$cv" "$ct/sig" --apply --quiet --to 4.13 >"$ct/sigok.out" 2>&1
check "convert.sh --apply on the 12 files without a signal converts all" \
	test "$(grep -l 'invalidate_range_start' "$ct/sig"/*.c | wc -l)" -eq 12

mkdir -p "$ct/with space/sub dir"
cp "$here/pipeline-mirror-legacy/before.c" "$ct/with space/sub dir/a b.c"
"$cv" "$ct/with space" --apply --quiet >"$ct/space.out" 2>&1
check "convert.sh copes with spaces in file names" \
	cmp -s "$ct/with space/sub dir/a b.c" "$here/pipeline-mirror-legacy/after.c"
check "convert.sh reports with the real file name" \
	grep -q '^  sub dir/a b.c:[0-9]*: \[4.13\] converted' "$ct/space.out"

"$cv" >/dev/null 2>&1
st=$?
check "convert.sh without a path is a usage error" test $st -eq 2

# --- the whole module --------------------------------------------------
# A helper in another file of the module that takes a mutex: the page
# callback is not kept as the (atomic) secondary-TLB hook, range_end makes
# the table one that may sleep, and the notes name where it sleeps.
mods=$here/modules
"$cv" --compat --quiet "$mods/sleep-helper" >"$ct/sleep.out" 2>&1
st=$?
check "module view: a sleeping helper in another file is a review item (exit 3)" \
	test $st -eq 3
check "module view: the note names the helper, its file and line and what sleeps" \
	grep -q "compat: sh_invalidate_page is not kept as the secondary-TLB hook of its table: it may sleep (sh_invalidate_page -> sh_forget -> mutex_lock; sh_forget() in sh_table.c:9 takes a mutex (mutex_lock))" \
	"$ct/sleep.out"
check "module view: range_end calling the helper makes the table one that may sleep" \
	grep -q 'sh_ops -> MNCOMPAT_MMU_NOTIFIER_OPS(..., MNCOMPAT_RANGE_START_MAY_SLEEP)' \
	"$ct/sleep.out"
check "module view: no invalidate_range hook is kept" \
	sh -c '! grep -q "kept next to the range callbacks" "$1"' sh "$ct/sleep.out"
check "module view: compat's include is added where the header came through another header" \
	grep -q 'added #include <mncompat/mmu_notifier.h>' "$ct/sleep.out"
(cd "$mods" && "$cv" --compat --quiet sleep-helper) >"$ct/sleep-rel.out" 2>&1
check "module view: the same with a relative path" \
	grep -q "sh_forget() in sh_table.c:9 takes a mutex" "$ct/sleep-rel.out"
# A call the analysis cannot follow is a review item naming it, never
# taken as non-sleeping.
"$cv" --compat --quiet "$mods/unresolved" >"$ct/unres.out" 2>&1
st=$?
check "module view: a call into another module is a review item (exit 3)" test $st -eq 3
check "module view: the review item names the call and where it is" \
	grep -q 'review: un_invalidate_page: cannot tell: it calls other_module_flush() (un.c:14)' \
	"$ct/unres.out"
check "module view: the callback it cannot judge is not made the atomic hook" \
	sh -c '! grep -q "(invalidate_range, atomic" "$1"' sh "$ct/unres.out"

# A file whose only change is its registration (the table is in another
# file, the kernel's header comes through the module's own): compat's
# include follows its last #include "...", said once; without any
# #include it is a review item, never a file that cannot build.
cp -R "$mods/reg-only" "$ct/reg-only"
"$cv" --compat --apply --quiet "$ct/reg-only" >"$ct/reg.out" 2>&1
check "registration-only file: compat's include after its #include \"...\"" \
	sh -c 'sed -n "/^#include/p" "$1" | tr "\n" " " | grep -q "^#include \"ro.h\" #include <mncompat/mmu_notifier.h> \$"' \
	sh "$ct/reg-only/ro_main.c"
check "registration-only file: the added include is said once" \
	test "$(grep -c 'ro_main.c:[0-9]*: \[compat\] converted: added #include' "$ct/reg.out")" -eq 1
"$cv" --compat --apply --quiet "$ct/reg-only" >"$ct/reg2.out" 2>&1
check "registration-only file: a second run changes nothing" \
	grep -q '^files changed: 0' "$ct/reg2.out"
cp -R "$mods/reg-only" "$ct/reg-noinc"
sed -i '/^#include "ro.h"/d' "$ct/reg-noinc/ro_main.c"
"$cv" --compat --quiet "$ct/reg-noinc" >"$ct/regn.out" 2>&1
check "registration-only file without any #include: a review item" \
	grep -q 'ro_main.c:[0-9]*: \[compat\] review: no #include in this file to add #include <mncompat/mmu_notifier.h> after' "$ct/regn.out"

# NULL and 0 in an ops table are no callbacks, and helpers such as
# clflush() and panic() never sleep: nothing to review, either mode.
mkdir -p "$ct/null"
cp "$here/pipeline-compat-null/before.c" "$ct/null/gn.c"
for m in --native --compat; do
	"$cv" $m --quiet "$ct/null" >"$ct/null$m.out" 2>&1
	st=$?
	check "convert.sh $m: NULL fields and non-sleeping helpers, 0 items needing review (exit 0)" \
		sh -c 'test "$1" -eq 0 && grep -q "^items needing review: 0 " "$2"' \
		sh "$st" "$ct/null$m.out"
done

# --- version guards, the [check] word boundary ---------------------------
"$cv" --quiet "$mods/version-guard" >"$ct/guard.out" 2>&1
st=$?
check "a LINUX_VERSION_CODE guard compat's probes disagree with is a review item" \
	sh -c 'test "$1" -eq 3 && grep -q "^  vg.c:11: \[guard\] review: #if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 17, 0) guards the range form of clear_flush_young.*3.18 (57128468080a).*#ifdef MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_RANGE" "$2"' \
	sh "$st" "$ct/guard.out"
check "a guard at the right version (4.13 around invalidate_page) is not" \
	sh -c 'test "$(grep -c "\[guard\]" "$1")" -eq 1' sh "$ct/guard.out"
check "[check]: a driver's own *_mmu_notifier_invalidate_page() is no leftover" \
	sh -c '! grep -q "mmu_notifier_invalidate_page() is still here" "$1"' sh "$ct/guard.out"

# --- the module's own switch between APIs ------------------------------
# A callback defined with the pre-5.0 prototype in one branch of the
# module's own #if and with 5.0's in another (kdreg2's configure macro):
# native mode leaves it and says why (a note, no review item); --compat,
# whose table takes 5.0's form on every kernel, names the branch that no
# longer builds.
mkdir -p "$ct/switch"
cat >"$ct/switch/sw.c" <<'EOF'
#include <linux/mmu_notifier.h>

#if SW_NOTIFIER_API == 2
static void sw_end(struct mmu_notifier *mn,
		   const struct mmu_notifier_range *range)
{
	sw_drop(range->start, range->end);
}
#else
static void sw_end(struct mmu_notifier *mn, struct mm_struct *mm,
		   unsigned long start, unsigned long end)
{
	sw_drop(start, end);
}
#endif

static const struct mmu_notifier_ops sw_ops = {
	.invalidate_range_end = sw_end,
};
EOF
cp "$ct/switch/sw.c" "$ct/sw.c.was"
"$cv" --apply "$ct/switch" >"$ct/switch.out" 2>&1
st=$?
check "the module's own #if between the 5.0 and older prototypes: left as it is, a note says why, no review item" \
	sh -c 'test "$1" -eq 0 && cmp -s "$2" "$3" &&
		grep -q "^  sw.c:10: \[check\] sw_end keeps its pre-5.0 prototype in this branch of the module.s own #if, and has 5.0.s in another (line 4): the module.s own switch between kernel APIs, left as it is$" "$4"' \
	sh "$st" "$ct/switch/sw.c" "$ct/sw.c.was" "$ct/switch.out"
"$cv" --compat "$ct/switch" >"$ct/switch-compat.out" 2>&1
st=$?
check "the module's own #if between prototypes, --compat: the branch that no longer builds is a review item" \
	sh -c 'test "$1" -eq 3 &&
		grep -q "^  sw.c:10: \[check\] review: sw_end keeps its pre-5.0 prototype .*(line 4): MNCOMPAT_MMU_NOTIFIER_OPS takes 5.0.s on every kernel" "$2"' \
	sh "$st" "$ct/switch-compat.out"

# --- helpers the removed callback called ---------------------------------
# change_pte goes (6.10): pte_flags() is the kernel's, not the driver's,
# so nobody is asked to remove it; a helper of another file of the module
# that only the removed callback called is named with its file and line.
mkdir -p "$ct/helpers"
cat >"$ct/helpers/h.h" <<'EOF'
void h_note_pte(unsigned long flags);
EOF
cat >"$ct/helpers/h_log.c" <<'EOF'
#include "h.h"

void h_note_pte(unsigned long flags)
{
}
EOF
cat >"$ct/helpers/h.c" <<'EOF'
#include <linux/mmu_notifier.h>
#include "h.h"

static void h_change_pte(struct mmu_notifier *mn, struct mm_struct *mm,
			 unsigned long address, pte_t pte)
{
	h_note_pte(pte_flags(pte));
}

static int h_start(struct mmu_notifier *mn,
		   const struct mmu_notifier_range *range)
{
	return 0;
}

static const struct mmu_notifier_ops h_ops = {
	.change_pte = h_change_pte,
	.invalidate_range_start = h_start,
};

const struct mmu_notifier_ops *h_notifier_ops(void)
{
	return &h_ops;
}
EOF
"$cv" --quiet "$ct/helpers" >"$ct/helpers.out" 2>&1
check "6.10: no note asks to remove a kernel helper (pte_flags)" \
	sh -c '! grep -q pte_flags "$1"' sh "$ct/helpers.out"
check "6.10: a helper of the module only the removed callback called is named with its file" \
	grep -q 'review: h_note_pte (h_log.c:3) is no longer called anywhere in the module' \
	"$ct/helpers.out"

# --- a port that guarded invalidate_page with #if (XPMEM's 2017 fix) -------
mkdir -p "$ct/guarded"
cat >"$ct/guarded/g.c" <<'EOF'
#include <linux/mmu_notifier.h>
#include <linux/version.h>

static void g_range_end(struct mmu_notifier *mn, struct mm_struct *mm,
			unsigned long start, unsigned long end)
{
	g_zap(mn, start, end);
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 13, 0)
static void g_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long address)
{
	g_range_end(mn, mm, address, address + PAGE_SIZE);
}
#endif

static const struct mmu_notifier_ops g_ops = {
#if LINUX_VERSION_CODE < KERNEL_VERSION(4, 13, 0)
	.invalidate_page = g_invalidate_page,
#endif
	.invalidate_range_end = g_range_end,
};
EOF
"$cv" "$ct/guarded" --apply --to 4.13 >"$ct/guarded.out" 2>&1
check "an #if left empty by the conversion goes, and no double blank line" \
	sh -c '! grep -q "KERNEL_VERSION" "$1" && ! grep -q invalidate_page "$1" &&
		! awk "prev == \"\" && \$0 == \"\" { bad = 1 } { prev = \$0 } END { exit !bad }" "$1"' \
	sh "$ct/guarded/g.c"

# --- 6.6: a table with the hook and range callbacks ------------------------
mkdir -p "$ct/both"
cat >"$ct/both/b.c" <<'EOF'
#include <linux/mmu_notifier.h>

static void b_flush(struct mmu_notifier *mn, struct mm_struct *mm,
		    unsigned long start, unsigned long end)
{
	b_iotlb_flush(mn, start, end);
}

static int b_start(struct mmu_notifier *mn,
		   const struct mmu_notifier_range *range)
{
	return 0;
}

static const struct mmu_notifier_ops b_ops = {
	.invalidate_range = b_flush,
	.invalidate_range_start = b_start,
};
EOF
"$cv" "$ct/both" --quiet >"$ct/both.out" 2>&1
check "6.6: a table with the hook and range callbacks is a review item (6.6+ refuses to register it)" \
	grep -q 'review: b_ops has invalidate_range (b_flush) and range callbacks: from 6.6' "$ct/both.out"
"$cv" "$ct/both" --quiet --compat >"$ct/both-compat.out" 2>&1
check "6.6: not with --compat (compat leaves the hook out there)" \
	sh -c '! grep -q "and range callbacks: from 6.6" "$1"' sh "$ct/both-compat.out"

# The same for the 6.6 hook (NVIDIA uvm's conftest macros): a table with
# .invalidate_range in one branch of the module's own #if and
# .arch_invalidate_secondary_tlbs in another is left as it is, with a
# note; --compat makes it compat's table as before.
mkdir -p "$ct/hookswitch"
cat >"$ct/hookswitch/h.c" <<'EOF'
#include <linux/mmu_notifier.h>

static void h_invalidate_range_ats(struct mmu_notifier *mn,
				   struct mm_struct *mm,
				   unsigned long start, unsigned long end)
{
	h_flush(mn, start, end);
}

static struct mmu_notifier_ops h_ops = {
#if defined(H_OPS_HAS_INVALIDATE_RANGE)
	.invalidate_range = h_invalidate_range_ats,
#elif defined(H_OPS_HAS_ARCH_INVALIDATE_SECONDARY_TLBS)
	.arch_invalidate_secondary_tlbs = h_invalidate_range_ats,
#else
#error no secondary TLB hook
#endif
};
EOF
"$cv" "$ct/hookswitch" >"$ct/hookswitch.out" 2>&1
check "the module's own #if between .invalidate_range and its 6.6 successor: left as it is, a note says why, no review item" \
	sh -c 'test "$1" -eq 0 && grep -q "^files changed: 0" "$2" &&
		grep -q "h.c:[0-9]*: \[6.6\] h_ops: .invalidate_range in this branch of the module.s own #if, .arch_invalidate_secondary_tlbs in another (line 14)" "$2"' \
	sh $? "$ct/hookswitch.out"
"$cv" --compat "$ct/hookswitch" >"$ct/hookswitch-compat.out" 2>&1
check "the module's own #if between hooks, --compat: compat's table" \
	grep -q "h.c:[0-9]*: \[compat\] converted: h_ops -> MNCOMPAT_MMU_NOTIFIER_OPS" "$ct/hookswitch-compat.out"

# --- a guard the conversion takes out with what it guarded ---------------
# (change_pte under #if < 6.12: the 6.10 step removes both, so the guard's
# review item, read before the steps, is no longer true of the result)
mkdir -p "$ct/staleguard"
cat >"$ct/staleguard/s.c" <<'EOF'
#include <linux/mmu_notifier.h>
#include <linux/version.h>

static int s_start(struct mmu_notifier *mn,
		   const struct mmu_notifier_range *range)
{
	return 0;
}

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
static void s_change_pte(struct mmu_notifier *mn, struct mm_struct *mm,
			 unsigned long address, pte_t pte)
{
}
#endif

static const struct mmu_notifier_ops s_ops = {
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
	.change_pte = s_change_pte,
#endif
	.invalidate_range_start = s_start,
};
EOF
"$cv" "$ct/staleguard" --quiet >"$ct/staleguard.out" 2>&1
check "a guard removed with the field it guarded: no review item about it, exit 0" \
	sh -c 'test "$1" -eq 0 && ! grep -q "\[guard\] review" "$2"' sh $? "$ct/staleguard.out"
"$cv" "$ct/staleguard" --quiet --to 6.6 >"$ct/staleguard66.out" 2>&1
check "the same guard kept (--to 6.6): still a review item" \
	grep -q 's.c:[0-9]*: \[guard\] review: #if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0) guards change_pte' \
	"$ct/staleguard66.out"

# --- a page loop in a range callback with no range_end -------------------
# (powernv npu-dma 4.12: its hook steps through [start, end] one page at a
# time; a range_start that does the same): named on every run, in every
# mode, the callback defined in another file of the module than its table.
mkdir -p "$ct/loop"
cat >"$ct/loop/hook.c" <<'EOF'
#include <linux/mmu_notifier.h>

void l_hook(struct mmu_notifier *mn, struct mm_struct *mm,
	    unsigned long start, unsigned long end)
{
	unsigned long a;

	for (a = start; a <= end; a += PAGE_SIZE)
		l_flush_va(mn, a);
}

int l_start(struct mmu_notifier *mn, const struct mmu_notifier_range *range)
{
	unsigned long a;

	for (a = range->start; a < range->end; a += PAGE_SIZE)
		l_zap_one(mn, a);
	return 0;
}
EOF
cat >"$ct/loop/ops.c" <<'EOF'
#include <linux/mmu_notifier.h>

static const struct mmu_notifier_ops l_hook_ops = {
	.invalidate_range = l_hook,
};

static const struct mmu_notifier_ops l_start_ops = {
	.invalidate_range_start = l_start,
};

int l_register(struct mmu_notifier *mn, struct mmu_notifier *mn2,
	       struct mm_struct *mm)
{
	mn->ops = &l_hook_ops;
	mn2->ops = &l_start_ops;
	return mmu_notifier_register(mn, mm) ?: mmu_notifier_register(mn2, mm);
}
EOF
for mode in native compat to4.13; do
	case $mode in
	native) set -- ;;
	compat) set -- --compat ;;
	*) set -- --to 4.13 ;;
	esac
	"$cv" "$ct/loop" --quiet "$@" >"$ct/loop-$mode.out" 2>&1
	check "a page loop in a hook and in a range_start with no range_end ($mode): one review item each, exit 3" \
		sh -c 'test "$1" -eq 3 &&
			grep -Eq "hook.c:[0-9]+: \[check\] review: l_(hook|arch_invalidate_secondary_tlbs) walks \[start, end\) one page at a time" "$2" &&
			grep -Eq "hook.c:[0-9]+: \[check\] review: l_start walks \[start, end\) one page at a time" "$2"' \
		sh $? "$ct/loop-$mode.out"
done
set --

# --- a page callback widened to [start, end): what its callees do with it --
# (umem_odp 4.11's trampoline calls through a pointer: the tool cannot
# tell whether the range reaches the device whole).
mkdir -p "$ct/widen"
cat >"$ct/widen/w.c" <<'EOF'
#include <linux/mmu_notifier.h>

struct w_item {
	void (*zap)(struct w_item *item, unsigned long start, unsigned long end);
};

static void w_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			      unsigned long address)
{
	struct w_item *item = w_item_of(mn);

	item->zap(item, address, address + PAGE_SIZE);
}

static void w_invalidate_range_start(struct mmu_notifier *mn,
				     struct mm_struct *mm,
				     unsigned long start, unsigned long end)
{
}

static const struct mmu_notifier_ops w_ops = {
	.invalidate_page = w_invalidate_page,
	.invalidate_range_start = w_invalidate_range_start,
};
EOF
"$cv" "$ct/widen" --quiet --to 4.13 >"$ct/widen.out" 2>&1
check "a page callback widened through a call the tool cannot follow: a review item names it" \
	grep -q 'review: w_invalidate_page now hands its callees the whole range \[start, end) instead of one page, and the tool cannot tell whether they act on all of it (it calls ->zap()' \
	"$ct/widen.out"

# A callee that turns the end into its own bound first (devpt's
# last = (end - 1) >> PAGE_SHIFT, then a walk that stops past it) acts on
# the whole range: widened, no review item.
mkdir -p "$ct/widen-last"
cat >"$ct/widen-last/wl.c" <<'EOF'
#include <linux/mmu_notifier.h>

static void wl_zap(struct wl *w, unsigned long start, unsigned long end)
{
	unsigned long first = start >> PAGE_SHIFT, last = (end - 1) >> PAGE_SHIFT;

	while (first <= last)
		wl_drop(w, first++);
}

static void wl_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	wl_zap(wl_of(mn), address, address + PAGE_SIZE);
}

static void wl_invalidate_range_start(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	wl_zap(wl_of(mn), start, end);
}

static const struct mmu_notifier_ops wl_ops = {
	.invalidate_page = wl_invalidate_page,
	.invalidate_range_start = wl_invalidate_range_start,
};

int wl_fault(struct wl *w, unsigned long addr)
{
	struct page *page;
	int ret = get_user_pages_fast(addr, 1, FOLL_WRITE, &page);

	if (ret == 1)
		w->pages[(addr >> PAGE_SHIFT) & 63] = page;
	return ret;
}
EOF
"$cv" "$ct/widen-last" --quiet --to 4.13 >"$ct/widen-last.out" 2>&1
check "a callee whose bound is set from the end: the page callback is widened, no review item about it" \
	sh -c 'grep -q "wl_invalidate_page uses its address only as a range" "$1" &&
		! grep -q "hands its callees the whole range\|takes one page" "$1"' sh "$ct/widen-last.out"

# --- line ends, binary files, API files -----------------------------------
mkdir -p "$ct/mixed"
# one CRLF line in an LF file: it keeps its CR, the others stay LF
awk 'NR == 3 { printf "%s\r\n", $0; next } { print }' \
	"$here/4.13-only-page/before.c" >"$ct/mixed/a.c"
"$cv" "$ct/mixed" --apply --to 4.13 >"$ct/mixed.out" 2>&1
check "mixed line ends: the CRLF line keeps its CR, the converted file is otherwise LF" \
	sh -c 'test "$(grep -c "$(printf "\r")\$" "$1")" -eq 1 &&
		tr -d "\r" <"$1" | cmp -s - "$2"' sh "$ct/mixed/a.c" \
	"$here/4.13-only-page/after.c"
mkdir -p "$ct/bin"
cp "$here/4.13-only-page/before.c" "$ct/bin/text.c"
{ cat "$here/4.13-only-page/before.c"; printf 'x\000y\n'; } >"$ct/bin/blob.c"
cp "$ct/bin/blob.c" "$ct/blob.orig"
"$cv" "$ct/bin" --apply --to 4.13 >"$ct/bin.out" 2>&1
st=$?
check "a binary file (NUL bytes) in a tree is a review item and left as it was" \
	sh -c 'test "$1" -eq 3 && grep -q "^  blob.c:1: \[convert\] review: not a text file (it has NUL bytes): not converted" "$2" &&
		cmp -s "$3" "$4"' sh "$st" "$ct/bin.out" "$ct/bin/blob.c" "$ct/blob.orig"
check "the text file next to it is converted" \
	cmp -s "$ct/bin/text.c" "$here/4.13-only-page/after.c"
"$cv" "$ct/bin/blob.c" --apply --to 4.13 >"$ct/bin1.out" 2>&1
st=$?
check "a binary FILE is refused with a clear error, nothing written" \
	sh -c 'test "$1" -eq 1 && grep -q "blob.c: not a text file (it has NUL bytes)" "$2" && cmp -s "$3" "$4"' \
	sh "$st" "$ct/bin1.out" "$ct/bin/blob.c" "$ct/blob.orig"
mkdir -p "$ct/api/include/linux" "$ct/api/mm" "$ct/api/drv"
printf '#ifndef X\nstruct mmu_notifier_ops {\n\tint x;\n};\n#endif\n' \
	>"$ct/api/include/linux/mmu_notifier.h"
printf '#include <linux/mmu_notifier.h>\nvoid __mmu_notifier_release(struct mm_struct *mm)\n{\n}\n' \
	>"$ct/api/mm/mmu_notifier.c"
printf '#include <linux/mmu_notifier.h>\nstruct mmu_notifier_ops {\n\tint x;\n};\n' \
	>"$ct/api/drv/backport_mmu_notifier.h"
cp "$here/4.13-only-page/before.c" "$ct/api/drv/d.c"
"$cv" "$ct/api" --quiet --to 4.13 >"$ct/api.out" 2>&1
check "the MMU-notifier API itself (by path or by what it defines) is named as skipped" \
	sh -c 'grep -q "^files skipped: 3$" "$1" &&
		grep -q "^  mm/mmu_notifier.c: the MMU-notifier API itself" "$1" &&
		grep -q "^  drv/backport_mmu_notifier.h: the MMU-notifier API itself" "$1" &&
		grep -q "^  drv/d.c:[0-9]*: \[4.13\] converted" "$1"' sh "$ct/api.out"

# --- names with blanks and tabs: diff headers patch -p1 takes --------------
tab=$(printf '\t')
mkdir -p "$ct/names/a dir" "$ct/names-patched/a dir"
cp "$here/4.13-only-page/before.c" "$ct/names/a dir/x y.c"
cp "$here/4.13-only-page/before.c" "$ct/names/a dir/t${tab}b.c"
cp -r "$ct/names/." "$ct/names-patched"
"$cv" "$ct/names" --to 4.13 >"$ct/names.out" 2>&1
check "names with a blank or a tab: quoted diff headers" \
	sh -c 'grep -q "^--- \"a/a dir/x y.c\"$" "$1" && grep -q "^+++ \"b/a dir/t\\\\tb.c\"$" "$1"' \
	sh "$ct/names.out"
check "names with a blank or a tab: the diff applies with patch -p1" \
	sh -c 'sed -n "/^--- /,/^== mncompat/p" "$1" | sed "\$d" | patch -s -p1 -d "$2" &&
		cmp -s "$2/a dir/x y.c" "$3" && cmp -s "$2/a dir/t	b.c" "$3"' \
	sh "$ct/names.out" "$ct/names-patched" "$here/4.13-only-page/after.c"

# --- a macro with an unbalanced brace --------------------------------------
# invalidate_page opens a loop in a macro and closes it in the code: spatch
# removes the callback only up to that brace.  No stray brace may be
# written: the file stays as it was and is named for review.
mkdir -p "$ct/brace"
cat >"$ct/brace/b.c" <<'EOF'
#include <linux/mmu_notifier.h>

struct bdev {
	struct mmu_notifier mn;
	unsigned long slot[16];
};

#define BDEV_EACH_SLOT(i) for (i = 0; i < 16; i++) {

static void bdev_drop(struct bdev *d, int i, unsigned long start,
		      unsigned long end)
{
	if (d->slot[i] >= start && d->slot[i] < end)
		d->slot[i] = 0;
}

static void bdev_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
				 unsigned long address)
{
	struct bdev *d = container_of(mn, struct bdev, mn);
	int i;

	BDEV_EACH_SLOT(i)
		bdev_drop(d, i, address, address + PAGE_SIZE);
	}
}

static void bdev_start(struct mmu_notifier *mn, struct mm_struct *mm,
		       unsigned long start, unsigned long end)
{
	struct bdev *d = container_of(mn, struct bdev, mn);
	int i;

	for (i = 0; i < 16; i++)
		bdev_drop(d, i, start, end);
}

static const struct mmu_notifier_ops bdev_ops = {
	.invalidate_page = bdev_invalidate_page,
	.invalidate_range_start = bdev_start,
};
EOF
# left_for_braces NAME FILE WHAT NOTE: convert.sh --apply on $ct/NAME/FILE
# (one file) exits 3 with the review item "FILE:1: ... NOTE" and writes
# nothing.
left_for_braces() {
	cp "$ct/$1/$2" "$ct/$1.orig"
	"$cv" "$ct/$1" --apply --to 4.13 >"$ct/$1.out" 2>&1
	lb_st=$?
	check "$3: a review item, nothing written" \
		sh -c 'test "$1" -eq 3 && grep -q "$2" "$3" && cmp -s "$4" "$5"' \
		sh "$lb_st" "^  $2:1: \\[convert\\] review: the braces of this file do not balance outside preprocessor lines $4" \
		"$ct/$1.out" "$ct/$1/$2" "$ct/$1.orig"
}
left_for_braces brace b.c "a macro with an unbalanced brace (no stray brace written)" \
	"(line 26)"
# The same with a name that starts with a TAB (the brace verdicts and the
# names are read back together: the name must come back whole).
mkdir -p "$ct/brace-tab"
cp "$ct/brace/b.c" "$ct/brace-tab/${tab}b.c"
left_for_braces brace-tab "${tab}b.c" "a name that starts with a TAB, an unbalanced brace" \
	"(line 26)"

# A function header under #if/#else whose branches do not open the same
# number of blocks (no whole definition per branch can be made of it):
# the same review item, and it says why.
mkdir -p "$ct/ifbrace"
cat >"$ct/ifbrace/x.c" <<'EOF'
#include <linux/mmu_notifier.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 0, 0)
static void x_end(struct mmu_notifier *mn, struct mm_struct *mm,
		  unsigned long start, unsigned long end)
{
#else
static void x_end(struct mmu_notifier *mn,
		  const struct mmu_notifier_range *range)
{
	unsigned long start = range->start, end = range->end;

	if (start < end) {
#endif
	x_drop(start, end);
}

static void x_page(struct mmu_notifier *mn, struct mm_struct *mm,
		   unsigned long address)
{
	x_drop(address, address + PAGE_SIZE);
}

static const struct mmu_notifier_ops x_ops = {
	.invalidate_page = x_page,
	.invalidate_range_end = x_end,
};
EOF
left_for_braces ifbrace x.c "a header split by #if/#else, unequal branches (the item names the #else branch)" \
	"(they do in the first branch of every #if): the #else or #elif branch"

# A function header under #if/#else, each branch opening the body (as
# xpmem writes its range_end): one whole definition per branch
# (unsplit.py, a [guard] note), then converted like any other.
mkdir -p "$ct/ifwhole"
sed '/^	if (start < end) {$/d' "$ct/ifbrace/x.c" |
	sed '/^$/{N;/^\n#endif$/s/^\n//}' >"$ct/ifwhole/x.c"
"$cv" "$ct/ifwhole" --apply --to 4.13 >"$ct/ifwhole.out" 2>&1
iw_st=$?
check "a header split by #if/#else: a whole definition per branch, then converted (the page callback goes, range_end covers it)" \
	sh -c 'test "$1" -le 3 && ! grep -q "braces of this file" "$2" &&
		grep -q "^  x.c:3: \[guard\] x_end: its header is split by #if/#else" "$2" &&
		grep -q "removed: x_page" "$2" &&
		test "$(grep -c "^static void x_end(" "$3")" -eq 2 &&
		! grep -q invalidate_page "$3"' \
	sh "$iw_st" "$ct/ifwhole.out" "$ct/ifwhole/x.c"

# --- the last moments of --apply -----------------------------------------
# A signal after the last rename: every file is written, the run says so
# and leaves nothing behind.
rm -rf "$ct/sig"
cp -a "$ct/sig0" "$ct/sig"
HOOK_AT=written:12 HOOK_SIG=TERM MNCOMPAT_CONVERT_TEST_HOOK=$ct/hook \
	"$cv_sig" "$ct/sig" --apply --quiet --to 4.13 >"$ct/sigw.out" 2>&1
st=$?
check "convert.sh --apply, SIGTERM after the last rename: stopped with its status" \
	test $st -gt 128
check "convert.sh --apply, SIGTERM after the last rename: says what was written" \
	grep -q '^written: 12 file(s)$' "$ct/sigw.out"
check "convert.sh --apply, SIGTERM after the last rename: all 12 converted, nothing left behind" \
	sh -c 'test "$(grep -l invalidate_range_start "$1"/*.c | wc -l)" -eq 12' sh "$ct/sig" &&
	no_leftovers "$ct/sig"
# A signal right after a staging file is created: none is left behind.
for at in created:1 created:7; do
	rm -rf "$ct/sig"
	cp -a "$ct/sig0" "$ct/sig"
	HOOK_AT=$at HOOK_SIG=INT MNCOMPAT_CONVERT_TEST_HOOK=$ct/hook \
		"$cv_sig" "$ct/sig" --apply --quiet --to 4.13 >"$ct/sigc.out" 2>&1
	st=$?
	(cd "$ct/sig" && sums .) >"$ct/sig.sum"
	check "convert.sh --apply, SIGINT when staging file $at exists: every file as before, no staging file left" \
		sh -c 'test "$1" -gt 128 && cmp -s "$2" "$3"' sh "$st" "$ct/sig0.sum" "$ct/sig.sum" &&
		no_leftovers "$ct/sig"
done
