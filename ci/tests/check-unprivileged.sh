#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/tests/check-unprivileged.sh
# The kit as an ordinary user: after `make deps` (root, once), `make matrix`
# and the driver front end run as any user. Run as root, the checks switch
# to an unused uid ($MNCOMPAT_TEST_UID, default 64242) with setpriv, in a
# copy of the repository owned by it, with a HOME of its own; run as
# another user, they run as that user.
#   - the default cache is ${XDG_CACHE_HOME:-~/.cache}/mncompat (root's is
#     /var/cache/mncompat)
#   - a missing tool package: ci/install-deps.sh names it and the command
#     to run as root, and runs no apt-get
#   - the accelerator (ci/run/accel.sh): MNCOMPAT_ACCEL=tcg is TCG, a wrong
#     value is refused, auto gives KVM or TCG with a reason, and a forced
#     kvm works exactly when auto chose KVM, else fails naming /dev/kvm
#   - `make matrix KERNELS=deb-6.12` (mirror and itest) and `make matrix
#     DRIVER=drivers-sample/shadow KERNELS=deb-6.1,deb-6.12` pass, the
#     report names the accelerator, and the repository copy is unchanged
#     but for out/ (and __pycache__)
# The user's kernels are kept between runs in $MNCOMPAT_CACHE/unprivileged-UID
# (its own cache, as a user's would be; downloaded once).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$MNCOMPAT_TOP/ci/tap.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-unprivileged.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
repo=$work/repo home=$work/home scratch=$work/scratch
mkdir -p "$repo" "$home" "$scratch"
tar -C "$MNCOMPAT_TOP" --exclude=./out --exclude=./.git -cf - . |
	tar -C "$repo" -xf -
# What a login gives an ordinary Debian account, and nothing else: PATH is
# /etc/profile's (no sbin folder), no terminal (a session of its own),
# standard input from /dev/null.
login_path=/usr/local/bin:/usr/bin:/bin
if [ "$(id -u)" = 0 ]; then
	uid=${MNCOMPAT_TEST_UID:-64242}
	user=mncompat-test
	user_cache=$MNCOMPAT_CACHE/unprivileged-$uid
	mkdir -p "$user_cache"
	chown -R "$uid:$uid" "$repo" "$home" "$scratch" "$user_cache"
	become_user() {
		setpriv --reuid="$uid" --regid="$uid" --clear-groups "$@"
	}
else
	uid=$(id -u)
	user=$(id -un 2>/dev/null || echo "$uid")
	user_cache=$MNCOMPAT_CACHE
	become_user() {
		"$@"
	}
fi
# as_user [VAR=VALUE...] CMD...: CMD as the user, in a login's environment
# (VAR=VALUE added or replaced).
as_user() {
	become_user setsid -w env -i HOME="$home" USER="$user" LOGNAME="$user" \
		SHELL=/bin/sh LANG=C.UTF-8 PATH="$login_path" "$@" </dev/null
}
# as_user_nohup CMD...: as_user from a non-interactive shell that ignores
# SIGINT and SIGHUP and hands that on, as nohup, `&` in a script and many
# CI runners do. CMD may begin with VAR=VALUE words, as for as_user, so the
# inner shell hands them to env(1) rather than exec'ing the first one.
as_user_nohup() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	as_user sh -c 'trap "" INT HUP; exec env "$@"' sh "$@"
}
log "unprivileged checks as uid $uid in $repo"

# The default cache of a user, with and without XDG_CACHE_HOME.
cache_of() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	as_user "$@" sh -c 'cd "$1" && . ci/lib.sh && echo "$MNCOMPAT_CACHE"' \
		sh "$repo"
}
check "uid $uid: default cache is ~/.cache/mncompat" \
	test "$(cache_of)" = "$home/.cache/mncompat"
check "uid $uid: default cache is \$XDG_CACHE_HOME/mncompat" \
	test "$(cache_of XDG_CACHE_HOME="$work/xdg")" = "$work/xdg/mncompat"

# A tool package missing: stub dpkg-query says spin is not installed, stub
# apt-get records any call.
mkdir -p "$work/stub"
# (install-deps asks once for them all: -W -f='${Package} ${db:Status-Abbrev}\n'
# PACKAGE...)
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
printf '#!/bin/sh\necho "$*" >>"%s/apt-called"\n' "$work" >"$work/stub/apt-get"
chmod 0755 "$work/stub/dpkg-query" "$work/stub/apt-get"
# missing_tool_named: install-deps as the user, spin missing: exit 1, the
# package and the root command named.
missing_tool_named() {
	! as_user PATH="$work/stub:$login_path" "$repo/ci/install-deps.sh" \
		>"$work/deps.out" 2>&1 &&
		grep -q 'missing tool packages: spin$' "$work/deps.out" &&
		grep -q "run once as root: make -C $repo deps" "$work/deps.out"
}
if missing_tool_named; then
	ok "uid $uid: a missing tool package is named, with the root command"
else
	not_ok "uid $uid: a missing tool package is named, with the root command" \
		"$work/deps.out"
fi
check "uid $uid: install-deps runs no apt-get" test ! -e "$work/apt-called"

# The accelerator.
env612=$(KERNELS=deb-6.12 "$MNCOMPAT_TOP/ci/kernels/prepare-kernel.sh")
kernel_fields "$env612" VMLINUZ
# accel_as_user MODE: ci/run/accel.sh with MNCOMPAT_ACCEL=MODE, as the user,
# its choice in $work/accel-MODE/accel.
accel_as_user() {
	as_user MNCOMPAT_CACHE="$user_cache" MNCOMPAT_ACCEL="$1" \
		"$repo/ci/run/accel.sh" "$VMLINUZ" "$scratch/accel-$1" \
		>"$work/accel.out" 2>&1
}
tcg_is_tcg() {
	accel_as_user tcg && [ "$(head -n 1 "$scratch/accel-tcg/accel")" = tcg ]
}
check "uid $uid: MNCOMPAT_ACCEL=tcg is TCG" tcg_is_tcg
# bogus_accel_refused: matrix.sh stops at once on a wrong MNCOMPAT_ACCEL.
bogus_accel_refused() {
	! as_user MNCOMPAT_CACHE="$user_cache" MNCOMPAT_ACCEL=bogus \
		MNCOMPAT_OUT="$scratch/bogus-out" KERNELS=deb-6.12 \
		"$repo/ci/run/matrix.sh" "$repo/ci/run/selftest/clean.suite" \
		>"$work/bogus.out" 2>&1 &&
		grep -q "^error: MNCOMPAT_ACCEL='bogus': give kvm, tcg or auto" \
			"$work/bogus.out" && [ ! -e "$scratch/bogus-out" ]
}
check "uid $uid: MNCOMPAT_ACCEL=bogus is refused, nothing written" \
	bogus_accel_refused
# accel_choice WHO MODE...: auto chooses KVM or TCG with a reason, and a
# forced kvm works exactly where auto chose KVM, else fails naming
# /dev/kvm; WHO is "uid N", MODE... the command running ci/run/accel.sh.
accel_choice() {
	who=$1
	shift
	if "$@" auto && chosen=$(head -n 1 "$scratch/accel-auto/accel") &&
		why=$(sed -n 2p "$scratch/accel-auto/accel") && [ -n "$why" ]; then
		ok "$who: auto chose $chosen: $why"
	else
		not_ok "$who: auto chooses KVM or TCG with a reason" "$work/accel.out"
		chosen=none
	fi
	rc=0
	"$@" kvm || rc=$?
	if [ "$chosen" = kvm ]; then
		check "$who: forced kvm works where auto chose it" test "$rc" -eq 0
	else
		check "$who: forced kvm fails naming /dev/kvm where auto chose TCG" \
			sh -c "[ $rc -ne 0 ] && grep -q '/dev/kvm' '$work/accel.out'"
	fi
}
accel_as_self() {
	MNCOMPAT_ACCEL=$1 "$MNCOMPAT_TOP/ci/run/accel.sh" "$VMLINUZ" \
		"$scratch/accel-$1" >"$work/accel.out" 2>&1
}
accel_choice "uid $uid" accel_as_user
[ "$(id -u)" != 0 ] || accel_choice "uid 0" accel_as_self

# A repository checksum list, out/ and Python's byte code aside.
sums() {
	(cd "$repo" && find . \( -path ./out -o -name __pycache__ \) -prune \
		-o -type f -print |
		sort | xargs sha256sum)
}
sums >"$work/sums.before"

html_lists_accel() {
	grep -A1 -x '<ul id="accel">' "$repo/out/results/matrix.html" |
		grep -q '^<li><b>\(kvm\|tcg\)</b>'
}

# A tool not on PATH is named before any work: make matrix with every
# tool of /usr/bin but qemu-system-x86_64 (ci/lib.sh adds only the sbin
# folders).
mkdir -p "$work/noqemu"
for tool in /usr/bin/*; do
	[ "${tool##*/}" = qemu-system-x86_64 ] || ln -s "$tool" "$work/noqemu/"
done
missing_qemu_named() {
	! as_user PATH="$work/noqemu" MNCOMPAT_CACHE="$user_cache" \
		MNCOMPAT_OUT="$scratch/noqemu-out" \
		make -C "$repo" matrix KERNELS=deb-6.12 \
		SUITES=drivers-sample/mirror/mirror.suite >"$work/noqemu.out" 2>&1 &&
		grep -q '^error: qemu-system-x86_64: not found on PATH .*qemu-system-x86' \
			"$work/noqemu.out" && [ ! -e "$scratch/noqemu-out/results" ]
}
if missing_qemu_named; then
	ok "uid $uid: without qemu-system-x86_64 on PATH, make matrix names it and its package before any work"
else
	not_ok "uid $uid: without qemu-system-x86_64 on PATH, make matrix names it and its package before any work" \
		"$work/noqemu.out"
fi

# The two matrices, as the user in a login's environment (how: as_user),
# then once more from a shell that ignores SIGINT and SIGHUP.
for how in as_user as_user_nohup; do
	case $how in
	as_user) who="uid $uid, login environment" ;;
	*) who="uid $uid, SIGINT and SIGHUP ignored" ;;
	esac
	# make matrix KERNELS=deb-6.12 (two suites).
	if $how MNCOMPAT_CACHE="$user_cache" \
		make -C "$repo" matrix KERNELS=deb-6.12 \
		SUITES="drivers-sample/mirror/mirror.suite drivers-sample/itest/itest.suite" \
		>"$work/matrix.out" 2>&1; then
		ok "$who: make matrix KERNELS=deb-6.12 (mirror, itest) passes"
	else
		not_ok "$who: make matrix KERNELS=deb-6.12 (mirror, itest) passes" \
			"$work/matrix.out"
		tail -n 30 "$work/matrix.out" | sed 's/^/# /'
	fi
	check "$who: its report names the guests' accelerator" \
		grep -q '^guest accelerator: \(kvm\|tcg\)' "$work/matrix.out"
	check "$who: its matrix.html lists the accelerator" html_lists_accel

	# The driver front end.
	if $how MNCOMPAT_CACHE="$user_cache" \
		make -C "$repo" matrix DRIVER=drivers-sample/shadow \
		TESTS=drivers-sample/shadow/tests KERNELS=deb-6.1,deb-6.12 \
		>"$work/driver.out" 2>&1; then
		ok "$who: make matrix DRIVER=drivers-sample/shadow KERNELS=deb-6.1,deb-6.12 passes"
	else
		not_ok "$who: make matrix DRIVER=drivers-sample/shadow KERNELS=deb-6.1,deb-6.12 passes" \
			"$work/driver.out"
		tail -n 30 "$work/driver.out" | sed 's/^/# /'
	fi
done
sums >"$work/sums.after"
check "uid $uid: the runs changed nothing in the repository but out/" \
	diff "$work/sums.before" "$work/sums.after"
tap_end unprivileged
