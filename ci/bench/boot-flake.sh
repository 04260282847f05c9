#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/bench/boot-flake.sh [-n BOOTS] [-j GUESTS] [-l LOADERS] [-m MODES]
#                         SUITE_FILE KERNEL...
# How often do guests fail for the infrastructure's sake (README "Boots
# you can trust")? Stage SUITE_FILE once per KERNEL (prepared first, as
# ci/kernels/prepare-kernel.sh does), then boot it BOOTS times (default 20) per
# kernel and TCG thread mode (MODES, comma separated, default
# "multi,single": MNCOMPAT_TCG_THREAD of ci/run/boot.sh), GUESTS at a time
# (default one per CPU), with LOADERS busy loops beside them (default 0)
# for a loaded machine. Each boot is classed:
#   pass       every row passed (or skipped)
#   retried    the first guest died before its first step (ci/run/boot.sh
#              booted it once more; the class of the second is in the log)
#   splat      the console showed a splat
#   fail       a test row failed, or the guest timed out
# and written to $MNCOMPAT_OUT/flake/boots.tsv (kernel, mode, boot, class,
# guest seconds, why); the summary per kernel and mode is printed and kept
# in $MNCOMPAT_OUT/flake/summary.tsv. Under KVM (MNCOMPAT_ACCEL=kvm) the
# mode is ignored.
set -eu
. "$(dirname "$0")/../lib.sh"

boots=20 guests=$(nproc) loaders=0 modes=multi,single
while getopts n:j:l:m: opt; do
	case $opt in
	n) boots=$OPTARG ;;
	j) guests=$OPTARG ;;
	l) loaders=$OPTARG ;;
	m) modes=$OPTARG ;;
	*) die "usage: boot-flake.sh [-n BOOTS] [-j GUESTS] [-l LOADERS] [-m MODES] SUITE_FILE KERNEL..." ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || die "usage: boot-flake.sh [-n BOOTS] [-j GUESTS] [-l LOADERS] [-m MODES] SUITE_FILE KERNEL..."
suite_file=$1
shift
[ -r "$suite_file" ] || die "no suite file $suite_file"
for n in "$boots" "$guests" "$loaders"; do
	case $n in
	'' | *[!0-9]*) die "-n, -j and -l take a number, not '$n'" ;;
	esac
done
for mode in $(echo "$modes" | tr ',' ' '); do
	case $mode in
	multi | single) ;;
	*) die "mode '$mode': give multi or single" ;;
	esac
done
require_tools qemu-system-x86_64 python3 cpio gzip
# shellcheck disable=SC2086
check_kernels "$@"

out=${MNCOMPAT_OUT:-$MNCOMPAT_TOP/out}/flake
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
suite=$(basename "$suite_file" .suite)
printf 'kernel\tmode\tboot\tclass\tseconds\twhy\n' >"$out/boots.tsv"

# The load: busy loops, stopped on exit.
loader_pids=""
stop_loaders() {
	for _pid in $loader_pids; do
		kill "$_pid" 2>/dev/null || true
	done
}
trap stop_loaders EXIT
i=0
while [ "$i" -lt "$loaders" ]; do
	sh -c 'while :; do :; done' &
	loader_pids="$loader_pids $!"
	i=$((i + 1))
done

# class_of DIR: the class and why of one booted suite run (its rows read
# by results.tsv's one reader, ci/report/results.py); fails when it has
# no results.tsv.
class_of() {
	"$MNCOMPAT_PYTHON" - "$MNCOMPAT_TOP/ci/report" "$1" <<'EOF'
import os
import sys
sys.path.insert(0, sys.argv[1])
import results  # noqa: E402
d = sys.argv[2]
if not os.path.exists(os.path.join(d, "results.tsv")):
    sys.exit(1)
rows = results.suite_rows(d)
retry = results.read_text(os.path.join(d, "retry")).strip()
splat = [r for r in rows if r[2].endswith("/console") and r[3] == "splat"]
bad = [r for r in rows if r[3] not in ("pass", "skip")
       and not r[2].endswith("/console")]
if retry:
    print("retried\t" + retry + (" / then " + (bad or splat)[0][2] + " " +
                                 (bad or splat)[0][3] if bad or splat
                                 else " / then passed"))
elif splat:
    print("splat\t" + splat[0][4])
elif bad:
    print("fail\t" + bad[0][2] + " " + bad[0][3] + " " + bad[0][4])
else:
    print("pass\t")
EOF
}

# one_boot KERNEL MODE N: boot the staged suite once, append its row.
one_boot() {
	k=$1 mode=$2 n=$3
	d=$out/$k/$mode/$n
	rm -rf "$d"
	mkdir -p "$d"
	cp -R "$out/$k/staged/$suite" "$d/$suite"
	kernel_fields "$(cat "$out/$k/env")" VMLINUZ KERNEL_APPEND
	MNCOMPAT_TCG_THREAD=$mode "$MNCOMPAT_TOP/ci/run/boot-suites.sh" "$k" \
		"$VMLINUZ" "$KERNEL_APPEND" "$d/boot" "$d/$suite" >"$d/log" 2>&1 || true
	cw=$(class_of "$d/$suite" 2>/dev/null || printf 'fail\tno results')
	secs=$(cat "$d/boot/boot-seconds" 2>/dev/null || echo -)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$mode" "$n" "${cw%%	*}" "$secs" \
		"$(echo "${cw#*	}" | tr '\t' ' ' | cut -c1-200)" >>"$out/boots.tsv"
	# Keep the logs of what did not pass only.
	[ "${cw%%	*}" = pass ] && rm -rf "$d"
	return 0
}

for k; do
	KERNELS=$k "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" >"$out/$k.env-path" ||
		die "$k could not be prepared"
	mkdir -p "$out/$k/staged"
	tail -n 1 "$out/$k.env-path" >"$out/$k/env"
	kernel_fields "$(cat "$out/$k/env")" KDIR KMODDIR
	"$MNCOMPAT_TOP/ci/run/stage-suite.sh" "$k" "$(cat "$out/$k/env")" "$KDIR" \
		"$KMODDIR" "$suite_file" "$out/$k/staged/$suite" >"$out/$k/stage.log" 2>&1 ||
		die "$k: $suite could not be staged ($out/$k/stage.log)"
	[ -r "$out/$k/staged/$suite/boot.conf" ] ||
		die "$k: $suite is not for this kernel ($out/$k/stage.log)"
	# The modes take turns, so that each sees the same load.
	log "$k: $boots boots of $suite per TCG mode ($modes), $guests at a time, $loaders busy loops beside"
	n=0 pids="" running=0
	while [ "$n" -lt "$boots" ]; do
		n=$((n + 1))
		for mode in $(echo "$modes" | tr ',' ' '); do
			one_boot "$k" "$mode" "$n" &
			pids="$pids $!" running=$((running + 1))
			if [ "$running" -ge "$guests" ]; then
				# shellcheck disable=SC2086 # a list of pids
				wait $pids
				pids="" running=0
			fi
		done
	done
	# shellcheck disable=SC2086 # a list of pids
	wait $pids
done

# The summary: per kernel and mode, boots by class and mean seconds.
awk -F '\t' 'NR > 1 {
		key = $1 "\t" $2
		if (!(key in n)) order[++keys] = key
		n[key]++; c[key, $4]++; s[key] += $5
	}
	END {
		print "kernel\tmode\tboots\tpass\tretried\tsplat\tfail\tmean_seconds"
		for (i = 1; i <= keys; i++) {
			k = order[i]
			printf "%s\t%d\t%d\t%d\t%d\t%d\t%.1f\n", k, n[k], c[k, "pass"],
				c[k, "retried"], c[k, "splat"], c[k, "fail"], s[k] / n[k]
		}
	}' "$out/boots.tsv" >"$out/summary.tsv"
column -t -s "$(printf '\t')" "$out/summary.tsv"
echo "boots: $out/boots.tsv (logs of the boots that did not pass under $out/KERNEL/MODE/N)"
