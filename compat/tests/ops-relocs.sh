#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: compat/tests/ops-relocs.sh OBJECT TABLE OFFSETS_OBJECT
#
# Print one line "field symbol" for every relocation inside the data
# object TABLE of OBJECT: the mmu_notifier_ops field it fills (by its
# offset, from the mncompat_off_<field> symbols of OFFSETS_OBJECT, or
# "+0xN" when none matches) and the function symbol it points at (a
# section-relative relocation is resolved through the symbol table).
set -eu

[ $# -eq 3 ] || {
	echo "usage: ops-relocs.sh OBJECT TABLE OFFSETS_OBJECT" >&2
	exit 2
}
obj=$1
table=$2
offsets=$3

{
	readelf -sW "$offsets" | awk '$8 ~ /^mncompat_off_/ {
		sub(/^mncompat_off_/, "", $8)
		print "OFF", $2, $8
	}'
	readelf -SW "$obj" | sed -n 's/^ *\[ *\([0-9]*\)\] \([^ ]*\) .*/SEC \1 \2/p'
	readelf -sW "$obj" | awk '$1 ~ /^[0-9]+:$/ && $8 != "" {
		print "SYM", $2, $3, $4, $7, $8
	}'
	readelf -rW "$obj" | awk '
		/^Relocation section/ {
			sec = $3
			gsub(/\047/, "", sec)
			sub(/^\.rela?/, "", sec)
			next
		}
		$1 ~ /^[0-9a-f]+$/ && NF >= 5 {
			addend = (NF >= 7) ? $7 : "0"
			print "REL", sec, $1, $4, $5, addend
		}'
} | awk -v table="$table" '
function hex(s,    i, c, v) {
	s = tolower(s)
	sub(/^0x/, "", s)
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1)) - 1
		v = v * 16 + c
	}
	return v
}
$1 == "OFF" { field[hex($2)] = $3 }
$1 == "SEC" { secname[$2] = $3; secidx[$3] = $2 }
$1 == "SYM" {
	# value size type ndx name
	if ($4 == "FUNC" && $6 !~ /^__pfx_/)
		func[$5 " " hex($2)] = $6
	symndx[$6] = $5
	symval[$6] = hex($2)
	if ($6 == table) {
		tsec = $5
		tstart = hex($2)
		tsize = $3 + 0
	}
}
$1 == "REL" { n++; rsec[n] = $2; roff[n] = hex($3); rval[n] = hex($4)
	rsym[n] = $5; radd[n] = hex($6) }
END {
	if (tsec == "") {
		print "ops-relocs.sh: no symbol " table > "/dev/stderr"
		exit 1
	}
	for (i = 1; i <= n; i++) {
		if (secidx[rsec[i]] != tsec)
			continue
		if (roff[i] < tstart || roff[i] >= tstart + tsize)
			continue
		if (rsym[i] in secidx)
			where = secidx[rsym[i]]
		else
			where = symndx[rsym[i]]
		target = rval[i] + radd[i]
		name = func[where " " target]
		if (name == "")
			name = rsym[i] "+" radd[i]
		off = roff[i] - tstart
		f = (off in field) ? field[off] : sprintf("+0x%x", off)
		print f, name
	}
}'
