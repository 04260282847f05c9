# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by the test scripts of `make test`: one "ok N - WHAT" or
# "not ok N - WHAT" line per check, "# ..." lines of detail under a
# failure, and a last line "[LABEL: ]N passed, M failed" (ci/test.sh reads
# it).
tap_n=0 tap_passed=0 tap_failed=0

# ok WHAT: a check that passed.
ok() {
	tap_n=$((tap_n + 1))
	tap_passed=$((tap_passed + 1))
	echo "ok $tap_n - $*"
}

# not_ok WHAT [FILE]: a check that failed; the first 60 lines of FILE
# (if given and not empty) are its detail.
not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	if [ -n "${2-}" ] && [ -s "$2" ]; then
		sed -n '1,60s/^/# /p' "$2"
	fi
}

# check WHAT CMD...: passes when CMD exits 0; CMD's output is shown only
# when it fails.
check() {
	_tap_what=$1
	shift
	if _tap_out=$("$@" 2>&1); then
		ok "$_tap_what"
	else
		not_ok "$_tap_what"
		printf '%s\n' "$_tap_out" | sed -n '1,60s/^/# /p'
	fi
}

# tap_end [LABEL]: the count line; returns 1 when a check failed.
tap_end() {
	echo "${1:+$1: }$tap_passed passed, $tap_failed failed"
	[ "$tap_failed" -eq 0 ]
}
