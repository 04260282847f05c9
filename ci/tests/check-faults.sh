#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-faults.sh
# The faults of issue 45 a user meets by hand, each reproduced (the
# `faults` part of make test; the kernel cache's own, two preparations at
# once and the like, are the cache-faults part's):
#   - hostile names for the front end (make matrix DRIVER=..., TESTS,
#     CONVERT, KERNELS, MNCOMPAT_OUT, a path with a TAB or a newline):
#     one error line, exit non-zero, nothing run, nothing written;
#   - the guest's plan is data: one boot on deb-6.12 of a plan whose step
#     names are shell code (x;true, a(b), $(...)): every step runs as a
#     step, nothing else runs, init lives to the end;
#   - semantic-patches/convert.sh: two --apply runs on one driver held
#     together by its test hook (MNCOMPAT_CONVERT_TEST_HOOK): the second
#     waits, the tree ends all new; --jobs 1 and --jobs 2 give the same
#     output for a module whose files define callbacks of the same name;
#     a second --apply keeps the 5.12 pairing item; invalidate_page in a
#     comment, a string or under #if 0 is no [check] item; a TAB in a
#     file name is converted, a newline refused with one error line; a
#     file without a final newline stays so; --apply | head -1 still
#     writes and says so; bad option values exit 2 -- with nothing left
#     behind in the tree or in TMPDIR.
# Output: "ok N - ...", then "faults: N passed, M failed".
# The sh -c programs get their values as parameters; the step names are
# shell code on purpose.
# shellcheck disable=SC2016
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

base=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/faults
rm -rf "$base"
mkdir -p "$base/tmp"
base=$(cd "$base" && pwd)
cv=$MNCOMPAT_TOP/semantic-patches/convert.sh
cases=$MNCOMPAT_TOP/semantic-patches/tests
fixtures=$MNCOMPAT_TOP/ci/tests/fixtures
tab=$(printf '\t')
nl='
'
start=$(date +%s)

# refused CASE WHAT CMD...: CMD exits non-zero with exactly one "error:"
# line, which says WHAT; $base/CASE.marker (what a name's shell code
# would create) and $base/CASE.out (MNCOMPAT_OUT) do not exist after it.
refused() {
	_c=$1 _what=$2
	shift 2
	_rc=0
	MNCOMPAT_OUT=${out_dir:-$base/$_c.out} "$@" >"$base/$_c.log" 2>&1 || _rc=$?
	_errors=$(grep -c 'error:' "$base/$_c.log" || true)
	if [ "$_rc" -ne 0 ] && [ "$_errors" -eq 1 ] &&
		grep -q "error: .*$_what" "$base/$_c.log" &&
		[ ! -e "$base/$_c.marker" ] && [ ! -e "$base/$_c.out" ]; then
		ok "$_c: exit $_rc, nothing run or written: $(grep 'error:' "$base/$_c.log" | cut -c1-150)"
	else
		not_ok "$_c: exit $_rc, $_errors error lines (want 1 saying '$_what'), marker $([ -e "$base/$_c.marker" ] && echo made || echo absent), output $([ -e "$base/$_c.out" ] && echo written || echo absent)" \
			"$base/$_c.log"
	fi
}

# --- the front end: names from a user are data ----------------------------
m=$base/names
mkdir -p "$m/tests-semicolon" "$m/tests-paren" "$m/a b" "$m/tab${tab}dir" "$m/nl${nl}dir"
printf '#!/bin/sh\ntouch %s\n' "$base/tests-semicolon.marker" >"$m/tests-semicolon/x;true.sh"
printf '#!/bin/sh\ntouch %s\n' "$base/tests-paren.marker" >"$m/tests-paren/a(b).sh"
chmod 755 "$m/tests-semicolon/x;true.sh" "$m/tests-paren/a(b).sh"
mk() {
	make -s -C "$MNCOMPAT_TOP" matrix KERNELS=deb-6.12 "$@"
}
refused make-driver-semicolon "no driver directory 'nope;touch" \
	mk "DRIVER=nope;touch $base/make-driver-semicolon.marker"
refused make-driver-make-code "no driver directory '\$(shell touch" \
	mk "DRIVER=\$(shell touch $base/make-driver-make-code.marker)"
refused make-driver-blank "no driver directory '$m/a b/plain'" \
	mk "DRIVER=$m/a b/plain"
refused make-tests-semicolon "its name 'x;true'" \
	mk "DRIVER=$fixtures/plain" "TESTS=$m/tests-semicolon"
refused make-tests-paren "its name 'a(b)'" \
	mk "DRIVER=$fixtures/plain" "TESTS=$m/tests-paren"
refused make-convert "CONVERT='x;touch" \
	mk "DRIVER=$fixtures/plain" "CONVERT=x;touch $base/make-convert.marker"
refused make-kernels "KERNELS='deb-6.12;touch" \
	mk "DRIVER=$fixtures/plain" "KERNELS=deb-6.12;touch $base/make-kernels.marker"
refused driver-tab "DRIVER '$m/tab?dir'" \
	"$MNCOMPAT_TOP/ci/run/driver-matrix.sh" "$m/tab${tab}dir"
refused driver-newline "DRIVER '$m/nl?dir'" \
	"$MNCOMPAT_TOP/ci/run/driver-matrix.sh" "$m/nl${nl}dir"
cache_nl="$base/cache${nl}dir"
refused cache-newline "MNCOMPAT_CACHE='$base/cache?dir'" \
	env MNCOMPAT_CACHE="$cache_nl" "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" deb-6.12
refused cache-blank "MNCOMPAT_CACHE='$base/cache dir'" \
	mk "DRIVER=$fixtures/plain" "MNCOMPAT_CACHE=$base/cache dir"
check "cache-newline, cache-blank: neither cache folder is made" \
	sh -c 'test ! -e "$1" && test ! -e "$2"' sh "$cache_nl" "$base/cache dir"
out_dir="$base/out dir"
refused out-blank "output directory '$base/out dir'" \
	"$MNCOMPAT_TOP/ci/run/driver-matrix.sh" "$fixtures/plain"
out_dir=
check "out-blank: the output directory with a blank is not made" \
	test ! -e "$base/out dir"

# --- the guest's plan is data ----------------------------------------------
# One boot of a hand-staged suite (the front end and ci/matrix_plan.py
# refuse these names, so only a staging by hand gets them here): its steps
# are named as shell code and run scripts that print one KTAP line, and
# one has an action init does not know.
g=$base/guest
suite=$g/plan-names
mkdir -p "$suite/staging/modules" "$suite/staging/tests"
n=0
for name in 'x;true' 'a(b)' '$(reboot)' "q'uote"; do
	n=$((n + 1))
	printf '#!/bin/sh\necho "1..1"\necho "ok 1 step%s"\n' "$n" \
		>"$suite/staging/tests/t$n"
	chmod 755 "$suite/staging/tests/t$n"
	printf 'step\t%s\trun\t/tests/t%s\n' "$name" "$n" >>"$suite/staging/plan"
done
printf 'step\todd-action\tsource\t/tests/t1\n' >>"$suite/staging/plan"
printf 'timeout_s=120\nqemu_args=\nappend=\n' >"$suite/boot.conf"
if env_file=$("$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" deb-6.12 2>"$g.prepare.log") &&
	kernel_fields "$env_file" VMLINUZ KERNEL_APPEND; then
	"$MNCOMPAT_TOP/ci/run/boot-suites.sh" deb-6.12 "$VMLINUZ" "$KERNEL_APPEND" \
		"$g/boot" "$suite" >"$g.log" 2>&1 || true
	rows=$suite/results.tsv
	check "guest plan: the boot ends by itself (status done), init never died" \
		sh -c 'test "$(cat "$1")" = done && ! grep -q "Attempted to kill init\|Kernel panic" "$2"' \
		sh "$g/boot/status" "$g/boot/console.log"
	n=0
	for name in 'x;true' 'a(b)' '$(reboot)' "q'uote"; do
		n=$((n + 1))
		check "guest plan: the step named $name ran as a step (its KTAP line passes)" \
			grep -qF "plan-names/$name/step$n${tab}pass" "$rows"
	done
	check "guest plan: a step whose action init does not know fails (it is not run as shell)" \
		sh -c 'grep "odd-action" "$1" | grep -qv pass' sh "$rows"
else
	not_ok "guest plan: deb-6.12 could not be prepared" "$g.prepare.log"
fi

# --- convert.sh ------------------------------------------------------------
# Every run with TMPDIR of its own: nothing may be left there.
c=$base/convert
mkdir -p "$c"
TMPDIR=$base/tmp
export TMPDIR
# sums DIR: names, modes and contents of every file under DIR.
sums() {
	(cd "$1" && find . -exec ls -ld {} + | awk '{ print $1, $NF }' | sort &&
		find . -type f -exec cksum {} + | sort)
}
nothing_left() {
	test -z "$(find "$@" -name '.*mncompat*' -print)" &&
		test -z "$(ls -A "$TMPDIR")"
}

# Two --apply runs held together: the hook stops the first at its last
# staged file until the second says it waits for the lock (at most 30 s).
mkdir -p "$c/two0"
for i in 1 2 3; do
	sed "s/mirror_/m${i}_/g" "$cases/4.13-only-page/before.c" >"$c/two0/f$i.c"
done
cat >"$c/hold" <<'EOF'
#!/bin/sh
# MNCOMPAT_CONVERT_TEST_HOOK: at stage 3, wait until the other run waits.
[ "$1:$2" = stage:3 ] || exit 0
i=0
while ! grep -q 'waiting' "$OTHER_ERR" 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
EOF
chmod 755 "$c/hold"
cp -a "$c/two0" "$c/two"
OTHER_ERR=$c/two-b.err MNCOMPAT_CONVERT_TEST_HOOK=$c/hold \
	"$cv" --apply --quiet --to 4.13 "$c/two" >"$c/two-a.out" 2>"$c/two-a.err" &
a_pid=$!
OTHER_ERR=$c/two-a.err MNCOMPAT_CONVERT_TEST_HOOK=$c/hold \
	"$cv" --apply --quiet --to 4.13 "$c/two" >"$c/two-b.out" 2>"$c/two-b.err" &
b_pid=$!
a_rc=0 b_rc=0
wait "$a_pid" || a_rc=$?
wait "$b_pid" || b_rc=$?
cat "$c/two-a.out" "$c/two-a.err" "$c/two-b.out" "$c/two-b.err" >"$c/two.log"
check "two --apply at once: one waited for the other (exits $a_rc, $b_rc)" \
	sh -c 'test "$(cat "$1" "$2" | grep -c "waiting for it to end")" -eq 1 &&
		test "$3" -ne 1 && test "$3" -le 3 && test "$4" -ne 1 && test "$4" -le 3' \
	sh "$c/two-a.err" "$c/two-b.err" "$a_rc" "$b_rc"
check "two --apply at once: one wrote 3 files, the other then found nothing to change" \
	sh -c 'grep -q "^written: 3 file(s)$" "$1" && grep -q "^files changed: 0$" "$1"' \
	sh "$c/two.log"
check "two --apply at once: the tree is all new, nothing left behind" \
	sh -c 'test "$(grep -l invalidate_range_start "$1"/f*.c | wc -l)" -eq 3' sh "$c/two"
check "two --apply at once: no staged or kept-old file, nothing in TMPDIR" nothing_left "$c/two"

# One input, one output: two files defining callbacks of the same name.
mkdir -p "$c/same"
cp "$cases/4.13-counter-unread/before.c" "$c/same/a.c"
cp "$cases/4.13-counter-unread/before.c" "$c/same/b.c"
for run in j1:1 j2a:2 j2b:2; do
	"$cv" --to 4.13 --jobs "${run#*:}" "$c/same" >"$c/same.${run%:*}" 2>&1 || true
done
check "--jobs 1 and --jobs 2 (twice): the same patch and report, byte for byte" \
	sh -c 'cmp -s "$1.j1" "$1.j2a" && cmp -s "$1.j1" "$1.j2b"' sh "$c/same"
check "--jobs: each file's helper has its own name, unnumbered" \
	sh -c 'test "$(grep -c "^+static void guest_invalidate_page_range_end(" "$1")" -eq 2' \
	sh "$c/same.j1"

# Review items that stay: the 5.12 pairing item after a second --apply.
mkdir -p "$c/rerun"
cp "$cases/4.19-blockable/before.c" "$c/rerun/a.c"
r1=0 r2=0
"$cv" --apply --quiet "$c/rerun" >"$c/rerun1.out" 2>&1 || r1=$?
"$cv" --apply --quiet "$c/rerun" >"$c/rerun2.out" 2>&1 || r2=$?
check "a second --apply keeps the 5.12 pairing item (exit $r1 then $r2)" \
	sh -c 'test "$1" -eq 3 && test "$2" -eq 3 &&
		grep -q "shadow_range_start returns -EAGAIN when !blockable" "$3" &&
		grep -q "\[check\] review: shadow_range_start returns -EAGAIN here" "$4" &&
		grep -q "^files changed: 0$" "$4"' sh "$r1" "$r2" "$c/rerun1.out" "$c/rerun2.out"
check "the first --apply names the pairing hazard once" \
	test "$(grep -c 'shadow_range_start returns -EAGAIN' "$c/rerun1.out")" -eq 1

# ... and the 4.13 step's per-page loop: the loop it wrote is still there,
# so a second run names it from the code (hazards.py), not from the step.
mkdir -p "$c/rerun-pages"
cp "$cases/4.13-shared-page-loop/before.c" "$c/rerun-pages/a.c"
r1=0 r2=0
"$cv" --apply --quiet "$c/rerun-pages" >"$c/pages1.out" 2>&1 || r1=$?
"$cv" --apply --quiet "$c/rerun-pages" >"$c/pages2.out" 2>&1 || r2=$?
check "a second --apply keeps the per-page loop item (exit $r1 then $r2)" \
	sh -c 'test "$1" -eq 3 && test "$2" -eq 3 &&
		grep -q "\[4.13\] review: pdev_invalidate_page takes one page" "$3" &&
		grep -q "\[check\] review: pdev_invalidate_range_start, pdev_invalidate_range_end, pdev_invalidate_page_range_end walk \[start, end) one page at a time (calling pdev_invalidate_page" "$4" &&
		! grep -q "\[check\].*calling pdev_invalidate_page" "$3" &&
		grep -q "^files changed: 0$" "$4"' sh "$r1" "$r2" "$c/pages1.out" "$c/pages2.out"
check "both runs name the driver's own page loop in pdev_range_start" \
	sh -c 'grep -q "\[check\] review: pdev_range_start walks \[start, end) one page at a time" "$1" &&
		grep -q "\[check\] review: pdev_range_start walks \[start, end) one page at a time" "$2"' \
	sh "$c/pages1.out" "$c/pages2.out"

# invalidate_page in a comment, a string or under #if 0: no [check] item.
mkdir -p "$c/words"
cat >"$c/words/w.c" <<'EOF'
#include <linux/mmu_notifier.h>

/* once: .invalidate_page = w_page, and mmu_notifier_invalidate_page() */
static const char *w_why = "mmu_notifier_invalidate_page( is gone";

#if 0
static const struct mmu_notifier_ops w_old_ops = {
	.invalidate_page = w_page,
};
#endif

static int w_start(struct mmu_notifier *mn,
		   const struct mmu_notifier_range *range)
{
	return 0;	/* mmu_notifier_invalidate_page(mm, a) */
}

static const struct mmu_notifier_ops w_ops = {
	.invalidate_range_start = w_start,	// not .invalidate_page = x
};
EOF
w=0
"$cv" --quiet "$c/words" >"$c/words.out" 2>&1 || w=$?
check "invalidate_page in a comment, a string, under #if 0: exit 0, no [check] item" \
	sh -c 'test "$1" -eq 0 && ! grep -q "\[check\]" "$2"' sh "$w" "$c/words.out"

# Odd names: a TAB is carried, a newline refused.
mkdir -p "$c/tab"
cp "$cases/4.13-only-page/before.c" "$c/tab/t${tab}b.c"
t=0
"$cv" --apply --quiet --to 4.13 "$c/tab" >"$c/tab.out" 2>&1 || t=$?
check "a TAB in a file name: converted, the report names it, nothing left behind" \
	sh -c 'test "$1" -eq 3 && grep -q invalidate_range_start "$2" &&
		grep -qF "  t	b.c:39: [4.13] converted" "$3" &&
		grep -q "^written: 1 file(s)$" "$3"' sh "$t" "$c/tab/t${tab}b.c" "$c/tab.out" &&
	nothing_left "$c/tab"
mkdir -p "$c/newline"
cp "$cases/4.13-only-page/before.c" "$c/newline/n${nl}l.c"
sums "$c/newline" >"$c/newline.sum0"
t=0
"$cv" --apply --to 4.13 "$c/newline" >"$c/newline.out" 2>&1 || t=$?
sums "$c/newline" >"$c/newline.sum1"
check "a newline in a file name: exit 1, one error line naming it, nothing changed or left" \
	sh -c 'test "$1" -eq 1 && test "$(wc -l <"$2")" -eq 1 &&
		grep -qF "error: '"'"'$3/n\\nl.c'"'"': a name with a newline" "$2" && cmp -s "$4" "$5"' \
	sh "$t" "$c/newline.out" "$c/newline" "$c/newline.sum0" "$c/newline.sum1" &&
	nothing_left "$c/newline"

# A file without a final newline keeps it so, and gets no note about #if.
mkdir -p "$c/nonl"
printf '%s' "$(cat "$cases/4.13-only-page/before.c")" >"$c/nonl/a.c"
"$cv" --apply --to 4.13 "$c/nonl" >"$c/nonl.out" 2>&1 || true
check "a file without a final newline: converted, still without it, no #if note" \
	sh -c 'grep -q invalidate_range_start "$1" && test -n "$(tail -c1 "$1")" &&
		! grep -q "#if ... #endif" "$2"' sh "$c/nonl/a.c" "$c/nonl.out"

# A reader that goes away: --apply still writes, and says so.
mkdir -p "$c/head"
cp "$cases/4.13-only-page/before.c" "$c/head/a.c"
"$cv" --apply --to 4.13 "$c/head" 2>"$c/head.err" | head -n 1 >"$c/head.out"
check "--apply | head -1: every file written, stderr says so, nothing left behind" \
	sh -c 'grep -q invalidate_range_start "$1" &&
		grep -q "standard output was closed before the report ended: written: 1 file(s)" "$2"' \
	sh "$c/head/a.c" "$c/head.err" && nothing_left "$c/head"

# Bad option values are usage errors (exit 2), one error line each.
for args in "--jobs x" "--jobs 0" "--to 9.9" "--native --compat"; do
	t=0
	# shellcheck disable=SC2086 # the options, split
	"$cv" $args "$c/head" >"$c/opt.out" 2>&1 || t=$?
	check "convert.sh $args: exit 2, one error line" \
		sh -c 'test "$1" -eq 2 && test "$(grep -c "error:" "$2")" -eq 1' sh "$t" "$c/opt.out"
done
check "convert.sh: nothing left in TMPDIR after all these runs" \
	test -z "$(ls -A "$TMPDIR")"

echo "faults wall time: $(($(date +%s) - start))s"
tap_end faults
