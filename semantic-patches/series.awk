# SPDX-License-Identifier: GPL-2.0
# The one reader of semantic-patches/series (its format: the comment at
# the top of that file).  convert.sh, check-pair.sh, bench.sh and
# tests/convert-checks.sh read the series through it:
#
#   awk [-v after=X.Y] [-v upto=X.Y] [-v to=GEN] -f series.awk series
#
# prints a line a step, in the series' order, its five fields always
# there (separated by one blank; no field has one):
#
#   GEN FILE NEEDS PAST WHOLE
#
# PAST is "-" and WHOLE "*" where the series leaves them out.  With
# after=X.Y only the steps of a generation newer than kernel X.Y, with
# upto=X.Y only those of a generation not newer than kernel X.Y; with
# to=GEN none after the steps of GEN, and exit 1 when the series has no
# GEN (what it printed is then no answer).
#
#   awk -v gens=1 -f series.awk series
#
# prints the generations, in order, on one line (blank-separated).
# A line of another shape (one or two fields) is an error: exit 2,
# naming the line.

# ver(v): X.Y as a number that orders releases (6.1 < 6.6 < 6.10).
function ver(v,    p) {
	split(v, p, ".")
	return p[1] * 1000 + p[2]
}

/^[ \t]*(#|$)/ {
	next
}

NF < 3 {
	printf "%s:%d: not a step of the series (GEN FILE NEEDS [PAST [WHOLE]])\n",
		FILENAME, FNR >"/dev/stderr"
	bad = 2
	exit 2
}

{
	if (!($1 in seen)) {
		seen[$1] = 1
		list = list sep $1
		sep = " "
	}
}

found && $1 != to {
	done = 1
}

!gens && !done && (after == "" || ver($1) > ver(after)) &&
    (upto == "" || ver($1) <= ver(upto)) {
	print $1, $2, $3, (NF >= 4 ? $4 : "-"), (NF >= 5 ? $5 : "*")
}

!done && $1 == to {
	found = 1
}

END {
	if (bad)
		exit bad
	if (gens)
		print list
	else if (to != "" && !found)
		exit 1
}
