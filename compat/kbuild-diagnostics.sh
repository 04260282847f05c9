#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: compat/kbuild-diagnostics.sh [--retry-flags] KDIR MODULE_DIR LOG
#
# Whose is each compiler or sparse diagnostic of LOG, the log of an
# out-of-tree module build (make -C KDIR M=MODULE_DIR)?  The kernel's when
# its file lies in the kernel tree: KDIR, the trees KDIR's top-level
# symlinks point to (source/, scripts/) and
# the source tree its Makefile includes or runs make in (O= build trees,
# Debian's -common headers); the module's otherwise: its own files, the
# headers it adds (compat/), and diagnostics without a file (cc1:, ld:).
# A kernel before 5.0 built with gcc 9+ warns in its own <linux/module.h>
# (-Wmissing-attributes, fixed by a6e60d84989f): not the driver's fault.
# A relative path is relative to where kbuild ran the compiler: KDIR up to
# 6.12 (the module's files are named by their absolute paths there), the
# module's directory from 6.13 on (the kernel's headers are absolute
# there). So a relative path that names a file of MODULE_DIR is the
# module's; any other is resolved against KDIR, as before 6.13.
#
# Prints one line per warning or error:
#   WHOSE<TAB>SEVERITY<TAB>FLAG<TAB>LINE
# WHOSE is "kernel" or "module", SEVERITY "warning" or "error", FLAG the
# bracketed option at the end of the line (e.g. -Werror=missing-attributes)
# or "-", LINE the diagnostic as the log has it.
#
# --retry-flags: print instead "-Wno-error=X ..." for every error of the
# kernel's made by -Werror=X, for a second build that lets the kernel's
# own warnings stay warnings.  Exit status 1 when the log has any other
# error (the module's, or one that no -Wno-error= can turn back into a
# warning), 0 otherwise.
set -eu

retry=
if [ "${1:-}" = --retry-flags ]; then
	retry=1
	shift
fi
[ $# -eq 3 ] || {
	echo "usage: kbuild-diagnostics.sh [--retry-flags] KDIR MODULE_DIR LOG" >&2
	exit 2
}
kdir=$(cd "$1" && pwd -P)
mdir=$(cd "$2" && pwd -P)
log=$3

# The kernel's trees, one a line.
roots() {
	echo "$kdir"
	for _l in "$kdir"/*; do
		[ -L "$_l" ] && [ -d "$_l" ] && (cd "$_l" && pwd -P)
	done
	# "include /SRC/Makefile" (6.x O= trees, Debian), "-C /SRC" (4.x O=).
	sed -n -e 's|^include[[:space:]]\{1,\}\(/[^[:space:]]*\)/Makefile[[:space:]]*$|\1|p' \
		-e 's|.*-C[[:space:]]\{1,\}\(/[^[:space:]]*\).*|\1|p' "$kdir/Makefile" |
		while read -r _d; do
			[ -d "$_d" ] && (cd "$_d" && pwd -P)
		done
	return 0
}

# FILE<TAB>SEVERITY<TAB>FLAG<TAB>LINE for each diagnostic; FILE is "-" when
# the line names no file (cc1:, ld:).
diagnostics() {
	awk '
	{ sev = "" }
	match($0, /^[^ :]+:[0-9]+(:[0-9]+)?: (fatal )?(warning|error): /) {
		file = substr($0, 1, index($0, ":") - 1)
		sev = ($0 ~ /^[^ :]+:[0-9]+(:[0-9]+)?: warning: /) ? "warning" : "error"
	}
	sev == "" && /^[A-Za-z0-9_.-]+: (warning|error): / {
		file = "-"
		sev = ($0 ~ /^[^ ]+: warning: /) ? "warning" : "error"
	}
	sev == "" { next }
	# gcc counts what it turned into errors: not a diagnostic of its own.
	/^cc1: all warnings being treated as errors/ { next }
	{
		flag = "-"
		if (match($0, /\[-W[^]]*\]$/))
			flag = substr($0, RSTART + 1, RLENGTH - 2)
		print file "\t" sev "\t" flag "\t" $0
	}' "$log"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kbuild-diagnostics.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
diagnostics >"$tmp/diag"
roots | sort -u >"$tmp/roots"
# Resolve each file named (a relative one against the module's dir where
# it names a file there, 6.13+ kbuild; else against KDIR), then judge it
# against the module's dir and the kernel's trees.
cut -f 1 "$tmp/diag" | sort -u | while read -r file; do
	case $file in
	-) real=- ;;
	/*) real=$(realpath -m -- "$file") ;;
	*)
		if [ -f "$mdir/$file" ]; then
			real=$(cd "$mdir" && realpath -m -- "$file")
		else
			real=$(cd "$kdir" && realpath -m -- "$file")
		fi
		;;
	esac
	printf '%s\t%s\n' "$file" "$real"
done >"$tmp/files"
awk -F '\t' -v mdir="$mdir" -v retry="$retry" -v rootsf="$tmp/roots" \
	-v filesf="$tmp/files" '
	function under(path, dir) {
		return path == dir || index(path, dir "/") == 1
	}
	FILENAME == rootsf { roots[++nroots] = $0; next }
	FILENAME == filesf {
		whose = "module"
		if ($2 != "-" && !under($2, mdir))
			for (i = 1; i <= nroots; i++)
				if (under($2, roots[i]))
					whose = "kernel"
		owner[$1] = whose
		next
	}
	{
		whose = owner[$1]
		if (!retry) {
			print whose "\t" $2 "\t" $3 "\t" substr($0, length($1 $2 $3) + 4)
			next
		}
		if ($2 != "error")
			next
		if (whose == "kernel" && $3 ~ /^-Werror=/) {
			f = "-Wno-error=" substr($3, 9)
			if (!(f in seen))
				flags = flags (flags == "" ? "" : " ") f
			seen[f] = 1
		} else {
			other = 1
		}
	}
	END {
		if (retry) {
			print flags
			exit other
		}
	}' "$tmp/roots" "$tmp/files" "$tmp/diag"
