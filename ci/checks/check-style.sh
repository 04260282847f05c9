#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/checks/check-style.sh
# House style: shellcheck on every shell script, pyflakes3 and pycodestyle
# on every .py file, checkpatch (from the packaged 6.12 tree) on every C
# file but the semantic-patch test inputs, and the API floor: kernel code
# outside compat/ uses nothing Linux 4.4 lacks (ci/checks/check-api-floor.sh,
# ci/checks/api-floor.list) and the check catches a planted use
# (ci/tests/check-api-floor-controls.sh).
# (W=1 and sparse run with every module build, see ci/run/build-module.sh.)
set -eu
. "$(dirname "$0")/../lib.sh"

cd "$MNCOMPAT_TOP"
checkpatch=$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" 6.12)/scripts/checkpatch.pl
. "$MNCOMPAT_TOP/ci/tap.sh"

scripts=$(git ls-files '*.sh' ci/run/guest/init .ci/run)
# shellcheck disable=SC2086
check "shellcheck ($(echo $scripts | wc -w) scripts)" shellcheck $scripts
# What a program answers a script (ci/matrix_plan.py's kernel fields, a
# row, a suite's boot.conf) is read as data, a value a line: no script
# runs text through eval.
# shellcheck disable=SC2086
check "no script runs text as shell ($(echo $scripts | wc -w) scripts)" \
	sh -c '! grep -nE "^[^#]*\<eval\>" "$@"' no-eval $scripts
# One name, one script: two scripts or programs of one name are told
# apart only by their folders (run.sh excepted: each component's tests
# start at its own run.sh).
# names_once: the paths on stdin name no .sh or .py file twice; names
# each one that is.
names_once() {
	awk -F/ '$NF ~ /[.](sh|py)$/ && $NF != "run.sh" && n[$NF]++ == 1 {
		print "  named twice: " $NF; bad = 1 } END { exit bad }'
}
scripts_named_once() {
	git ls-files | names_once
}
planted_twin_found() {
	! { git ls-files && echo ci/planted/lib.sh; } | names_once >/dev/null
}
check "no two scripts share a name" scripts_named_once
check "no two scripts share a name: a planted twin fails the check" planted_twin_found

# pycodestyle: its defaults (they leave out W503/W504), but lines up to
# 100 columns, the limit checkpatch holds the C to, not PEP 8's 79.
# The Python inside .cocci files (@script:python@) is not checked.
py_files=$(git ls-files '*.py')
# shellcheck disable=SC2086
check "pyflakes3 ($(echo $py_files | wc -w) Python files)" pyflakes3 $py_files
# shellcheck disable=SC2086
check "pycodestyle ($(echo $py_files | wc -w) Python files)" \
	pycodestyle --max-line-length=100 $py_files

# checkpatch: one perl per CPU over a share of the files of one --ignore
# set (a perl per file cost twice the CPU), each into its own output. A
# file fails when a line of the output names it (--terse: FILE:LINE:);
# a run must also say "total:" once per file it was given and exit 0
# unless it named a file: a checkpatch that stopped early fails.
cp_dir=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-checkpatch.XXXXXX")
trap 'rm -rf "$cp_dir"' EXIT
trap 'exit 1' HUP INT TERM
# checkpatch_set IGNORE FILE...: check FILEs, one ok/not ok line each.
checkpatch_set() {
	_ignore=$1
	shift
	[ $# -gt 0 ] || return 0
	rm -rf "$cp_dir/lists" "$cp_dir/out"
	mkdir "$cp_dir/lists" "$cp_dir/out"
	printf '%s\n' "$@" |
		split -l $((($# + MNCOMPAT_JOBS - 1) / MNCOMPAT_JOBS)) - "$cp_dir/lists/"
	for _list in "$cp_dir"/lists/*; do
		_o=$cp_dir/out/${_list##*/}
		# shellcheck disable=SC2046 # a list of repository paths
		(
			_rc=0
			perl "$checkpatch" --no-tree -f --terse --quiet \
				--ignore "$_ignore" $(cat "$_list") >"$_o" 2>&1 || _rc=$?
			echo "$_rc" >"$_o.rc"
		) &
	done
	wait
	for _list in "$cp_dir"/lists/*; do
		_o=$cp_dir/out/${_list##*/}
		_given=$(wc -l <"$_list")
		_totals=$(grep -c '^total: ' "$_o" || true)
		_named=$(awk 'NR == FNR { f[$0 ":"] = 1; next }
			{ for (p in f) if (index($0, p) == 1) n++ } END { print n + 0 }' \
			"$_list" "$_o")
		if [ "$_totals" -ne "$_given" ] ||
			{ [ "$(cat "$_o.rc")" != 0 ] && [ "$_named" -eq 0 ]; }; then
			not_ok "checkpatch over $_given files: $_totals totals, exit $(cat "$_o.rc")" "$_o"
		fi
	done
	for _f; do
		if cat "$cp_dir"/out/?? | awk -v p="$_f:" \
			'index($0, p) == 1 { found = 1; print } END { exit !found }' \
			>"$cp_dir/file"; then
			not_ok "checkpatch $_f" "$cp_dir/file"
		else
			ok "checkpatch $_f"
		fi
	done
}
c_files=$(git ls-files '*.c' '*.h' | grep -v '^semantic-patches/tests/' || true)
guarded='^drivers-sample/shapes/shape_guarded/'
# shellcheck disable=SC2046 # a list of repository paths
checkpatch_set FILE_PATH_CHANGES \
	$(echo "$c_files" | grep -v "$guarded" || true)
# The vendor's version guard is what this fixture is about (issue 31).
# shellcheck disable=SC2046
checkpatch_set FILE_PATH_CHANGES,LINUX_VERSION_CODE,CONSTANT_COMPARISON \
	$(echo "$c_files" | grep "$guarded" || true)
check "api floor: no interface newer than 4.4 outside compat/ ($(grep -c '^[a-z]' ci/checks/api-floor.list) listed)" \
	"$MNCOMPAT_TOP/ci/checks/check-api-floor.sh"
check "api floor: planted uses fail the check, guarded ones pass" \
	"$MNCOMPAT_TOP/ci/tests/check-api-floor-controls.sh"

# planted CHECKER FILE TEXT: in a scratch repository with a README whose
# Knobs table is empty and a Makefile that runs nothing, FILE holding TEXT
# must make CHECKER fail and name it.
planted() {
	_dir=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-planted.XXXXXX")
	printf '# x\n\n### Knobs\n\n| knob |\n\n## Next\n' >"$_dir/README.md"
	printf 'all:\n\ttrue\n' >"$_dir/Makefile"
	mkdir -p "$_dir/ci"
	printf '%s\n' "$3" >"$_dir/$2"
	git -C "$_dir" init -q && git -C "$_dir" add -A
	_rc=0
	_out=$(python3 "$MNCOMPAT_TOP/ci/tests/$1" "$_dir") || _rc=$?
	rm -rf "$_dir"
	[ "$_rc" -eq 1 ] && printf '%s\n' "$_out" | grep -q "$2\|MNCOMPAT_PLANTED"
}
check "knobs: every MNCOMPAT_*/BOOT_* variable the code reads is in the README's Knobs section" \
	python3 "$MNCOMPAT_TOP/ci/tests/check_knobs.py"
# (The planted read is split in two so that this file does not read it.)
# shellcheck disable=SC2016
check "knobs: a planted read of a variable the README lacks fails the check" \
	planted check_knobs.py ci/planted.sh 'x=${MNCOMPAT_''PLANTED:-1}'
check "entry points: every script is reached from a Makefile target" \
	python3 "$MNCOMPAT_TOP/ci/tests/check_entry_points.py"
check "entry points: a planted script nothing runs fails the check" \
	planted check_entry_points.py ci/planted.sh 'true'
tap_end style
