#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-api-floor-controls.sh
# Controls of ci/checks/check-api-floor.sh on copies of drivers-sample/mirror: a
# use of a listed function, a listed header and the 5.4 struct field
# planted in it must each fail the check with the file, line and entry;
# the same use inside a compat probe guard, in a comment or in a string
# must pass; a list entry that names nothing in the 6.12 tree must fail.
# Output: "ok N - ...", then "api-floor: N passed, M failed".
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

check_floor=$MNCOMPAT_TOP/ci/checks/check-api-floor.sh
tree=$("$MNCOMPAT_TOP/ci/kernels/unpack-source.sh" 6.12)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# planted NAME CODE: a copy of mirror with CODE appended to mirror_dev.c.
planted() {
	rm -rf "${work:?}/$1"
	mkdir -p "$work/$1"
	cp "$MNCOMPAT_TOP"/drivers-sample/mirror/*.[ch] "$work/$1/"
	printf '%s\n' "$2" >>"$work/$1/mirror_dev.c"
	echo "$work/$1"
}

# must_fail WHAT WANT CODE: the check fails and reports WANT.
must_fail() {
	dir=$(planted "$1" "$3")
	rc=0
	"$check_floor" --tree "$tree" "$dir" >"$work/$1.log" 2>&1 || rc=$?
	line=$(wc -l <"$dir/mirror_dev.c")
	if [ "$rc" -ne 0 ] && grep -q "mirror_dev.c:$line: $2 " "$work/$1.log"; then
		ok "$1: fails: $(grep -m1 "mirror_dev.c:$line:" "$work/$1.log" | sed "s|^$work/||")"
	else
		not_ok "$1: exit $rc, want a failure naming $2 at mirror_dev.c:$line" \
			"$work/$1.log"
	fi
}

# must_pass WHAT CODE: the check passes.
must_pass() {
	dir=$(planted "$1" "$2")
	if "$check_floor" --tree "$tree" "$dir" >"$work/$1.log" 2>&1; then
		ok "$1: passes"
	else
		not_ok "$1: the check failed" "$work/$1.log"
	fi
}

must_fail planted-function kmap_local_page \
	'static void *mirror_planted(struct page *p) { return kmap_local_page(p); }'
must_fail planted-header linux/xarray.h '#include <linux/xarray.h>'
must_fail planted-member mmu_notifier.mm \
	'static struct mm_struct *mirror_planted(struct mirror_file *mf) { return mf->notifier.mm; }'
must_pass guarded-by-probe '#ifdef MNCOMPAT_HAVE_KMAP_LOCAL_PAGE
static void *mirror_planted(struct page *p) { return kmap_local_page(p); }
#endif'
must_pass in-comment-and-string '/* kmap_local_page() is 5.11 */
static const char mirror_planted[] = "kmap_local_page";'

sed 's/^ident   kmap_local_page /ident   kmap_lokal_page /' \
	"$MNCOMPAT_TOP/ci/checks/api-floor.list" >"$work/typo.list"
rc=0
"$check_floor" --tree "$tree" --list "$work/typo.list" \
	"$MNCOMPAT_TOP/drivers-sample/mirror" >"$work/typo.log" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && grep -q 'ident kmap_lokal_page is not in' "$work/typo.log"; then
	ok "misspelt-entry: a list name not in the 6.12 tree fails the check"
else
	not_ok "misspelt-entry: exit $rc, want 'ident kmap_lokal_page is not in'" \
		"$work/typo.log"
fi
tap_end api-floor
