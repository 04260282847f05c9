#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: drivers-sample/mirror/model/run.sh
#
# Model-checks mirror's coherence protocol with spin: for each line of
# `expected`, builds coherence.pml for that generation, device and mutant,
# compiles pan with gcc, searches the whole state space and compares what
# pan found with the line. Also checks that the C regions the model stands
# for are unchanged (regions.sh). Prints "ok N - ..." / "not ok N - ..."
# (with the counterexample under an unexpected failure) and a last line
# "model: N passed, M failed"; exits 1 when anything was unexpected.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
. "$top/ci/tap.sh"

for tool in spin gcc; do
	if ! command -v "$tool" >/dev/null; then
		not_ok "$tool is not installed (ci/install-deps.sh installs it)"
		tap_end model
		exit 1
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-model.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

check "modelled C regions unchanged (regions.sh)" "$here/regions.sh"

# The tie's controls, on a copy of the files it reads: re-indenting a
# modelled function is no change, adding a statement to it is one.
copy=$tmp/tree
mkdir -p "$copy/drivers-sample/mirror" "$copy/compat"
cp -R "$top/drivers-sample/mirror/model" "$top/drivers-sample/mirror"/*.[ch] \
	"$copy/drivers-sample/mirror/"
cp -R "$top/compat/include" "$copy/compat/"
dev=$copy/drivers-sample/mirror/mirror_dev.c
awk '/^[a-z].*[ *]mirror_fault_page\(/ { f = 1 }
	f && /^\t[a-z]/ { sub(/^\t/, "\t  "); f = 0 } { print }' \
	"$dev" >"$dev.new" && mv "$dev.new" "$dev"
check "regions.sh: a re-indented region is unchanged" \
	"$copy/drivers-sample/mirror/model/regions.sh"
awk '/^[a-z].*[ *]mirror_fault_page\(/ { f = 1 }
	f && /^{/ { print; print "\tbarrier();"; f = 0; next } { print }' \
	"$dev" >"$dev.new" && mv "$dev.new" "$dev"
if "$copy/drivers-sample/mirror/model/regions.sh" >"$tmp/regions.out" 2>&1; then
	not_ok "regions.sh: a statement added to mirror_fault_page went unnoticed"
elif grep -q 'mirror_fault_page changed' "$tmp/regions.out"; then
	ok "regions.sh: a statement added to mirror_fault_page is a change"
else
	not_ok "regions.sh: a statement added to mirror_fault_page: $(head -n 1 "$tmp/regions.out")"
fi

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

now() {
	date +%s.%N
}

# verify GEN_MACRO DEVICE_MACRO MUTANT_MACRO: run spin and pan in $tmp/run;
# sets result (pass, fail:coherence, fail:deadlock, or error:...) and
# leaves pan's output in $tmp/run/pan.out.
verify() {
	rm -rf "$tmp/run"
	mkdir "$tmp/run"
	cp "$here"/*.pml "$tmp/run/"
	defines="-D$1 -D$2"
	[ -z "$3" ] || defines="$defines -D$3"
	# shellcheck disable=SC2086
	if ! (cd "$tmp/run" && spin $defines -a coherence.pml) \
		>"$tmp/run/pan.out" 2>&1; then
		result="error:spin"
		return
	fi
	if ! (cd "$tmp/run" && gcc -O0 -DSAFETY -o pan pan.c) \
		>"$tmp/run/pan.out" 2>&1; then
		result="error:gcc"
		return
	fi
	(cd "$tmp/run" && ./pan -m100000 -w22) >"$tmp/run/pan.out" 2>&1
	out=$tmp/run/pan.out
	if grep -q 'max search depth too small' "$out" ||
		! grep -q '^Full statespace search' "$out"; then
		result="error:incomplete search"
	elif grep -q '^pan:1: assertion violated' "$out"; then
		result="fail:coherence"
	elif grep -q '^pan:1: invalid end state' "$out"; then
		result="fail:deadlock"
	elif ! grep -q 'errors: 0$' "$out"; then
		result="error:pan"
	elif ! grep -A1 '^unreached in proctype mirror_fault_page' "$out" |
		grep -q '(0 of'; then
		# A pass where some line of the fault (pan reports per source
		# line) was never reached proves little.
		result="error:mirror_fault_page has unreached steps"
	else
		result="pass"
	fi
}

# figures: states stored, depth reached and search time from pan.out.
figures() {
	awk '/states, stored/ { s = $1 }
	    /depth reached/ { d = $0; sub(/.*depth reached /, "", d); sub(/,.*/, "", d) }
	    /elapsed time/ { t = $4 }
	    END { printf "%s states, depth %s, search %s s", s, d, t }' "$1"
}

# detail: what went wrong in the last verify, for a detail block: the
# tool's output on an error, else pan's verdict and the end of the trail.
detail() {
	case $result in
	error:*)
		head -n 40 "$tmp/run/pan.out"
		return
		;;
	esac
	grep '^pan:1:' "$tmp/run/pan.out"
	if [ -f "$tmp/run/coherence.pml.trail" ]; then
		# shellcheck disable=SC2086
		(cd "$tmp/run" && spin -t -p $defines coherence.pml) 2>&1 |
			grep -v '^ *$' | tail -n 50
	fi
}

n_lines=0
start_all=$(now)
while read -r gen device mutant want extra; do
	case $gen in '#'* | '') continue ;; esac
	n_lines=$((n_lines + 1))
	what="$gen $device${mutant:+ $mutant}"
	what=${what% -}
	if [ -z "$want" ]; then
		not_ok "'$gen $device $mutant': want GENERATION DEVICE MUTANT RESULT"
		continue
	fi
	case $gen in
	pre-4.11) gen_macro=GEN_PRE411 ;;
	4.11-4.12) gen_macro=GEN_411 ;;
	4.13+) gen_macro=GEN_413 ;;
	oom-pre-4.14) gen_macro=OOM_PRE414 ;;
	oom-4.14) gen_macro=OOM_414 ;;
	oom-4.19+) gen_macro=OOM_419 ;;
	*) not_ok "$what: unknown generation '$gen'"; continue ;;
	esac
	case $device in
	range | tlb | may-sleep)
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
	pass | fail:coherence | fail:deadlock) ;;
	*) not_ok "$what: unknown result '$want'"; continue ;;
	esac
	if [ -n "$extra" ]; then
		not_ok "$what: trailing words '$extra'"
		continue
	fi
	if [ -n "$mut_macro" ] && [ "$want" = pass ]; then
		not_ok "$what: a mutant must be expected to fail"
		continue
	fi

	t0=$(now)
	verify "$gen_macro" "$dev_macro" "$mut_macro"
	secs=$(echo "$t0 $(now)" | awk '{ printf "%.2f", $2 - $1 }')
	fig="$(figures "$tmp/run/pan.out"), $secs s with spin and gcc"
	if [ "$result" = "$want" ]; then
		if [ "$want" = pass ]; then
			ok "$what: pass ($fig)"
		else
			ok "$what: $result as expected ($fig)"
		fi
	else
		detail >"$tmp/detail"
		not_ok "$what: $result, expected $want ($fig)" "$tmp/detail"
	fi
done <"$here/expected"

[ "$n_lines" -gt 0 ] || not_ok "no verifier lines in $here/expected"
echo "# $n_lines verifiers in $(echo "$start_all $(now)" |
	awk '{ printf "%.1f", $2 - $1 }') s"
tap_end model
