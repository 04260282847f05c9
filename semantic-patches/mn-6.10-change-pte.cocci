// SPDX-License-Identifier: GPL-2.0
/// Linux 6.10 (997308f9ae72 "mm/mmu_notifier: remove unused
/// mmu_notifier_change_pte") removed mmu_notifier_ops.change_pte and
/// set_pte_at_notify(): drop the field, the callback and the static
/// helpers only it used; set_pte_at_notify() becomes set_pte_at(), calls
/// of mmu_notifier_change_pte() go.
///
// Confidence: High
// Copyright: (C) 2024 mncompat authors
// Comments: Run-time assignments to ->change_pte, callbacks split by
//  #if/#else and helpers defined in other files are reported.  In patch
//  mode the notes go to stderr as "FILE:LINE: [6.10] ..." lines.  The
//  removal is include/drop-callback.cocci, shared with the 4.13 script:
//  spatch before 1.3.1 looks it up from the current directory (run it
//  from semantic-patches/, or give spatch the copy flatten.sh makes).
// Options: --no-includes --include-headers
// Keywords: mmu_notifier, change_pte, set_pte_at_notify

#include "include/drop-callback.cocci"

virtual patch, context, org, report

@initialize:python@
@@
import os, sys
sys.path.insert(0, os.path.dirname(os.path.realpath(cocci.cocci_file)))
from mncocci import Dying, Step

step = Step('6.10')
dying = Dying(step, 'change_pte', 'change_pte, gone since 6.10')

// After the included rules (the field, the callback and its helpers,
// run-time assignments): the calls.
@script:python depends on report || org@
p << gone.p;
fn << gone.fn;
@@
step.note(p, "%s: change_pte is gone since 6.10: remove it" % fn)

@calls@
position pc;
expression M, A, P;
@@
mmu_notifier_change_pte@pc(M, A, P)

@script:python depends on !context@
pc << calls.pc;
@@
step.note(pc, "review: mmu_notifier_change_pte() is gone since 6.10" + (": call removed" if step.mode == 'patch' else ""))

@spn@
position pc;
expression M, A, PT, PTE;
@@
set_pte_at_notify@pc(M, A, PT, PTE)

@script:python depends on report || org@
pc << spn.pc;
@@
step.note(pc, "set_pte_at_notify() is gone since 6.10: use set_pte_at()")

@depends on context@
identifier ops, fn;
@@
struct mmu_notifier_ops ops = {
*	.change_pte = fn,
};

@depends on patch@
expression M, A, PT, PTE;
@@
- set_pte_at_notify(M, A, PT, PTE)
+ set_pte_at(M, A, PT, PTE)

@depends on patch@
expression M, A, P;
@@
- mmu_notifier_change_pte(M, A, P);
