# SPDX-License-Identifier: GPL-2.0
# Used by convert.sh: a file is converted with its CRs taken out; this
# puts its line ends back, line by line (a file may mix LF and CRLF).
#
#   diff -U0 ORIG_WITHOUT_CR CONVERTED | awk -f lineends.awk ORIG -
#
# prints CONVERTED with every line the conversion kept exactly as it is
# in ORIG (its own end), and every new line ended like the first line it
# replaces, or, where lines were only added, like the line before them.

NR == FNR {
	orig[FNR] = $0
	norig = FNR
	next
}

/^(---|\+\+\+) / && !nhunk {
	next
}

/^@@ / {
	# @@ -FIRST[,COUNT] +FIRST[,COUNT] @@: only the old side matters.
	split($2, w, ",")
	nhunk++
	first[nhunk] = substr(w[1], 2) + 0
	count[nhunk] = (2 in w) ? w[2] + 0 : 1
	next
}

/^\+/ {
	added[nhunk, ++nadded[nhunk]] = substr($0, 2)
	next
}

END {
	i = 1
	for (k = 1; k <= nhunk; k++) {
		# A hunk that removes nothing adds after line first[k].
		last = count[k] ? first[k] - 1 : first[k]
		for (; i <= last; i++)
			print orig[i]
		ref = count[k] ? orig[first[k]] : orig[first[k] ? first[k] : 1]
		cr = ref ~ /\r$/ ? "\r" : ""
		for (j = 1; j <= nadded[k]; j++)
			print added[k, j] cr
		if (count[k])
			i = first[k] + count[k]
	}
	for (; i <= norig; i++)
		print orig[i]
}
