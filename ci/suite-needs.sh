#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/suite-needs.sh SUITE_FILE PROPERTIES_FILE
# Does a kernel with the properties of PROPERTIES_FILE (ci/kernel-properties.sh)
# meet the suite's "needs" lines? Exit 0 when it does (or the suite has no
# needs line: it runs on every kernel); else print the suite's needs lines
# and exit 1. A word no kernel can have (a misspelt probe, an unknown
# series or kind) is an error: one "error:" line, exit 2.
#
# A needs line is a list of words, all of which must hold; any one of the
# suite's needs lines that holds is enough. A word is a property
# (ci/kernel-properties.sh: a compat probe such as invalidate_page, a
# config option such as CONFIG_NUMA, kind=user, recreated=4.11-4.12,
# kmemleak), "release>=X.Y" (the kernel's release is X.Y or newer),
# "!WORD" (it does not hold) or "A|B" (either holds).
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: suite-needs.sh SUITE_FILE PROPERTIES_FILE"
suite=$1 props=$2
[ -r "$suite" ] || die "no suite file $suite"
[ -r "$props" ] || die "no properties file $props"
# The words a kernel can have besides config options and release>=.
known=$(
	for p in "$MNCOMPAT_TOP"/compat/probes/*.c; do
		basename "$p" .c
	done
	for s in "$MNCOMPAT_TOP"/kernel-patches/*/series; do
		echo "recreated=$(basename "$(dirname "$s")")"
	done
	printf '%s\n' recreated kmemleak kind=deb kind=src kind=user
)
rc=0
awk -v props="$props" -v suite="$suite" -v known_words="$known" '
	BEGIN {
		n = split(known_words, w, "\n")
		for (i = 1; i <= n; i++)
			known[w[i]] = 1
	}
	FILENAME == props {
		if (index($0, "release=") == 1)
			release = substr($0, 9)
		else
			have[$0] = 1
		next
	}
	# version(V): X.Y.Z... as a number that compares like releases do.
	function version(v,    n, p, i, x) {
		n = split(v, p, /[^0-9]+/)
		x = 0
		for (i = 1; i <= 3; i++)
			x = x * 1000 + (i <= n ? p[i] + 0 : 0)
		return x
	}
	function atom(a,    neg, r) {
		neg = sub(/^!/, "", a)
		if (index(a, "release>=") == 1) {
			if (substr(a, 10) !~ /^[0-9]+(\.[0-9]+)*$/)
				bad(a)
			r = version(release) >= version(substr(a, 10))
		} else {
			if (!(a in known) && a !~ /^CONFIG_[A-Z0-9_]+$/)
				bad(a)
			r = a in have
		}
		return neg ? !r : r
	}
	function word(w,    alts, n, i, r) {
		n = split(w, alts, "|")
		r = 0
		for (i = 1; i <= n; i++)
			if (atom(alts[i]))
				r = 1
		return r
	}
	function bad(a) {
		printf "error: %s:%d: needs %s: no kernel has that (a compat probe of compat/probes/, CONFIG_NAME, recreated[=SERIES of kernel-patches/], kmemleak, kind=deb|src|user, release>=X.Y)\n", suite, FNR, a > "/dev/stderr"
		exit_code = 2
		exit 2
	}
	$1 == "needs" {
		lines++
		ok = NF > 1
		for (i = 2; i <= NF; i++)
			if (!word($i))
				ok = 0
		if (ok)
			met = 1
		else
			unmet = unmet $0 "\n"
	}
	END {
		if (exit_code)
			exit exit_code
		if (lines && !met) {
			printf "%s", unmet
			exit 1
		}
	}' "$props" "$suite" || rc=$?
exit "$rc"
