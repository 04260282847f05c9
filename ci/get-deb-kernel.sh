#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: ci/get-deb-kernel.sh NAME SERIES   (ci/prepare-kernel.sh runs it)
# Resolve the newest Debian kernel ABI of the row's series through the meta
# packages, install its headers (kbuild needs them in place) and unpack the
# unsigned image into the cache, never into /boot. Writes the env file.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: get-deb-kernel.sh NAME SERIES"
name=$1 series=$2

# depends_on META PREFIX: the dependency of META whose name starts PREFIX.
depends_on() {
	apt-cache depends "$1" 2>/dev/null |
		awk -v p="$2" '$1 == "Depends:" && index($2, p) == 1 { print $2; exit }'
}

# linux-headers-6.12-amd64 exists for the backported series; the default
# series of the release is reached through linux-headers-amd64.
headers=$(depends_on "linux-headers-$series-amd64" "linux-headers-$series")
[ -n "$headers" ] ||
	headers=$(depends_on linux-headers-amd64 "linux-headers-$series.")
[ -n "$headers" ] ||
	die "no Debian headers package for series $series (apt-get update?)"
abi=${headers#linux-headers-}
image=linux-image-$abi-unsigned
log "$name: series $series resolves to $abi"

if ! dpkg-query -W -f='${Status}\n' "$headers" 2>/dev/null |
	grep -q '^install ok installed$'; then
	log "$name: installing $headers"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$headers" >/dev/null
fi

version=$(apt-cache policy "$image" | awk '$1 == "Candidate:" { print $2 }')
case $version in
'' | '(none)') die "no package $image" ;;
esac
dir=$MNCOMPAT_CACHE/kernels/$name-$abi-$version
if [ ! -e "$dir/.done" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/deb"
	chmod 0777 "$dir/deb"	# lets apt drop privileges to _apt
	log "$name: downloading $image $version"
	(cd "$dir/deb" && apt-get download -q "$image=$version" >/dev/null) ||
		die "apt-get download $image failed"
	dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
	rm -rf "$dir/deb"
	touch "$dir/.done"
fi
# The package leaves modules.dep to the installer; suites that load the
# kernel's own modules (kmod directive) need it.
[ -e "$dir/root/lib/modules/$abi/modules.dep" ] || depmod -b "$dir/root" "$abi"
vmlinuz=$dir/root/boot/vmlinuz-$abi
[ -r "$vmlinuz" ] || die "$image has no $vmlinuz"

write_kernel_env "$name" deb "$image $version" "$abi" \
	"/usr/src/linux-headers-$abi" "" "$dir/root/lib/modules/$abi" "$vmlinuz"
