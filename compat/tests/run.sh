#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: compat/tests/run.sh ENV_FILE|KDIR...
#
# Host-side tests of compat/: for every kernel given (a ci env file that
# sets KDIR, or a KDIR), run the probe pass (its one-unit pass against
# each probe compiled apart), a negative-control probe, the
# test module in four driver variants with W=1 -Werror, the no-trampoline
# check on native kernels, the forced-off builds and the
# mmu_interval_notifier compile test (tests/interval: the kernel's API, or
# the emulation, also forced on where the kernel has one), and (on the first
# kernel and the fakes) semantic-patches' gntdev-shaped --compat output:
# built, or refused at build time where no safe form exists.  Then the
# same on fake KDIRs of older and distribution shapes (make-fake-kdir.sh:
# upstream generations, RHEL 8.2+'s mix, a pairwise mix; on all but 3.16
# also drivers-sample/mirror and itest, as they are; where the kernel has
# the range struct next to old callbacks, a negative control with compat's
# own struct, which must not build) made from the first Debian 6.1
# headers tree given (or MNCOMPAT_FAKE_BASE, or else the deb-6.1 kernel of
# ci/kernels/prepare-kernel.sh, fetched if needed), then sparse. The style checks
# of compat/ (checkpatch, the shell linter) are ci/checks/check-style.sh's. Prints
# one "ok"/"not ok" line per check and ends with "compat: N passed, M
# failed"; exits non-zero if anything failed.
#
# Environment: MNCOMPAT_FAKE_BASE, MNCOMPAT_TEST_DIR (work directory, kept;
# default: a temporary one).
set -u

tests=$(cd "$(dirname "$0")" && pwd)
compat=$(cd "$tests/.." && pwd)

if [ -n "${MNCOMPAT_TEST_DIR:-}" ]; then
	work=$MNCOMPAT_TEST_DIR
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-tests.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	trap 'exit 1' HUP INT TERM
fi

. "$compat/../ci/tap.sh"
# kernel_fields: a kernel's fields from its env file (ci/matrix_plan.py
# reads it).
. "$compat/../ci/lib.sh"
note() {
	echo "# $*"
}

# Per-kernel checks run MNCOMPAT_TEST_JOBS at a time (default: one per
# CPU; each is mostly one compiler at a time), each in a subshell whose
# checks are replayed in start order, numbered here.
job_names="" job_pids=""
# job NAME CMD...: run CMD in the background once a slot is free.
job() {
	jb_name=$1
	shift
	if [ "$(echo "$job_pids" | wc -w)" -ge "${MNCOMPAT_TEST_JOBS:-$(nproc)}" ]; then
		wait "${job_pids%% *}"
		job_pids=${job_pids#* }
		[ "$(echo "$job_pids" | wc -w)" -gt 0 ] || job_pids=""
	fi
	mkdir -p "$work/jobs"
	(
		# shellcheck disable=SC2317 # called by the job's commands
		ok() { echo "ok - $*"; }
		# shellcheck disable=SC2317
		not_ok() { echo "not ok - $*"; }
		"$@"
	) >"$work/jobs/$jb_name.out" 2>&1 &
	job_pids="${job_pids:+$job_pids }$!"
	job_names="$job_names $jb_name"
}
# replay_jobs: wait for every job and print its checks in start order.
replay_jobs() {
	wait
	for jb_name in $job_names; do
		while IFS= read -r jb_line; do
			case $jb_line in
			"ok - "*) ok "${jb_line#ok - }" ;;
			"not ok - "*) not_ok "${jb_line#not ok - }" ;;
			*) echo "$jb_line" ;;
			esac
		done <"$work/jobs/$jb_name.out"
	done
	job_names="" job_pids=""
}

# model CMD ARG...: ci/matrix_plan.py, the one reader of compat's
# mncompat_config.h.
model() {
	"$MNCOMPAT_PYTHON" "$compat/../ci/matrix_plan.py" "$@"
}

# has CONFIG_DIR FEATURE: is MNCOMPAT_HAVE_FEATURE defined there? The
# model's list of the header's features (config-macros) is asked once per
# config dir and kept beside the header, in mncompat_config.macros.
has() {
	[ -e "$1/mncompat_config.h" ] || return 1
	if [ ! -e "$1/mncompat_config.macros" ]; then
		model config-macros "$1/mncompat_config.h" \
			>"$1/mncompat_config.macros.tmp" || return 1
		mv "$1/mncompat_config.macros.tmp" "$1/mncompat_config.macros"
	fi
	hs_macros=
	read -r hs_macros <"$1/mncompat_config.macros"
	case " $hs_macros " in
	*" $2 "*) return 0 ;;
	esac
	return 1
}

# force_off CONFIG_DIR FEATURE NEW_DIR: a copy of the header without FEATURE
# (the model's config-without; what it prints, the copy's features, is
# has()'s list for NEW_DIR).
force_off() {
	mkdir -p "$3"
	rm -f "$3/mncompat_config.macros"
	model config-without "$1/mncompat_config.h" "$2" \
		"$3/mncompat_config.h" >"$3/mncompat_config.macros.tmp" &&
		mv "$3/mncompat_config.macros.tmp" "$3/mncompat_config.macros"
}

# judge_build LABEL LOG WHY TABLE BUILD_CMD...: run BUILD_CMD (its log in
# LOG) and check its outcome: it must build when WHY is empty; otherwise
# compat must refuse it at build time (WHY says why) with its static
# assertion naming the ops table TABLE (a prefix of the name).
judge_build() {
	jb_label=$1 jb_log=$2 jb_why=$3 jb_table=$4
	shift 4
	if "$@"; then
		if [ -z "$jb_why" ]; then
			ok "$jb_label builds"
		else
			not_ok "$jb_label builds but must be refused ($jb_why)"
		fi
	elif [ -z "$jb_why" ]; then
		not_ok "$jb_label fails to build (log: $jb_log)"
		grep -m 5 -E 'error|warning' "$jb_log" | sed 's/^/# /'
	elif grep -q "static assertion failed: \"mncompat: $jb_table" "$jb_log"; then
		ok "$jb_label refused at build time ($jb_why)"
		grep -m 1 -o '"mncompat: .*"' "$jb_log" | sed 's/^/# /'
	else
		not_ok "$jb_label fails, but not with the mncompat message"
	fi
}

# build_expect NAME KDIR CONFIG_DIR BUILD_DIR CFLAGS: build the test module
# and check the outcome the compat rules predict for CFLAGS and the config.
build_expect() {
	be_name=$1 be_kdir=$2 be_cfg=$3 be_build=$4 be_cflags=$5
	be_tlbs=yes
	be_sleeps=no
	case $be_cflags in *MIRROR_NO_TLBS*) be_tlbs=no ;; esac
	case $be_cflags in *MIRROR_MAY_SLEEP*) be_sleeps=yes ;; esac
	be_hook=no
	if has "$be_cfg" ARCH_INVALIDATE_SECONDARY_TLBS ||
		has "$be_cfg" INVALIDATE_RANGE; then
		be_hook=yes
	fi
	be_why=
	if [ $be_tlbs = yes ] && [ $be_hook = no ]; then
		be_why="secondary-TLB hook but no invalidate_range"
	fi
	if has "$be_cfg" INVALIDATE_PAGE && [ $be_sleeps = yes ] && [ $be_tlbs = no ]; then
		be_why="range_start may sleep, invalidate_page, no TLB hook"
	fi
	judge_build "$be_name: module W=1 -Werror [${be_cflags:-default}]" \
		"$be_build/build.log" "$be_why" mirror_mn_ops: \
		"$tests/build-test-module.sh" "$be_kdir" "$be_cfg" "$be_build" "$be_cflags"
}

# native_check NAME CONFIG_DIR BUILD_DIR: the ops table of a native
# kernel relocates straight to the driver's functions.
native_check() {
	nc_name=$1 nc_cfg=$2 nc_build=$3
	nc_relocs=$("$tests/ops-relocs.sh" "$nc_build/mirror.o" mirror_mn_ops \
		"$nc_build/ops_offsets.o") || nc_relocs=
	echo "$nc_relocs" | sed "s/^/# $nc_name: ops table: /"
	# The field the secondary-TLB hook belongs in: invalidate_range
	# wherever the kernel has it (its core calls it, also beside a
	# backported arch_invalidate_secondary_tlbs), else the 6.6 field.
	nc_hook=
	if has "$nc_cfg" INVALIDATE_RANGE; then
		nc_hook=invalidate_range
	elif has "$nc_cfg" ARCH_INVALIDATE_SECONDARY_TLBS; then
		nc_hook=arch_invalidate_secondary_tlbs
	fi
	if has "$nc_cfg" RANGE_START_RANGE && has "$nc_cfg" RANGE_END_RANGE &&
		! has "$nc_cfg" INVALIDATE_PAGE; then
		nc_expect="release mirror_release
invalidate_range_start mirror_invalidate_range_start
invalidate_range_end mirror_invalidate_range_end"
		nc_tlbs=
		# 6.6+ refuses the hook next to range callbacks: left out.
		if [ "$nc_hook" = invalidate_range ]; then
			nc_expect="$nc_expect
invalidate_range mirror_invalidate_secondary_tlbs"
			! has "$nc_cfg" ARCH_INVALIDATE_SECONDARY_TLBS ||
				nc_tlbs=", secondary-TLB hook in invalidate_range, which the core calls, not in the backported arch_invalidate_secondary_tlbs"
		else
			nc_tlbs=", secondary-TLB hook left out next to range callbacks (6.6+ refuses both)"
		fi
		# No per-table trampoline (on 4.19+ the module-wide pairing
		# functions, __mncompat_paired_range_end and the gate's, are
		# there, unused by this table).
		if [ "$(echo "$nc_relocs" | sort)" = "$(echo "$nc_expect" | sort)" ] &&
			! nm "$nc_build/mirror.o" | grep -q ' [tT] mirror_mn_ops__mncompat_'; then
			ok "$nc_name: native API: ops table points straight at the driver's functions, no trampoline in the object$nc_tlbs"
		else
			not_ok "$nc_name: native API but the ops table is not direct"
		fi
	elif has "$nc_cfg" INVALIDATE_PAGE; then
		if echo "$nc_relocs" | grep -qx \
			'invalidate_page mirror_mn_ops__mncompat_invalidate_page'; then
			ok "$nc_name: invalidate_page filled by the compat trampoline"
		else
			not_ok "$nc_name: invalidate_page not filled by the trampoline"
		fi
	fi
	if ! has "$nc_cfg" RANGE_START_RANGE; then
		if echo "$nc_relocs" | grep -qx 'invalidate_range_start mirror_mn_ops__mncompat_range_start' &&
			echo "$nc_relocs" | grep -qx 'invalidate_range_end mirror_mn_ops__mncompat_range_end'; then
			ok "$nc_name: pre-5.0 forms: range_start/end filled by the compat trampolines"
		else
			not_ok "$nc_name: pre-5.0 forms but range_start/end are not trampolines"
		fi
	fi
	# The hook-only table: the hook in that field, straight at the
	# driver's function.
	case $nc_build in *NO_TLBS*) nc_hook= ;; esac
	[ -n "$nc_hook" ] || return 0
	nc_tlb=$("$tests/ops-relocs.sh" "$nc_build/mirror.o" mirror_tlb_ops \
		"$nc_build/ops_offsets.o") || nc_tlb=
	echo "$nc_tlb" | sed "s/^/# $nc_name: hook-only table: /"
	if echo "$nc_tlb" | grep -qx "$nc_hook mirror_invalidate_secondary_tlbs" &&
		[ "$(echo "$nc_tlb" | grep -c 'mirror_invalidate_secondary_tlbs$')" -eq 1 ]; then
		ok "$nc_name: hook-only table: the hook in $nc_hook, once"
	else
		not_ok "$nc_name: hook-only table: the hook is not (only) in $nc_hook"
	fi
}

# paired_check NAME CONFIG_DIR BUILD_DIR: the may-sleep ops table (range_start
# and range_end) is a paired one (start/end pairing, issue 33) exactly where
# range_start may fail (the 4.19+ forms): its range_start is its paired
# trampoline, its range_end __mncompat_paired_range_end(), by which
# mncompat_mmu_notifier_register() knows it.
paired_check() {
	pc_name=$1 pc_cfg=$2 pc_build=$3
	[ -e "$pc_build/mirror.o" ] || return 0
	pc_relocs=$("$tests/ops-relocs.sh" "$pc_build/mirror.o" mirror_mn_ops \
		"$pc_build/ops_offsets.o") || pc_relocs=
	pc_paired=no
	if echo "$pc_relocs" | grep -qx 'invalidate_range_start mirror_mn_ops__mncompat_paired_start' &&
		echo "$pc_relocs" | grep -qx 'invalidate_range_end __mncompat_paired_range_end'; then
		pc_paired=yes
	fi
	if has "$pc_cfg" RANGE_START_RANGE || has "$pc_cfg" RANGE_START_BLOCKABLE; then
		if [ $pc_paired = yes ]; then
			ok "$pc_name: range_start may fail: the may-sleep table's start and end are compat's pairing trampoline and function"
		else
			not_ok "$pc_name: range_start may fail but the may-sleep table is not paired"
		fi
	elif [ $pc_paired = yes ]; then
		not_ok "$pc_name: range_start cannot fail but the may-sleep table is paired"
	else
		ok "$pc_name: range_start cannot fail: no start/end pairing"
	fi
}

# interval_check NAME KDIR CONFIG_DIR BUILD_DIR: tests/interval builds
# (W=1 -Werror) through <mncompat/mmu_interval_notifier.h> and uses the
# kernel's mmu_interval_notifier where the config has it, else only the
# classic notifier calls of the emulation.
interval_check() {
	ic_name=$1 ic_kdir=$2 ic_cfg=$3 ic_build=$4
	if ! MNCOMPAT_TEST_MODULE=$tests/interval "$tests/build-test-module.sh" \
		"$ic_kdir" "$ic_cfg" "$ic_build" ""; then
		not_ok "$ic_name: mmu_interval_notifier test module fails to build (log: $ic_build/build.log)"
		grep -m 5 -E 'error|warning' "$ic_build/build.log" | sed 's/^/# /'
		return
	fi
	ic_undef=$(nm -u "$ic_build/interval.o" | awk '{ print $2 }' |
		grep mmu_ | sort | tr '\n' ' ')
	note "$ic_name: interval.o calls: $ic_undef"
	if has "$ic_cfg" MMU_INTERVAL_NOTIFIER; then
		case $ic_undef in
		*" mmu_interval_notifier_insert "* | "mmu_interval_notifier_insert "*)
			ok "$ic_name: mmu_interval_notifier: the kernel's own" ;;
		*) not_ok "$ic_name: mmu_interval_notifier: the kernel's is not used" ;;
		esac
	elif echo "$ic_undef" | grep -q 'mmu_interval'; then
		not_ok "$ic_name: mmu_interval_notifier emulation calls the kernel's"
	elif echo " $ic_undef" | grep -q ' mmu_notifier_register '; then
		ok "$ic_name: mmu_interval_notifier emulated on classic notifiers"
	else
		not_ok "$ic_name: mmu_interval_notifier emulation registers no notifier"
	fi
}

# converted_check NAME KDIR CONFIG_DIR BUILD_DIR: the gntdev-shaped driver
# that semantic-patches/convert.sh --compat converted (the expected output
# of its pipeline-compat-gntdev case: range callbacks that take a mutex, no
# secondary-TLB hook) builds where the kernel has no invalidate_page, and
# is refused at build time, with the mncompat message, where it has one.
converted_check() {
	cc_name=$1 cc_kdir=$2 cc_cfg=$3 cc_build=$4
	cc_src=$compat/../semantic-patches/tests/pipeline-compat-gntdev/after.c
	cc_mod=$cc_build-src
	mkdir -p "$cc_mod"
	cp "$cc_src" "$cc_mod/gnt.c"
	# shellcheck disable=SC2016 # make variables, not shell ones
	printf '%s\n' 'obj-m := gnt.o' \
		'ccflags-y := -Werror -I$(MNCOMPAT_INCLUDE) -I$(MNCOMPAT_CONFIG)' \
		>"$cc_mod/Kbuild"
	cc_why=
	! has "$cc_cfg" INVALIDATE_PAGE ||
		cc_why="invalidate_page under the page-table lock"
	judge_build "$cc_name: convert.sh --compat output W=1 -Werror (gntdev shape, sleeping range callbacks)" \
		"$cc_build/build.log" "$cc_why" grant_ \
		env MNCOMPAT_TEST_MODULE="$cc_mod" "$tests/build-test-module.sh" \
		"$cc_kdir" "$cc_cfg" "$cc_build" ""
}

# reachable_calls OBJECT FUNCTION: the symbols FUNCTION of OBJECT calls or
# jumps to, directly or through the object's own functions, that the
# object does not define (x86 objdump), one a line.
reachable_calls() {
	objdump -dr --no-show-raw-insn "$1" | awk -v start="$2" '
	/^[0-9a-f]+ <[^>]+>:$/ {
		fn = $2
		gsub(/[<>:]/, "", fn)
		defined[fn] = 1
		next
	}
	fn != "" && /R_X86_64_(PLT32|PC32)/ {
		sym = $NF
		sub(/[-+]0x[0-9a-f]+$/, "", sym)
		edge[fn] = edge[fn] " " sym
		next
	}
	fn != "" && $2 ~ /^(call|jmp)/ && match($0, /<[^>+]+>$/) {
		edge[fn] = edge[fn] " " substr($0, RSTART + 1, RLENGTH - 2)
	}
	END {
		todo[start] = 1
		seen[start] = 1
		do {
			more = 0
			for (f in todo) {
				delete todo[f]
				n = split(edge[f], to, " ")
				for (i = 1; i <= n; i++) {
					if (to[i] in seen)
						continue
					seen[to[i]] = 1
					if (to[i] in defined) {
						todo[to[i]] = 1
						more = 1
					} else {
						print to[i]
					}
				}
			}
		} while (more)
	}' | sort -u
}

# api7_check NAME KDIR CONFIG_DIR BUILD_DIR: tests/api7 (the API after
# 6.12 written once: young callbacks, the *_notify() helpers, the two-pass
# interval notifier, the registration forms) builds with W=1 -Werror; its
# young fields point straight at the driver's functions where the kernel
# has the callback (and are absent where not); its two-pass table is the
# driver's passes where the kernel has the form, compat's trampoline
# elsewhere; registration under the caller's mmap lock reaches
# __mmu_notifier_register() and never mmu_notifier_register() (which
# would take the lock again). Where clear_flush_young takes one address
# (before 3.18) compat must refuse it by name.
api7_check() {
	ac_name=$1 ac_kdir=$2 ac_cfg=$3 ac_build=$4
	ac_why=
	! has "$ac_cfg" CLEAR_FLUSH_YOUNG_ADDR ||
		ac_why="clear_flush_young takes one address"
	if ! MNCOMPAT_TEST_MODULE=$tests/api7 "$tests/build-test-module.sh" \
		"$ac_kdir" "$ac_cfg" "$ac_build" ""; then
		if [ -n "$ac_why" ] && grep -q \
			'mncompat_clear_flush_young_takes_one_address_before_3_18_no_trampoline' \
			"$ac_build/build.log"; then
			ok "$ac_name: api7 (the API after 6.12) refused at build time ($ac_why), by name"
		else
			not_ok "$ac_name: api7 (young callbacks, *_notify helpers, two-pass interval notifier, registration forms) fails to build W=1 -Werror (log: $ac_build/build.log)"
			grep -m 5 -E 'error|warning' "$ac_build/build.log" | sed 's/^/# /'
		fi
		return
	fi
	if [ -n "$ac_why" ]; then
		not_ok "$ac_name: api7 builds but must be refused ($ac_why)"
		return
	fi
	ok "$ac_name: api7 (young callbacks, *_notify helpers, two-pass interval notifier, registration forms) W=1 -Werror builds"
	ac_relocs=$("$tests/ops-relocs.sh" "$ac_build/api7.o" api7_young_ops \
		"$ac_build/ops_offsets.o") || ac_relocs=
	ac_want="release api7_release"
	ac_form=int
	for ac_cb in clear_flush_young:CLEAR_FLUSH_YOUNG_RANGE \
		clear_young:CLEAR_YOUNG test_young:TEST_YOUNG; do
		! has "$ac_cfg" "${ac_cb#*:}" ||
			ac_want="$ac_want
${ac_cb%%:*} api7_${ac_cb%%:*}"
	done
	! has "$ac_cfg" CLEAR_FLUSH_YOUNG_BOOL || ac_form=bool
	if [ "$(echo "$ac_relocs" | sort)" = "$(echo "$ac_want" | sort)" ]; then
		ok "$ac_name: young callbacks ($ac_form) straight in the table, where the kernel has them: $(echo "$ac_relocs" | sed 1d | cut -d' ' -f1 | tr '\n' ' ')"
	else
		not_ok "$ac_name: young fields are not the driver's functions where the kernel has them"
		echo "$ac_relocs" | sed 's/^/# got: /'
		echo "$ac_want" | sed 's/^/# want: /'
	fi
	if nm "$ac_build/api7.o" | grep -q ' t api7_interval_ops__mncompat_invalidate$'; then
		ac_tramp=yes
	else
		ac_tramp=no
	fi
	if has "$ac_cfg" MMU_INTERVAL_NOTIFIER_TWO_PASS &&
		has "$ac_cfg" MMU_INTERVAL_NOTIFIER; then
		if [ $ac_tramp = no ]; then
			ok "$ac_name: two-pass interval notifier: the kernel's (the table holds the driver's passes)"
		else
			not_ok "$ac_name: two-pass interval notifier: a trampoline where the kernel has the form"
		fi
	elif [ $ac_tramp = yes ]; then
		ok "$ac_name: two-pass interval notifier: compat runs both passes (->invalidate trampoline)"
	else
		not_ok "$ac_name: two-pass interval notifier: no trampoline where the kernel lacks the form"
	fi
	ac_calls=$(reachable_calls "$ac_build/api7.o" api7_register_locked |
		tr '\n' ' ')
	note "$ac_name: api7_register_locked reaches: $ac_calls"
	case " $ac_calls " in
	*" mmu_notifier_register "*)
		not_ok "$ac_name: __mncompat_mmu_notifier_register() reaches mmu_notifier_register(), which takes the mmap lock its caller holds" ;;
	*" __mmu_notifier_register "*)
		ok "$ac_name: __mncompat_mmu_notifier_register() registers with __mmu_notifier_register() only (the caller holds the mmap lock)" ;;
	*) not_ok "$ac_name: __mncompat_mmu_notifier_register() does not reach __mmu_notifier_register()" ;;
	esac
}

# known_shape NAME CONFIG_DIR RELEASE: on a Debian kernel (packaged or
# built from Debian's source), whose API is upstream's for its version,
# the answers of the pieces after 6.12 and of the registration forms.
known_shape() {
	ks_name=$1 ks_cfg=$2 ks_release=$3
	ks_v=$(echo "$ks_release" | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p' |
		awk '{ printf "%d", $1 * 1000 + $2 }')
	[ -n "$ks_v" ] || return 0
	if [ "$ks_v" -ge 7001 ]; then
		ks_want="CLEAR_FLUSH_YOUNG_RANGE CLEAR_FLUSH_YOUNG_BOOL
			!CLEAR_FLUSH_YOUNG_INT CLEAR_YOUNG CLEAR_YOUNG_BOOL
			!CLEAR_YOUNG_INT TEST_YOUNG TEST_YOUNG_BOOL !TEST_YOUNG_INT
			!CLEAR_FLUSH_YOUNG_NOTIFY !CLEAR_YOUNG_NOTIFY
			MMU_INTERVAL_NOTIFIER_TWO_PASS"
	else
		ks_want="CLEAR_FLUSH_YOUNG_RANGE CLEAR_FLUSH_YOUNG_INT
			!CLEAR_FLUSH_YOUNG_BOOL CLEAR_YOUNG CLEAR_YOUNG_INT
			!CLEAR_YOUNG_BOOL TEST_YOUNG TEST_YOUNG_INT !TEST_YOUNG_BOOL
			CLEAR_FLUSH_YOUNG_NOTIFY CLEAR_YOUNG_NOTIFY
			!MMU_INTERVAL_NOTIFIER_TWO_PASS"
	fi
	if [ "$ks_v" -ge 6006 ]; then
		ks_want="$ks_want !CLEAR_FLUSH_NOTIFY ARCH_INVALIDATE_SECONDARY_TLBS"
	else
		ks_want="$ks_want CLEAR_FLUSH_NOTIFY"
	fi
	[ "$ks_v" -lt 5008 ] || ks_want="$ks_want MMAP_WRITE_LOCK"
	[ "$ks_v" -lt 5004 ] || ks_want="$ks_want MMU_NOTIFIER_GET"
	ks_wrong=
	for ks_f in $ks_want; do
		case $ks_f in
		!*) ! has "$ks_cfg" "${ks_f#!}" || ks_wrong="$ks_wrong $ks_f" ;;
		*) has "$ks_cfg" "$ks_f" || ks_wrong="$ks_wrong $ks_f" ;;
		esac
	done
	if [ -z "$ks_wrong" ]; then
		ok "$ks_name: the probes see upstream $((ks_v / 1000)).$((ks_v % 1000))'s young callbacks, *_notify helpers, two-pass interval notifier, mmap lock API and get/put ($(echo "$ks_want" | tr -s ' \t\n' ' '))"
	else
		not_ok "$ks_name: probes get wrong for upstream $((ks_v / 1000)).$((ks_v % 1000)):$ks_wrong"
	fi
}

# same_answers NAME KDIR CONFIG_DIR: configure.sh's one-unit pass (the
# default, which wrote CONFIG_DIR) answers as its reference, every probe
# compiled apart (MNCOMPAT_PROBE_PASS=each), and did not fall back to it
# unless the kernel's own headers warn.
same_answers() {
	sa_name=$1 sa_kdir=$2 sa_cfg=$3
	sa_each=$sa_cfg-each
	if ! MNCOMPAT_PROBE_PASS=each "$compat/configure.sh" "$sa_kdir" \
		"$sa_each" >"$sa_each.out" 2>&1; then
		not_ok "$sa_name: configure.sh with each probe apart failed ($sa_each.out)"
		return
	fi
	sa_pass=$(sed -n 's/^ \* Pass: //p' "$sa_cfg/mncompat_config.h")
	sa_n=$(grep -c '^#define MNCOMPAT_HAVE_' "$sa_cfg/mncompat_config.h" || true)
	if ! diff -u "$sa_each/mncompat_config.h" "$sa_cfg/mncompat_config.h" |
		grep '^[-+]#' >"$sa_each.diff"; then
		if [ "$sa_pass" = one ] || grep -q '^ \* With -Wno-error' \
			"$sa_each/mncompat_config.h"; then
			ok "$sa_name: the one-unit probe pass answers as each probe apart ($sa_n defined; pass: $sa_pass)"
		else
			not_ok "$sa_name: the one-unit probe pass fell back: $sa_pass"
		fi
	else
		not_ok "$sa_name: the one-unit probe pass and each probe apart differ"
		sed 's/^/# /' "$sa_each.diff"
	fi
}

# test_kernel NAME KDIR REAL [CONVERTED [KIND]]: every per-kernel check;
# the converted_check too on a fake (REAL=no) or with CONVERTED=yes; the
# known shape of a Debian kernel (KIND deb or src).
test_kernel() {
	tk_name=$1 tk_kdir=$2 tk_real=$3 tk_converted=${4:-no} tk_kind=${5:-}
	tk_cfg=$work/$tk_name/config
	if tk_out=$("$compat/configure.sh" "$tk_kdir" "$tk_cfg" 2>&1); then
		tk_secs=$(echo "$tk_out" | sed -n 's/.* in \([0-9.]*\)s ->.*/\1/p')
		tk_count=$(echo "$tk_out" | sed -n 's/.*: \([0-9]* of [0-9]*\) probes.*/\1/p')
		ok "$tk_name: probe pass in ${tk_secs}s ($tk_count probes compiled)"
		echo "$tk_name=${tk_secs}s" >"$work/$tk_name/probe-seconds"
	else
		not_ok "$tk_name: configure.sh failed"
		echo "$tk_out" | sed 's/^/# /'
		return
	fi
	same_answers "$tk_name" "$tk_kdir" "$tk_cfg"
	case $tk_kind in
	deb | src)
		known_shape "$tk_name" "$tk_cfg" \
			"$(cat "$tk_kdir/include/config/kernel.release" 2>/dev/null)"
		;;
	esac

	if [ "$tk_real" = yes ]; then
		tk_neg=$work/$tk_name/negative
		mkdir -p "$tk_neg/probes"
		cp "$compat"/probes/*.c "$tests"/negative/*.c "$tk_neg/probes/"
		MNCOMPAT_PROBES=$tk_neg/probes "$compat/configure.sh" "$tk_kdir" \
			"$tk_neg/config" >/dev/null 2>&1
		if [ -e "$tk_neg/config/mncompat_config.h" ] &&
			! has "$tk_neg/config" RANGE_START_WRONG_SIGNATURE &&
			grep -q 'range_start_wrong_signature.c.*incompatible.pointer.type' \
				"$tk_neg/config/mncompat_probes.log"; then
			ok "$tk_name: negative control: wrong-signature probe fails (incompatible pointer type)"
		else
			not_ok "$tk_name: negative control probe did not fail as expected"
		fi
	fi

	for tk_cflags in "" -DMIRROR_MAY_SLEEP -DMIRROR_NO_TLBS \
		"-DMIRROR_NO_TLBS -DMIRROR_MAY_SLEEP"; do
		tk_tag=$(echo "${tk_cflags:-default}" | tr -dc 'A-Za-z_')
		build_expect "$tk_name" "$tk_kdir" "$tk_cfg" "$work/$tk_name/build-$tk_tag" \
			"$tk_cflags"
	done
	# The default variant is refused where there is no secondary-TLB hook.
	tk_base=
	tk_build=$work/$tk_name/build-default
	if [ ! -e "$tk_build/mirror.o" ]; then
		tk_base=-DMIRROR_NO_TLBS
		tk_build=$work/$tk_name/build-DMIRROR_NO_TLBS
	fi
	native_check "$tk_name" "$tk_cfg" "$tk_build"
	paired_check "$tk_name" "$tk_cfg" "$work/$tk_name/build-DMIRROR_MAY_SLEEP"

	# Forced-off builds: each probe result the header acts on, turned
	# off where the fallback compiles against the same kernel.
	# MMU_NOTIFIER_RANGE_BLOCKABLE off: the flags read directly (RHEL
	# 8.2+ has the flags without the helper).
	for tk_feature in INVALIDATE_PAGE MMU_NOTIFIER_SYNCHRONIZE \
		OPS_FLAGS_DOES_NOT_BLOCK ARCH_INVALIDATE_SECONDARY_TLBS \
		INVALIDATE_RANGE MMU_NOTIFIER_RANGE_BLOCKABLE; do
		has "$tk_cfg" "$tk_feature" || continue
		tk_off=$work/$tk_name/off-$tk_feature
		force_off "$tk_cfg" "$tk_feature" "$tk_off"
		build_expect "${tk_name}[-${tk_feature}]" "$tk_kdir" "$tk_off" \
			"$tk_off/build" "$tk_base"
		case $tk_feature in
		*TLBS | INVALIDATE_RANGE)
			build_expect "${tk_name}[-${tk_feature}]" "$tk_kdir" "$tk_off" \
				"$tk_off/build-notlbs" -DMIRROR_NO_TLBS
			;;
		esac
	done

	# mmu_interval_notifier: the kernel's, the emulation where it has
	# none, and the emulation forced on a kernel that has one.
	interval_check "$tk_name" "$tk_kdir" "$tk_cfg" "$work/$tk_name/interval"
	api7_check "$tk_name" "$tk_kdir" "$tk_cfg" "$work/$tk_name/api7"
	# The first kernel given and every fake generation (the outcome
	# depends only on the probed forms).
	if [ "$tk_real" = no ] || [ "$tk_converted" = yes ]; then
		converted_check "$tk_name" "$tk_kdir" "$tk_cfg" \
			"$work/$tk_name/converted"
	fi
	if has "$tk_cfg" MMU_INTERVAL_NOTIFIER; then
		tk_off=$work/$tk_name/off-MMU_INTERVAL_NOTIFIER
		force_off "$tk_cfg" MMU_INTERVAL_NOTIFIER "$tk_off"
		interval_check "${tk_name}[-MMU_INTERVAL_NOTIFIER]" "$tk_kdir" \
			"$tk_off" "$tk_off/interval"
	fi
}

# real_kernel NAME KDIR RELEASE CONVERTED KIND: every per-kernel check on
# a real tree (test_kernel).
real_kernel() {
	note "kernel $1: $2 ($3)"
	test_kernel "$1" "$2" yes "$4" "$5"
}

fake_base=${MNCOMPAT_FAKE_BASE:-}
[ $# -gt 0 ] || {
	echo "usage: run.sh ENV_FILE|KDIR..." >&2
	exit 2
}
names=""
for arg in "$@"; do
	if [ -f "$arg" ]; then
		KERNEL_KIND=
		kernel_fields "$arg" KDIR KERNEL_NAME KERNEL_KIND
		# shellcheck disable=SC2153 # set by kernel_fields
		kdir=$KDIR
		name=${KERNEL_NAME:-$(basename "$arg" .env)}
		kind=$KERNEL_KIND
	else
		kdir=$arg
		name=$(basename "$arg")
		kind=
	fi
	if [ ! -r "$kdir/Makefile" ]; then
		not_ok "$name: $kdir is not a kernel build tree"
		continue
	fi
	release=$(cat "$kdir/include/config/kernel.release" 2>/dev/null)
	if [ -z "$fake_base" ] && grep -q '^include /.*-common/Makefile$' \
		"$kdir/Makefile"; then
		case $release in 6.1.*) fake_base=$kdir ;; esac
	fi
	converted=no
	[ -n "$names" ] || converted=yes
	names="$names $name"
	mkdir -p "$work/$name"
	job "$name" real_kernel "$name" "$kdir" "$release" "$converted" "$kind"
done
replay_jobs

# No Debian 6.1 headers tree among the arguments: ask the ci for it (it is
# cached after the first download; its KDIR is only used for fake KDIRs).
# deb-6.1 is a row of ci/kernels/kernels.list: fall back to that list if
# KERNELS_LIST names another one without it.
if [ -z "$fake_base" ]; then
	top=$(cd "$compat/.." && pwd)
	deb61=
	if [ -x "$top/ci/kernels/prepare-kernel.sh" ]; then
		deb61=$("$top/ci/kernels/prepare-kernel.sh" deb-6.1 2>/dev/null) ||
			deb61=$(KERNELS_LIST=$top/ci/kernels/kernels.list \
				"$top/ci/kernels/prepare-kernel.sh" deb-6.1 2>/dev/null) ||
			deb61=
	fi
	if [ -n "$deb61" ] && [ -r "$deb61" ]; then
		fake_base=$(kernel_fields "$deb61" KDIR && echo "$KDIR")
		note "fake old generations from deb-6.1 ($deb61): $fake_base"
	fi
fi

# fake_generation GEN: a fake KDIR of GEN, every per-kernel check on it,
# the probes see its shape, and (4.12, 4.19) the samples build on it.
fake_generation() {
	gen=$1
	fg_start=$(date +%s)
	fg_src=
	[ "$gen" != 7.3 ] || fg_src=$src73
	# shellcheck disable=SC2086 # fg_src: none or one word
	if ! fake=$("$tests/make-fake-kdir.sh" "$fake_base" \
		"$work/fake" "$gen" $fg_src); then
		not_ok "fake-$gen: cannot make a fake KDIR"
		return
	fi
	note "kernel fake-$gen: $fake (from $fake_base)"
	mkdir -p "$work/fake-$gen"
	test_kernel "fake-$gen" "$fake" no
	cfg=$work/fake-$gen/config
	# What the probes must find, and (!) must not.
	case $gen in
	recreated-4.12) want="INVALIDATE_PAGE RANGE_START_RANGE MMU_NOTIFIER_RANGE" ;;
	4.19) want="RANGE_START_BLOCKABLE RANGE_END_VOID4 OPS_FLAGS_DOES_NOT_BLOCK !MMU_NOTIFIER_RANGE" ;;
	phytium-4.19) want="RANGE_START_BLOCKABLE RANGE_END_VOID4
		OPS_FLAGS_DOES_NOT_BLOCK INVALIDATE_RANGE
		ARCH_INVALIDATE_SECONDARY_TLBS !MMU_NOTIFIER_RANGE" ;;
	4.16) want="RANGE_START_VOID4 RANGE_END_VOID4 OPS_FLAGS_DOES_NOT_BLOCK
		INVALIDATE_RANGE MMU_NOTIFIER_SYNCHRONIZE !INVALIDATE_PAGE
		!MMU_NOTIFIER_RANGE !MMU_INTERVAL_NOTIFIER !MMU_NOTIFIER_GET
		CLEAR_FLUSH_YOUNG_RANGE CLEAR_FLUSH_YOUNG_INT CLEAR_YOUNG_INT
		TEST_YOUNG_INT !CLEAR_YOUNG_BOOL !MMU_INTERVAL_NOTIFIER_TWO_PASS" ;;
	4.12) want="INVALIDATE_PAGE RANGE_START_VOID4 INVALIDATE_RANGE !MMU_NOTIFIER_RANGE" ;;
	5.0) want="RANGE_START_RANGE MMU_NOTIFIER_RANGE RANGE_BLOCKABLE_FIELD
		!RANGE_FLAGS_FIELD !RANGE_EVENT_FIELD !RANGE_OWNER_FIELD
		!RANGE_VMA_FIELD !MMU_NOTIFIER_RANGE_BLOCKABLE" ;;
	5.4) want="RANGE_START_RANGE RANGE_END_RANGE MMU_NOTIFIER_RANGE
		RANGE_FLAGS_FIELD RANGE_EVENT_FIELD RANGE_VMA_FIELD
		MMU_NOTIFIER_RANGE_BLOCKABLE MMU_NOTIFIER_GET
		MMU_NOTIFIER_SYNCHRONIZE INVALIDATE_RANGE !RANGE_OWNER_FIELD
		!RANGE_BLOCKABLE_FIELD !MMU_INTERVAL_NOTIFIER" ;;
	sles-15-sp3) want="RANGE_START_RANGE RANGE_END_RANGE MMU_NOTIFIER_RANGE
		RANGE_FLAGS_FIELD RANGE_EVENT_FIELD RANGE_VMA_FIELD
		MMU_NOTIFIER_RANGE_BLOCKABLE MMU_INTERVAL_NOTIFIER MMU_NOTIFIER_GET
		MMU_NOTIFIER_SYNCHRONIZE INVALIDATE_RANGE !RANGE_OWNER_FIELD
		!RANGE_BLOCKABLE_FIELD" ;;
	openeuler-5.10) want="RANGE_START_RANGE RANGE_END_RANGE
		MMU_NOTIFIER_RANGE RANGE_FLAGS_FIELD RANGE_EVENT_FIELD
		RANGE_VMA_FIELD MMU_NOTIFIER_RANGE_BLOCKABLE MMU_INTERVAL_NOTIFIER
		MMU_NOTIFIER_GET MMU_NOTIFIER_SYNCHRONIZE INVALIDATE_RANGE
		ARCH_INVALIDATE_SECONDARY_TLBS !RANGE_OWNER_FIELD" ;;
	rhel-8.2) want="RANGE_START_VOID4 RANGE_END_VOID4 OPS_FLAGS_DOES_NOT_BLOCK
		MMU_NOTIFIER_RANGE RANGE_FLAGS_FIELD RANGE_EVENT_FIELD
		MMU_INTERVAL_NOTIFIER MMU_NOTIFIER_GET MMU_NOTIFIER_SYNCHRONIZE
		!MMU_NOTIFIER_RANGE_BLOCKABLE !RANGE_BLOCKABLE_FIELD
		!RANGE_OWNER_FIELD !RANGE_VMA_FIELD !RANGE_START_RANGE" ;;
	mix-4.16-5.0) want="RANGE_START_VOID4 RANGE_END_VOID4
		OPS_FLAGS_DOES_NOT_BLOCK MMU_NOTIFIER_RANGE RANGE_BLOCKABLE_FIELD
		MMU_NOTIFIER_SYNCHRONIZE !RANGE_FLAGS_FIELD
		!MMU_NOTIFIER_RANGE_BLOCKABLE !MMU_INTERVAL_NOTIFIER" ;;
	3.16) want="INVALIDATE_PAGE RANGE_START_VOID4 CLEAR_FLUSH_YOUNG_ADDR
		!CLEAR_FLUSH_YOUNG_RANGE !CLEAR_FLUSH_YOUNG_INT !CLEAR_YOUNG
		!CLEAR_YOUNG_INT TEST_YOUNG TEST_YOUNG_INT" ;;
	7.3) want="RANGE_START_RANGE RANGE_END_RANGE MMU_NOTIFIER_RANGE
		RANGE_FLAGS_FIELD RANGE_EVENT_FIELD RANGE_OWNER_FIELD
		MMU_NOTIFIER_RANGE_BLOCKABLE MMU_INTERVAL_NOTIFIER MMU_NOTIFIER_GET
		MMU_NOTIFIER_SYNCHRONIZE ARCH_INVALIDATE_SECONDARY_TLBS
		!INVALIDATE_RANGE !CHANGE_PTE !RANGE_VMA_FIELD
		CLEAR_FLUSH_YOUNG_RANGE CLEAR_FLUSH_YOUNG_BOOL !CLEAR_FLUSH_YOUNG_INT
		CLEAR_YOUNG CLEAR_YOUNG_BOOL !CLEAR_YOUNG_INT TEST_YOUNG
		TEST_YOUNG_BOOL !TEST_YOUNG_INT !CLEAR_FLUSH_YOUNG_NOTIFY
		!CLEAR_YOUNG_NOTIFY !CLEAR_FLUSH_NOTIFY
		MMU_INTERVAL_NOTIFIER_TWO_PASS" ;;
	esac
	missing="" shown=""
	for feature in $want; do
		shown="${shown:+$shown }$feature"
		case $feature in
		!*)
			! has "$cfg" "${feature#!}" 2>/dev/null ||
				missing="$missing $feature"
			;;
		*)
			has "$cfg" "$feature" 2>/dev/null ||
				missing="$missing $feature"
			;;
		esac
	done
	if [ -z "$missing" ]; then
		ok "fake-$gen: probes see the $gen shape ($shown)"
	else
		not_ok "fake-$gen: probes get wrong:$missing (wanted: $shown)"
	fi
	# A generation guess instead of the range struct's own probe (what
	# compat did before issue 27: its own struct wherever range_start
	# takes no range) must fail to build where the kernel has the struct
	# next to the old callbacks: the check can fail.
	if has "$cfg" MMU_NOTIFIER_RANGE && ! has "$cfg" RANGE_START_RANGE; then
		guess=$work/fake-$gen/guess
		force_off "$cfg" MMU_NOTIFIER_RANGE "$guess"
		if "$tests/build-test-module.sh" "$fake" "$guess" "$guess/build" ""; then
			not_ok "fake-$gen: negative control: the test module builds with compat's own struct mmu_notifier_range next to the kernel's"
		elif grep -q "redefinition of .struct mmu_notifier_range" \
			"$guess/build/build.log"; then
			ok "fake-$gen: negative control: compat's own struct mmu_notifier_range next to the kernel's fails to build (redefinition)"
		else
			not_ok "fake-$gen: negative control failed, but not with a redefinition of struct mmu_notifier_range (log: $guess/build/build.log)"
		fi
	fi
	# The samples on every notifier shape of the floor's era (4.4 on):
	# they must build through compat/ as they are.
	case $gen in
	3.16) ;;
	*)
		for sample in mirror itest; do
			if MNCOMPAT_TEST_MODULE=$compat/../drivers-sample/$sample \
				"$tests/build-test-module.sh" "$fake" "$cfg" \
				"$work/fake-$gen/$sample" ""; then
				ok "fake-$gen: drivers-sample/$sample builds (W=1 -Werror)"
			else
				not_ok "fake-$gen: drivers-sample/$sample fails to build (log: $work/fake-$gen/$sample/build.log)"
				grep -m 5 -E 'error|warning' \
					"$work/fake-$gen/$sample/build.log" | sed 's/^/# /'
			fi
		done
		;;
	esac
	rm -rf "$work/fake/$gen"
	note "fake-$gen: header set checked in $(($(date +%s) - fg_start)) s"
}

# The 7.3 header set takes 7.3's <linux/mmu_notifier.h> from a
# linux-source-7.3 tree: MNCOMPAT_SRC_7_3, or the kit's unpacked package.
src73=${MNCOMPAT_SRC_7_3:-}
if [ -z "$src73" ] && [ -x "$compat/../ci/kernels/unpack-source.sh" ]; then
	src73=$("$compat/../ci/kernels/unpack-source.sh" 7.3 2>/dev/null) ||
		src73=
fi
gens="recreated-4.12 rhel-8.2 4.19 4.16 4.12 5.0 5.4 sles-15-sp3
	openeuler-5.10 phytium-4.19 mix-4.16-5.0 3.16"
if [ -n "$src73" ]; then
	gens="$gens 7.3"
else
	note "SKIP fake-7.3: no linux-source-7.3 tree (MNCOMPAT_SRC_7_3, or ci/kernels/unpack-source.sh 7.3): the 7.3 header set is not checked"
fi

# Fake old generations: every branch of the header gets compiled.
if [ -n "$fake_base" ]; then
	fakes=""
	for gen in $gens; do
		fakes="$fakes fake-$gen"
		job "fake-$gen" fake_generation "$gen"
	done
	replay_jobs
	if fake=$("$tests/make-fake-kdir.sh" "$fake_base" "$work/fake" unknown); then
		if out=$("$compat/configure.sh" "$fake" "$work/unknown" 2>&1); then
			not_ok "fake-unknown: configure.sh accepted an unknown range_start form"
		elif echo "$out" | grep -q 'no known invalidate_range_start() form' &&
			echo "$out" | grep -q 'detected: none' &&
			[ ! -e "$work/unknown/mncompat_config.h" ]; then
			ok "fake-unknown: configure.sh refuses an unknown range_start form, listing detected and supported"
			echo "$out" | sed 's/^/# /'
		else
			not_ok "fake-unknown: configure.sh failed without the expected message"
		fi
		rm -rf "$work/fake/unknown"
	fi
else
	not_ok "no Debian 6.1 headers tree given or from ci/kernels/prepare-kernel.sh deb-6.1: fake old generations not tested"
fi

# The kernels whose probe pass ran, in order, and its timings.
matrix="" timings=""
for name in $names ${fakes:-}; do
	[ -e "$work/$name/probe-seconds" ] || continue
	matrix="$matrix $name"
	timings="$timings $(cat "$work/$name/probe-seconds")"
done

# Sparse on the first kernel given.
first=$(echo "$matrix" | awk '{ print $1 }')
if [ -n "$first" ]; then
	for arg in "$@"; do
		if [ -f "$arg" ]; then
			kernel_fields "$arg" KDIR
			kdir=$KDIR
		else
			kdir=$arg
		fi
		break
	done
	sp=$work/sparse
	if MNCOMPAT_MAKE_ARGS=C=2 "$tests/build-test-module.sh" "$kdir" \
		"$work/$first/config" "$sp" "" &&
		grep -q CHECK "$sp/build.log" &&
		! "$tests/../kbuild-diagnostics.sh" "$kdir" "$sp" "$sp/build.log" |
		grep -q '^module'; then
		ok "$first: sparse (C=2) clean"
	else
		not_ok "$first: sparse reports problems (log: $sp/build.log)"
	fi
fi

# Matrix report.
note "probe pass timings:$timings"
note "compat macros set per kernel (x = defined):"
line=$(printf '%-44s' "#")
for name in $matrix; do
	line="$line $(printf '%-10.10s' "$name")"
done
echo "$line"
for src in "$compat"/probes/*.c; do
	macro=$(basename "$src" .c | tr '[:lower:]' '[:upper:]')
	line=$(printf '#   %-40s' "$macro")
	for name in $matrix; do
		if has "$work/$name/config" "$macro"; then
			line="$line $(printf '%-10s' x)"
		else
			line="$line $(printf '%-10s' -)"
		fi
	done
	echo "$line"
done

tap_end compat
