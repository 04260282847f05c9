// SPDX-License-Identifier: GPL-2.0
/// Linux 4.19 (93065ac753e4 "mm, oom: distinguish blockable mode for mmu
/// notifiers") changed invalidate_range_start(mn, mm, start, end) from
/// void to int and added a bool blockable argument: when it is false
/// (the OOM reaper) the callback must not sleep and returns -EAGAIN if it
/// cannot proceed.  Convert every callback named in a struct
/// mmu_notifier_ops initializer: int return, "return 0", and a guard
/// that returns -EAGAIN when !blockable, unless the callback never
/// sleeps: mnmodule.py follows its calls through every file of the
/// module.  The guard is always safe (the OOM reaper then leaves this mm
/// alone); a callback whose calls the analysis cannot follow keeps it and
/// is reported for review.
///
// Confidence: High
// Copyright: (C) 2024 mncompat authors
// Comments: Forward declarations are converted too.  Run-time assignments
//  to ->invalidate_range_start are reported.  In patch mode the notes go
//  to stderr as "FILE:LINE: [4.19] ..." lines.
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, invalidate_range_start, blockable

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
import sys
import os


def _sp_dir():
    """The directory of this script, where mnmodule.py is."""
    d = os.environ.get('MNCOMPAT_SP_DIR')
    if d:
        return d
    try:
        with open('/proc/self/cmdline', 'rb') as fh:
            argv = fh.read().decode(errors='replace').split('\0')
        for i, a in enumerate(argv):
            if a == '--sp-file' and i + 1 < len(argv):
                return os.path.dirname(os.path.abspath(argv[i + 1]))
            if a.startswith('--sp-file='):
                return os.path.dirname(os.path.abspath(a.split('=', 1)[1]))
            if a.endswith('.cocci'):
                return os.path.dirname(os.path.abspath(a))
    except OSError:
        pass
    return '.'


sys.path.insert(0, _sp_dir())

def M(p):
    """The module of the file of p (mnmodule.py, imported when first
    needed: most files never ask)."""
    import mnmodule
    return mnmodule.facts_for(p[0].file)

mode = ['report']
first_stmt = {}
first_done = set()

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
    msg = "[4.19] " + msg
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
position p;
@@
struct mmu_notifier_ops o = {
	.invalidate_range_start = fn@p,
};

@cb@
identifier ops.fn, mn, mm, s, e;
position pf;
@@
void fn@pf(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e)
{ ... }

@split depends on patch@
identifier ops.fn;
position pf : script:python() { split_by_cpp(pf) };
@@
fn@pf(...) { ... }

@script:python@
fn << ops.fn;
pf << split.pf;
@@
note(pf, "review: %s is split by #if/#else (spatch sees one branch): not converted, give every branch the 4.19 prototype by hand" % fn)

@cb_done@
identifier ops.fn;
@@
int fn(...) { ... }

@script:python depends on !context && !cb && !cb_done@
fn << ops.fn;
p << ops.p;
@@
note(p, "review: %s is not defined in this file or could not be parsed (#if?): give it the 4.19 prototype (int, bool blockable) by hand" % fn)

// callers of a callback that changes: they need the new argument
@direct depends on cb && !split@
identifier ops.fn;
expression list[4] es;
position pc;
@@
fn@pc(es)

@script:python depends on patch@
fn << ops.fn;
pc << direct.pc;
@@
note(pc, "review: %s is called here with its pre-4.19 arguments: pass bool blockable (true where the caller may sleep) and use the int it returns" % fn)

@rt@
expression E, F;
position p;
@@
(
E.invalidate_range_start@p = F
|
E->invalidate_range_start@p = F
)

@script:python depends on !context@
p << rt.p;
@@
note(p, "review: run-time assignment to ->invalidate_range_start: the callback needs the 4.19 prototype (int, bool blockable)")

@script:python depends on report || org@
fn << ops.fn;
pf << cb.pf;
@@
note(pf, "%s: invalidate_range_start needs the 4.19 prototype (int, bool blockable)" % fn)

@depends on context@
identifier ops.fn, mn, mm, s, e;
@@
* void fn(struct mmu_notifier *mn, struct mm_struct *mm,
	   unsigned long s, unsigned long e)
  { ... }

// --- first statement of each callback, for the guard ----------------

@stmts depends on patch && !split exists@
identifier ops.fn;
statement S;
position ps;
@@
fn(...) {
... when any
S@ps
... when any
}

@script:python@
fn << ops.fn;
ps << stmts.ps;
@@
k = (ps[0].file, fn)
l = (int(ps[0].line), int(ps[0].column))
if k not in first_stmt or l < first_stmt[k]:
    first_stmt[k] = l

@script:python first@
fn << ops.fn;
ps << stmts.ps;
ok;
@@
l = (int(ps[0].line), int(ps[0].column))
if l != first_stmt[(ps[0].file, fn)] or (ps[0].file, fn) in first_done:
    cocci.include_match(False)
else:
    first_done.add((ps[0].file, fn))
    # No guard where the callback never sleeps (a name no code has then).
    if M(ps).sleep(fn, ps[0].file)[0] == 'atomic':
        coccinelle.ok = cocci.make_ident('__mncompat_none')
    else:
        coccinelle.ok = cocci.make_ident(fn)

@guard depends on patch && !split@
identifier first.ok, cb.mn, cb.mm, cb.s, cb.e;
statement stmts.S;
position stmts.ps;
@@
void ok(struct mmu_notifier *mn, struct mm_struct *mm,
	unsigned long s, unsigned long e)
{
... when any
+	if (!blockable)
+		return -EAGAIN;
S@ps
... when any
+	return 0;
}

@body depends on patch && !split@
identifier ops.fn, cb.mn, cb.mm, cb.s, cb.e;
@@
- void
+ int
  fn(struct mmu_notifier *mn, struct mm_struct *mm,
     unsigned long s, unsigned long e
+    , bool blockable
  )
  {
  <...
- return;
+ return 0;
  ...>
  }

@proto depends on patch && !split@
identifier ops.fn;
parameter list[4] PL;
@@
- void
+ int
  fn(PL
+ , bool blockable
  );

@script:python depends on body@
fn << ops.fn;
pf << cb.pf;
@@
v, chain, why, unknown = M(pf).sleep(fn, pf[0].file)
if v == 'atomic':
    note(pf, "converted: %s: int invalidate_range_start(..., bool blockable), no -EAGAIN guard: %s never sleeps (every call it makes was followed through the module)" % (fn, fn))
elif v == 'sleeps':
    note(pf, "converted: %s: int invalidate_range_start(..., bool blockable), returns -EAGAIN when !blockable: it may sleep (%s; %s)" % (fn, ' -> '.join(chain), why))
else:
    note(pf, "converted: %s: int invalidate_range_start(..., bool blockable), returns -EAGAIN when !blockable" % fn)
    note(pf, "review: %s: cannot tell whether it sleeps: it calls %s, neither this module's nor a known non-sleeping kernel helper. The -EAGAIN guard stays (the OOM reaper then leaves this mm alone%s); drop it if those calls never sleep" % (
        fn, ', '.join(unknown), '; with compat, before 4.13 its table is then built as one that may sleep' if False else ''))
