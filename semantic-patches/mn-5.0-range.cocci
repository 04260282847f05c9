// SPDX-License-Identifier: GPL-2.0
/// Linux 5.0 (5d6527a784f7, ac46d4f3c432) passes invalidate_range_start
/// and invalidate_range_end a const struct mmu_notifier_range * instead
/// of (mm, start, end[, blockable]).  Convert every callback named in a
/// struct mmu_notifier_ops initializer: the parameters become
/// (mn, range), uses of mm/start/end become range->mm/start/end, and
/// blockable becomes mmu_notifier_range_blockable(range) (the 5.2+
/// spelling; 5.0/5.1 had range->blockable).  A parameter the callback
/// writes to becomes a local copy instead.  Callers of the old
/// three-argument mmu_notifier_invalidate_range_start/end are reported.
///
// Confidence: High
// Copyright: (C) 2024 mncompat authors
// Comments: invalidate_range_start must already have the 4.19 prototype
//  (int, bool blockable): run mn-4.19-blockable.cocci first; older ones
//  are reported.  In patch mode the notes go to stderr as
//  "FILE:LINE: [5.0] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, mmu_notifier_range, invalidate_range_start

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
import sys
mode = ['report']
starts = set()
clashes = set()
voids = set()

def split_by_cpp(pos):
    """True when a #if/#else/#endif sits between the line of pos (a
    function name) and the closing brace of that function in column 0:
    spatch then saw only one branch."""
    try:
        with open(pos[0].file, errors='replace') as f:
            lines = f.read().split('\n')
    except OSError:
        return True
    cpp = re.compile(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b')
    for line in lines[int(pos[0].line) - 1:]:
        if cpp.match(line):
            return True
        if line.startswith('}'):
            return False
    return True

def note(p, msg):
    msg = "[5.0] " + msg
    if mode[0] == 'patch':
        sys.stderr.write("%s:%s: %s\n" % (p[0].file, p[0].line, msg))
    elif mode[0] == 'org':
        coccilib.org.print_todo(p[0], msg)
    else:
        coccilib.report.print_report(p[0], msg)

@script:python depends on patch@
@@
mode[0] = 'patch'

@script:python depends on org@
@@
mode[0] = 'org'

@ops@
identifier o, fn;
@@
struct mmu_notifier_ops o = {
	.\(invalidate_range_start\|invalidate_range_end\) = fn,
};

// 4.19-form start (int, 5 parameters) or end (void, 4 parameters)
@sig@
identifier ops.fn, mn, mm, s, e, b;
position pf;
@@
(
int fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	  unsigned long s, unsigned long e, bool b) { ... }
|
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e) { ... }
)

@split depends on patch@
identifier ops.fn;
position pf : script:python() { split_by_cpp(pf) };
@@
fn@pf(...) { ... }

@script:python@
fn << ops.fn;
pf << split.pf;
@@
note(pf, "review: %s is split by #if/#else (spatch sees one branch): not converted, give every branch the 5.0 prototype by hand" % fn)

@sig_done@
identifier ops.fn, mn, r;
@@
fn(struct mmu_notifier *mn, const struct mmu_notifier_range *r) { ... }

@ops_pos@
identifier o, ops.fn;
position p;
@@
struct mmu_notifier_ops o = {
	.\(invalidate_range_start\|invalidate_range_end\) = fn@p,
};

@script:python depends on !context && !sig && !sig_done@
fn << ops.fn;
p << ops_pos.p;
@@
note(p, "review: %s is not defined in this file or could not be parsed (#if?), or has a prototype this script does not know: give it the 5.0 prototype (mn, const struct mmu_notifier_range *) by hand" % fn)

// callers of a callback that changes: they need a struct mmu_notifier_range
@direct depends on sig && !split@
identifier ops.fn;
expression list[4] es4;
expression list[5] es5;
position pc;
@@
\(fn@pc(es4)\|fn@pc(es5)\)

@script:python depends on patch@
fn << ops.fn;
pc << direct.pc;
@@
note(pc, "review: %s is called here with its pre-5.0 arguments: pass a const struct mmu_notifier_range * (mmu_notifier_range_init())" % fn)

@ops_start@
identifier o, fn;
@@
struct mmu_notifier_ops o = {
	.invalidate_range_start = fn,
};

@old_start depends on !context@
identifier ops_start.fn, mn, mm, s, e;
position pf;
@@
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e) { ... }

@script:python depends on !context@
fn << ops_start.fn;
pf << old_start.pf;
@@
note(pf, "review: %s still has the pre-4.19 invalidate_range_start prototype: run mn-4.19-blockable.cocci first" % fn)

@script:python depends on report || org@
fn << ops.fn;
pf << sig.pf;
@@
note(pf, "%s: 5.0 passes const struct mmu_notifier_range *" % fn)

@script:python@
fn << ops_start.fn;
@@
starts.add(fn)

@sig_void@
identifier ops.fn, mn, mm, s, e;
position pf;
@@
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e) { ... }

@script:python@
pf << sig_void.pf;
@@
voids.add((pf[0].file, pf[0].line, pf[0].column))

@clash exists@
identifier ops.fn, r = {range};
type T;
position pc;
@@
fn(...) {
<+...
T r@pc;
...+>
}

@script:python@
pc << clash.pc;
fn << ops.fn;
@@
clashes.add(fn)
note(pc, "review: %s has a local named range, which the 5.0 parameter needs: not converted, rename it and run again" % fn)

@script:python cb depends on !split@
fn << ops.fn;
pf << sig.pf;
ok;
@@
if fn in clashes or \
   (fn in starts and (pf[0].file, pf[0].line, pf[0].column) in voids):
    cocci.include_match(False)
else:
    coccinelle.ok = cocci.make_ident(fn)

@old_calls@
expression M, S, E;
position pc;
@@
\(mmu_notifier_invalidate_range_start@pc\|mmu_notifier_invalidate_range_end@pc\|mmu_notifier_invalidate_range_only_end@pc\)(M, S, E)

@script:python depends on !context@
pc << old_calls.pc;
@@
note(pc, "review: 5.0 callers pass a struct mmu_notifier_range (mmu_notifier_range_init(), then invalidate_range_start/end(&range)): convert by hand")

@depends on context@
identifier ops.fn, mn, mm, s, e;
@@
* fn(struct mmu_notifier *mn, struct mm_struct *mm,
     unsigned long s, unsigned long e, ...) { ... }

// --- parameters the body writes to get a local copy -----------------

@w_s depends on patch exists@
identifier cb.ok, sig.s;
expression E;
assignment operator aop;
@@
ok(...) {
<+...
(
s aop E
|
s++
|
s--
|
 &s
)
...+>
}

@w_e depends on patch exists@
identifier cb.ok, sig.e;
expression E;
assignment operator aop;
@@
ok(...) {
<+...
(
e aop E
|
e++
|
e--
|
 &e
)
...+>
}

@w_mm depends on patch exists@
identifier cb.ok, sig.mm;
expression E;
@@
ok(...) {
<+...
(
mm = E
|
 &mm
)
...+>
}

@sub_s depends on patch && !w_s@
identifier cb.ok, sig.s;
@@
ok(...) {
<...
- s
+ range->start
...>
}

@sub_e depends on patch && !w_e@
identifier cb.ok, sig.e;
@@
ok(...) {
<...
- e
+ range->end
...>
}

@sub_mm depends on patch && !w_mm@
identifier cb.ok, sig.mm;
@@
ok(...) {
<...
- mm
+ range->mm
...>
}

@sub_b depends on patch@
identifier cb.ok, sig.b;
@@
ok(...) {
<...
- b
+ mmu_notifier_range_blockable(range)
...>
}

@copy_e depends on patch && w_e@
identifier cb.ok, sig.e;
@@
ok(...) {
+	unsigned long e = range->end;
...
}

@copy_s depends on patch && w_s@
identifier cb.ok, sig.s;
@@
ok(...) {
+	unsigned long s = range->start;
...
}

@copy_mm depends on patch && w_mm@
identifier cb.ok, sig.mm;
@@
ok(...) {
+	struct mm_struct *mm = range->mm;
...
}

@hdr_start depends on patch@
identifier cb.ok, sig.mn, sig.mm, sig.s, sig.e, sig.b;
@@
int ok(struct mmu_notifier *mn,
-	struct mm_struct *mm, unsigned long s, unsigned long e, bool b
+	const struct mmu_notifier_range *range
 ) { ... }

@hdr_end depends on patch@
identifier cb.ok, sig.mn, sig.mm, sig.s, sig.e;
@@
void ok(struct mmu_notifier *mn,
-	struct mm_struct *mm, unsigned long s, unsigned long e
+	const struct mmu_notifier_range *range
 ) { ... }

@proto_start depends on hdr_start@
identifier cb.ok;
parameter P1;
parameter list[4] PL;
@@
int ok(P1,
-	PL
+	const struct mmu_notifier_range *range
 );

@proto_end depends on hdr_end@
identifier cb.ok;
parameter P1;
parameter list[3] PL;
@@
void ok(P1,
-	PL
+	const struct mmu_notifier_range *range
 );

@script:python depends on hdr_start || hdr_end@
fn << cb.ok;
pf << sig.pf;
@@
note(pf, "converted: %s: (mn, const struct mmu_notifier_range *range)" % fn)
