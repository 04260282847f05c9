#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/kernels/apt-state.sh newest PACKAGE [RELEASE]
#        ci/kernels/apt-state.sh depends PACKAGE=VERSION
#        ci/kernels/apt-state.sh download DIR PACKAGE=VERSION...
#        ci/kernels/apt-state.sh refresh
#        ci/kernels/apt-state.sh release SERIES[/RELEASE] [PACKAGE]
# The kit's own apt state, $MNCOMPAT_CACHE/apt: the one way the kit reads
# Debian's registry. Its sources list names the Debian mirror this machine
# is configured with (the URI that serves the machine's own release in
# its apt sources, and the one that serves RELEASE-security, when there
# is one), with the releases the rows may name: bullseye, bookworm and
# trixie (each with its -security suite) and trixie-backports; main,
# amd64, signed by Debian's archive keyring. Its own lists, package cache,
# an empty dpkg status and its own lock: the host's apt state (its lists,
# its lock, what it has installed) is never read or touched, and no root
# is needed. The machine's Acquire options (proxy, date checks) carry
# over.
#   newest    the newest version of PACKAGE in RELEASE (default: the
#             machine's own release), RELEASE-security included; nothing
#             printed and exit 1 when there is none
#   depends   the packages PACKAGE=VERSION depends on, one a line (the
#             first of each alternative, no version)
#   download  fetch PACKAGE=VERSION... into DIR (apt checks them against
#             the signed indexes); one error line when it fails
#   refresh   apt-get update of the state: done once per command (the
#             first use after $MNCOMPAT_RUN_START, ci/lib.sh), so a run
#             resolves the versions of that moment; the others use it
#   release   the release a row's series field names: SERIES/RELEASE's,
#             else the machine's own; with PACKAGE, a series alone names
#             the machine's release when it has PACKAGE, else the first
#             of the others that has it (linux-source-5.10: bullseye)
# Every command but release without PACKAGE refreshes first when this
# command has not.
set -eu
. "$(dirname "$0")/../lib.sh"

state=$MNCOMPAT_CACHE/apt
lock=$state/lock
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
# The releases a row may name (its series field, SERIES/RELEASE).
releases="bullseye bookworm trixie trixie-backports"

# own_release: the machine's release (bookworm on Debian 12).
own_release() {
	(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}") ||
		true
}

# known_release RELEASE: RELEASE, when the state reads it.
known_release() {
	case " $releases " in
	*" $1 "*) echo "$1" ;;
	*) die "release '$1': the kit's apt state reads $releases (a row names one as SERIES/RELEASE)" ;;
	esac
}

# release_of SPEC: the release a series field (SERIES[/RELEASE]) names:
# its own, else the machine's.
release_of() {
	case $1 in
	*/*) known_release "${1#*/}" ;;
	*) known_release "$(own_release)" ;;
	esac
}

# suites_of RELEASE: the suites RELEASE is read from.
suites_of() {
	case $1 in
	*-*) echo "$1" ;;
	*) echo "$1 $1-security" ;;
	esac
}

# machine_uri RELEASE: the URI that serves RELEASE in the machine's own apt
# sources (/etc/apt/sources.list, /etc/apt/sources.list.d/*.list in the
# one-line format, *.sources in deb822), empty when none does. (Read here:
# apt-get indextargets builds the host's package cache, 5-7 s where the
# host keeps none, as Debian's container images do.)
machine_uri() {
	for _f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$_f" ] || continue
		sed 's/#.*//; s/\[[^]]*\]//' "$_f" |
			awk -v r="$1" '$1 == "deb" && $3 == r { print $2 }'
	done
	for _f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$_f" ] || continue
		awk -v r="$1" '
			function stanza() {
				if (types ~ /(^| )deb( |$)/ && enabled != "no" &&
				    (" " suites " ") ~ (" " r " "))
					print uris
				types = uris = suites = enabled = ""
			}
			/^[ \t]*$/ { stanza(); next }
			/^#/ || /^[ \t]/ { next }
			{
				key = tolower($1); sub(/:$/, "", key)
				$1 = ""; sub(/^ /, "")
				if (key == "types") types = $0
				else if (key == "uris") uris = $1
				else if (key == "suites") suites = $0
				else if (key == "enabled") enabled = tolower($1)
			}
			END { stanza() }' "$_f"
	done
}

# replace_if_changed FILE: FILE.tmp becomes FILE when it differs, else
# goes (apt rebuilds its package cache, 4-20 s, when the sources list's
# time changes).
replace_if_changed() {
	if cmp -s "$1.tmp" "$1"; then
		rm -f "$1.tmp"
	else
		mv -f "$1.tmp" "$1"
	fi
}

# write_config: the state's sources list and apt.conf (written again at
# every refresh: the machine's mirror or options may have changed).
write_config() {
	own=$(own_release)
	[ -n "$own" ] || own=bookworm
	main_uri=$(machine_uri "$own" | head -n 1)
	[ -n "$main_uri" ] ||
		die "no Debian mirror serving $own in the machine's apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d): the kit reads Debian's kernels from it"
	security_uri=$(machine_uri "$own-security" | head -n 1)
	# (one spelling, apt's: a URI ends with a /)
	main_uri=${main_uri%/}/
	[ -z "$security_uri" ] || security_uri=${security_uri%/}/
	[ -r "$keyring" ] ||
		die "$keyring missing: it comes with the Debian package debian-archive-keyring"
	mkdir -p "$state/etc/apt.conf.d" "$state/etc/preferences.d" \
		"$state/etc/sources.list.d" "$state/etc/trusted.gpg.d" \
		"$state/lists/partial" "$state/log"
	[ -e "$state/status" ] || : >"$state/status"
	{
		for _r in $releases; do
			echo "deb [arch=amd64 signed-by=$keyring] $main_uri $_r main"
		done
		[ -z "$security_uri" ] || for _r in $releases; do
			case $_r in
			*-*) ;;
			*) echo "deb [arch=amd64 signed-by=$keyring] $security_uri $_r-security main" ;;
			esac
		done
	} >"$state/etc/sources.list.tmp"
	replace_if_changed "$state/etc/sources.list"
	{
		echo "// The kit's own apt state (ci/kernels/apt-state.sh): written by it."
		echo "// The machine's Acquire options first (proxy, date checks):"
		env -u APT_CONFIG apt-config dump Acquire 2>/dev/null |
			grep -v '^Acquire::\(IndexTargets\|Languages\|GzipIndexes\|CompressionTypes\|cdrom\)' ||
			true
		cat <<EOF
Dir::Etc "$state/etc/";
Dir::Etc::main "/dev/null";
Dir::Etc::parts "apt.conf.d/";
Dir::Etc::sourcelist "sources.list";
Dir::Etc::sourceparts "sources.list.d/";
Dir::Etc::preferences "/dev/null";
Dir::Etc::preferencesparts "preferences.d/";
Dir::Etc::trusted "/dev/null";
Dir::Etc::trustedparts "trusted.gpg.d/";
Dir::State "$state/";
Dir::State::lists "lists/";
Dir::State::status "$state/status";
Dir::State::extended_states "$state/extended_states";
Dir::Cache "$state/";
Dir::Cache::archives "archives/";
Dir::Cache::pkgcache "pkgcache.bin";
Dir::Cache::srcpkgcache "";
Dir::Log "$state/log/";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
Acquire::Languages "none";
Acquire::GzipIndexes "true";
Acquire::CompressionTypes::Order { "lz4"; "gz"; "xz"; };
EOF
	} >"$state/apt.conf.tmp"
	replace_if_changed "$state/apt.conf"
}

# kit_apt CMD ARGS...: apt-get or apt-cache through the state, under a
# shared lock (a refresh takes it exclusively).
kit_apt() {
	APT_CONFIG=$state/apt.conf flock -s "$lock" "$@"
}

# fresh: the state was refreshed during this command, and its apt.conf
# names where it is (a cache moved or copied elsewhere gets its own).
fresh() {
	[ "$(cut -d ' ' -f 1 "$state/refreshed" 2>/dev/null || echo 0)" -ge \
		"$MNCOMPAT_RUN_START" ] 2>/dev/null &&
		grep -qxF "Dir::State \"$state/\";" "$state/apt.conf" 2>/dev/null
}

# releases_unchanged: every suite's InRelease on the mirror is the one the
# state has (fetched with apt's own downloader and options, compared byte
# for byte with the verified copy in lists/): then apt-get update would
# change nothing, and is not run. The mirror answers no conditional
# request, so apt-get update fetches them all anyway and then rebuilds the
# package cache: 4-25 s, against about 1 s for this.
releases_unchanged() {
	_ru=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-inrelease.XXXXXX") || return 1
	# As root apt fetches as _apt.
	chmod 0777 "$_ru"
	# "deb [OPTIONS] URI SUITE main" lines: URI and SUITE; all fetched at
	# once.
	sed -n 's/^deb \[[^]]*\] \([^ ]*\) \([^ ]*\) .*/\1 \2/p' \
		"$state/etc/sources.list" >"$_ru/suites"
	while read -r _uri _suite; do
		# apt's name for it in lists/: the URI without its scheme, / as _.
		_name=$(echo "${_uri#*://}dists/$_suite/InRelease" | tr / _)
		echo "$_name" >>"$_ru/names"
		APT_CONFIG=$state/apt.conf /usr/lib/apt/apt-helper -q download-file \
			"${_uri}dists/$_suite/InRelease" "$_ru/$_name" >/dev/null 2>&1 &
	done <"$_ru/suites"
	wait
	_ru_rc=0
	while read -r _name; do
		cmp -s "$_ru/$_name" "$state/lists/$_name" || _ru_rc=1
	done <"$_ru/names"
	rm -rf "$_ru"
	return "$_ru_rc"
}

# refresh: apt-get update of the state, once per command (see above).
# The stamp holds the second the last update began.
refresh() {
	fresh && return 0
	mkdir -p "$state" 2>/dev/null || die "cannot create $state"
	now=$(date +%s)
	exec 8>"$lock"
	if ! flock -n 8; then
		log "apt: waiting for another run's use of the kit's apt state ($lock)"
		flock 8
	fi
	if [ "$(cut -d ' ' -f 1 "$state/refreshed" 2>/dev/null || echo 0)" -ge \
		"$MNCOMPAT_RUN_START" ] 2>/dev/null; then
		# Another run refreshed it while this one waited; or the state
		# was refreshed and then moved here: only its config is rewritten.
		fresh || write_config
		exec 8>&-
		return 0
	fi
	old_sources=$(cat "$state/etc/sources.list" 2>/dev/null || true)
	write_config
	if [ "$old_sources" = "$(cat "$state/etc/sources.list")" ] &&
		[ -s "$state/pkgcache.bin" ] && releases_unchanged; then
		echo "$now $(($(date +%s) - now))s unchanged" >"$state/refreshed.tmp"
		mv -f "$state/refreshed.tmp" "$state/refreshed"
		exec 8>&-
		return 0
	fi
	log "apt: updating the kit's apt state ($state: $(grep -c . "$state/etc/sources.list") suites of $main_uri${security_uri:+ and $security_uri})"
	rc=0
	APT_CONFIG=$state/apt.conf apt-get update -q >"$state/update.log" 2>&1 || rc=$?
	if grep -q 'No space left on device' "$state/update.log"; then
		die "no space left on the cache filesystem ($MNCOMPAT_CACHE, $(df -Ph "$state" | awk 'NR == 2 { print $4 }') free) while updating the kit's apt state; free some, or set MNCOMPAT_CACHE elsewhere"
	fi
	if [ "$rc" -ne 0 ] || grep -q '^[WE]: ' "$state/update.log"; then
		grep '^[WE]: ' "$state/update.log" >&2 || tail -n 5 "$state/update.log" >&2
		ls "$state"/lists/*_Packages* >/dev/null 2>&1 ||
			die "apt-get update of the kit's apt state failed and it has no package lists ($state/update.log)"
		[ "$rc" -eq 0 ] ||
			log "warning: apt-get update of the kit's apt state failed; using its lists of $(date -u -r "$state/lists" '+%F %T UTC') ($state/update.log)"
	fi
	echo "$now $(($(date +%s) - now))s" >"$state/refreshed.tmp"
	mv -f "$state/refreshed.tmp" "$state/refreshed"
	exec 8>&-
}

# newest PACKAGE RELEASE: see "newest" above.
newest() {
	refresh
	# apt-cache madison: "PACKAGE | VERSION | URI SUITE/main amd64 Packages".
	_versions=$(kit_apt apt-cache madison "$1" 2>/dev/null |
		awk -F '|' -v suites=" $(suites_of "$2") " '{
			v = $2; gsub(/ /, "", v)
			split($3, w, " "); s = w[2]; sub(/\/.*/, "", s)
			if (index(suites, " " s " ")) print v
		}') || true
	_best=""
	for _v in $_versions; do
		if [ -z "$_best" ] || dpkg --compare-versions "$_v" gt "$_best"; then
			_best=$_v
		fi
	done
	[ -n "$_best" ] || return 1
	echo "$_best"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
release)
	case ${1:-}:${2:-} in
	*/*:* | *:)
		release_of "${1:-}"
		;;
	*)
		# A series alone, for PACKAGE: the machine's release when it has
		# the package, else the first of the others that does.
		own=$(own_release)
		for try in $own $(echo "$releases" | tr ' ' '\n' | grep -vx "$own"); do
			if newest "$2" "$try" >/dev/null; then
				echo "$try"
				exit 0
			fi
		done
		die "no package $2 in Debian $releases (the kit's apt state, $state)"
		;;
	esac
	;;
refresh)
	refresh
	;;
newest)
	[ $# -ge 1 ] || die "usage: apt-state.sh newest PACKAGE [RELEASE]"
	newest "$1" "$(known_release "${2:-$(own_release)}")"
	;;
depends)
	[ $# -eq 1 ] || die "usage: apt-state.sh depends PACKAGE=VERSION"
	refresh
	kit_apt apt-cache show "$1" 2>/dev/null | awk '
		/^Depends:/ {
			sub(/^Depends: */, "")
			n = split($0, d, ",")
			for (i = 1; i <= n; i++) {
				split(d[i], a, "|"); split(a[1], w, " "); print w[1]
			}
			exit
		}'
	;;
download)
	[ $# -ge 2 ] || die "usage: apt-state.sh download DIR PACKAGE=VERSION..."
	dir=$1
	shift
	refresh
	dl_log=$(mktemp "${TMPDIR:-/tmp}/mncompat-download.XXXXXX")
	# As root, apt fetches as _apt (its sandbox): DIR must let it write.
	[ "$(id -u)" != 0 ] || chmod 0777 "$dir"
	if ! (cd "$dir" && kit_apt apt-get download -q "$@") >"$dl_log" 2>&1; then
		grep -q 'No space left on device' "$dl_log" &&
			{ rm -f "$dl_log"; die "no space left on the cache filesystem: downloading $* into $dir ($(df -Ph "$dir" | awk 'NR == 2 { print $4 }') free)"; }
		grep '^[EW]: ' "$dl_log" >&2 || tail -n 5 "$dl_log" >&2
		rm -f "$dl_log"
		die "apt-get download of $* failed (the kit's apt state, $state)"
	fi
	rm -f "$dl_log"
	[ "$(id -u)" != 0 ] || chmod 0755 "$dir"
	;;
*)
	die "usage: apt-state.sh newest|depends|download|refresh|release ..."
	;;
esac
