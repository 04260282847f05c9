# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by semantic-patches/tests/run.sh (which sets here, sp, tmp and
# the ok/not_ok/check helpers): the checks of convert.sh.  The sh -c
# programs below get their values as positional parameters.
# shellcheck disable=SC2154,SC2016
cv=$sp/convert.sh
ct=$tmp/convert
series_files=$(awk '$1 !~ /^#/ && NF >= 3 { print $2 }' "$sp/series")

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
cp "$here/4.13-only-page/before.c" "$ct/clean/a.c"
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
	grep -q '^== mncompat convert: .*(up to 6.10, compat)$' "$ct/compat.out"
"$cv" "$ct/compat" --compat >"$ct/compat2.out" 2>&1
check "convert.sh --compat: second run changes nothing" \
	grep -q '^files changed: 0$' "$ct/compat2.out"
cp "$here/pipeline-compat/before.c" "$ct/atomic-range/a.c"
"$cv" "$ct/atomic-range" --atomic --to 5.0 >"$ct/atomic-range.out" 2>&1
check "convert.sh --atomic on a file with range callbacks runs every step" \
	grep -q '\[5.0\] converted: twin_range_start' "$ct/atomic-range.out"
"$cv" "$ct/compat" --compat --to 4.13 >"$ct/compat-to.out" 2>&1
st=$?
check "convert.sh --compat --to 4.13 is refused" test $st -eq 1
check "convert.sh --compat --to 4.13 says why" \
	grep -q 'newest API: no --to' "$ct/compat-to.out"
"$cv" "$ct/compat" --compat --atomic >"$ct/compat-atomic.out" 2>&1
st=$?
check "convert.sh --compat --atomic is refused" test $st -eq 1
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
cp "$here/4.13-only-page/before.c" "$ct/dash/-x/a.c"
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
	cp "$here/4.13-only-page/before.c" "$ct/rosrc/a.c"
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
		"$cv" "$ct/sig" --apply --quiet --to 4.13 >"$ct/sig.out" 2>&1
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
