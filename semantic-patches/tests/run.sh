#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/tests/run.sh [--no-coccicheck] [--kernel ENV_FILE]...
#                                     [CASE...]
#
# Host-side tests of the semantic patches and of convert.sh, TAP-like:
#   - the unit tests of mncocci.py, the Python the scripts share
#     (tests/test_mncocci.py), and of the scripts' planners (plan*.py:
#     tests/test_plan*.py);
#   - every tests/<case>/: apply the .cocci files named in its spec to
#     before.c, compare with after.c, apply again to after.c (idempotence),
#     check the expected report lines;
#   - every .cocci in the report modes (report, context, org) on all test
#     inputs (patch mode runs in the cases);
#   - flatten.sh: a script and what it #includes as one file;
#   - make coccicheck COCCI=... MODE=report|patch M=tests/ against the
#     linux-source-6.12 tree from ci/kernels/unpack-source.sh, when it is there
#     (a script that #includes as the copy flatten.sh makes: make runs
#     spatch in the tree);
#   - convert.sh behaviour (dry run, --apply, CRLF, read-only, errors,
#     --to, second run).
# Prints "ok N - name" / "not ok N - name" and a last line "cocci: N passed,
# M failed"; exits 1 when anything failed.
#
# spec lines: "cocci FILE" (in order; repeatable), "define NAME" (-D NAME
# for every cocci that declares "virtual NAME"), "report ERE" (a report
# line must match), "noreport ERE" (no report line may match), "reviews N"
# (exactly N notes are items needing review, as convert.sh counts them),
# "nobuild REASON" (an output at the newest API that is not built, and
# why: see build_cases), "unarray" (unarray.py splits an array of ops
# tables first), "unsplit" (unsplit.py makes a definition whose
# header #if/#else splits whole per branch first, as convert.sh does),
# "unguard" (unguard.py takes the version guards
# around .invalidate_page out first, as convert.sh does).
set -u

here=$(cd "$(dirname "$0")" && pwd)
sp=$(cd "$here/.." && pwd)
top=$(cd "$sp/.." && pwd)
coccicheck=yes kernel_envs=""
while [ $# -gt 0 ]; do
	case $1 in
	--no-coccicheck)
		coccicheck=no
		shift
		;;
	--kernel)
		[ $# -ge 2 ] || {
			echo "usage: semantic-patches/tests/run.sh [--no-coccicheck] [--kernel ENV_FILE]... [CASE...]" >&2
			exit 2
		}
		kernel_envs="$kernel_envs $2"
		shift 2
		;;
	*) break ;;
	esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-sp-tests.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

. "$top/ci/tap.sh"
# MNCOMPAT_PYTHON: the Python of the kit's scripts, for spatch too.
. "$top/ci/lib.sh"
python=$MNCOMPAT_PYTHON

# virtuals FILE: the virtual rules FILE declares, one a line.
virtuals() {
	sed -n 's/^virtual[[:space:]]//p' "$1" | tr -s ', ' '\n' | grep .
}

# cocci_options FILE: the "// Options:" line, as coccicheck uses it.
cocci_options() {
	sed -n 's|^// Options:||p' "$1" | head -n 1
}

# run_spatch COCCI FILE DEFINES...: patch FILE in place, notes to stderr.
run_spatch() {
	_cocci=$1 _file=$2
	shift 2
	_defs=
	for _d in "$@"; do
		# Only where the script declares it (spatch refuses the rest).
		! grep -q "^virtual $_d\$" "$_cocci" || _defs="$_defs -D $_d"
	done
	# From semantic-patches/, where spatch before 1.3.1 looks #include
	# files up.
	# shellcheck disable=SC2046,SC2086
	(cd "$sp" && spatch --python "$python" --very-quiet $(cocci_options "$_cocci") -D patch \
		$_defs --sp-file "$_cocci" --in-place "$_file" >/dev/null)
}

spec_values() {
	sed -n "s/^$1 //p" "$2"
}

# The fixture outputs the tool calls complete, built as modules: every
# case whose last step ends an API (mn-6.10-change-pte.cocci: 6.12's,
# mn-7.1-young.cocci: 7.3's, or mn-compat-ops.cocci with --compat; a case
# of the 6.15 or 7.1 step alone too), except those whose spec says
# "nobuild REASON" (output deliberately incomplete, its review items say
# why).  One kbuild pass per --kernel ENV_FILE (ci env files, the
# Debian kernels ci/test.sh prepared; nothing of a kernel is
# installed on the host) with every such after.c as a module of its own,
# W=1 and -Werror, as compat's probes are built; --compat outputs get
# compat/include and the kernel's probed config (compat/configure.sh).
build_cases() {
	for _c in $cases; do
		_s=$here/$_c/spec
		[ -f "$_s" ] || continue
		_last=$(spec_values cocci "$_s" | tail -n 1)
		case $_last in
		mn-6.10-change-pte.cocci | mn-6.15-device-exclusive.cocci | \
			mn-7.1-young.cocci | mn-compat-ops.cocci) ;;
		*) continue ;;
		esac
		if [ -n "$(spec_values nobuild "$_s")" ]; then
			echo "# $_c: not built: $(spec_values nobuild "$_s")" \
				>>"$tmp/nobuild"
			continue
		fi
		echo "$_c"
	done
}

# build_outputs CASE...: the one pass per kernel, one check per case and
# kernel.
build_outputs() {
	[ $# -gt 0 ] || return 0
	_built=0
	for _env in $kernel_envs; do
		# (in a subshell: an env file the model refuses is skipped, as
		# a kernel without a build tree is)
		_kbkv=$(kernel_fields "$_env" KERNEL_GENERATION KERNEL_RELEASE KDIR &&
			echo "${KERNEL_GENERATION:-99} $KERNEL_RELEASE $KDIR")
		_kg=${_kbkv%% *} _kbkv=${_kbkv#* }
		_kv=${_kbkv%% *} _kb=${_kbkv#* }
		[ -f "$_kb/Makefile" ] || continue
		_built=1
		_m=$tmp/build-$_kv
		mkdir -p "$_m"
		_cfg=
		_these=
		for _c in "$@"; do
			# the upstream API of 6.6+ (without compat) is for 6.6+
			if ! grep -q '^define compat$' "$here/$_c/spec" &&
				grep -q arch_invalidate_secondary_tlbs "$here/$_c/after.c" &&
				[ "$(printf '%s\n6.6\n' "$_kg" | sort -V | head -n 1)" != 6.6 ]; then
				echo "# $_c: not built against $_kv: it has the 6.6+ API (arch_invalidate_secondary_tlbs)"
				continue
			fi
			# the 6.15 and 7.1 APIs (without compat) are for those
			# kernels and later
			_api=
			if ! grep -q '^define compat$' "$here/$_c/spec"; then
				if grep -q '^cocci mn-7.1-young.cocci$' "$here/$_c/spec"; then
					_api=7.1
				elif grep -q '^cocci mn-6.15-device-exclusive.cocci$' "$here/$_c/spec"; then
					_api=6.15
				fi
			fi
			if [ -n "$_api" ] &&
				[ "$(printf '%s\n%s\n' "$_kg" "$_api" | sort -V | head -n 1)" != "$_api" ]; then
				echo "# $_c: not built against $_kv: it has the $_api+ API"
				continue
			fi
			_these="$_these $_c"
			_o=mnfx_$(echo "$_c" | tr -c 'a-zA-Z0-9_\n' '_')
			echo "obj-m += $_o.o" >>"$_m/Kbuild"
			_src=$_o
			if ! grep -q MODULE_LICENSE "$here/$_c/after.c"; then
				# a fragment: its module gets the license from a
				# second object
				_src=${_o}_src
				printf '%s\n' '#include <linux/module.h>' \
					'MODULE_LICENSE("GPL");' \
					'MODULE_DESCRIPTION("semantic-patches fixture");' \
					>"$_m/${_o}_lic.c"
				echo "$_o-y := $_src.o ${_o}_lic.o" >>"$_m/Kbuild"
			fi
			cp "$here/$_c/after.c" "$_m/$_src.c"
			if grep -q '^define compat$' "$here/$_c/spec"; then
				if [ -z "$_cfg" ]; then
					_cfg=$tmp/config-$_kv
					"$top/compat/configure.sh" "$_kb" "$_cfg" \
						>"$_m/configure.log" 2>&1 ||
						_cfg=$tmp/no-config
				fi
				echo "CFLAGS_$_src.o := -I$top/compat/include -I$_cfg" \
					>>"$_m/Kbuild"
			fi
		done
		# (-Wno-missing-prototypes/-declarations: a fixture's non-static entry points,
		# such as sp_fault(), have no header; the tool adds none)
		echo 'ccflags-y += -Werror -Wno-missing-prototypes -Wno-missing-declarations' >>"$_m/Kbuild"
		nice make -k -s -j"$par" -C "$_kb" M="$_m" W=1 >"$_m/log" 2>&1
		for _c in $_these; do
			_o=mnfx_$(echo "$_c" | tr -c 'a-zA-Z0-9_\n' '_')
			grep -E "$_o(_src|_lic)?[.\"]" "$_m/log" >"$_m/$_o.log"
			if [ -f "$_m/$_o.o" ] &&
				! grep -Eq 'warning:|error:|ERROR' "$_m/$_o.log"; then
				ok "$_c: after.c builds against $_kv (W=1, -Werror)"
			else
				cat "$_m/configure.log" >>"$_m/$_o.log" 2>/dev/null
				not_ok "$_c: after.c builds against $_kv (W=1, -Werror)" \
					"$_m/$_o.log"
			fi
		done
	done
	[ $_built -eq 1 ] || echo "# no --kernel: fixture builds skipped"
}

# --- 0. the Python of the scripts: mncocci.py, which they share, and ---
# their planners (plan*.py); test_X.py tests X.py.
for unit in test_mncocci.py test_plan413.py test_plan413call.py test_plan419.py \
	test_plan50.py test_plancompat.py test_plan615.py test_plan71.py; do
	mod=${unit#test_}
	"$python" "$here/$unit" --tap >"$tmp/unit.out" 2>&1
	unit_status=$?
	sed -n '/^# /,$p' "$tmp/unit.out" >"$tmp/unit.trace"
	while read -r st name; do
		case $st in
		ok) ok "$mod: $name" ;;
		not-ok) not_ok "$mod: $name" "$tmp/unit.trace" ;;
		esac
	done <"$tmp/unit.out"
	if [ $unit_status -ne 0 ] && ! grep -q '^not-ok ' "$tmp/unit.out"; then
		not_ok "$mod: the unit tests run" "$tmp/unit.out"
	fi
done

# --- 1. cases ---------------------------------------------------------
cases=$*
if [ -z "$cases" ]; then
	cases=$(cd "$here" && for d in */; do
		[ -f "$d/spec" ] && echo "${d%/}"
	done)
fi

# MNCOMPAT_TEST_JOBS spatch jobs at a time (default: one per CPU): each
# case's runs, then its checks in order.
par=${MNCOMPAT_TEST_JOBS:-$(nproc)}
jobs_running=
# bg CMD...: run CMD in the background, at most $par at a time.
bg() {
	"$@" &
	jobs_running="$jobs_running $!"
	# shellcheck disable=SC2086
	set -- $jobs_running
	if [ $# -ge "$par" ]; then
		wait "$1"
		shift
		jobs_running=$*
	fi
}

# prepare_case CASE: the spatch runs of CASE, status in its work dir.
prepare_case() {
	pc_dir=$here/$1
	pc_work=$tmp/$1
	pc_defs=$(spec_values define "$pc_dir/spec")
	mkdir -p "$pc_work"
	cp "$pc_dir/before.c" "$pc_work/run1.c"
	cp "$pc_dir/after.c" "$pc_work/run2.c"
	: >"$pc_work/notes"
	pc_st=0
	# "unarray", "unsplit", "unguard": unarray.py, unsplit.py, then
	# unguard.py first, as convert.sh runs them.
	if grep -q '^unarray$' "$pc_dir/spec"; then
		"$python" "$sp/unarray.py" "$pc_work/run1.c" >>"$pc_work/notes" 2>&1 ||
			pc_st=1
		"$python" "$sp/unarray.py" "$pc_work/run2.c" >/dev/null 2>&1 ||
			pc_st=1
	fi
	if grep -q '^unsplit$' "$pc_dir/spec"; then
		"$python" "$sp/unsplit.py" "$pc_work/run1.c" >>"$pc_work/notes" 2>&1 ||
			pc_st=1
		"$python" "$sp/unsplit.py" "$pc_work/run2.c" >/dev/null 2>&1 ||
			pc_st=1
	fi
	if grep -q '^unguard$' "$pc_dir/spec"; then
		: >"$pc_work/unguarded"
		"$python" "$sp/unguard.py" --record "$pc_work/unguarded" \
			"$pc_work/run1.c" >>"$pc_work/notes" 2>&1 || pc_st=1
		"$python" "$sp/unguard.py" "$pc_work/run2.c" >/dev/null 2>&1 ||
			pc_st=1
		export MNCOMPAT_UNGUARDED="$pc_work/unguarded"
	fi
	for pc_cocci in $(spec_values cocci "$pc_dir/spec"); do
		# shellcheck disable=SC2086
		run_spatch "$sp/$pc_cocci" "$pc_work/run1.c" $pc_defs \
			2>>"$pc_work/notes" || pc_st=1
		# shellcheck disable=SC2086
		run_spatch "$sp/$pc_cocci" "$pc_work/run2.c" $pc_defs \
			2>/dev/null || pc_st=1
	done
	echo "$pc_st" >"$pc_work/status"
}

for c in $cases; do
	[ ! -f "$here/$c/spec" ] || bg prepare_case "$c"
done
wait

review_re='\] review:|\] (converted|removed|bracketed):.*[^a-z_]review'
for c in $cases; do
	d=$here/$c
	spec=$d/spec
	[ -f "$spec" ] || { not_ok "$c: no spec"; continue; }
	work=$tmp/$c
	if [ "$(cat "$work/status")" -ne 0 ]; then
		not_ok "$c: spatch failed" "$work/notes"
		continue
	fi
	if diff -u "$d/after.c" "$work/run1.c" >"$work/diff"; then
		ok "$c: before.c converts to after.c"
	else
		not_ok "$c: before.c converts to after.c" "$work/diff"
	fi
	if diff -u "$d/after.c" "$work/run2.c" >"$work/diff2"; then
		ok "$c: idempotent on after.c"
	else
		not_ok "$c: idempotent on after.c" "$work/diff2"
	fi
	spec_values report "$spec" >"$work/want"
	while IFS= read -r re; do
		if grep -Eq -- "$re" "$work/notes"; then
			ok "$c: report /$re/"
		else
			not_ok "$c: report /$re/" "$work/notes"
		fi
	done <"$work/want"
	spec_values noreport "$spec" >"$work/nowant"
	while IFS= read -r re; do
		if grep -Eq -- "$re" "$work/notes"; then
			not_ok "$c: no report /$re/" "$work/notes"
		else
			ok "$c: no report /$re/"
		fi
	done <"$work/nowant"
	want_rev=$(spec_values reviews "$spec")
	if [ -n "$want_rev" ]; then
		# convert.sh's test for an item needing review.
		nrev=$(grep -cE "$review_re" "$work/notes")
		if [ "$nrev" -eq "$want_rev" ]; then
			ok "$c: $want_rev item(s) needing review"
		else
			not_ok "$c: $want_rev item(s) needing review, not $nrev" \
				"$work/notes"
		fi
	fi
	# One verdict per callback, and every note says it (verdicts.py).
	if "$python" "$here/verdicts.py" "$work/notes" >"$work/verdicts" 2>&1; then
		ok "$c: the notes agree with their verdicts"
	else
		not_ok "$c: the notes agree with their verdicts" "$work/verdicts"
	fi
done
# shellcheck disable=SC2046 # case names, no blanks
build_outputs $(build_cases)
[ ! -f "$tmp/nobuild" ] || cat "$tmp/nobuild"
# verdicts.py must see the contradictions it is there for (issue 31's
# MPSS note among them).
if "$python" "$here/verdicts.py" --self-test >"$tmp/verdicts-self" 2>&1; then
	ok "verdicts.py: flags a note whose words contradict its verdict"
else
	not_ok "verdicts.py: flags a note whose words contradict its verdict" \
		"$tmp/verdicts-self"
fi

# --- 2. every .cocci in the report modes with plain spatch ------------
mkdir -p "$tmp/inputs"
for f in "$here"/*/before.c; do
	c=$(basename "$(dirname "$f")")
	cp "$f" "$tmp/inputs/$c.c"
done
# run_mode COCCI MODE: spatch -D MODE on every input, status to a file.
run_mode() {
	_o=$tmp/mode-$(basename "$1")-$2
	# shellcheck disable=SC2046,SC2086
	if (cd "$sp" && spatch --python "$python" --very-quiet $(cocci_options "$1") -D "$2" \
		--sp-file "$1" --dir "$tmp/inputs") >"$_o.out" 2>"$_o.err" &&
		! grep -qi 'error' "$_o.err"; then
		echo 0 >"$_o.st"
	else
		echo 1 >"$_o.st"
	fi
}
# (patch mode runs in the cases above, on the inputs it has work on.)
for cocci in "$sp"/*.cocci; do
	for mode in report context org; do
		bg run_mode "$cocci" "$mode"
	done
done
wait
for cocci in "$sp"/*.cocci; do
	name=$(basename "$cocci")
	for mode in report context org; do
		if [ "$(cat "$tmp/mode-$name-$mode.st")" -eq 0 ]; then
			ok "$name: spatch -D $mode runs"
		else
			not_ok "$name: spatch -D $mode runs" "$tmp/mode-$name-$mode.err"
		fi
	done
	case $name in
	*.cocci)
		if grep -q '^// Confidence:' "$cocci" &&
			grep -q '^// Options:' "$cocci" &&
			grep -q '^/// ' "$cocci" &&
			head -n 1 "$cocci" | grep -q 'SPDX-License-Identifier' &&
			[ "$(virtuals "$cocci" | grep -cxE 'patch|report|context|org')" -eq 4 ]; then
			ok "$name: coccicheck header conventions"
		else
			not_ok "$name: coccicheck header conventions"
		fi
		;;
	esac
done

# --- 3. flatten.sh: one file, run from any directory -----------------
# (what convert.sh and make coccicheck run)
fc=$tmp/flatten
mkdir -p "$fc/inc"
cp "$here/6.10-change-pte/before.c" "$fc/in.c"
opts=$(cocci_options "$sp/mn-6.10-change-pte.cocci")
# shellcheck disable=SC2086
if "$sp/flatten.sh" "$sp/mn-6.10-change-pte.cocci" >"$fc/6.10.cocci" 2>"$fc/err" &&
	! grep -q '^#include "' "$fc/6.10.cocci" &&
	(cd / && spatch --python "$python" --very-quiet $opts -D patch --sp-file "$fc/6.10.cocci" \
		--in-place "$fc/in.c") >>"$fc/err" 2>&1 &&
	diff -u "$here/6.10-change-pte/after.c" "$fc/in.c" >>"$fc/err"; then
	ok "flatten.sh: the 6.10 script and its #include as one file give after.c from /"
else
	not_ok "flatten.sh: the 6.10 script and its #include as one file give after.c from /" "$fc/err"
fi
printf '#include "inc/none.cocci"\nvirtual patch\n\n@@\n@@\n- f();\n' >"$fc/bad.cocci"
if "$sp/flatten.sh" "$fc/bad.cocci" >"$fc/bad.out" 2>"$fc/bad.err"; then
	not_ok "flatten.sh: an #include that is not there is an error" "$fc/bad.out"
elif [ -s "$fc/bad.out" ] || ! grep -q 'inc/none.cocci' "$fc/bad.err"; then
	not_ok "flatten.sh: an #include that is not there is an error" "$fc/bad.err"
else
	ok "flatten.sh: an #include that is not there is an error, named, and nothing written"
fi

# --- 4. make coccicheck in a packaged tree ----------------------------
tree=
if [ $coccicheck = yes ]; then
	tree=$("$top/ci/kernels/unpack-source.sh" 6.12 2>/dev/null) || tree=
fi
if [ -n "$tree" ] && [ -f "$tree/scripts/coccicheck" ]; then
	mkdir "$tmp/flat"
	for cocci in "$sp"/*.cocci; do
		name=$(basename "$cocci")
		# make runs spatch in the kernel tree: a script that #includes
		# runs as the copy flatten.sh makes, the others as they are.
		run=$cocci
		if grep -q '^#include "' "$cocci"; then
			run=$tmp/flat/$name
			if ! "$sp/flatten.sh" "$cocci" >"$run" 2>"$tmp/cc.err"; then
				not_ok "$name: flatten.sh" "$tmp/cc.err"
				continue
			fi
		fi
		for mode in report patch; do
			if make -s -C "$tree" coccicheck COCCI="$run" \
				MODE=$mode M="$tmp/inputs" J=2 \
				>"$tmp/cc.out" 2>"$tmp/cc.err" &&
				! grep -q 'coccicheck failed' "$tmp/cc.out" \
					"$tmp/cc.err" &&
				if [ $mode = patch ]; then
					grep -q '^+++ ' "$tmp/cc.out"
				else
					grep -q ': \[[0-9a-z.]*\] ' "$tmp/cc.out"
				fi; then
				ok "$name: make coccicheck MODE=$mode"
			else
				cat "$tmp/cc.err" >>"$tmp/cc.out"
				not_ok "$name: make coccicheck MODE=$mode" \
					"$tmp/cc.out"
			fi
		done
	done
else
	echo "# make coccicheck checks skipped: no linux-source-6.12 tree"
fi

# --- 5. convert.sh ----------------------------------------------------
. "$here/convert-checks.sh"

tap_end cocci
