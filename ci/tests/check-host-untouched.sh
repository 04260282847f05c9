#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-host-untouched.sh BEFORE
# BEFORE is ci/checks/host-state.sh's output from the start of the run: the host's
# kernel packages, /boot and /lib/modules must be what they were. A change
# fails, naming each line that went (-) or came (+).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

{ [ $# -eq 1 ] && [ -r "$1" ]; } || die "usage: check-host-untouched.sh BEFORE"
after=$(mktemp)
trap 'rm -f "$after" "$after".*' EXIT
"$MNCOMPAT_TOP/ci/checks/host-state.sh" >"$after"
# section FILE WHAT: the lines of a state file under its "# WHAT" line.
section() {
	awk -v s="# $2" '/^# / { on = ($0 == s); next } on' "$1"
}
for what in packages /boot /lib/modules; do
	section "$1" "$what" >"$after.before"
	section "$after" "$what" >"$after.now"
	diff "$after.before" "$after.now" |
		sed -n 's/^< /went: /p; s/^> /came: /p' >"$after.diff" || true
	if [ -s "$after.diff" ]; then
		not_ok "host $what unchanged by the run" "$after.diff"
	else
		ok "host $what unchanged by the run"
	fi
done
tap_end host
