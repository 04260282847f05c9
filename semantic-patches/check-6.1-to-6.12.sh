#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Usage: semantic-patches/check-6.1-to-6.12.sh [TREE_6_1 TREE_6_12]
#
# Ground truth for the later-break scripts: convert the in-tree MMU-notifier
# users of linux-source-6.1 (every file with a struct mmu_notifier_ops
# initializer) with convert.sh in a scratch copy and compare their notifier
# parts with linux-source-6.12: the ops initializers (field -> callback)
# and the prototypes of those callbacks, whitespace-insensitive. Then time
# a whole-tree conversion scan of 6.1 against grep -rl mmu_notifier.
# The trees default to ci/kernels/unpack-source.sh 6.1 and 6.12.
# Exit status: 0 when the check ran (matches are reported, not enforced).
set -eu

sp=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$sp/.." && pwd)
a=${1:-$("$top/ci/kernels/unpack-source.sh" 6.1)}
b=${2:-$("$top/ci/kernels/unpack-source.sh" 6.12)}
if [ ! -d "$a" ] || [ ! -d "$b" ]; then
	echo "usage: $0 [TREE_6_1 TREE_6_12]" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mncompat-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

now() {
	python3 -c 'import time; print("%.2f" % time.monotonic())'
}

# 1. The users and a scratch copy of them.
(cd "$a" && grep -rlE --include='*.c' --include='*.h' \
	'struct mmu_notifier_ops[[:space:]]+[A-Za-z0-9_]+[[:space:]]*=' . |
	sed 's|^\./||' |
	grep -vE '^(include/linux/mmu_notifier\.h|mm/mmu_notifier\.c)$' |
	sort) >"$tmp/users"
mkdir "$tmp/scratch"
while IFS= read -r f; do
	mkdir -p "$tmp/scratch/$(dirname "$f")"
	cp "$a/$f" "$tmp/scratch/$f"
done <"$tmp/users"

# 2. Convert them (the whole series: 6.1 code is already past 5.0, so only
# the 6.6 and 6.10 steps have work to do).
# exit 3: converted, with items needing review (listed below)
"$sp/convert.sh" "$tmp/scratch" --apply --quiet >"$tmp/convert.out" 2>&1 ||
	[ $? -eq 3 ] || {
	cat "$tmp/convert.out" >&2
	echo "convert.sh failed" >&2
	exit 1
}

# 3. Compare the notifier parts with 6.12.
python3 - "$a" "$b" "$tmp/scratch" "$tmp/users" <<'EOF'
import re
import sys

a, b, scratch, users = sys.argv[1:]

OPS = re.compile(r'struct\s+mmu_notifier_ops\s+(\w+)\s*=\s*\{(.*?)\};', re.S)
FIELD = re.compile(r'\.(\w+)\s*=\s*(\w+)')


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return None


BREAK_FIELDS = {'invalidate_page', 'invalidate_range', 'change_pte',
                'arch_invalidate_secondary_tlbs', 'invalidate_range_start',
                'invalidate_range_end'}


def brk(fields):
    """The part of an ops initializer the API breaks are about."""
    return {k: v for k, v in fields.items() if k in BREAK_FIELDS}


def notifier_parts(text):
    """ops: {struct name: {field: callback}}; protos: {callback: prototype}"""
    ops, protos = {}, {}
    for name, body in OPS.findall(text):
        ops[name] = dict(FIELD.findall(body))
    for fields in ops.values():
        for fn in fields.values():
            m = re.search(r'^[ \t]*((?:static\s+)?(?:inline\s+)?[\w \t\*]*?\b'
                          + re.escape(fn) + r'\s*\([^)]*\))\s*\{',
                          text, re.M)
            if m:
                protos[fn] = ' '.join(m.group(1).replace('(', ' ( ')
                                      .replace(')', ' ) ')
                                      .replace(',', ' , ').split())
    return ops, protos


rows = []
counts = dict(users=0, changed=0, changed_match=0, changed_brk=0, gone=0,
              unchanged_match=0, unchanged=0)
for rel in open(users).read().split():
    counts['users'] += 1
    old, new, ref = read(f'{a}/{rel}'), read(f'{scratch}/{rel}'), read(f'{b}/{rel}')
    changed = old != new
    if ref is None:
        verdict = 'no 6.12 file'
        counts['gone'] += 1
        if changed:
            counts['changed'] += 1
    else:
        ops_n, pro_n = notifier_parts(new)
        ops_r, pro_r = notifier_parts(ref)
        ops_ok = ops_n == ops_r
        pro_ok = pro_n == pro_r
        match = ops_ok and pro_ok
        brk_ok = all(brk(ops_n.get(k, {})) == brk(ops_r.get(k, {}))
                     for k in set(ops_n) | set(ops_r)) and \
            all(pro_n.get(fn) == pro_r.get(fn)
                for k in ops_r for fn in brk(ops_r[k]).values()) and \
            all(pro_n.get(fn) == pro_r.get(fn)
                for k in ops_n for fn in brk(ops_n[k]).values())
        verdict = 'match' if match else 'differs (%s)' % ', '.join(
            w for w, ok in (('ops', ops_ok), ('callbacks', pro_ok)) if not ok)
        if not match:
            verdict += '; fields of the API breaks %s' % (
                'match' if brk_ok else 'differ')
        if changed:
            counts['changed'] += 1
            counts['changed_match'] += match
            counts['changed_brk'] += brk_ok
        else:
            counts['unchanged'] += 1
            counts['unchanged_match'] += match
        if not match:
            for name in sorted(set(ops_n) | set(ops_r)):
                if ops_n.get(name) != ops_r.get(name):
                    print(f'# {rel}: ops {name}: converted {ops_n.get(name)}')
                    print(f'# {rel}: ops {name}: 6.12      {ops_r.get(name)}')
            for fn in sorted(set(pro_n) | set(pro_r)):
                if pro_n.get(fn) != pro_r.get(fn):
                    print(f'# {rel}: {fn}: converted {pro_n.get(fn)}')
                    print(f'# {rel}: {fn}: 6.12      {pro_r.get(fn)}')
    rows.append((rel, 'converted' if changed else 'unchanged', verdict))

w = max(len(r[0]) for r in rows)
for rel, what, verdict in rows:
    print(f'{rel:<{w}}  {what:<9}  {verdict}')
print()
print(f"in-tree notifier users in 6.1: {counts['users']}")
still = counts['changed'] - min(counts['gone'], counts['changed'])
print(f"converted by the scripts: {counts['changed']} ({counts['gone']} of "
      f"them gone from 6.12, {still} still there)")
print(f"  whole notifier parts (every ops field, every callback prototype) "
      f"match 6.12: {counts['changed_match']} of {still}")
print(f"  the fields the API breaks touch (invalidate_range/"
      f"arch_invalidate_secondary_tlbs, change_pte, range start/end) and "
      f"their callbacks match 6.12: {counts['changed_brk']} of {still}")
print(f"left unchanged (already on the 6.12 notifier API): {counts['unchanged']}; "
      f"match 6.12: {counts['unchanged_match']}")
EOF

echo
echo "convert.sh report for the users:"
sed -n '/^== mncompat/,$p' "$tmp/convert.out"

# 4. Speed: whole-tree conversion scan (dry run) against grep, both with
# the page cache warmed by one untimed grep.
grep -rl mmu_notifier "$a" >/dev/null || true
t0=$(now)
grep -rl mmu_notifier "$a" >/dev/null || true
t1=$(now)
"$sp/convert.sh" "$a" --quiet >"$tmp/full.out" 2>&1 || [ $? -eq 3 ] || {
	cat "$tmp/full.out" >&2
	exit 1
}
t2=$(now)
python3 - "$t0" "$t1" "$t2" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" <<'EOF'
import sys
t0, t1, t2 = map(float, sys.argv[1:4])
g, c = t1 - t0, t2 - t1
print()
print(f"whole 6.1 tree, same run: grep -rl mmu_notifier {g:.1f} s, "
      f"convert.sh dry run {c:.1f} s ({c / g:.1f}x grep; target <= 3x, see bench.sh)"
      f" on {sys.argv[4]} CPUs, load average {sys.argv[5]}")
EOF
grep -E '^(files scanned|files changed)' "$tmp/full.out" | sed 's/^/  whole tree: /'
