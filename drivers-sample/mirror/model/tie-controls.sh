#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: drivers-sample/mirror/model/tie-controls.sh OUTDIR
#
# The tie's controls (run.sh reports them), each on its own copy of what
# tie.py reads (the model, mirror's C and Kbuild, compat's headers),
# MNCOMPAT_TEST_JOBS at a time (default: one per CPU):
#   - protocol edits, wherever they are (a #define outside any function, the
#     Kbuild, a macro variant of compat's, a helper, the code shared with
#     the other samples (drivers-sample/devpt), a forward declaration,
#     a struct member's type): tie.py
#     must fail, its report naming the object, kernels, model step and
#     property;
#   - cosmetic edits (a comment, re-indenting, a renamed local, a forward
#     declaration): tie.py must pass;
#   - recording: a note whose C changed while its model step did not is
#     refused by tie.py --record, and recorded once it gives a reason.
# Writes OUTDIR/N.tap ("ok TEXT" or "not ok TEXT") and OUTDIR/N.detail per
# control, N from 1 in the order below, and OUTDIR/count.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$out"
jobs=${MNCOMPAT_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}

# copy_tree DIR: a copy of what the tie reads.
copy_tree() {
	rm -rf "$1"
	mkdir -p "$1/drivers-sample/mirror" "$1/compat"
	cp -RL "$here" "$top/drivers-sample/mirror"/*.[ch] \
		"$top/drivers-sample/mirror/Kbuild" "$1/drivers-sample/mirror/"
	cp -R "$top/compat/include" "$1/compat/"
}

# Each control runs as job $k in $out/tree.$k and reports with these.
pass() {
	echo "ok $*" >"$out/$k.tap"
}

fail() {
	echo "not ok $*" >"$out/$k.tap"
}

# edit FILE SED_SCRIPT: a sed edit in place that must change FILE.
edit() {
	cp "$1" "$1.orig"
	sed "$2" "$1.orig" >"$1"
	if cmp -s "$1" "$1.orig"; then
		echo "the edit '$2' changed nothing in $1" >"$out/$k.detail"
		return 1
	fi
}

tie() {
	python3 "$tree/drivers-sample/mirror/model/tie.py" "$@" \
		>"$out/$k.detail" 2>&1
}

# tie_fails WHAT FILE SED_SCRIPT PATTERN...: the edit must make the tie
# fail, its report saying each PATTERN (fixed strings).
tie_fails() {
	what=$1 file=$tree/$2 script=$3
	shift 3
	edit "$file" "$script" || { fail "tie control: $what"; return; }
	if tie; then
		fail "tie control: $what went unnoticed"
		return
	fi
	for pattern in "$@"; do
		if ! grep -qF -- "$pattern" "$out/$k.detail"; then
			fail "tie control: $what: the report does not say '$pattern'"
			return
		fi
	done
	pass "tie control: $what fails: $(grep -m1 -E '^  C ' "$out/$k.detail" |
		sed 's/^ *//' | cut -c1-160)"
}

# tie_passes WHAT FILE SED_SCRIPT: the edit changes nothing the tie sees.
tie_passes() {
	edit "$tree/$2" "$3" || { fail "tie control: $1"; return; }
	if tie; then
		pass "tie control: $1 is no change"
	else
		fail "tie control: $1 made the tie fail"
	fi
}

# A note's C changed with its model step as it was: mirror_release_all()'s
# mf->seq++ becomes mf->seq += 1 in the C and in its note; --record must
# refuse, then accept the note with a reviewed reason.
tie_record() {
	dev=$tree/drivers-sample/mirror/mirror_dev.c
	pml=$tree/drivers-sample/mirror/model/mirror_dev.pml
	# shellcheck disable=SC2016 # the report's backquotes
	step='its model step `rmw = mf_seq; mf_seq = rmw + 1; rmw = 0;` did not'
	if ! edit "$dev" '/^void mirror_release_all(/,/^}/s/mf->seq++;/mf->seq += 1;/' ||
		! edit "$pml" '/^inline mirror_release_all(/,/^}/s|C(coherence): mf->seq++; \*/|C(coherence): mf->seq += 1; */|'; then
		fail "tie control: recording"
	elif tie || ! grep -q 'changed since' "$out/$k.detail"; then
		fail "tie control: a note changed since it was recorded went unnoticed"
	elif tie --record || ! grep -qF "$step" "$out/$k.detail"; then
		fail "tie control: a note's C changed with its model step as it was, and was recorded"
	elif ! edit "$pml" '/^inline mirror_release_all(/,/^}/s|C(coherence): mf->seq += 1; \*/|C(coherence; reviewed: any increment makes a new sequence): mf->seq += 1; */|' ||
		! tie --record || ! tie; then
		fail "tie control: a note's C changed with a reviewed reason was not recorded"
	else
		pass "tie control: a note's C changed with its model step as it was is not recorded; with a reviewed reason it is"
	fi
}

k=0
running=0
# control FUNCTION ARGS...: the next control, in the background.
control() {
	k=$((k + 1))
	tree=$out/tree.$k
	(
		copy_tree "$tree"
		: >"$out/$k.detail"
		"$@"
		[ -s "$out/$k.tap" ] || fail "tie control $k: no result"
		rm -rf "$tree"
	) &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
}

dev=drivers-sample/mirror/mirror_dev.c
hdr=compat/include/mncompat/mmu_notifier.h
glue=drivers-sample/mirror/model/may_sleep_glue.c
# shellcheck disable=SC2016 # the backquotes are the report's, not the shell's
{
	control tie_fails "the driver's switch MIRROR_SKIP_INVALIDATION turned on" "$dev" \
		's/^#define MIRROR_SKIP_INVALIDATION 0$/#define MIRROR_SKIP_INVALIDATION 1/' \
		'mirror_invalidate_locked' 'C now has `return;`' \
		'stands for `mirror_unmap_range(mf, start, end);`' 'property coherence'
	control tie_fails "the Kbuild turning MIRROR_SKIP_INVALIDATION on in every build" \
		drivers-sample/mirror/Kbuild \
		's/^ccflags-y += $(if $(MIRROR_SKIP_INVALIDATION),\(-DMIRROR_SKIP_INVALIDATION=1\))$/ccflags-y += \1/' \
		'mirror_invalidate_locked (every kernel (default build); every kernel (tlb-only build))' \
		'C now has `return;`' 'property coherence'
	control tie_fails "the 3.19-6.5 variant of compat's __MNCOMPAT_TLBS_FIELD without the hook" \
		"$hdr" 's/^\(#define __MNCOMPAT_TLBS_FIELD(fn, \.\.\.)\t\.invalidate_range = \)(fn),/\1NULL,/' \
		'mirror_tlb_ops (kernels 4.4-4.12' '4.20-6.5 (tlb-only build)' \
		'C no longer has `.invalidate_range = mirror_invalidate_secondary_tlbs,`' \
		'property coherence'
	control tie_fails "compat's 4.16-4.19 flags field promising that a may-sleep table never blocks" \
		"$hdr" 's/^\(\t\t \)0 : MMU_INVALIDATE_DOES_NOT_BLOCK,/\1MMU_INVALIDATE_DOES_NOT_BLOCK : MMU_INVALIDATE_DOES_NOT_BLOCK,/' \
		'mirror_may_sleep_ops (kernels 4.16-4.18' 'mirror_may_sleep_ops (kernels 4.19 (' \
		'__mncompat_gate_ops (kernels 4.19 (' \
		'C has `.flags = MMU_INVALIDATE_DOES_NOT_BLOCK,`' 'property no-sleep'
	control tie_fails "the page put of the helper mirror_put_entry() removed" "$dev" \
		'/^static void mirror_put_entry(/,/^}/{/^\tput_page(page);$/d;}' \
		'mirror_put_entry' 'C no longer has `put_page(page);`' 'property pageref'
	control tie_fails "the page put of the shared walk devpt_zap_locked() removed" \
		drivers-sample/mirror/devpt.c \
		'/^unsigned long devpt_zap_locked(/,/^}/s/put_page(radix_tree_delete(\(.*\)));$/radix_tree_delete(\1);/' \
		'devpt_zap_locked' 'C now has `radix_tree_delete(&pt->tree, index[i]);`' \
		'property coherence, pageref'
	control tie_fails "a forward declaration of mirror_fault_page() added and its sequence re-check dropped" \
		"$dev" 's/^#include "mirror.h"$/&\
\
static int mirror_fault_page(struct mirror_file *mf, unsigned long addr);/
s/if (mf->active || mf->seq != seq) {/if (mf->active) {/' \
		'mirror_fault_page' 'C now has `if (mf->active)`' 'property coherence'
	control tie_fails "the wake-up of mirror_invalidate_end() removed" "$dev" \
		'/^void mirror_invalidate_end(/,/^}/{/wake_up_all/d;s/if (idle)/if (idle) {}/;}' \
		'mirror_invalidate_end' 'C no longer has `wake_up_all(&mf->idle);`' \
		'property deadlock'
	control tie_fails "the lock around mirror_invalidate_end()'s decrement removed" "$dev" \
		'/^void mirror_invalidate_end(/,/^}/{/spin_lock(&mf->lock);/d;/spin_unlock(&mf->lock);/d;}' \
		'mirror_invalidate_end' 'C no longer has `spin_lock(&mf->lock);`' \
		'property deadlock, coherence'
	control tie_fails "the type of mf->active narrowed in struct mirror_file" \
		drivers-sample/mirror/mirror.h \
		's/^\tunsigned int active;/\tunsigned char active;/' \
		'struct mirror_file' 'C now has `unsigned char active;`' \
		'property coherence, deadlock'
	control tie_fails "the may-sleep glue's -EAGAIN on a non-blockable range removed" \
		"$glue" '/^static int mirror_sleepy_range_start(/,/^}/{/mncompat_range_blockable/d;/return -EAGAIN;/d;}' \
		'mirror_sleepy_range_start' \
		'C no longer has `if (!mncompat_range_blockable(range))`' \
		'property no-sleep, deadlock, warn, pairing, b4'
	control tie_fails "the device registered with the kernel's mmu_notifier_register() again, without compat's gate" \
		drivers-sample/mirror/devpt.c 's/ret = mncompat_mmu_notifier_register(/ret = mmu_notifier_register(/' \
		'devpt_register (every kernel' \
		'C now has `ret = mmu_notifier_register(&pt->notifier, pt->mm);`' \
		'property coherence, warn, pairing, b4'
	control tie_fails "compat's gate returning 0 where the driver's range_start failed" \
		"$hdr" '/^static inline int __mncompat_gate_start(/,/^}/{/range->end, false, &stale);$/{n;s/ret = -EAGAIN;/ret = 0;/;};}' \
		'__mncompat_gate_start (kernels 4.19-6.12' \
		'C now has `ret = 0;`' 'property pairing, b4, warn'
	control tie_fails "compat's range_end calling the driver's for a range whose start failed without a gate" \
		"$hdr" 's/^\t\tcall = !s\.failed;$/\t\tcall = true;/' \
		'__mncompat_main_end (kernels 4.19-6.12' \
		'C now has `call = true;`' 'property pairing, deadlock'
	control tie_passes "a comment in mirror_fault_page()" "$dev" \
		'/^static int mirror_fault_page(/,/^}/s/^\t\tspin_lock(&mf->lock);$/\t\t\/* locked *\/\n&/'
	control tie_passes "a comment in compat's invalidate_page trampoline" "$hdr" \
		'/^__mncompat_invalidate_page(const/,/^}/s/^\tif (desc->invalidate_secondary_tlbs)$/\t\/* the hook *\/\n&/'
	control tie_passes "mirror_unmap_range() and mirror_fault_page() re-indented" "$dev" \
		'/^static void mirror_unmap_range(/,/^}/s/^\t/\t  /
/^static int mirror_fault_page(/,/^}/s/^\t\t/\t\t /'
	control tie_passes "the local seq of mirror_fault_page() renamed snap" "$dev" \
		'/^static int mirror_fault_page(/,/^}/{s/unsigned long seq;/unsigned long snap;/;s/^\(\t*\)seq = /\1snap = /;s/mf->seq != seq/mf->seq != snap/;}'
	control tie_passes "a forward declaration of mirror_fault_page() added" "$dev" \
		's/^#include "mirror.h"$/&\
\
static int mirror_fault_page(struct mirror_file *mf, unsigned long addr);/'
	control tie_record
}
wait
echo "$k" >"$out/count"
