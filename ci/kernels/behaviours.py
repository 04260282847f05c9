#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Usage: ci/kernels/behaviours.py [--words] TREE...

What a kernel does with a notifier driver's callbacks, read from its
source tree: the behaviours the suites are gated on (ci/kernels/
behaviours.md says what each one is, its values, the commits and how each
row gets it). TREE is a kernel source tree (or several: the first that
has the file a behaviour is read from answers for it, e.g. a build tree
and its source). Prints one line per behaviour,

    NAME=VALUE<TAB>FILE:LINE<TAB>what was seen there

or NAME=unknown with why, when no TREE has the file it is read from;
--words prints only the NAME=VALUE words, blank-separated, unknown ones
left out. ci/matrix_plan.py reads a kernel's behaviours once, when its
row is prepared (finish-env), into its env file (KERNEL_BEHAVIOURS); a
suite's needs lines and ci/report/expectations name them.

Each behaviour is read from the C a kernel runs, not from a signature or
a version: a re-created row's patches change the file it is read from
(pre512-6.1 reads no-end), a Debian row reads the linux-source of its own
upload, a user row its tree or what the row declares (behaves=...).
"""
import os
import re
import sys

# name: (values, one line on what it is). The values are the words a
# suite's needs line or ci/report/expectations may name, as NAME=VALUE.
BEHAVIOURS = {
    "failed-start": (
        ("cannot-fail", "no-end", "end-all"),
        "what follows a non-blocking invalidate_range_start that fails"),
    "oom-reaper": (
        ("none", "unnotified", "skips", "skips-blocking", "nonblock"),
        "how the OOM reaper treats an mm with notifiers"),
    "oom-reap-event": (
        ("none", "unmap", "clear"),
        "the event of the OOM reaper's non-blocking range"),
    "itree": (
        ("none", "one-pass", "two-pass"),
        "the kernel's interval notifier and how it calls a subscription"),
    "itree-unwind": (
        ("none", "self", "full"),
        "whether a failed non-blocking start ends the interval invalidation"
        " it began"),
    "tlb-hook": (
        ("none", "core", "arch-widened", "arch"),
        "who calls the secondary-TLB hook, with which range"),
}
UNKNOWN = "unknown"


def words():
    """Every NAME=VALUE a kernel can have."""
    return {f"{n}={v}" for n, (values, _) in BEHAVIOURS.items()
            for v in values}


def read_text(trees, rel):
    """(path, text) of the first TREE holding REL, else (None, None)."""
    for tree in trees:
        path = os.path.join(tree, rel)
        if os.path.isfile(path):
            with open(path, errors="replace") as f:
                return path, f.read()
    return None, None


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def function(text, name):
    """(offset, body) of the definition of function NAME in TEXT: the body
    from its opening brace to the matching closing one, the offset of
    that brace in TEXT; else (None, None). A definition starts a line
    (after its type) and is followed by a brace, not a semicolon."""
    for m in re.finditer(r"^[^\n;#]*\b" + re.escape(name) + r"\s*\(", text,
                         re.M):
        # The parameter list may span lines: find the ")" that closes it.
        depth, k = 1, m.end()
        while k < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[k], 0)
            k += 1
        if not text[k:k + 200].lstrip().startswith("{"):
            continue
        start = text.index("{", k)
        depth, k = 0, start
        while k < len(text):
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
            if depth == 0:
                return start, text[start:k]
        return None, None
    return None, None


def found(path, text, pos, what, value):
    return value, f"{path}:{line_of(text, pos)}", what


def failed_start(trees):
    """c2655835fd8c (5.12, 5.10.y, 5.11.y): a failed non-blocking range
    start WARNs where the failing table has a range_end, then range_end
    goes to every table that has one (end-all). 4.19 (93065ac753e4) to
    5.11: the failure goes back to the caller, no range_end for anyone
    (no-end). Before 4.19 range_start returns nothing (cannot-fail)."""
    path, text = read_text(trees, "mm/mmu_notifier.c")
    if text is None:
        return None, None, "no mm/mmu_notifier.c"
    for name in ("mn_hlist_invalidate_range_start",
                 "__mmu_notifier_invalidate_range_start"):
        at, body = function(text, name)
        if body is not None and "invalidate_range_start" in body:
            break
    else:
        return None, None, "no range start loop in mm/mmu_notifier.c"
    call = re.search(r"\w\s*=\s*[\w.>-]*->\s*invalidate_range_start\s*\(",
                     body)
    if not call:
        call = re.search(r"->\s*invalidate_range_start\s*\(", body)
        return found(path, text, at + (call.start() if call else 0),
                     f"{name}() drops what range_start returns",
                     "cannot-fail")
    end = re.search(r"->\s*invalidate_range_end\s*\(", body)
    if not end:
        return found(path, text, at + call.start(),
                     f"{name}() returns a failed start, calls no range_end",
                     "no-end")
    warn = re.search(r"WARN_ON\s*\(\s*[\w.>-]*invalidate_range_end\s*\)",
                     body)
    if warn:
        return found(path, text, at + warn.start(),
                     f"{name}() WARNs when the failing table has a "
                     "range_end, then calls every range_end", "end-all")
    return found(path, text, at + end.start(),
                 f"{name}() calls every range_end after a failed start",
                 "end-all")


def nonblock_caller(trees, oom_text):
    """(path, text, pos) of the non-blocking range start the OOM reaper
    reaches: in mm/oom_kill.c, or in a function of mm/memory.c it calls
    (7.x: zap_vma_for_reaping())."""
    path, text = read_text(trees, "mm/oom_kill.c")
    m = re.search(r"mmu_notifier_invalidate_range_start_nonblock\s*\(",
                  oom_text)
    if m:
        return path, text, m.start()
    mpath, mtext = read_text(trees, "mm/memory.c")
    if mtext is None:
        return None, None, None
    for m in re.finditer(r"mmu_notifier_invalidate_range_start_nonblock"
                         r"\s*\(", mtext):
        # The function around it, by the last definition before it.
        defs = list(re.finditer(r"^\w[^\n;]*\b(\w+)\s*\([^;]*?\)\s*\n\{",
                                mtext[:m.start()], re.M))
        if defs and re.search(r"\b" + re.escape(defs[-1].group(1)) +
                              r"\s*\(", oom_text):
            return mpath, mtext, m.start()
    return None, None, None


def oom_reaper(trees):
    """How the OOM reaper treats an mm with notifiers: unmaps it without
    telling them (4.6, aac453635549, to 4.13: unnotified); backs off from
    it (4.14, 4d4bbd8526a8: skips); backs off unless every table says it
    does not block (4.16, 5ff7091f5a2c's flags: skips-blocking); brackets
    each VMA with a non-blocking range that a table may refuse (4.19,
    93065ac753e4: nonblock). And the event of that range."""
    path, text = read_text(trees, "mm/oom_kill.c")
    if text is None:
        none = (None, None, "no mm/oom_kill.c")
        return none, none
    if "oom_reap" not in text:
        return (found(path, text, 0, "no OOM reaper", "none"),
                found(path, text, 0, "no OOM reaper", "none"))
    m = re.search(r"\bmm_has_blockable_invalidate_notifiers\s*\(", text)
    if m:
        r = found(path, text, m.start(), "the reaper backs off unless "
                  "every table says it does not block", "skips-blocking")
        return r, found(path, text, m.start(), "no non-blocking range",
                        "none")
    m = re.search(r"\bmm_has_notifiers\s*\(", text)
    if m:
        r = found(path, text, m.start(),
                  "the reaper backs off from an mm with notifiers", "skips")
        return r, found(path, text, m.start(), "no non-blocking range",
                        "none")
    npath, ntext, pos = nonblock_caller(trees, text)
    if npath is None:
        m = re.search(r"\b(unmap_page_range|zap_page_range\w*|"
                      r"__zap_vma_range)\s*\(", text)
        pos = m.start() if m else 0
        r = found(path, text, pos,
                  "the reaper unmaps without notifiers", "unnotified")
        return r, found(path, text, pos, "no non-blocking range", "none")
    r = found(npath, ntext, pos, "the reaper brackets each VMA with "
              "mmu_notifier_invalidate_range_start_nonblock()", "nonblock")
    init = None
    for init in re.finditer(r"mmu_notifier_range_init\s*\(\s*&\s*\w+\s*,"
                            r"\s*(\w+)", ntext[:pos]):
        pass
    if init and init.group(1).startswith("MMU_NOTIFY_"):
        event = init.group(1)[len("MMU_NOTIFY_"):].lower()
        if event in BEHAVIOURS["oom-reap-event"][0]:
            return r, found(npath, ntext, init.start(),
                            f"its range is {init.group(1)}", event)
        return r, (None, None, f"an event the reader does not know: "
                   f"{init.group(1)}")
    return r, found(npath, ntext, pos, "its range has no event", "none")


def itree(trees):
    """The kernel's interval notifier (5.5, 99cb252f5e68): none before;
    one-pass (ops->invalidate); two-pass (7.x: invalidate_start, then
    invalidate_finish once every start is done)."""
    path, text = read_text(trees, "include/linux/mmu_notifier.h")
    if text is None:
        return None, None, "no include/linux/mmu_notifier.h"
    m = re.search(r"struct\s+mmu_interval_notifier_ops\s*\{(.*?)\n\};",
                  text, re.S)
    if not m:
        return found(path, text, 0, "no struct mmu_interval_notifier_ops",
                     "none")
    two = re.search(r"\(\s*\*\s*invalidate_start\s*\)", m.group(1))
    if two:
        return found(path, text, m.start(1) + two.start(),
                     "mmu_interval_notifier_ops has invalidate_start",
                     "two-pass")
    return found(path, text, m.start(),
                 "mmu_interval_notifier_ops has invalidate only", "one-pass")


def itree_unwind(trees, itree_value):
    """When a non-blocking start fails, does the kernel end the interval
    invalidation it began? 5.5 on: an interval subscription's own failure
    ends it (mn_itree_invalidate()), but a later hlist start's failure
    leaves it open, the interval tree's sequence odd until the next
    invalidation ends (self; 7.3.4, 6.1.192, 6.12.117). Debian's 6.12.118
    ends it there too (full). none: no interval notifier."""
    if itree_value in (None, "none"):
        value = None if itree_value is None else "none"
        return value, None, "no interval notifier"
    path, text = read_text(trees, "mm/mmu_notifier.c")
    if text is None:
        return None, None, "no mm/mmu_notifier.c"
    at, body = function(text, "__mmu_notifier_invalidate_range_start")
    if body is None:
        return None, None, "no __mmu_notifier_invalidate_range_start()"
    m = re.search(r"\bmn_itree_inv_end\s*\(", body)
    if m:
        return found(path, text, at + m.start(), "a failed hlist start "
                     "ends the interval invalidation too", "full")
    return found(path, text, at, "a failed hlist start returns with the "
                 "interval invalidation still open", "self")


def tlb_hook(trees):
    """Who calls the secondary-TLB hook: the mm core, with the range it
    changed (3.19, 0f0a327fa12c: invalidate_range; core); x86's TLB flush
    (6.6, 1af5a8109904: arch_invalidate_secondary_tlbs), which hands it
    [0, TLB_FLUSH_ALL) for a flush of more than tlb_single_page_flush_ceiling
    (33) pages (arch-widened, 6.6-6.12), or the range flushed (arch, 7.x)."""
    path, text = read_text(trees, "include/linux/mmu_notifier.h")
    if text is None:
        return None, None, "no include/linux/mmu_notifier.h"
    old = re.search(r"\(\s*\*\s*invalidate_range\s*\)\s*\(", text)
    new = re.search(r"\(\s*\*\s*arch_invalidate_secondary_tlbs\s*\)", text)
    if old:
        # Beside the 6.6 field too (openEuler 5.10, Phytium 4.19): the
        # core still calls invalidate_range on x86.
        return found(path, text, old.start(), "ops->invalidate_range, "
                     "called by the mm core", "core")
    if not new:
        return found(path, text, 0, "no secondary-TLB hook", "none")
    xpath, xtext = read_text(trees, "arch/x86/mm/tlb.c")
    if xtext is None:
        return None, None, "no arch/x86/mm/tlb.c"
    at, body = function(xtext, "flush_tlb_mm_range")
    call = body and re.search(
        r"mmu_notifier_arch_invalidate_secondary_tlbs\s*\(", body)
    if not call:
        return None, None, ("flush_tlb_mm_range() does not call "
                            "mmu_notifier_arch_invalidate_secondary_tlbs()")
    widen = re.search(r"\bend\s*=\s*TLB_FLUSH_ALL\s*;", body)
    if widen and widen.start() < call.start():
        return found(xpath, xtext, at + widen.start(), "flush_tlb_mm_range()"
                     " widens its own start/end, then hands them to the hook",
                     "arch-widened")
    return found(xpath, xtext, at + call.start(), "flush_tlb_mm_range() "
                 "hands the hook the range it was asked to flush", "arch")


def read(trees):
    """{name: (value or None, where, what)} for every behaviour."""
    out = {}
    out["failed-start"] = failed_start(trees)
    out["oom-reaper"], out["oom-reap-event"] = oom_reaper(trees)
    out["itree"] = itree(trees)
    out["itree-unwind"] = itree_unwind(trees, out["itree"][0])
    out["tlb-hook"] = tlb_hook(trees)
    return out


def known_words(reading):
    """The NAME=VALUE words of a reading, unknown ones left out."""
    return [f"{n}={v}" for n, (v, _w, _x) in reading.items() if v]


def main(argv):
    only_words = argv[:1] == ["--words"]
    trees = argv[1:] if only_words else argv
    if not trees:
        sys.exit(__doc__.split("\n\n")[0])
    reading = read(trees)
    if only_words:
        print(" ".join(known_words(reading)))
        return 0
    for name, (value, where, what) in reading.items():
        print(f"{name}={value or UNKNOWN}\t{where or '-'}\t{what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
