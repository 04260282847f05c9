# SPDX-License-Identifier: GPL-2.0
# Used by convert.sh: spatch costs time per function of a file, and most
# steps need only some of them.
#
#   awk -v mode=cut -v re=ERE [-v fields=ERE [-v follow=1]] \
#       -v map=MAP -v dir=DIR -f excerpt.awk FILE...
#     For each FILE, DIR/NAME where MAP has the line "NAME<TAB>FILE":
#     FILE with every function definition the step does not need blanked
#     out, same line numbers (notes need no mapping): its lines are empty
#     and its last one (the closing brace) is ";", so that spatch sees
#     something there (code spatch adds before a function that follows a
#     declaration takes the place of the empty lines before it, up to the
#     previous token, and the paste below could not put it back).  Needed: every
#     function definition with a line that matches ERE or names a callback
#     of a table line matching fields (with follow=1: or names a function
#     such a callback calls, or a function of the file it names); all
#     code outside function definitions stays.  No DIR/NAME (the excerpt
#     unusable) when FILE's function bodies are not braced in column 0
#     as in the kernel.
#   (cd TMP && diff -arU0 EXCERPTS STEP) >DIFFS
#   awk -v mode=paste -v map=MAP -v work=WORK -v ex=TMP/EXCERPTS \
#       -f excerpt.awk DIFFS >REDO
#     For each file of DIFFS (its "diff ... STEP/NAME" line and hunks),
#     WORK/FILE (MAP has "NAME<TAB>FILE") rewritten in place with the
#     changes spatch made to EXCERPTS/NAME; a file where a change touches
#     a line of a blanked function, or adds lines inside one, is left as
#     it was and its MAP line printed (in MAP's order).  One awk for all
#     the files of a step.
function boundary(s) {
	return s ~ /^[ \t]*$/ || s ~ /^[}]/ || s ~ /^#/ || s ~ /\*\/[ \t]*$/ ||
		s ~ /;[ \t]*$/ || s ~ /^[{]/
}

function blank(s) {
	return s ~ /^[ \t]*$/
}

# named(s): does s mention one of the words in want[]?
function named(s,    w) {
	while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
		w = substr(s, RSTART, RLENGTH)
		if (w in want)
			return 1
		s = substr(s, RSTART + RLENGTH)
	}
	return 0
}

BEGIN {
	split("if while for switch return sizeof typeof __typeof__ do else " \
	      "case defined __builtin_expect likely unlikely", kw, " ")
	for (i in kw)
		KEYWORDS[kw[i]] = 1
}

BEGIN {
	while (mode == "cut" && (getline l <map) > 0)
		out[substr(l, index(l, "\t") + 1)] = substr(l, 1, index(l, "\t") - 1)
	while (mode == "paste" && (getline l <map) > 0) {
		order[++nmap] = l
		real[substr(l, 1, index(l, "\t") - 1)] = substr(l, index(l, "\t") + 1)
	}
}

mode == "cut" {
	if (FNR == 1) {
		if (NR > 1)
			excerpt()
		cur = FILENAME
	}
	line[FNR] = $0
	nl = FNR
	next
}

# diff -r: "diff OPTIONS EXCERPTS/NAME STEP/NAME" starts a file's part;
# its "---" and "+++" lines come before its first hunk.
mode == "paste" && /^diff / {
	pasted()
	cur = $NF
	sub(/.*\//, "", cur)
	started = 0
	next
}

mode == "paste" && /^Only in / {
	next
}

mode == "paste" && /^(---|\+\+\+) / && !started {
	next
}

mode == "paste" && cur != "" {
	started = 1
	diff[++ndiff] = $0
	next
}

END {
	if (mode == "paste") {
		pasted()
		for (i = 1; i <= nmap; i++)
			if (substr(order[i], 1, index(order[i], "\t") - 1) in redo)
				print order[i]
	} else if (NR > 0)
		excerpt()
}

# pasted(): the hunks just read (diff[1..ndiff], of excerpt cur) put
# into the file cur stands for, or cur marked for redo.
function pasted(    f, l, i) {
	if (cur == "")
		return
	if (!(cur in real)) {
		printf "excerpt.awk: %s is not in %s\n", cur, map >"/dev/stderr"
		exit 2
	}
	f = work "/" real[cur]
	norig = 0
	while ((getline l <f) > 0)
		orig[++norig] = l
	close(f)
	nex = 0
	while ((getline l <(ex "/" cur)) > 0)
		ex_[++nex] = l
	close(ex "/" cur)
	nres = 0
	if (paste()) {
		for (i = 1; i <= nres; i++)
			print res[i] >f
		close(f)
	} else
		redo[cur] = 1
	split("", orig)
	split("", ex_)
	split("", diff)
	split("", res)
	ndiff = 0
	cur = ""
}

# excerpt(): the excerpt of the file just read (cur), if it can be.
function excerpt(    dest) {
	dest = dir "/" out[cur]
	if (cut(dest))
		close(dest)
	split("", line)
	split("", want)
}

# cut(dest): write the excerpt of line[1..nl] to dest; 0 when it cannot.
function cut(dest,     i, j, k, h, nf, first, last, fname, hdr, infn, s, cb, w,
		 sel, nu, ufirst, ulast, p1, p2, keep, n, order, t) {
	nf = 0
	for (i = 1; i <= nl; i++) {
		if (line[i] !~ /^[{][ \t]*$/)
			continue
		for (j = i + 1; j <= nl && line[j] !~ /^[}]/; j++)
			;
		if (j > nl)
			return 0
		for (k = i - 1; k >= 1 && !boundary(line[k]); k--)
			;
		h = k + 1
		hdr = ""
		for (k = h; k < i; k++)
			hdr = hdr " " line[k]
		if (h < i && hdr ~ /\(/ && hdr !~ /=/) {
			nf++
			first[nf] = h
			last[nf] = j
			match(hdr, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)
			fname[nf] = substr(hdr, RSTART, RLENGTH)
			sub(/[ \t]*\($/, "", fname[nf])
			for (k = h; k <= j; k++)
				infn[k] = nf
		}
		i = j
	}
	# The callbacks the step follows, and (follow=1) what they use.
	if (fields != "") {
		for (i = 1; i <= nl; i++) {
			if (line[i] !~ fields)
				continue
			s = line[i]
			sub(/^[^=]*=[ \t]*/, "", s)
			if (match(s, /^[A-Za-z_][A-Za-z0-9_]*/) &&
			    substr(s, RSTART, RLENGTH) != "NULL")
				cb[substr(s, RSTART, RLENGTH)] = 1
		}
		for (w in cb)
			want[w] = 1
		if (follow)
			for (k = 1; k <= nf; k++) {
				if (!(fname[k] in cb))
					continue
				for (i = first[k]; i <= last[k]; i++) {
					s = line[i]
					while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
						w = substr(s, RSTART, RLENGTH)
						t = substr(s, RSTART + RLENGTH)
						if (w != toupper(w) && !(w in KEYWORDS) &&
						    (t ~ /^[ \t]*\(/ || isfn(w, fname, nf)))
							want[w] = 1
						s = t
					}
				}
			}
	}
	# Every function definition the step needs; the rest is blanked.
	for (i = 1; i <= nl; i++)
		if ((i in infn) && !(infn[i] in sel) &&
		    (line[i] ~ re || named(line[i])))
			sel[infn[i]] = 1
	for (i = 1; i <= nl; i++) {
		if ((i in infn) && !(infn[i] in sel))
			print ((i == last[infn[i]]) ? ";" : "") >dest
		else
			print line[i] >dest
	}
	return 1
}

function isfn(w, fname, nf,    k) {
	for (k = 1; k <= nf; k++)
		if (fname[k] == w)
			return 1
	return 0
}

function paste(    i, h, a, b, blanked, first, f) {
	# The blanked functions: from a line that is not as in FILE to the
	# ";" that stands for the closing brace; first[] their first lines.
	for (i = 1; i <= nex; i++) {
		if (ex_[i] == orig[i])
			continue
		first[i] = 1
		for (; i <= nex && !(ex_[i] == ";" && orig[i] ~ /^[}]/); i++)
			blanked[i] = 1
		if (i > nex)
			return 0
		blanked[i] = 1
	}
	# hunks of diff -U0: "@@ -a[,b] +c[,d] @@", then "-" and "+" lines
	i = 1
	for (h = 1; h <= ndiff; h++) {
		if (diff[h] !~ /^@@ /)
			continue
		split(diff[h], f, " ")
		a = f[2]
		sub(/^-/, "", a)
		b = 1
		if (a ~ /,/) {
			b = a
			sub(/.*,/, "", b)
			sub(/,.*/, "", a)
		}
		a += 0
		b += 0
		# lines before the hunk (a change of 0 lines goes after line a)
		for (; i < (b == 0 ? a + 1 : a); i++)
			res[++nres] = orig[i]
		for (h++; h <= ndiff && diff[h] !~ /^@@ /; h++) {
			if (diff[h] ~ /^-/) {
				if (i in blanked)
					return 0
				i++
			} else if (diff[h] ~ /^\+/) {
				# before line i: not inside a blanked function
				if ((i in blanked) && !(i in first))
					return 0
				res[++nres] = substr(diff[h], 2)
			}
		}
		h--
	}
	for (; i <= norig; i++)
		res[++nres] = orig[i]
	return 1
}
