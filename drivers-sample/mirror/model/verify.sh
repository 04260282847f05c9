#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: drivers-sample/mirror/model/verify.sh MODEL DIR WANT -DMACRO...
#
# One verifier of run.sh: spin -a on MODEL (one file, includes already in
# place) with the -D macros, pan compiled with $MNCOMPAT_MODEL_CC (default: tcc,
# else gcc -O0) and an exhaustive search (-DSAFETY), all in the fresh
# directory DIR. tcc compiles pan in 0.03 s where gcc takes 0.3-0.7 s, most
# of a verifier's time; its pan searches a third slower. Writes
#   DIR/result    pass, fail:coherence, fail:pageref, fail:no-sleep,
#                 fail:warn, fail:pairing, fail:b4, fail:deadlock, or
#                 error:... (what
#                 pan found first: each property's assertion names it)
#   DIR/figures   states stored, depth, pan's search time, the whole time
#   DIR/detail    when the result is not WANT: pan's verdict and the end of
#                 the counterexample, or the failing tool's output
#   DIR/all, DIR/reached  on a pass: the MODEL lines with a state, and
#                 those the search reached (pan -d and its unreached list)
set -u

[ $# -ge 3 ] || { echo "usage: $0 MODEL DIR WANT -DMACRO..." >&2; exit 2; }
model=$1 dir=$2 want=$3
shift 3
if [ -z "${MNCOMPAT_MODEL_CC:-}" ]; then
	if command -v tcc >/dev/null; then
		MNCOMPAT_MODEL_CC=tcc
	else
		MNCOMPAT_MODEL_CC="gcc -O0"
	fi
fi
start=$(date +%s.%N)
rm -rf "$dir"
mkdir -p "$dir"
cp "$model" "$dir/model.pml"
out=$dir/pan.out

# -o3: no statement merging, so that every statement keeps its own state and
# a branch never taken shows in pan's unreached list.
# shellcheck disable=SC2086 # MNCOMPAT_MODEL_CC may carry options
if ! (cd "$dir" && spin -o3 "$@" -a model.pml) >"$out" 2>&1; then
	result="error:spin"
elif ! (cd "$dir" && $MNCOMPAT_MODEL_CC -DSAFETY -o pan pan.c) >"$out" 2>&1; then
	result="error:$MNCOMPAT_MODEL_CC"
else
	(cd "$dir" && ./pan -m100000 -w22) >"$out" 2>&1
	violated=$(sed -n 's/^pan:1: assertion violated *//p' "$out")
	if grep -q 'max search depth too small' "$out" ||
		! grep -q '^Full statespace search' "$out"; then
		result="error:incomplete search"
	elif [ -n "$violated" ]; then
		case $violated in
		*coherent*) result="fail:coherence" ;;
		*page_refs*) result="fail:pageref" ;;
		*preempt_count*) result="fail:no-sleep" ;;
		*no_warning*) result="fail:warn" ;;
		*paired*) result="fail:pairing" ;;
		*reaper_backs_off*) result="fail:b4" ;;
		*) result="error:assertion $violated" ;;
		esac
	elif grep -q '^pan:1: invalid end state' "$out"; then
		result="fail:deadlock"
	elif ! grep -q 'errors: 0$' "$out"; then
		result="error:pan"
	else
		result="pass"
	fi
fi
echo "$result" >"$dir/result"

if [ "$result" = pass ]; then
	(cd "$dir" && ./pan -d) >"$dir/pan.d" 2>/dev/null
	awk -v all="$dir/all" -v reached="$dir/reached" '
	FNR == 1 { f++ }
	f == 1 && /^proctype / { p = $2 }
	f == 1 && /^init$/ { p = "init" }
	f == 1 && /^\tstate / && match($0, /model\.pml:[0-9]+/) {
		ln[p SUBSEP $2] = substr($0, RSTART + 10, RLENGTH - 10)
	}
	f == 2 && /^unreached in proctype / { p = $4 }
	f == 2 && /^unreached in init/ { p = "init" }
	f == 2 && /^\tmodel\.pml:[0-9]+, state [0-9]+,/ {
		split($0, a, /[:, ]+/)
		gone[p SUBSEP a[4]] = 1
	}
	END {
		for (k in ln) {
			print ln[k] > all
			if (!(k in gone))
				print ln[k] > reached
		}
	}' "$dir/pan.d" "$out"
fi

if [ "$result" != "$want" ]; then
	case $result in
	error:*)
		head -n 40 "$out"
		;;
	*)
		grep '^pan:1:' "$out"
		if [ -f "$dir/model.pml.trail" ]; then
			(cd "$dir" && spin -t -p "$@" model.pml) 2>&1 |
				grep -v '^ *$' | tail -n 50
		fi
		;;
	esac >"$dir/detail"
fi

awk -v start="$start" -v end="$(date +%s.%N)" '
	/states, stored/ { s = $1 }
	/depth reached/ { d = $0; sub(/.*depth reached /, "", d); sub(/,.*/, "", d) }
	/elapsed time/ { t = $4 }
	END { printf "%s states, depth %s, search %s s, %.2f s with spin and the compiler\n",
		s, d, t, end - start }' "$out" >"$dir/figures"
