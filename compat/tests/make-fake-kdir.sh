#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: compat/tests/make-fake-kdir.sh BASE_KDIR OUTROOT GENERATION [SOURCE]
#
# Copy a Debian 6.1 linux-headers tree (the arch tree and the -common tree
# its Makefile includes) to OUTROOT/GENERATION and rewrite the copy's
# <linux/mmu_notifier.h> so that the callbacks a driver sees have the shape
# of an older kernel generation.  Only for compile tests of the compat
# header: nothing built against such a tree can be loaded.  Prints the new
# KDIR.  Generations:
#
#   recreated-4.12  6.1 plus ops->invalidate_page (what kernel-patches/ builds)
#   4.19            int range_start(mn, mm, s, e, bool), void range_end(mn,
#                   mm, s, e), ops->flags, no range struct, no get/put
#   4.16            void range_start/end(mn, mm, s, e), ops->flags with
#                   MMU_INVALIDATE_DOES_NOT_BLOCK, no range struct, no
#                   get/put, no interval notifier (4.16-4.18; the shape of
#                   RHEL 8.0-8.1 too, issue 27)
#   4.12            void range_start/end(mn, mm, s, e), invalidate_page, no
#                   range struct, no get/put, no interval notifier
#   5.0             range struct (mm, start, end, bool blockable: no flags,
#                   event, owner or vma), no blockable helper, no
#                   mmu_notifier_synchronize, no get/put
#   rhel-8.2        4.16's callbacks and ops->flags next to a range struct
#                   (mm, start, end, flags, event; no owner or vma) with
#                   MMU_NOTIFIER_RANGE_BLOCKABLE but no blockable helper,
#                   the interval notifier on that struct, get/put and
#                   mmu_notifier_synchronize: the RHEL 8.2+ (4.18) shape
#                   of issue 27, from its description (no distribution
#                   code)
#   5.4             upstream 5.2-5.4: the range callbacks and struct (mm,
#                   start, end, flags, event, vma; no owner), the blockable
#                   helper, get/put (5.4) and mmu_notifier_synchronize, no
#                   interval notifier (5.5)
#   sles-15-sp3     SUSE's 5.3.18 (SLES 15 SP2/SP3, read in openSUSE's
#                   public kernel tree; no distribution code): the 5.4
#                   shape plus the interval notifier and the owner field
#                   under its 5.9-5.13 name, migrate_pgmap_owner, without
#                   mmu_notifier_range_init_owner(); it predates
#                   c2655835fd8c (no range_end after a failed start)
#   openeuler-5.10  openEuler's 5.10 (OLK-5.10, read in a public copy of
#                   its tree; no distribution code): upstream 5.10's shape
#                   (owner under its 5.9-5.13 name, migrate_pgmap_owner,
#                   no mmu_notifier_range_init_owner()) plus a backported
#                   ops->arch_invalidate_secondary_tlbs beside
#                   invalidate_range, which its core still calls
#   phytium-4.19    Phytium's 4.19 (AOSC's public tracking tree; no
#                   distribution code): the 4.19 shape plus the 6.6
#                   ops->arch_invalidate_secondary_tlbs beside
#                   invalidate_range, as openeuler-5.10 has it
#   mix-4.16-5.0    a pairwise mix no known kernel shipped: 4.16's
#                   callbacks and ops->flags next to 5.0's range struct
#                   (bool blockable, no flags), no helper, no interval
#                   notifier, no get/put (the trampolines fill the
#                   kernel's struct through its bool)
#   3.16            4.12 without invalidate_range, clear_young and
#                   mmu_notifier_synchronize; clear_flush_young(mn, mm, addr)
#   unknown         6.1 with an invalidate_range_start form no kernel had,
#                   for testing configure.sh's error
#   7.3             the <linux/mmu_notifier.h> of SOURCE, a linux-source-7.3
#                   tree (Debian's package, as it is): the young callbacks
#                   returning bool, no *_notify() helpers, the two-pass
#                   interval notifier, the 6.6 secondary-TLB hook, no
#                   change_pte; on 6.1's other headers (the 7.3 header
#                   needs nothing they lack)
set -eu

. "$(dirname "$0")/../../ci/lib.sh"

case $# in
3 | 4) ;;
*) die "usage: make-fake-kdir.sh BASE_KDIR OUTROOT GENERATION [SOURCE]" ;;
esac
base=$1
outroot=$2
gen=$3
source=${4:-}

case $gen in
recreated-4.12 | 4.19 | 4.16 | 4.12 | 5.0 | 5.4 | sles-15-sp3 | rhel-8.2 | \
	openeuler-5.10 | phytium-4.19 | mix-4.16-5.0 | 3.16 | unknown) ;;
7.3)
	[ -r "$source/include/linux/mmu_notifier.h" ] ||
		die "7.3: give a linux-source-7.3 tree (no ${source:-SOURCE}/include/linux/mmu_notifier.h)"
	grep -q 'struct mmu_interval_notifier_finish' \
		"$source/include/linux/mmu_notifier.h" ||
		die "7.3: $source is not a 7.x tree (no two-pass interval notifier)"
	;;
*) die "unknown generation $gen" ;;
esac

common=$(sed -n 's/^include \(\/.*\)\/Makefile$/\1/p' "$base/Makefile")
if [ -z "$common" ] || [ ! -d "$common" ]; then
	die "$base is not a Debian linux-headers tree (its Makefile includes no -common tree)"
fi

dest=$outroot/$gen
mkdir -p "$outroot"
rm -rf "$dest"
mkdir -p "$dest"
# Hard links where the trees share a file system (the tree is big and only
# two files change: each is removed before it is written, never edited in
# place, so the packaged tree is never touched); a copy elsewhere.
cp -al "$base" "$dest/arch" 2>/dev/null || cp -a "$base" "$dest/arch"
cp -al "$common" "$dest/common" 2>/dev/null || cp -a "$common" "$dest/common"
for tree in arch common; do
	for link in scripts tools; do
		if [ -L "$dest/$tree/$link" ]; then
			target=$(readlink -f "$base/$link")
			rm "$dest/$tree/$link"
			ln -s "$target" "$dest/$tree/$link"
		fi
	done
done
rm -f "$dest/arch/Makefile"
echo "include $dest/common/Makefile" >"$dest/arch/Makefile"

header=$dest/common/include/linux/mmu_notifier.h
[ -r "$header" ] || die "no $header"

# The fields of struct mmu_notifier_range the generation lacks (renamed
# in the struct, and where the header's inline functions use them).
case $gen in
5.0 | mix-4.16-5.0) hide_fields="flags event owner vma" ;;
rhel-8.2) hide_fields="owner vma" ;;
5.4 | sles-15-sp3 | openeuler-5.10) hide_fields="owner" ;;
*) hide_fields="" ;;
esac

# Line-oriented edits of the 6.1 header, by generation; 7.3's own header.
if [ "$gen" = 7.3 ]; then
	cp "$source/include/linux/mmu_notifier.h" "$header.new"
else
	awk -v gen="$gen" -v hide_fields="$hide_fields" '
function has(list) { return index(" " list " ", " " gen " ") > 0 }
/^struct mmu_notifier_range \{$/ { ranges++; in_range = ranges == 1 }
in_range && /^};$/ {
	in_range = 0
	if (has("5.0 mix-4.16-5.0"))
		print "\tbool blockable;"
}
in_range && match($0, /[a-z_]+;$/) {
	field = substr($0, RSTART, RLENGTH - 1)
	if (index(" " hide_fields " ", " " field " ") > 0)
		$0 = substr($0, 1, RSTART - 1) "mncompat_fake_" field ";"
}
/^struct mmu_notifier_ops \{$/ {
	print
	if (has("recreated-4.12 4.12 3.16")) {
		print "\tvoid (*invalidate_page)(struct mmu_notifier *subscription,"
		print "\t\t\t\tstruct mm_struct *mm, unsigned long address);"
	}
	if (has("4.19 phytium-4.19 4.16 rhel-8.2 mix-4.16-5.0"))
		print "\tunsigned long flags;"
	next
}
/struct mmu_notifier \*\(\*alloc_notifier\)\(/ && has("openeuler-5.10 phytium-4.19") {
	print "\tvoid (*arch_invalidate_secondary_tlbs)(struct mmu_notifier *subscription,"
	print "\t\tstruct mm_struct *mm, unsigned long start, unsigned long end);"
}
/^#define MMU_NOTIFIER_RANGE_BLOCKABLE/ {
	print
	if (has("4.19 phytium-4.19 4.16 rhel-8.2 mix-4.16-5.0"))
		print "#define MMU_INVALIDATE_DOES_NOT_BLOCK\t(0x01)"
	next
}
/int \(\*invalidate_range_start\)\(/ && has("4.19 phytium-4.19 4.16 4.12 rhel-8.2 mix-4.16-5.0 3.16") {
	getline
	print "\t" (has("4.19 phytium-4.19") ? "int" : "void") \
		" (*invalidate_range_start)(struct mmu_notifier *subscription,"
	print "\t\tstruct mm_struct *mm, unsigned long start, unsigned long end" \
		(has("4.19 phytium-4.19") ? ", bool blockable);" : ");")
	next
}
/void \(\*invalidate_range_end\)\(/ && has("4.19 phytium-4.19 4.16 4.12 rhel-8.2 mix-4.16-5.0 3.16") {
	getline
	print "\tvoid (*invalidate_range_end)(struct mmu_notifier *subscription,"
	print "\t\tstruct mm_struct *mm, unsigned long start, unsigned long end);"
	next
}
/int \(\*invalidate_range_start\)\(/ && has("unknown") {
	getline
	print "\tint (*invalidate_range_start)(struct mmu_notifier *subscription,"
	print "\t\tconst struct mmu_notifier_range *range, unsigned int why);"
	next
}
/int \(\*clear_flush_young\)\(/ && has("3.16") {
	getline
	getline
	getline
	print "\tint (*clear_flush_young)(struct mmu_notifier *subscription,"
	print "\t\tstruct mm_struct *mm, unsigned long address);"
	next
}
{ print }
' "$header" >"$header.new"
fi

# Hide what the generation lacks by renaming it.
hide=
for field in $hide_fields; do
	hide="$hide s/range->$field\\b/range->mncompat_fake_$field/g;"
done
case $gen in
4.19 | phytium-4.19 | 4.16 | 4.12 | 3.16)
	hide="$hide s/struct mmu_notifier_range\\b/struct mncompat_fake_range/g;"
	hide="$hide s/mmu_notifier_range_blockable/mncompat_fake_blockable/g;"
	hide="$hide s/mmu_interval_/mncompat_fake_interval_/g;"
	hide="$hide s/alloc_notifier/fake_alloc_notifier/g;"
	hide="$hide s/free_notifier/fake_free_notifier/g;"
	hide="$hide s/mmu_notifier_get\\b/mncompat_fake_get/g;"
	hide="$hide s/mmu_notifier_put\\b/mncompat_fake_put/g;"
	;;
5.0 | mix-4.16-5.0)
	hide="$hide s/mmu_notifier_range_blockable/mncompat_fake_blockable/g;"
	hide="$hide s/MMU_NOTIFIER_RANGE_BLOCKABLE/MNCOMPAT_FAKE_RANGE_BLOCKABLE/g;"
	[ "$gen" != 5.0 ] ||
		hide="$hide s/mmu_notifier_synchronize/mncompat_fake_synchronize/g;"
	hide="$hide s/mmu_interval_/mncompat_fake_interval_/g;"
	hide="$hide s/alloc_notifier/fake_alloc_notifier/g;"
	hide="$hide s/free_notifier/fake_free_notifier/g;"
	hide="$hide s/mmu_notifier_get\\b/mncompat_fake_get/g;"
	hide="$hide s/mmu_notifier_put\\b/mncompat_fake_put/g;"
	;;
rhel-8.2)
	hide="$hide s/mmu_notifier_range_blockable/mncompat_fake_blockable/g;"
	;;
5.4)
	hide="$hide s/mmu_interval_/mncompat_fake_interval_/g;"
	;;
sles-15-sp3 | openeuler-5.10)
	hide="$hide s/mncompat_fake_owner/migrate_pgmap_owner/g;"
	hide="$hide s/mmu_notifier_range_init_owner/mncompat_fake_init_owner/g;"
	;;
esac
if [ "$gen" = 3.16 ]; then
	hide="$hide s/(\\*invalidate_range)(/(*fake_invalidate_range)(/;"
	hide="$hide s/(\\*clear_young)(/(*fake_clear_young)(/;"
	hide="$hide s/mmu_notifier_synchronize/mncompat_fake_synchronize/g;"
fi
rm -f "$header"
sed "$hide" "$header.new" >"$header"
rm -f "$header.new"
echo "$dest/arch"
