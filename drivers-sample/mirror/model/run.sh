#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: [MNCOMPAT_TEST_JOBS=N] [MNCOMPAT_MODEL_CC=CC]
#        drivers-sample/mirror/model/run.sh
#
# Model-checks mirror's coherence protocol with spin (README.md):
#   - the tie (tie.py): the C's protocol skeleton, on every kernel
#     generation compat knows, against the C the model's notes quote; then
#     its controls on copies (tie-controls.sh): each protocol edit fails
#     naming its model step and property, cosmetic edits pass, and a note
#     whose C changed while its model step did not is not recorded without
#     a reason;
#   - every mutant has an expected failure;
#   - a never-taken assert(false) planted in a copy of the model is reported
#     by the line coverage below;
#   - every line of `expected`: coherence.pml for that generation, device
#     and mutant, an exhaustive search (verify.sh), its result against the
#     line; MNCOMPAT_TEST_JOBS at a time (default: one per CPU);
#   - every line of the model that has a state is reached by at least one
#     passing verifier without a mutant.
# Prints "ok N - ..." / "not ok N - ..." (with the counterexample under an
# unexpected result) and a last line "model: N passed, M failed"; exits 1
# when anything was unexpected.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
. "$top/ci/tap.sh"

for tool in spin gcc python3; do
	if ! command -v "$tool" >/dev/null; then
		not_ok "$tool is not installed (ci/install-deps.sh installs it)"
		tap_end model
		exit 1
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

now() {
	date +%s.%N
}

since() {
	echo "$1 $(now)" | awk '{ printf "%.1f", $2 - $1 }'
}

t_tie=$(now)
check "tie: the C and the model's notes agree on every kernel generation (tie.py)" \
	python3 "$here/tie.py"

"$here/tie-controls.sh" "$tmp/controls"
n_controls=$(cat "$tmp/controls/count" 2>/dev/null || echo 0)
[ "$n_controls" -gt 0 ] || not_ok "tie controls: none ran"
k=1
while [ "$k" -le "$n_controls" ]; do
	line=$(cat "$tmp/controls/$k.tap" 2>/dev/null || echo "not ok tie control $k: no result")
	case $line in
	"ok "*) ok "${line#ok }" ;;
	*) not_ok "${line#not ok }" "$tmp/controls/$k.detail" ;;
	esac
	k=$((k + 1))
done
echo "# tie and its controls in $(since "$t_tie") s"

mutants=$(grep -ho 'MUTANT_[A-Z][A-Z_]*' "$here"/*.pml | sort -u)
for m in $mutants; do
	name=$(echo "${m#MUTANT_}" | tr 'A-Z_' 'a-z-')
	if awk -v m="$name" '$1 !~ /^#/ && $3 == m && $4 ~ /^fail/ { f = 1 }
	    END { exit !f }' "$here/expected"; then
		ok "mutant $name has an expected failure"
	else
		not_ok "mutant $name ($m) has no expected failure in $here/expected"
	fi
done

# flatten DIR OUT MAP: DIR's coherence.pml with its includes in place (so
# that pan names every line of one file; with includes it misnames them),
# and per line of OUT the FILE:LINE it came from.
flatten() {
	awk -v dir="$1" -v map="$3" '
	function emit(path, name,    line, n, inc) {
		n = 0
		while ((getline line < path) > 0) {
			n++
			if (line ~ /^#include "[^"]+"/) {
				inc = line
				sub(/^#include "/, "", inc)
				sub(/".*/, "", inc)
				emit(dir "/" inc, inc)
				continue
			}
			print line
			print name ":" n > map
		}
		close(path)
	}
	BEGIN { emit(dir "/coherence.pml", "coherence.pml") }' >"$2"
}

# dead_lines MODEL MAP DIR...: the MODEL lines with a state that no
# verifier of the DIRs (verify.sh's, on a pass) reached, as FILE:LINE: TEXT,
# leaving out those marked as reached only on a violation.
dead_lines() {
	_model=$1 _map=$2
	shift 2
	for _d in "$@"; do
		[ -f "$_d/all" ] && cat "$_d/all"
	done | sort -u >"$tmp/lines.all"
	for _d in "$@"; do
		[ -f "$_d/reached" ] && cat "$_d/reached"
	done | sort -u >"$tmp/lines.reached"
	comm -23 "$tmp/lines.all" "$tmp/lines.reached" | sort -n |
		awk -v model="$_model" -v map="$_map" '
	BEGIN {
		while ((getline line < model) > 0)
			text[++n] = line
		n = 0
		while ((getline line < map) > 0)
			where[++n] = line
	}
	text[$1] !~ /reached only on a violation/ {
		t = text[$1]
		gsub(/^[ \t]+/, "", t)
		print where[$1] ": " t
	}'
}

# The dead-branch control: on a copy of the model, an assert(false) in a
# branch no verifier takes must be reported.
t_cov=$(now)
mkdir -p "$tmp/cov-control"
cp "$here"/*.pml "$tmp/cov-control/"
awk '/^inline devpt_zap_locked\(/ { f = 1 }
	f && /^\t\t:: else$/ { print "\t\t:: mf_seq == 200 -> assert(false)"; f = 0 }
	{ print }' "$here/mirror_dev.pml" >"$tmp/cov-control/mirror_dev.pml"
flatten "$tmp/cov-control" "$tmp/cov-control/model.pml" "$tmp/cov-control/map"
"$here/verify.sh" "$tmp/cov-control/model.pml" "$tmp/cov-control/v" pass \
	-DGEN_413 -DTHP -DDEVICE_RANGE
result=$(cat "$tmp/cov-control/v/result")
if [ "$result" != pass ]; then
	not_ok "dead-branch control: the planted branch's model: $result" \
		"$tmp/cov-control/v/detail"
else
	dead_lines "$tmp/cov-control/model.pml" "$tmp/cov-control/map" \
		"$tmp/cov-control/v" >"$tmp/cov-control/dead"
	if grep -q '^mirror_dev.pml:[0-9]*: :: mf_seq == 200 -> assert(false)$' \
		"$tmp/cov-control/dead"; then
		ok "dead-branch control: a planted assert(false) in a branch never taken is reported ($(grep 'mf_seq == 200' "$tmp/cov-control/dead" | cut -d: -f1-2))"
	else
		not_ok "dead-branch control: a planted assert(false) in a branch never taken went unreported" \
			"$tmp/cov-control/dead"
	fi
fi
echo "# dead-branch control in $(since "$t_cov") s"

# The verifiers of `expected`, MNCOMPAT_TEST_JOBS at a time (default: one per
# CPU), each in its own directory; then their results in order.
jobs=${MNCOMPAT_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
flatten "$here" "$tmp/model.pml" "$tmp/map"
mkdir -p "$tmp/v"
: >"$tmp/jobs"
: >"$tmp/lines"
n_lines=0
while read -r gen device mutant want extra; do
	case $gen in '#'* | '') continue ;; esac
	n_lines=$((n_lines + 1))
	what="$gen $device${mutant:+ $mutant}"
	what=${what% -}
	if [ -z "$want" ]; then
		not_ok "'$gen $device $mutant': want GENERATION DEVICE MUTANT RESULT"
		continue
	fi
	thp=
	case $gen in
	thp-pre-4.11 | thp-4.11-4.12 | thp-4.13+) thp=-DTHP ;;
	esac
	case ${gen#thp-} in
	pre-4.11) gen_macro=GEN_PRE411 ;;
	4.11-4.12) gen_macro=GEN_411 ;;
	4.13+) gen_macro=GEN_413 ;;
	oom-pre-4.14) gen_macro=OOM_PRE414 ;;
	oom-4.14) gen_macro=OOM_414 ;;
	oom-4.16-4.18) gen_macro=OOM_416 ;;
	oom-4.19-5.11) gen_macro=OOM_419 ;;
	oom-5.12-6.5) gen_macro=OOM_512 ;;
	oom-6.6+) gen_macro=OOM_66 ;;
	*) gen_macro= ;;
	esac
	if [ -z "$gen_macro" ] || { [ -n "$thp" ] && [ "${gen_macro#OOM}" != "$gen_macro" ]; }; then
		not_ok "$what: unknown generation '$gen'"
		continue
	fi
	case $device in
	range | tlb | may-sleep | may-sleep-gate | may-sleep-nogate)
		dev_macro=DEVICE_$(echo "$device" | tr 'a-z-' 'A-Z_') ;;
	*) not_ok "$what: unknown device '$device'"; continue ;;
	esac
	mut_macro=
	if [ "$mutant" != - ]; then
		mut_macro=MUTANT_$(echo "$mutant" | tr 'a-z-' 'A-Z_')
		if ! echo "$mutants" | grep -qx "$mut_macro"; then
			not_ok "$what: the model has no $mut_macro"
			continue
		fi
	fi
	case $want in
	pass | fail:coherence | fail:deadlock | fail:no-sleep | fail:pageref | \
		fail:warn | fail:pairing | fail:b4) ;;
	*) not_ok "$what: unknown result '$want'"; continue ;;
	esac
	if [ -n "$extra" ]; then
		not_ok "$what: trailing words '$extra'"
		continue
	fi
	echo "$tmp/model.pml $tmp/v/$n_lines $want -D$gen_macro -D$dev_macro${mut_macro:+ -D$mut_macro}${thp:+ $thp}" >>"$tmp/jobs"
	printf '%s\t%s\t%s\t%s\n' "$n_lines" "$want" "${mut_macro:--}" "$what" >>"$tmp/lines"
done <"$here/expected"

start_all=$(now)
xargs -P "$jobs" -L 1 "$here/verify.sh" <"$tmp/jobs"
coverage_dirs=
while IFS='	' read -r i want mut what; do
	dir=$tmp/v/$i
	result=$(cat "$dir/result" 2>/dev/null || echo "error:no result")
	fig=$(cat "$dir/figures" 2>/dev/null)
	if [ "$result" = "$want" ]; then
		if [ "$want" = pass ]; then
			[ "$mut" != - ] || coverage_dirs="$coverage_dirs $dir"
			ok "$what: pass ($fig)"
		else
			ok "$what: $result as expected ($fig)"
		fi
	else
		not_ok "$what: $result, expected $want ($fig)" "$dir/detail"
	fi
done <"$tmp/lines"

[ "$n_lines" -gt 0 ] || not_ok "no verifier lines in $here/expected"
echo "# $n_lines verifiers in $(since "$start_all") s, $jobs at a time, pan compiled with ${MNCOMPAT_MODEL_CC:-$(command -v tcc >/dev/null && echo tcc || echo gcc -O0)}"

# Every line with a state is reached by some passing verifier without a
# mutant: a line none reaches is a branch the model never takes.
# shellcheck disable=SC2086 # directory names without blanks
dead_lines "$tmp/model.pml" "$tmp/map" $coverage_dirs >"$tmp/dead"
if [ -s "$tmp/dead" ]; then
	not_ok "model lines no verifier reaches: $(wc -l <"$tmp/dead")" "$tmp/dead"
else
	ok "every model line with a state is reached by a verifier ($(wc -l <"$tmp/lines.all") lines)"
fi
tap_end model
