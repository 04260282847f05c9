#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/tests/check-corpus.sh [--keep DIR] [--no-self-test]
#                                               [MODULE...]
#
# The conversion judged on real modules: every module folder of the
# corpus ($MNCOMPAT_CORPUS, default ../shared/corpus/realmods beside the
# checkout, or beside its main checkout for a git worktree) is converted
# by semantic-patches/convert.sh once per mode its EXPECT names, each
# mode in a fresh copy of the folder outside the repository (without
# EXPECT and SOURCE):
#   to413   convert.sh --apply --to 4.13 COPY
#   compat  convert.sh --apply --compat COPY
#   newest  convert.sh --apply COPY
# then every EXPECT line is judged ("MODE present FILE REGEX", "MODE
# absent FILE REGEX", "MODE report REGEX": REGEX a Perl regular
# expression on the whole file, or on the converter's output, as
# grep -Pzq applies it). A mode whose converter exits other than 0 or 3
# fails a line of its own. One "ok N - ..." or "not ok N - ..." line per
# EXPECT line, then "corpus: N passed, M failed". Where the corpus folder
# is absent (a checkout elsewhere): one "# SKIP" line naming it, and
# "corpus: 0 passed, 0 failed".
#
# A line listed in corpus-known-failures (MODULE and the cksum of the
# EXPECT line, with the reason) is a known failure: while it fails it is
# shown as "not ok N - ... # XFAIL known failure: REASON", counted apart
# on the last line and not as failed; once it holds it fails, until it
# leaves the list.
#
# First (unless --no-self-test or MODULEs are named) the checker's own
# test: a corpus of one module made of tests/4.13-counter-pair/before.c,
# judged by tests/corpus-selftest.expect, whose lines marked (?#must-fail)
# must fail and the others hold; then tests/corpus, modules of this
# team's own in the corpus's form (the real drivers' shapes that need a
# module of more than one file, or the whole report), judged the same way.
#
# MNCOMPAT_TEST_JOBS conversions at a time (default one per CPU), each
# with convert.sh --jobs 1.  --keep DIR keeps each converted copy and its
# report in DIR/MODULE/MODE (DIR must not exist).  MODULE...: only those
# folders of the corpus.
set -u

here=$(cd "$(dirname "$0")" && pwd)
sp=$(cd "$here/.." && pwd)
top=$(cd "$sp/.." && pwd)
. "$top/ci/tap.sh"

keep=
selftest=yes
while [ $# -gt 0 ]; do
	case $1 in
	--no-self-test)
		selftest=no
		shift
		;;
	--keep)
		[ $# -ge 2 ] || {
			sed -n '3,4s/^# //p' "$0" >&2
			exit 2
		}
		keep=$2
		shift 2
		;;
	-*)
		sed -n '3,4s/^# //p' "$0" >&2
		exit 2
		;;
	*) break ;;
	esac
done

[ $# -eq 0 ] || selftest=no

# The checker's own test (see above), its own lines first.
if [ $selftest = yes ]; then
	st=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-corpus-self.XXXXXX") || exit 1
	mkdir -p "$st/corpus/counter-pair"
	cp "$here/4.13-counter-pair/before.c" "$st/corpus/counter-pair/guest.c"
	echo 'obj-m += counter-pair.o' >"$st/corpus/counter-pair/Kbuild"
	grep -v '^# SPDX' "$here/corpus-selftest.expect" >"$st/corpus/counter-pair/EXPECT"
	echo 'written for this repository' >"$st/corpus/counter-pair/SOURCE"
	MNCOMPAT_CORPUS=$st/corpus "$0" --no-self-test --keep "$st/keep" \
		>"$st/out" 2>&1
	# every line as it must come out, and nothing else
	grep -E '^(not )?ok ' "$st/out" | awk '
		/^not ok/ && /\(\?#must-fail\)/ { next }
		/^ok/ && !/\(\?#must-fail\)/ { next }
		{ print }' >"$st/bad"
	n=$(grep -cE '^(not )?ok ' "$st/out")
	lines=$(grep -cvE '^(#|$)' "$here/corpus-selftest.expect")
	modes=$(grep -vE '^(#|$)' "$here/corpus-selftest.expect" | cut -d' ' -f1 | sort -u | wc -l)
	if [ -s "$st/bad" ] || [ "$n" -ne $((lines + modes)) ]; then
		cat "$st/out" >>"$st/bad"
		not_ok "self-test: the lines of tests/corpus-selftest.expect come out as marked" "$st/bad"
	else
		ok "self-test: the lines of tests/corpus-selftest.expect come out as marked ($n lines, $(grep -c '^not ok' "$st/out") of them failing)"
	fi
	# EXPECT and SOURCE are not in the copy that is converted
	if [ -e "$st/keep/counter-pair/to413/module/EXPECT" ] ||
		[ -e "$st/keep/counter-pair/to413/module/SOURCE" ] ||
		[ ! -f "$st/keep/counter-pair/to413/module/guest.c" ]; then
		not_ok "self-test: each mode converts a copy without EXPECT and SOURCE"
	else
		ok "self-test: each mode converts a copy without EXPECT and SOURCE"
	fi
	if MNCOMPAT_CORPUS=$st/none "$0" --no-self-test >"$st/skip" 2>&1 &&
		grep -q "^# SKIP corpus: no folder $st/none" "$st/skip" &&
		[ "$(tail -n 1 "$st/skip")" = "corpus: 0 passed, 0 failed" ]; then
		ok "self-test: an absent corpus folder is a named SKIP"
	else
		not_ok "self-test: an absent corpus folder is a named SKIP" "$st/skip"
	fi
	# Our own shapes in the corpus's form (tests/corpus: this team's
	# code, each module with its EXPECT), judged the same way.
	MNCOMPAT_CORPUS=$here/corpus "$0" --no-self-test >"$st/own" 2>&1
	grep -E '^(not )?ok |^# ' "$st/own" | sed 's/\\/\\\\/g' |
		while IFS= read -r line; do
			case $line in
			'ok '*) printf 'ok - own: %s\n' "${line#ok * - }" ;;
			'not ok '*) printf 'not ok - own: %s\n' "${line#not ok * - }" ;;
			*) printf '%s\n' "$line" ;;
			esac
		done >"$st/own.tap"
	while IFS= read -r line; do
		case $line in
		'ok - '*) ok "${line#ok - }" ;;
		'not ok - '*) not_ok "${line#not ok - }" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$st/own.tap"
	rm -rf "$st"
fi

# The corpus: MNCOMPAT_CORPUS, else beside the checkout (for a git
# worktree, also beside its main checkout, where the shared folder is).
corpus=${MNCOMPAT_CORPUS:-}
if [ -z "$corpus" ]; then
	corpus=$top/../shared/corpus/realmods
	if [ ! -d "$corpus" ]; then
		common=$(git -C "$top" rev-parse --path-format=absolute \
			--git-common-dir 2>/dev/null) || common=
		case $common in
		*/.git) [ ! -d "${common%/.git}/../shared/corpus/realmods" ] ||
			corpus=${common%/.git}/../shared/corpus/realmods ;;
		esac
	fi
fi
if [ ! -d "$corpus" ]; then
	echo "# SKIP corpus: no folder $corpus (the real-module corpus is not beside this checkout; MNCOMPAT_CORPUS names another)"
	tap_end corpus
	exit 0
fi
corpus=$(cd "$corpus" && pwd)

if [ -n "$keep" ]; then
	[ ! -e "$keep" ] || {
		echo "check-corpus.sh: error: --keep $keep exists" >&2
		exit 2
	}
	mkdir -p "$keep" || exit 1
	work=$(cd "$keep" && pwd)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-corpus.XXXXXX") || exit 1
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-corpus.XXXXXX") || exit 1
	work=$tmp
fi
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

modules=$*
if [ -z "$modules" ]; then
	modules=$(cd "$corpus" && for d in */; do
		[ -f "$d/EXPECT" ] && echo "${d%/}"
	done)
fi
if [ -z "$modules" ]; then
	echo "# SKIP corpus: $corpus has no module folder with an EXPECT"
	tap_end corpus
	exit 0
fi

# The modes a module's EXPECT names, in the order of its lines.
modes_of() {
	awk '!/^[ \t]*(#|$)/ && !seen[$1]++ { print $1 }' "$corpus/$1/EXPECT"
}

# convert_one MODULE MODE: a fresh copy, converted; status, output.
convert_one() {
	_d=$work/$1/$2
	mkdir -p "$_d/module"
	tar -C "$corpus/$1" --exclude=./EXPECT --exclude=./SOURCE -cf - . |
		tar -C "$_d/module" -xf - --no-same-owner
	chmod -R u+w "$_d/module"
	case $2 in
	to413) set -- --apply --to 4.13 ;;
	compat) set -- --apply --compat ;;
	newest) set -- --apply ;;
	*) echo unknown >"$_d/status"; return ;;
	esac
	_s=$(date +%s)
	"$sp/convert.sh" "$@" --jobs 1 "$_d/module" \
		>"$_d/report" 2>&1
	echo $? >"$_d/status"
	echo $(($(date +%s) - _s)) >"$_d/seconds"
}

par=${MNCOMPAT_TEST_JOBS:-$(nproc)}
running=
for m in $modules; do
	if [ ! -f "$corpus/$m/EXPECT" ]; then
		continue
	fi
	for mode in $(modes_of "$m"); do
		convert_one "$m" "$mode" &
		running="$running $!"
		# shellcheck disable=SC2086
		set -- $running
		if [ $# -ge "$par" ]; then
			wait "$1"
			shift
			running=$*
		fi
	done
done
wait

# known MODULE LINE: the reason LINE of MODULE's EXPECT is a known
# failure, or nothing.
known_list=$here/corpus-known-failures
known() {
	_sum=$(printf '%s\n' "$2" | cksum | cut -d' ' -f1)
	[ -f "$known_list" ] || return 0
	awk -v m="$1" -v s="$_sum" '$1 == m && $2 == s {
		$1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$known_list"
}
nknown=0

# judge MODULE MODE KIND FILE REGEX: one EXPECT line.
judge() {
	_d=$work/$1/$2
	case $3 in
	report) _f=$_d/report ;;
	*) _f=$_d/module/$4 ;;
	esac
	if [ ! -f "$_f" ]; then
		echo "no such file: $4" >"$tmp/why"
		return 1
	fi
	LC_ALL=C.UTF-8 grep -Pzq -- "$5" "$_f" 2>"$tmp/why"
	_st=$?
	if [ $_st -eq 2 ]; then
		return 2
	fi
	case $3 in
	absent) [ $_st -ne 0 ] ;;
	*) [ $_st -eq 0 ] ;;
	esac
}

for m in $modules; do
	e=$corpus/$m/EXPECT
	if [ ! -f "$e" ]; then
		not_ok "$m: no EXPECT in $corpus/$m"
		continue
	fi
	for mode in $(modes_of "$m"); do
		st=$(cat "$work/$m/$mode/status" 2>/dev/null || echo none)
		case $st in
		0 | 3) ok "$m $mode: convert.sh exited $st ($(cat "$work/$m/$mode/seconds") s)" ;;
		*) not_ok "$m $mode: convert.sh exited $st, not 0 or 3" "$work/$m/$mode/report" ;;
		esac
	done
	while IFS= read -r line; do
		case $line in
		'' | '#'*) continue ;;
		esac
		mode=${line%% *}
		rest=${line#* }
		kind=${rest%% *}
		rest=${rest#* }
		file=
		case $kind in
		present | absent)
			file=${rest%% *}
			rest=${rest#* }
			;;
		report) ;;
		*)
			not_ok "$m: EXPECT line not understood: $line"
			continue
			;;
		esac
		if [ ! -d "$work/$m/$mode" ]; then
			not_ok "$m: EXPECT line with an unknown mode: $line"
			continue
		fi
		judge "$m" "$mode" "$kind" "$file" "$rest"
		st=$?
		# (tap.sh prints with echo, which reads backslashes)
		what=$(printf '%s\n' "$m $mode $kind${file:+ $file} /$rest/" |
			sed 's/\\/\\\\/g')
		why=$(known "$m" "$line")
		if [ -n "$why" ]; then
			if [ $st -eq 0 ]; then
				not_ok "$what: holds now, but semantic-patches/tests/corpus-known-failures lists it ($why): take it out"
			else
				nknown=$((nknown + 1))
				tap_n=$((tap_n + 1))
				echo "not ok $tap_n - $what # XFAIL known failure: $why"
			fi
			continue
		fi
		case $st in
		0) ok "$what" ;;
		2) not_ok "$what: grep -P failed" "$tmp/why" ;;
		*)
			if [ "$kind" = report ]; then
				not_ok "$what" "$work/$m/$mode/report"
			else
				not_ok "$what"
			fi
			;;
		esac
	done <"$e"
done
if [ $nknown -eq 0 ]; then
	tap_end corpus
	exit
fi
# shellcheck disable=SC2154 # tap.sh sets them
echo "corpus: $tap_passed passed, $tap_failed failed, $nknown known failures (semantic-patches/tests/corpus-known-failures)"
[ "$tap_failed" -eq 0 ]
