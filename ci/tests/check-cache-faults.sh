#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-cache-faults.sh [KERNEL]
# The kernel cache under faults (issue 45 item 1), with the real scripts on
# a real entry: KERNEL's (default deb-6.1, a Debian kernel: download,
# unpack, depmod) in caches of its own under $TMPDIR, never the run's. A
# Debian row also reads its linux-source tree (its behaviours, KSRC): that
# entry, 1.5 GB to unpack, is hard-linked into the test's caches from the
# run's cache when it has it (make test's matrix prepared it), else
# prepared there too.
#   - two runs at once in one empty cache (its apt state too): both pass
#     with the same env file, one prepared the entry while the other waited
#     for its lock, a module builds against the entry, nothing is left
#     aside
#   - a preparation killed (SIGKILL, the whole process group) while it
#     unpacks leaves no entry that looks ready; the next run removes what
#     it left, prepares a planted "ready" entry that fails its check
#     (.done, no trees: what issue 45 saw after two runs at once) again,
#     and a module builds
#   - a full cache filesystem (as root: a tmpfs the kernel's packages fit
#     in but not their unpacked trees): one error line naming it and what
#     is free, a short log, no partial tree, and the matrix's harness row
#     for the kernel names it; as another user a named SKIP
#   - make deps (ci/install-deps.sh) with every package present takes no
#     lock of apt's (as root: it passes while another process holds
#     /var/lib/apt/lists/lock), and with one missing it waits while
#     apt-get says another process holds the lock (a stub apt-get)
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

kernel=${1:-deb-6.1}
work=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-cache-faults.XXXXXX")
# (apt fetches as _apt when root: it must reach the caches)
chmod 0755 "$work"
small=$work/small
cleanup() {
	! mountpoint -q "$small" 2>/dev/null || umount "$small"
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM
start=$(date +%s)

# prep CACHE NAME: prepare KERNEL in CACHE (a run of its own, as a second
# `make kernels` would be, but for MNCOMPAT_RUN_START: the test's runs
# share one refresh of each cache's apt state); stdout in $work/NAME.out,
# messages in $work/NAME.err, exit status in $work/NAME.rc.
prep() {
	_rc=0
	MNCOMPAT_CACHE=$1 "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" "$kernel" \
		>"$work/$2.out" 2>"$work/$2.err" || _rc=$?
	echo "$_rc" >"$work/$2.rc"
}
passed() {
	[ "$(cat "$work/$1.rc")" = 0 ]
}
# module_builds ENV_FILE: a small module builds against the kernel.
module_builds() {
	kernel_fields "$1" KDIR
	rm -rf "$work/hello"
	mkdir -p "$work/hello"
	printf '%s\n' '#include <linux/module.h>' \
		'static int __init hello_init(void) { return 0; }' \
		'static void __exit hello_exit(void) { }' \
		'module_init(hello_init);' 'module_exit(hello_exit);' \
		'MODULE_LICENSE("GPL");' >"$work/hello/hello.c"
	echo 'obj-m := hello.o' >"$work/hello/Kbuild"
	if ! make -s -C "$KDIR" M="$work/hello" modules >"$work/hello.log" 2>&1 ||
		[ ! -r "$work/hello/hello.ko" ]; then
		cat "$work/hello.log"
		return 1
	fi
}
# nothing_aside CACHE: no .NAME.tmp-PID folder is left in CACHE/kernels.
nothing_aside() {
	! ls -d "$1"/kernels/.*.tmp-* 2>/dev/null
}
# entries CACHE: the kernel's entries (folders) in CACHE/kernels.
entries() {
	for _e in "$1/kernels/$kernel"-*; do
		[ ! -d "$_e" ] || echo "$_e"
	done
}

# section WHAT: a comment line with the seconds the last section took.
section_start=$start
section() {
	echo "# $1: $(($(date +%s) - section_start)) s"
	section_start=$(date +%s)
}

# seed_source CACHE: the run's linux-source trees of KERNEL's series,
# hard-linked into CACHE (when both are on one filesystem).
seed_source() {
	mkdir -p "$1/src"
	for _t in "$MNCOMPAT_CACHE/src/linux-source-${kernel#*-}"-*; do
		[ -e "$_t/.done" ] || continue
		cp -al "$_t" "$1/src/" 2>/dev/null || rm -rf "${1:?}/src/${_t##*/}"
	done
}

# 1. Two runs at once in one empty cache (but for the seeded source tree).
one=$work/one
seed_source "$one"
prep "$one" a &
pid_a=$!
prep "$one" b &
pid_b=$!
wait "$pid_a" "$pid_b" || true
both_passed() {
	passed a && passed b
}
check "two runs at once in an empty cache: both prepare $kernel" both_passed
check "two runs at once: both give the same env file" \
	cmp "$work/a.out" "$work/b.out"
# (cat | grep -c: how many of the two runs' logs say so)
downloaded=$(cat "$work/a.err" "$work/b.err" | grep -c ': downloading ') || true
waited=$(cat "$work/a.err" "$work/b.err" | grep -c 'waiting for its lock') || true
check "two runs at once: one prepared the entry ($downloaded downloads), the other waited for its lock ($waited)" \
	test "$downloaded" -eq 1 -a "$waited" -eq 1
env_file=$(cat "$work/a.out")
check "two runs at once: a module builds against the entry" module_builds "$env_file"
one_entry() {
	[ "$(entries "$one" | wc -l)" -eq 1 ] && nothing_aside "$one"
}
check "two runs at once: one entry, nothing left aside" one_entry
section "two runs at once"

# 2. A preparation killed while it unpacks.
entry=$(entries "$one")
rm -rf "$entry"
(
	MNCOMPAT_CACHE=$one exec setsid "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh" \
		"$kernel" >"$work/c.out" 2>"$work/c.err"
) &
killed_pid=$!
waited=0
while [ "$waited" -lt 600 ] && ! ls -d "$one"/kernels/.*.tmp-*/root >/dev/null 2>&1; do
	sleep 0.2
	waited=$((waited + 1))
done
# The session setsid made (its process group): the script and whatever it
# runs.
kill -KILL "-$killed_pid" 2>/dev/null || true
wait "$killed_pid" 2>/dev/null || true
sleep 1
killed_left_no_entry() {
	[ -z "$(entries "$one")" ] && ls -d "$one"/kernels/.*.tmp-*/root
}
check "a preparation killed while it unpacks leaves no entry that looks ready" \
	killed_left_no_entry
# A planted entry that looks ready but is not whole.
mkdir -p "$entry/root"
echo "layout 2" >"$entry/.done"
prep "$one" d
check "the next run passes" passed d
check "it removes what the killed run left" grep -q 'removing what an interrupted preparation left' "$work/d.err"
check "it prepares again an entry that fails its check" grep -q 'fails its check' "$work/d.err"
check "a module builds against the entry it prepared" module_builds "$(cat "$work/d.out")"
check "nothing is left aside" nothing_aside "$one"
section "a killed preparation"

# 3. A full cache filesystem.
if [ "$(id -u)" = 0 ]; then
	# Room for the apt state (a copy of the first cache's), the
	# packages (their sizes as the apt state has them) and half of what
	# they unpack to.
	state_kb=$(du -sk "$one/apt" | cut -f 1)
	entry_kb=$(du -sk "$entry" | cut -f 1)
	packages=$(sed -n 's/.*: downloading \(.*\) (\(.*\))$/\1 \2/p' "$work/d.err" | head -n 1)
	version=${packages##* }
	debs_kb=0
	for p in ${packages% *}; do
		size=$(APT_CONFIG=$one/apt/apt.conf apt-cache show "$p=$version" |
			awk '/^Size:/ { print int($2 / 1024); exit }')
		debs_kb=$((debs_kb + size))
	done
	size_kb=$((state_kb + debs_kb + (entry_kb - debs_kb) / 2))
	mkdir -p "$small"
	mount -t tmpfs -o "size=${size_kb}k" mncompat-test "$small"
	cp -a "$one/apt" "$small/apt"
	rc=0
	MNCOMPAT_CACHE=$small MNCOMPAT_OUT=$work/out-full KERNELS=$kernel \
		"$MNCOMPAT_TOP/ci/run/matrix.sh" "$MNCOMPAT_TOP/ci/run/selftest/clean.suite" \
		>"$work/full.log" 2>&1 || rc=$?
	prep_log=$work/out-full/work/log/prepare-$kernel.log
	check "full cache filesystem (tmpfs of ${size_kb} KiB): the run fails" test "$rc" -ne 0
	one_error_line() {
		[ "$(grep -c '^error:' "$prep_log")" -eq 1 ] &&
			grep '^error: no space left on the cache filesystem .* free' "$prep_log"
	}
	check "full cache filesystem: one error line, naming it and what is free" \
		one_error_line
	grep '^error:' "$prep_log" | sed 's/^/# /'
	check "full cache filesystem: a short log ($(wc -l <"$prep_log") lines)" \
		test "$(wc -l <"$prep_log")" -le 12
	no_partial_tree() {
		for _f in "$small"/kernels/* "$small"/kernels/.[!.]*; do
			case $_f in
			*/'*' | */'.[!.]*' | *.lock) ;;
			*) echo "left: $_f" && return 1 ;;
			esac
		done
	}
	check "full cache filesystem: no partial tree is left" no_partial_tree
	check "full cache filesystem: the harness row names it" \
		grep -q 'harness.*no space left on the cache filesystem' \
		"$work/out-full/results/$kernel/clean/results.tsv"
	umount "$small"
else
	echo "# SKIP full cache filesystem: mounting a small tmpfs needs root"
fi
section "a full cache filesystem"

# 4. make deps and apt's lock.
if [ "$(id -u)" = 0 ]; then
	# Hold apt's lists lock (apt takes it with fcntl) while make deps runs.
	"$MNCOMPAT_PYTHON" -c '
import fcntl, sys, time
with open("/var/lib/apt/lists/lock", "w") as f:
    fcntl.lockf(f, fcntl.LOCK_EX)
    print("held", flush=True)
    time.sleep(float(sys.argv[1]))
' 20 >"$work/held" &
	holder=$!
	while [ ! -s "$work/held" ] && kill -0 "$holder" 2>/dev/null; do
		sleep 0.1
	done
	t0=$(date +%s)
	rc=0
	timeout 15 "$MNCOMPAT_TOP/ci/install-deps.sh" >"$work/deps.log" 2>&1 || rc=$?
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
	check "make deps with every package present passes while apt's lock is held ($(($(date +%s) - t0)) s)" \
		test "$rc" -eq 0
fi
# A missing package (stub dpkg-query) and an apt-get that finds apt's lock
# held twice (stub apt-get): make deps waits and then installs.
mkdir -p "$work/stub"
cat >"$work/stub/dpkg-query" <<'EOF'
#!/bin/sh
for a; do
	case $a in
	-*) ;;
	spin) echo "spin rc " ;;
	*) echo "$a ii " ;;
	esac
done
EOF
cat >"$work/stub/apt-get" <<EOF
#!/bin/sh
n=\$(cat "$work/apt-calls" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$work/apt-calls"
echo "apt-get \$*" >>"$work/apt-args"
if [ "\$n" -lt 2 ]; then
	echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (test)" >&2
	exit 100
fi
EOF
chmod 0755 "$work/stub/dpkg-query" "$work/stub/apt-get"
if [ "$(id -u)" = 0 ]; then
	rc=0
	PATH="$work/stub:$PATH" timeout 60 "$MNCOMPAT_TOP/ci/install-deps.sh" \
		>"$work/deps-wait.log" 2>&1 || rc=$?
	waited_then_installed() {
		[ "$rc" -eq 0 ] && grep -q "waiting for apt's lock" "$work/deps-wait.log" &&
			grep -q '^apt-get install.* spin$' "$work/apt-args"
	}
	check "make deps with a package missing waits while apt's lock is held, then installs it" \
		waited_then_installed
else
	echo "# SKIP make deps and apt's lock: only root installs packages"
fi

section "make deps"
cleanup
trap - EXIT
section "removing the test's caches"
echo "# $(($(date +%s) - start)) s in all"
tap_end cache-faults
