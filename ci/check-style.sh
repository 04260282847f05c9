#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/check-style.sh
# House style: shellcheck on every shell script, pyflakes3 and pycodestyle
# on every .py file, checkpatch (from the packaged 6.12 tree) on every C
# file but the semantic-patch test inputs, and the API floor: kernel code
# outside compat/ uses nothing Linux 4.4 lacks (ci/check-api-floor.sh,
# ci/api-floor.list) and the check catches a planted use
# (ci/tests/check-api-floor.sh).
# (W=1 and sparse run with every module build, see ci/build-module.sh.)
set -eu
. "$(dirname "$0")/lib.sh"

cd "$MNCOMPAT_TOP"
checkpatch=$("$MNCOMPAT_TOP/ci/unpack-source.sh" 6.12)/scripts/checkpatch.pl
. "$MNCOMPAT_TOP/ci/tap.sh"

scripts=$(git ls-files '*.sh' ci/guest/init .ci/run)
# shellcheck disable=SC2086
check "shellcheck ($(echo $scripts | wc -w) scripts)" shellcheck $scripts

# pycodestyle: its defaults (they leave out W503/W504), but lines up to
# 100 columns, the limit checkpatch holds the C to, not PEP 8's 79.
# The Python inside .cocci files (@script:python@) is not checked.
py_files=$(git ls-files '*.py')
# shellcheck disable=SC2086
check "pyflakes3 ($(echo $py_files | wc -w) Python files)" pyflakes3 $py_files
# shellcheck disable=SC2086
check "pycodestyle ($(echo $py_files | wc -w) Python files)" \
	pycodestyle --max-line-length=100 $py_files

c_files=$(git ls-files '*.c' '*.h' | grep -v '^semantic-patches/tests/' || true)
for f in $c_files; do
	check "checkpatch $f" perl "$checkpatch" --no-tree -f --terse --quiet \
		--ignore FILE_PATH_CHANGES "$f"
done
check "api floor: no interface newer than 4.4 outside compat/ ($(grep -c '^[a-z]' ci/api-floor.list) listed)" \
	"$MNCOMPAT_TOP/ci/check-api-floor.sh"
check "api floor: planted uses fail the check, guarded ones pass" \
	"$MNCOMPAT_TOP/ci/tests/check-api-floor.sh"
tap_end style
