# SPDX-License-Identifier: GPL-2.0
# Used by convert.sh: spatch costs time per function of a file, and a step
# that only rewrites calls needs just the functions with those calls.
#
#   awk -v mode=cut -v re=ERE -v map=MAP -f excerpt.awk FILE >EXCERPT
#     FILE with every function definition that has no line matching ERE
#     blanked out (same line numbers, so notes need no mapping) and a
#     marker comment on the blank line after each one kept; MAP gets
#     "N FIRST LAST" per definition kept.  Exit 1, and no use of EXCERPT,
#     when a match is outside a function definition or the layout is not
#     the kernel's (body braces in column 0, a blank line after it).
#   awk -v mode=paste -v map=MAP -f excerpt.awk FILE CONVERTED >NEW
#     FILE with each kept definition replaced by its converted text from
#     CONVERTED (the excerpt after spatch).  Exit 1 when CONVERTED does not
#     have the markers and headers expected.
function marker(n) {
	return "/* mncompat-excerpt " n " */"
}

function boundary(s) {
	return s ~ /^[ \t]*$/ || s ~ /^[}]/ || s ~ /^#/ || s ~ /\*\/[ \t]*$/ ||
		s ~ /;[ \t]*$/ || s ~ /^[{]/
}

mode == "cut" {
	line[NR] = $0
	next
}

mode == "paste" && FNR == NR {
	orig[FNR] = $0
	norig = FNR
	next
}

mode == "paste" {
	conv[FNR] = $0
	nconv = FNR
	next
}

END {
	if (mode == "cut")
		cut()
	else
		paste()
}

function cut(    i, j, k, h, nf, first, last, sel, hdr, n, keep) {
	nf = 0
	for (i = 1; i <= NR; i++) {
		if (line[i] !~ /^[{][ \t]*$/)
			continue
		for (j = i + 1; j <= NR && line[j] !~ /^[}]/; j++)
			;
		if (j > NR)
			exit 1
		for (k = i - 1; k >= 1 && !boundary(line[k]); k--)
			;
		h = k + 1
		hdr = ""
		for (k = h; k < i; k++)
			hdr = hdr line[k]
		if (h < i && hdr ~ /\(/ && hdr !~ /=/) {
			nf++
			first[nf] = h
			last[nf] = j
		}
		i = j
	}
	for (i = 1; i <= NR; i++) {
		if (line[i] !~ re)
			continue
		for (k = 1; k <= nf; k++)
			if (first[k] <= i && i <= last[k])
				break
		if (k > nf)
			exit 1
		sel[k] = 1
	}
	n = 0
	for (k = 1; k <= nf; k++) {
		if (!(k in sel))
			continue
		if (last[k] + 1 > NR || line[last[k] + 1] !~ /^[ \t]*$/)
			exit 1
		n++
		keep[last[k] + 1] = marker(n)
		print n, first[k], last[k] >map
	}
	if (n == 0)
		exit 1
	k = 1
	for (i = 1; i <= NR; i++) {
		while (k <= nf && last[k] < i)
			k++
		if (i in keep)
			print keep[i]
		else if (k <= nf && first[k] <= i && !(k in sel))
			print ""
		else
			print line[i]
	}
}

function paste(    n, num, first, last, k, pos, at, i, j, start, ok) {
	n = 0
	while ((getline ok <map) > 0) {
		split(ok, f, " ")
		n++
		first[n] = f[2]
		last[n] = f[3]
	}
	at = 1
	for (k = 1; k <= n; k++) {
		for (pos[k] = at; pos[k] <= nconv && conv[pos[k]] != marker(k); pos[k]++)
			;
		if (pos[k] > nconv)
			exit 1
		start[k] = (k == 1) ? first[1] : pos[k - 1] + first[k] - last[k - 1] - 1
		if (conv[start[k]] != orig[first[k]])
			exit 1
		at = pos[k] + 1
	}
	k = 1
	for (i = 1; i <= norig; i++) {
		if (k <= n && i == first[k]) {
			for (j = start[k]; j < pos[k]; j++)
				print conv[j]
			i = last[k]
			k++
		} else {
			print orig[i]
		}
	}
}
