// SPDX-License-Identifier: GPL-2.0
/// Linux 6.15 (599b684a7854 "mm/rmap: convert make_device_exclusive_range()
/// to make_device_exclusive()") replaced make_device_exclusive_range(mm,
/// start, end, pages, owner), which filled pages[] (NULL where a page was
/// not made exclusive) and returned the number of pages GUP found, with
/// make_device_exclusive(mm, addr, owner, &folio): one page, returned
/// locked and referenced, or an ERR_PTR().  A one-page call whose result
/// is only tested for failure becomes the new call as upstream converted
/// nouveau (the test becomes IS_ERR()); any other call goes through a
/// helper the step adds, one make_device_exclusive() per page of the
/// range, that keeps the old contract (reported: a page that cannot be
/// faulted in is now a NULL entry where the old call stopped counting).
///
// Confidence: High
// Copyright: (C) 2026 mncompat authors
// Comments: The one-page form needs a struct folio * local of the
//  function for the new call's folio; without one the call takes the
//  helper.  In patch mode the notes go to stderr as "FILE:LINE: [6.15] ..."
//  lines.
// Options: --no-includes --include-headers
// Keywords: make_device_exclusive_range, make_device_exclusive, hmm

virtual patch, context, org, report
virtual compat

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
from mncocci import Step
import plan615

step = Step('6.15')
plan615.start(step)

// One page, the result tested for failure only (nouveau's shape).
@one exists@
identifier R, P;
expression M, S, O;
statement S1;
position pc;
@@
R = make_device_exclusive_range@pc(M, S, S + PAGE_SIZE, &P, O);
... when != R
    when != P
if (\(R <= 0 || !P\|R < 1 || !P\|R != 1 || !P\|!P\|R <= 0 || P == NULL\)) S1

@script:python folio@
pc << one.pc;
P << one.P;
F;
@@
f = plan615.folio_of(pc, P)
if f:
    coccinelle.F = cocci.make_ident(f)
else:
    cocci.include_match(False)

@depends on context@
expression list es;
@@
* make_device_exclusive_range(es)

// Every call, and the function it is in (notes come first: spatch keeps
// positions only until the first change).
@users@
identifier fn;
expression list es;
position pc, pf;
@@
fn@pf(...) { <+... make_device_exclusive_range@pc(es) ...+> }

@script:python depends on !context@
fn << users.fn;
pc << users.pc;
pf << users.pf;
@@
plan615.user(fn, pc, pf)

// The one-page calls.
@depends on patch@
identifier one.R, one.P, folio.F;
expression one.M, one.S, one.O;
statement S1;
position one.pc;
@@
- R = make_device_exclusive_range@pc(M, S, S + PAGE_SIZE, &P, O);
+ P = make_device_exclusive(M, S, O, &F);
  ...
- if (\(R <= 0 || !P\|R < 1 || !P\|R != 1 || !P\|!P\|R <= 0 || P == NULL\))
+ if (IS_ERR(P))
  S1

// Every other call: through the helper, added before the first function
// that still calls make_device_exclusive_range().
@depends on patch@
identifier fn : script:python() { plan615.first_user(fn) };
fresh identifier N = script:python() { plan615.HELPER };
@@
+static int N(struct mm_struct *mm, unsigned long start, unsigned long end, struct page **pages, void *owner)
+{ __mncompat_body(); }
+
 fn(...) { ... }

// A prototype, dropped again below: spatch then merges the blank lines
// around the place the helper went in.
@depends on patch@
identifier N : script:python() { plan615.is_helper(N) };
@@
+static int N(struct mm_struct *mm, unsigned long start, unsigned long end, struct page **pages, void *owner);
+
 static int N(...) { __mncompat_body(); }

@depends on patch disable prototypes@
identifier N : script:python() { plan615.is_helper(N) };
@@
+/*
+ * make_device_exclusive_range() as it was before Linux 6.15: one
+ * make_device_exclusive() per page; a page that is not made exclusive is
+ * NULL (returned pages are locked and referenced, as they were).
+ */
 static int N(...) { __mncompat_body(); }

@depends on patch@
identifier N : script:python() { plan615.is_helper(N) };
@@
 N(...) {
-	__mncompat_body();
+	unsigned long addr = start;
+	int n = 0;
+
+	while (addr < end) {
+		struct folio *folio;
+
+		pages[n] = make_device_exclusive(mm, addr, owner, &folio);
+		if (IS_ERR(pages[n]))
+			pages[n] = NULL;
+		addr += PAGE_SIZE;
+		n++;
+	}
+	return n;
 }

@depends on patch@
identifier N : script:python() { plan615.is_helper(N) };
type T;
@@
- T N(...);

@depends on patch@
fresh identifier N = script:python() { plan615.HELPER };
expression list es;
@@
- make_device_exclusive_range(es)
+ N(es)
