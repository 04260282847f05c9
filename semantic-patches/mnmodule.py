#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Whole-module facts for the semantic patches (convert.sh).

A notifier callback is judged by what it reaches, and a driver module is
more than the file that holds its ops table: a helper in another file
may take a mutex, the fault path that waits for range_start's counter
may be in a third.  This reads every .c/.h of the module and answers,
per callback:

  - may it sleep?  Calls are followed through every function and
    function-like macro of the module; a known sleeping kernel call
    (mutex_lock, down_read, a GFP_KERNEL allocation, ...) decides "yes"
    with the place that sleeps; a call that is neither the module's nor a
    known non-sleeping kernel helper (a function of another module, a
    call through a function pointer) makes it "unknown", naming the call.
  - for a table that had invalidate_page next to range callbacks: do the
    range callbacks still drop, after the page-table change, what
    invalidate_page dropped?  Yes when range_end does the same work, or
    when range_start does it and blocks re-faults until range_end (a
    field both raise and lower that a function outside the callbacks
    reads, or a lock range_start leaves held for range_end that such a
    function takes).  "move" when neither, "undecided" when what the
    callbacks reach cannot be seen.
  - LINUX_VERSION_CODE guards around notifier code that disagree with
    the version compat's probes name (compat/probes/*.c "Upstream:").

What it cannot see: calls through function pointers it does not follow
(callbacks passed as an argument are followed), functions of other
modules or of the kernel beyond the lists below, code in #if branches
that do not balance their braces (only the first branch is read then).

Usage:
  mnmodule.py facts --base DIR [--work DIR] --out FILE.json [--list FILE] REL...
      the facts convert.sh gives the semantic patches: RELs are the
      files to convert (relative to --base; read from --work when there,
      which holds their current contents); every other file of their
      modules is read from --base.  --list: a file with more RELs, one
      a line.
  mnmodule.py guards [--base DIR] FILE...
      the LINUX_VERSION_CODE guards around notifier code whose version
      is none of those compat's probes name, as FILE:LINE: [guard] notes.
  mnmodule.py explain FILE...
      print what the analysis sees (functions, sleep verdicts, tables).

From a .cocci script: facts_for(path) gives the facts of the module of
a file spatch is working on, computed when first asked for (convert.sh
says where the module is: MNCOMPAT_MODULE_BASE, MNCOMPAT_MODULE_WORK and
the step map MNCOMPAT_STEP_MAP; without them, the file on its own).
"""
import json
import os
import re
import sys

# ---------------------------------------------------------------------
# What kernel calls do.
# ---------------------------------------------------------------------

# Calls that may sleep, and how to say it.
SLEEP_WHY = {}
for _names, _why in (
        ('mutex_lock mutex_lock_interruptible mutex_lock_killable '
         'mutex_lock_nested mutex_lock_io', 'takes a mutex'),
        ('down down_interruptible down_killable down_timeout',
         'takes a semaphore'),
        ('down_read down_write down_read_killable down_write_killable '
         'down_read_nested down_write_nested mmap_read_lock mmap_write_lock '
         'mmap_read_lock_killable mmap_write_lock_killable',
         'takes a rw semaphore'),
        ('msleep msleep_interruptible usleep_range ssleep fsleep schedule '
         'schedule_timeout schedule_timeout_interruptible '
         'schedule_timeout_uninterruptible schedule_timeout_killable '
         'io_schedule', 'sleeps'),
        ('cond_resched cond_resched_lock might_sleep might_resched',
         'may reschedule'),
        ('wait_for_completion wait_for_completion_timeout '
         'wait_for_completion_interruptible wait_for_completion_killable '
         'wait_for_completion_io wait_event wait_event_interruptible '
         'wait_event_timeout wait_event_killable '
         'wait_event_interruptible_timeout wait_event_idle '
         'wait_on_bit wait_on_page_locked wait_on_page_writeback '
         'folio_wait_locked', 'waits'),
        ('synchronize_rcu synchronize_srcu synchronize_sched '
         'synchronize_rcu_expedited rcu_barrier srcu_barrier '
         'mmu_notifier_synchronize', 'waits for a grace period'),
        ('flush_work flush_workqueue flush_delayed_work cancel_work_sync '
         'cancel_delayed_work_sync destroy_workqueue drain_workqueue',
         'waits for work'),
        ('vmalloc vzalloc vfree vmap vunmap kvfree kvmalloc kvzalloc',
         'vmalloc/vfree may sleep'),
        ('lock_page folio_lock set_page_dirty_lock',
         'locks a page'),
        ('copy_from_user copy_to_user get_user put_user clear_user '
         'strncpy_from_user', 'touches user memory (may fault)'),
        ('get_user_pages get_user_pages_fast get_user_pages_remote '
         'get_user_pages_unlocked pin_user_pages pin_user_pages_fast '
         'pin_user_pages_remote unpin_user_pages',
         'pins user pages (may fault)'),
        ('kmap', 'kmap() may sleep'),
        ('mmu_notifier_register mmu_notifier_unregister '
         'mmu_notifier_get mmu_notifier_put', 'registers a notifier'),
        ('request_firmware filp_open vfs_read vfs_write kernel_read '
         'kernel_write', 'does I/O'),
):
    for _n in _names.split():
        SLEEP_WHY[_n] = _why

# Allocators: they sleep or not by their gfp argument.
ALLOCATORS = set('''kmalloc kzalloc kcalloc kmalloc_array krealloc
kmem_cache_alloc kmem_cache_zalloc alloc_page alloc_pages __get_free_page
__get_free_pages get_zeroed_page kstrdup kmemdup radix_tree_preload
xa_store xa_insert xa_alloc idr_alloc kmalloc_node kzalloc_node
alloc_pages_node dma_alloc_coherent'''.split())
SLEEPING_GFP = re.compile(
    r'\b(GFP_KERNEL|GFP_KERNEL_ACCOUNT|GFP_USER|GFP_HIGHUSER|'
    r'GFP_HIGHUSER_MOVABLE|GFP_NOFS|GFP_NOIO|__GFP_DIRECT_RECLAIM|'
    r'__GFP_RECLAIM)\b')
ATOMIC_GFP = re.compile(r'\b(GFP_ATOMIC|GFP_NOWAIT|GFP_NOWARN|__GFP_HIGH)\b')

# Kernel helpers known not to sleep (prefixes end with '*').
ATOMIC_CALLS = '''
spin_lock* spin_unlock* spin_trylock* raw_spin_* read_lock* read_unlock*
write_lock* write_unlock* read_trylock write_trylock local_irq_*
local_bh_* preempt_* rcu_read_lock* rcu_read_unlock* srcu_read_lock*
srcu_read_unlock* rcu_dereference* rcu_assign_pointer rcu_access_pointer
call_rcu kfree_rcu seqcount_* write_seqcount_* read_seqcount_*
raw_write_seqcount_* raw_read_seqcount_* write_seqlock* write_sequnlock*
read_seqbegin* read_seqretry* atomic_* atomic64_* atomic_long_*
refcount_* kref_get kref_init kref_read set_bit clear_bit change_bit
test_bit test_and_set_bit test_and_clear_bit test_and_change_bit __set_bit
__clear_bit __test_and_set_bit __test_and_clear_bit find_first_bit
find_next_bit find_first_zero_bit find_next_zero_bit bitmap_* list_*
hlist_* rb_* interval_tree_* radix_tree_lookup* radix_tree_delete*
radix_tree_tag_* radix_tree_gang_lookup* radix_tree_iter_* radix_tree_next*
radix_tree_for_each* radix_tree_deref_* xa_load xa_erase xa_for_each*
xa_find* xa_lock* xa_unlock* __xa_erase idr_find idr_remove idr_for_each*
memset memcpy memmove memcmp strlen strcmp strncmp strcpy strncpy strscpy
snprintf sprintf scnprintf sscanf kstrtoul kstrtol kstrtoint min max
min_t max_t clamp clamp_t swap abs round_up round_down roundup rounddown
put_page get_page page_address pfn_to_page page_to_pfn virt_to_page
page_to_virt virt_to_phys phys_to_virt __pa __va page_to_phys
compound_head compound_order compound_nr thp_nr_pages page_count
page_mapcount set_page_dirty SetPageDirty ClearPageDirty PageHuge
PageTransHuge PageAnon PageCompound PageDirty PageReserved get_page_unless_zero
folio_* page_folio pte_* pmd_* pud_* p4d_* pgd_* set_pte* ptep_* pmdp_*
flush_tlb_* flush_cache_* __flush_tlb* flush_dcache_page kfree kzfree
kfree_sensitive kmem_cache_free free_page free_pages __free_page
__free_pages wake_up* complete complete_all try_wait_for_completion
printk pr_* dev_dbg dev_info dev_notice dev_warn dev_err dev_crit dev_alert
dev_emerg dev_printk dev_name dev_get_drvdata netdev_dbg netdev_info netdev_warn
netdev_err trace_* dump_stack WARN* BUG* lockdep_* might_lock container_of
likely unlikely READ_ONCE WRITE_ONCE smp_*
barrier mb rmb wmb cpu_relax ndelay udelay mdelay jiffies time_after
time_before time_after_eq time_before_eq ktime_* get_cycles in_atomic
in_interrupt irqs_disabled offset_in_page PAGE_ALIGN ALIGN IS_ALIGNED
IS_ERR IS_ERR_OR_NULL PTR_ERR ERR_PTR ERR_CAST PTR_ALIGN BIT GENMASK
ARRAY_SIZE sizeof_field offsetof queue_work queue_delayed_work
schedule_work schedule_delayed_work mod_timer del_timer add_timer
del_timer_sync timer_setup hrtimer_* tasklet_* kmap_atomic kunmap_atomic
kmap_local_page kunmap_local mncompat_kmap_local_page mncompat_kunmap_local
kunmap find_vma find_vma_intersection vma_lookup vma_pages dma_map_page
dma_unmap_page dma_map_single dma_unmap_single dma_sync_* dma_mapping_error
iommu_iotlb_* on_each_cpu* smp_call_function* get_cpu put_cpu
smp_processor_id raw_smp_processor_id this_cpu_* per_cpu* __this_cpu_*
cpumask_* num_online_cpus mmu_notifier_range_blockable
mncompat_range_blockable mmu_notifier_range_init* mmgrab mmdrop
mmget_not_zero current_is_kswapd kill_fasync send_sig get_task_struct
put_task_struct task_pid_nr task_tgid_nr pid_nr init_waitqueue_head
spin_lock_init mutex_is_locked rwsem_is_locked down_read_trylock
down_write_trylock up_read up_write up mutex_unlock mutex_trylock
__builtin_* __must_check __always_inline static_branch_* static_key_*
rcu_read_lock_held srcu_read_lock_held mmu_notifier_invalidate_range
mmu_notifier_arch_invalidate_secondary_tlbs set_pte_at_notify
mmu_notifier_change_pte pgprot_* vm_normal_page follow_pfn is_zero_pfn
for_each_* list_for_each* hlist_for_each* ioread* iowrite* readl* writel*
readq* writeq* readb writeb readw writew
__raw_* memset_io memcpy_toio memcpy_fromio mmiowb
clflush clflushopt clflush_cache_range prefetch prefetchw panic
numa_node_id numa_mem_id cpu_to_node local_flush_tlb* nop
'''.split()
ATOMIC_EXACT = set(n for n in ATOMIC_CALLS if not n.endswith('*'))
ATOMIC_PREFIX = tuple(n[:-1] for n in ATOMIC_CALLS if n.endswith('*'))

# No device work: locks, counters' own helpers, debugging, barriers.
BOOKKEEPING = '''
spin_lock* spin_unlock* spin_trylock* raw_spin_* read_lock* read_unlock*
write_lock* write_unlock* local_irq_* local_bh_* preempt_* rcu_read_lock*
rcu_read_unlock* srcu_read_lock* srcu_read_unlock* rcu_dereference*
mutex_lock* mutex_unlock mutex_trylock down down_* up up_read up_write
mmap_read_lock* mmap_read_unlock mmap_write_lock* mmap_write_unlock
printk pr_* dev_dbg dev_info dev_warn dev_err dev_notice netdev_dbg trace_*
dump_stack WARN* BUG* VM_BUG_ON* VM_WARN* BUILD_BUG_ON* lockdep_*
might_sleep might_resched might_lock
container_of likely unlikely READ_ONCE smp_mb smp_rmb smp_wmb
smp_mb__before_atomic smp_mb__after_atomic smp_load_acquire barrier mb
rmb wmb cpu_relax cond_resched wake_up* complete complete_all
atomic_read atomic64_read atomic_long_read test_bit in_atomic
__va __pa virt_to_phys phys_to_virt pfn_to_page page_to_pfn page_address
virt_to_page page_to_virt page_to_phys compound_head compound_order
compound_nr thp_nr_pages page_count page_mapcount PageHuge PageTransHuge
PageAnon PageCompound PageDirty PageReserved memcmp strlen strcmp
strncmp jiffies time_after time_before ktime_get get_cycles for_each_*
list_for_each* hlist_for_each* list_empty list_first_entry* list_entry
list_next_entry hlist_entry* rb_entry rb_first rb_next rb_last rb_prev
interval_tree_iter_* radix_tree_lookup* xa_load idr_find find_vma
find_vma_intersection vma_lookup current_is_kswapd
irqs_disabled mmu_notifier_range_blockable mncompat_range_blockable
min max min_t max_t clamp offset_in_page PAGE_ALIGN ALIGN IS_ALIGNED
IS_ERR PTR_ERR ERR_PTR ARRAY_SIZE get_cpu put_cpu smp_processor_id
'''.split()
BOOK_EXACT = set(n for n in BOOKKEEPING if not n.endswith('*'))
BOOK_PREFIX = tuple(n[:-1] for n in BOOKKEEPING if n.endswith('*'))

# Calls that write the field their first argument points to.
FIELD_WRITERS = re.compile(
    r'^(atomic(64|_long)?_(inc|dec|add|sub|set|xchg|cmpxchg|or|and|andnot|'
    r'fetch_\w+|\w+_return|\w+_and_test)\w*|refcount_(inc|dec|add|sub|set)\w*|'
    r'(__)?(set|clear|change)_bit|test_and_(set|clear|change)_bit|'
    r'WRITE_ONCE|smp_store_release|xchg|cmpxchg|'
    r'(raw_)?write_seqcount_(begin|end)|write_seqlock\w*|write_sequnlock\w*|'
    r'kref_(get|put)\w*)$')
FIELD_READERS = re.compile(
    r'^(atomic(64|_long)?_read|READ_ONCE|smp_load_acquire|test_bit|'
    r'(raw_)?read_seqcount_(begin|retry)|read_seqbegin|read_seqretry|'
    r'refcount_read|kref_read|wait_event\w*|wait_var_event\w*)$')
# Lock calls: name -> (+1 take / -1 release)
LOCK_OPS = {}
for _n in ('mutex_lock mutex_lock_interruptible mutex_lock_killable '
           'mutex_lock_nested down down_interruptible down_killable '
           'down_read down_write down_read_killable down_write_killable '
           'spin_lock spin_lock_irq spin_lock_irqsave spin_lock_bh '
           'read_lock write_lock raw_spin_lock raw_spin_lock_irqsave '
           'mmap_read_lock mmap_write_lock').split():
    LOCK_OPS[_n] = 1
for _n in ('mutex_unlock up up_read up_write spin_unlock spin_unlock_irq '
           'spin_unlock_irqrestore spin_unlock_bh read_unlock write_unlock '
           'raw_spin_unlock raw_spin_unlock_irqrestore mmap_read_unlock '
           'mmap_write_unlock').split():
    LOCK_OPS[_n] = -1

KEYWORDS = set('''if while for switch return sizeof typeof __typeof__
__typeof do else case default goto break continue asm __asm__ volatile
__volatile__ _Alignof alignof __alignof__ _Static_assert static_assert
__attribute__ __extension__ defined _Generic __builtin_choose_expr
__builtin_types_compatible_p __builtin_offsetof'''.split())
ATTRIBUTE_MACROS = set('''__acquires __releases __must_hold __printf
__attribute__ __section __aligned __malloc __no_sanitize_address __cold
__init __exit __maybe_unused __always_unused notrace __visible'''.split())
RANGE_FIELDS = ('invalidate_range_start', 'invalidate_range_end')
# Test knob: the analysis as the tool had it before the module view: each
# file on its own, and a call it cannot follow taken as one that never
# sleeps. Only to build the naive conversions the shape suites must see
# fail (drivers-sample/shapes); never for a real conversion.
ONE_FILE = bool(os.environ.get('MNCOMPAT_TEST_ONE_FILE'))
# Calls by which a device driver maps user pages (back) in: a module that
# makes none cannot re-fault a page between range_start and range_end.
FAULT_IN = re.compile(
    r'^(__)?(get_user_pages\w*|pin_user_pages\w*|get_user_page_vma_remote|'
    r'follow_page\w*|hmm_range_fault|hmm_vma_fault|handle_mm_fault|'
    r'fixup_user_fault|follow_pfn|follow_pte\w*|gfn_to_pfn\w*|hva_to_pfn\w*|'
    r'ib_umem_odp_map_dma\w*|get_page_from_user\w*)$')


def atomic_call(name):
    return name in ATOMIC_EXACT or name.startswith(ATOMIC_PREFIX)


def bookkeeping(name):
    return name in BOOK_EXACT or name.startswith(BOOK_PREFIX)


def twin_names(name):
    """Names of the range form of a per-page kernel or driver call
    (kvm_unmap_hva -> kvm_unmap_hva_range, x_page -> x_range)."""
    out = {name + '_range', name + 's'}
    if 'page' in name:
        out.add(name.replace('page', 'range'))
        out.add(name.replace('page', 'pages'))
    return out


# ---------------------------------------------------------------------
# Reading C: tokens, preprocessor directives, #if branches.
# ---------------------------------------------------------------------

LEX = re.compile(r'''
    (?P<nl>\n)
  | (?P<ws>[ \t\r\f\v]+|\\\r?\n)
  | (?P<com>/\*.*?\*/|//[^\n]*)
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<op>->|\+\+|--|<<=|>>=|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|
        \|=|\^=|<<|>>|\.\.\.|\#\#|[{}()\[\];,.=<>+\-*/%&|^!~?:\#])
  | (?P<other>.)
''', re.S | re.X)


# Calls that take a page reference a caller may drop again at once (a
# pin for one copy), and those that drop it.
PINS = re.compile(r'^(__)?(get_user_pages\w*|pin_user_pages\w*|'
                  r'get_user_page_vma_remote)$')
UNPINS = set('put_page unpin_user_page unpin_user_pages '
             'unpin_user_pages_dirty_lock unpin_user_page_range_dirty_lock '
             'release_pages put_user_page put_user_pages '
             'put_user_pages_dirty_lock folio_put'.split())
# vm_operations_struct fields through which the CPU's faults map pages
# (into the device, for a driver's mapping).
VM_FAULT_FIELDS = ('fault', 'huge_fault', 'page_mkwrite', 'pfn_mkwrite',
                   'map_pages')


class Tok:
    __slots__ = ('t', 'line', 'kind')

    def __init__(self, t, line, kind):
        self.t = t
        self.line = line
        self.kind = kind

    def __repr__(self):
        return '%s@%d' % (self.t, self.line)


def lex(text):
    """Tokens of text and its preprocessor directives, each directive a
    (line, [tokens]) with its continuation lines joined."""
    toks, directives = [], []
    line = 1
    bol = True          # at the start of a line (only blanks so far)
    cur = None          # tokens of the directive being read
    for m in LEX.finditer(text):
        k = m.lastgroup
        s = m.group()
        if k == 'nl':
            if cur is not None:
                directives.append(cur)
                cur = None
            line += 1
            bol = True
            continue
        if k in ('ws', 'com'):
            line += s.count('\n')
            continue
        if k == 'op' and s == '#' and bol:
            cur = (line, [])
            bol = False
            continue
        bol = False
        tok = Tok(s, line, k)
        if cur is not None:
            cur[1].append(tok)
        else:
            toks.append(tok)
    if cur is not None:
        directives.append(cur)
    return toks, directives


def drop_unbalanced_branches(toks, directives):
    """Tokens of every #if branch, except where a branch of a chain does
    not balance its braces: then only its first branch (a function whose
    header is split by #if/#else would otherwise open twice, whether or
    not every branch opens it)."""
    events = []
    for line, d in directives:
        if not d:
            continue
        w = d[0].t
        if w in ('if', 'ifdef', 'ifndef', 'elif', 'else', 'endif'):
            events.append((line, w))
    if not events:
        return toks
    # chains: list of [branch start lines..., endif line]
    stack, chains = [], []
    for line, w in events:
        if w in ('if', 'ifdef', 'ifndef'):
            stack.append([line])
        elif w in ('elif', 'else') and stack:
            stack[-1].append(line)
        elif w == 'endif' and stack:
            c = stack.pop()
            c.append(line)
            chains.append(c)
    drop = []
    for c in chains:
        if len(c) < 3:
            continue
        bal = []
        for a, b in zip(c, c[1:]):
            n = 0
            for t in toks:
                if a < t.line < b:
                    if t.t == '{':
                        n += 1
                    elif t.t == '}':
                        n -= 1
            bal.append(n)
        # Alternatives that open or close a block (each branch its own
        # function header, say) are read as the first one alone.
        if any(x != 0 for x in bal):
            drop.append((c[1], c[-1]))
    if not drop:
        return toks
    return [t for t in toks if not any(a < t.line < b for a, b in drop)]


# ---------------------------------------------------------------------
# Functions, macros, tables.
# ---------------------------------------------------------------------

class Func:
    """A function definition (or a function-like macro) and what its body
    does."""

    def __init__(self, name, path, line, static, params, macro=False):
        self.name = name
        self.path = path
        self.line = line
        self.static = static
        self.params = params
        self.macro = macro
        self.calls = []         # (name, line, argument tokens)
        self.indirect = []      # (text, line)
        self.passed = []        # (name, line): identifiers given as args
        self.writes = {}        # field -> first line
        self.reads = {}         # field -> first line
        self.locks = {}         # lock field -> net takes
        self.lock_lines = {}    # lock field -> line of the first take
        self.stores = 0         # writes through a pointer or an index
        self.returns = 0
        self.used = set()       # identifiers of the body
        self.gfp_sleep = None   # (call, line)
        self.eagain = None      # line of a "return -EAGAIN"
        self.gfp_unknown = None
        self.range_form = None  # read_body(): its address as a range

    def where(self):
        return '%s:%d' % (self.path, self.line)


def last_member(toks):
    """The field an argument like &x->y.z or x->f names, or None."""
    for i in range(len(toks) - 1, 0, -1):
        if toks[i].kind == 'id' and toks[i - 1].t in ('->', '.'):
            return toks[i].t
    return None


def split_args(toks, i):
    """toks[i] is '(': the argument token lists and the index after ')'."""
    depth, args, cur = 0, [], []
    j = i
    while j < len(toks):
        t = toks[j].t
        if t in '([{':
            depth += 1
            if depth > 1:
                cur.append(toks[j])
        elif t in ')]}':
            depth -= 1
            if depth == 0:
                if cur or args:
                    args.append(cur)
                return args, j + 1
            cur.append(toks[j])
        elif t == ',' and depth == 1:
            args.append(cur)
            cur = []
        else:
            cur.append(toks[j])
        j += 1
    return args, j


def split_text_args(text):
    """The pieces of text (an argument or parameter list without its
    parentheses, as spatch prints it) between its commas outside
    brackets, each stripped of blanks, their text kept as it is; an
    empty last piece is left out.  Read with the lexer: a comma or a
    bracket in a string, a character constant or a comment splits
    nothing."""
    out, depth, start = [], 0, 0
    for m in LEX.finditer(text):
        t = m.group()
        if m.lastgroup != 'op':
            continue
        if t in ('(', '[', '{'):
            depth += 1
        elif t in (')', ']', '}'):
            depth -= 1
        elif t == ',' and depth == 0:
            out.append(text[start:m.start()].strip())
            start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def opening(toks, j):
    """toks[j] is a ')': the index of its '(' (-1 when there is none)."""
    depth = 0
    k = j
    while k >= 0:
        if toks[k].t == ')':
            depth += 1
        elif toks[k].t == '(':
            depth -= 1
            if depth == 0:
                break
        k -= 1
    return k


def called_group(toks, j):
    """toks[j] is the ')' of a group right before '(': is the group an
    expression called as a function ((*fp)(x), (s->cb)(x)), not a cast
    ((unsigned long)(x))?"""
    k = opening(toks, j)
    inner = toks[k + 1:j]
    if not inner:
        return False
    if inner[0].t == '*':
        return True
    return any(x.t in ('->', '.', '[', '(') for x in inner)


ASSIGN_OPS = set('= += -= *= /= %= &= |= ^= <<= >>='.split())


def read_body(f, toks, gfp_macros):
    """Fill f from the tokens of its body."""
    n = len(toks)
    # range_form: the third parameter (a page callback's address), its
    # uses, and those that are range pairs.
    addr = f.params[2] if len(f.params) >= 3 and not f.macro else None
    addr_uses, pairs, paired = [], [], set()
    for i, tok in enumerate(toks):
        t = tok.t
        if tok.kind == 'id':
            f.used.add(t)
            if t == addr:
                addr_uses.append(id(tok))
        if t == 'return':
            f.returns += 1
            if i + 2 < n and toks[i + 1].t == '-' and toks[i + 2].t == 'EAGAIN':
                f.eagain = tok.line
        nxt = toks[i + 1].t if i + 1 < n else ''
        prv = toks[i - 1].t if i > 0 else ''
        if tok.kind == 'id' and nxt == '(' and t not in KEYWORDS:
            args, _ = split_args(toks, i + 1)
            if addr:
                pairs += range_pairs(addr, tok, args, paired)
            if prv in ('.', '->'):
                f.indirect.append(('->' + t + '()', tok.line))
                continue
            f.calls.append((t, tok.line, args))
            for a in args:
                for k, at in enumerate(a):
                    if at.kind == 'id' and (k + 1 >= len(a) or
                                            a[k + 1].t != '('):
                        f.passed.append((at.t, at.line))
            if t in ALLOCATORS or t.startswith('alloc_'):
                text = ' '.join(x.t for a in args for x in a)
                words = set(re.findall(r'\w+', text))
                for w in list(words):
                    words |= gfp_macros.get(w, set())
                text = ' '.join(sorted(words))
                if SLEEPING_GFP.search(text) and not ATOMIC_GFP.search(text):
                    f.gfp_sleep = f.gfp_sleep or (t, tok.line)
                elif not ATOMIC_GFP.search(text) and not SLEEPING_GFP.search(text):
                    f.gfp_unknown = f.gfp_unknown or (t, tok.line)
            if FIELD_WRITERS.match(t) and args:
                m = last_member(args[0])
                if m:
                    f.writes.setdefault(m, tok.line)
            elif FIELD_READERS.match(t) and args:
                for a in args:
                    m = last_member(a)
                    if m:
                        f.reads.setdefault(m, tok.line)
            if t in LOCK_OPS and args:
                m = last_member(args[0]) or ' '.join(x.t for x in args[0])
                f.locks[m] = f.locks.get(m, 0) + LOCK_OPS[t]
                if LOCK_OPS[t] > 0:
                    f.lock_lines.setdefault(m, tok.line)
            continue
        if t == '(' and prv == ')' and called_group(toks, i - 1):
            f.indirect.append(('a call through a function pointer',
                               tok.line))
            continue
        if tok.kind == 'id' and prv in ('->', '.'):
            # x->f op= ..., x->f++, ++x->f
            write = nxt in ASSIGN_OPS or nxt in ('++', '--')
            if not write:
                j = i - 1
                while j >= 1 and toks[j].t in ('->', '.') and \
                        toks[j - 1].kind == 'id':
                    j -= 2
                if j >= 0 and toks[j].t in ('++', '--'):
                    write = True
            if write:
                f.writes.setdefault(t, tok.line)
            else:
                f.reads.setdefault(t, tok.line)
            continue
        if t == '*' and prv in (';', '{', '}', ')') and i + 2 < n and \
                toks[i + 1].kind == 'id' and toks[i + 2].t in ASSIGN_OPS:
            f.stores += 1
        elif t == ']' and nxt in ASSIGN_OPS:
            f.stores += 1
    # How a page callback uses its address when only as a range: one
    # (line, callee, 'end' or 'len') per argument pair; none when it uses
    # it any other way, not at all, or the body already names start or
    # end (the names the rewrite gives the range).
    if pairs and all(u in paired for u in addr_uses) and \
            'start' not in f.used and 'end' not in f.used:
        f.range_form = pairs


def range_pairs(addr, call, args, paired):
    """The range pairs among the arguments args of call: (line, callee,
    'end') for (addr, addr + PAGE_SIZE), (line, callee, 'len') for (addr,
    PAGE_SIZE); the addr tokens they hold go into paired (ids)."""
    out = []
    for k in range(len(args) - 1):
        if [x.t for x in args[k]] != [addr]:
            continue
        second = [x.t for x in args[k + 1]]
        if second == [addr, '+', 'PAGE_SIZE']:
            out.append((call.line, call.t, 'end'))
            paired.update([id(args[k][0]), id(args[k + 1][0])])
        elif second == ['PAGE_SIZE']:
            out.append((call.line, call.t, 'len'))
            paired.add(id(args[k][0]))
    return out


def params_of(toks):
    """Parameter names of a parameter list (the tokens inside the
    parentheses)."""
    names, cur, depth = [], [], 0
    for t in toks + [Tok(',', 0, 'op')]:
        if t.t in '([':
            depth += 1
        elif t.t in ')]':
            depth -= 1
        if t.t == ',' and depth == 0:
            ids = [x.t for x in cur if x.kind == 'id' and x.t not in
                   ('const', 'volatile', 'struct', 'union', 'enum',
                    'unsigned', 'signed', '__user', '__iomem', '__rcu')]
            if ids and not (len(cur) == 1 and cur[0].t == 'void'):
                names.append(ids[-1])
            cur = []
        else:
            cur.append(t)
    return names


class Table:
    def __init__(self, name, path, line, fields, static, macro=False):
        self.name = name
        self.path = path
        self.line = line
        self.fields = fields    # field -> (value, line)
        self.static = static
        self.macro = macro


COMPAT_ARGS = ('release', 'invalidate_range_start', 'invalidate_range_end',
               'arch_invalidate_secondary_tlbs')


class Source:
    """One file of a module."""

    def __init__(self, path, text):
        self.path = path
        self.text = text
        self.funcs = []
        self.macros = {}        # name -> Func (function-like)
        self.objmacros = {}     # name -> identifiers of the body
        self.tables = []
        self.vm_faults = []     # (name, line): vm_operations_struct fault handlers
        self.includes = []      # quoted includes
        self.guards = []        # (line, text) of LINUX_VERSION_CODE #ifs
        self.cpp = []           # (line, word, text)
        self.parse()

    def parse(self):
        toks, directives = lex(self.text)
        for line, d in directives:
            if not d:
                continue
            w = d[0].t
            self.cpp.append((line, w, ' '.join(x.t for x in d[1:])))
            if w == 'include' and len(d) > 1 and d[1].kind == 'str' and \
                    d[1].t.startswith('"'):
                self.includes.append(d[1].t.strip('"'))
            elif w == 'define' and len(d) > 1 and d[1].kind == 'id':
                self.define(line, d[1:])
        toks = drop_unbalanced_branches(toks, directives)
        gfp = {k: v for k, v in self.objmacros.items()}
        for m in self.macros.values():
            read_body(m, m.body, gfp)
        self.toplevel(toks, gfp)

    def define(self, line, d):
        name = d[0].t
        # function-like: '(' right after the name (same column run)
        if len(d) > 1 and d[1].t == '(' and d[1].line == d[0].line:
            j = 2
            while j < len(d) and d[j].t != ')':
                j += 1
            params = [x.t for x in d[2:j] if x.kind == 'id']
            m = Func(name, self.path, line, True, params, macro=True)
            m.body = d[j + 1:]
            self.macros[name] = m
        else:
            self.objmacros[name] = set(x.t for x in d[1:] if x.kind == 'id')

    def toplevel(self, toks, gfp):
        n = len(toks)
        i = 0
        head = 0                # first token of the current declaration
        while i < n:
            t = toks[i].t
            if t == ';':
                self.statement(toks[head:i])
                head = i + 1
            elif t == '{':
                end = self.block_end(toks, i)
                hd = toks[head:i]
                if any(x.t == '=' for x in hd):
                    self.initializer(hd, toks[i:end + 1])
                    # up to the ';' after the initializer
                    i = end + 1
                    continue
                fn = self.function_head(hd)
                if fn:
                    read_body(fn, toks[i + 1:end], gfp)
                    self.funcs.append(fn)
                    i = end + 1
                    head = i
                    continue
                i = end + 1
                continue
            elif t == '}':
                # a stray closing brace (a macro that opens one)
                head = i + 1
            i += 1

    @staticmethod
    def block_end(toks, i):
        depth = 0
        for j in range(i, len(toks)):
            if toks[j].t == '{':
                depth += 1
            elif toks[j].t == '}':
                depth -= 1
                if depth == 0:
                    return j
        return len(toks) - 1

    def function_head(self, hd):
        """A Func when hd ends like a function definition's header."""
        j = len(hd) - 1
        while j >= 0:
            if hd[j].t != ')':
                return None
            k = opening(hd, j)
            if k < 1 or hd[k - 1].kind != 'id':
                return None
            name = hd[k - 1].t
            if name in ATTRIBUTE_MACROS or name.startswith('__attribute'):
                j = k - 2
                continue
            if name in KEYWORDS:
                return None
            static = any(x.t == 'static' for x in hd[:k - 1])
            return Func(name, self.path, hd[k - 1].line, static,
                        params_of(hd[k + 1:j]))
        return None

    def initializer(self, hd, block):
        words = [x.t for x in hd]
        if 'vm_operations_struct' in words:
            for k in range(len(block) - 3):
                if block[k].t == '.' and block[k + 1].t in VM_FAULT_FIELDS \
                        and block[k + 2].t == '=' and \
                        block[k + 3].kind == 'id' and \
                        block[k + 3].t not in ('NULL',):
                    self.vm_faults.append((block[k + 3].t, block[k + 3].line))
            return
        if 'mmu_notifier_ops' not in words:
            return
        eq = words.index('=')
        name = None
        for x in reversed(hd[:eq]):
            if x.kind == 'id':
                name = x.t
                break
        fields = {}
        k = 0
        while k < len(block):
            if block[k].t == '.' and k + 2 < len(block) and \
                    block[k + 1].kind == 'id' and block[k + 2].t == '=':
                vals = []
                m = k + 3
                depth = 0
                while m < len(block):
                    if block[m].t in '([':
                        depth += 1
                    elif block[m].t in ')]':
                        depth -= 1
                    if depth == 0 and block[m].t in (',', '}'):
                        break
                    vals.append(block[m])
                    m += 1
                ids = [v.t for v in vals if v.kind == 'id']
                val = ids[-1] if ids else None
                fields.setdefault(block[k + 1].t, (val, block[k + 1].line))
                k = m
            k += 1
        self.tables.append(Table(name, self.path, hd[0].line, fields,
                                 'static' in words))

    def statement(self, st):
        if len(st) > 2 and st[0].t == 'MNCOMPAT_MMU_NOTIFIER_OPS' and \
                st[1].t == '(':
            args, _ = split_args(st, 1)
            vals = []
            for a in args:
                ids = [x.t for x in a if x.kind == 'id']
                vals.append(ids[-1] if ids else None)
            if len(vals) < 6:
                return
            fields = {}
            for f, v in zip(COMPAT_ARGS, vals[1:5]):
                if v and v != 'NULL':
                    fields[f] = (v, st[0].line)
            self.tables.append(Table(vals[0], self.path, st[0].line, fields,
                                     True, macro=True))


# ---------------------------------------------------------------------
# The module.
# ---------------------------------------------------------------------

class Module:
    def __init__(self, sources):
        self.sources = sources
        self.by_name = {}
        for s in sources:
            for f in s.funcs:
                self.by_name.setdefault(f.name, []).append(f)
            for name, m in s.macros.items():
                self.by_name.setdefault(name, []).append(m)
        self.tables = [t for s in sources for t in s.tables]
        self.callbacks = set()
        for t in self.tables:
            for v, _ in t.fields.values():
                if v:
                    self.callbacks.add(v)
        self._sleep = {}

    def resolve(self, name, path):
        """The definitions a call of name in path reaches."""
        defs = self.by_name.get(name)
        if not defs:
            return []
        here = [d for d in defs if d.path == path]
        if here:
            return here
        vis = [d for d in defs if not d.static or d.path.endswith('.h')]
        return vis or defs

    def funcs(self, name, path=None):
        return self.resolve(name, path) if path else \
            self.by_name.get(name, [])

    # --- may it sleep? -------------------------------------------------

    def sleep(self, name, path):
        """(verdict, chain, why, unknown) for the function name as seen
        from path: verdict 'sleeps' (chain: names from name to the
        sleeping call, why: where and how), 'unknown' (unknown: the
        calls it cannot follow) or 'atomic'."""
        key = (name, path)
        if key in self._sleep:
            return self._sleep[key]
        defs = self.resolve(name, path)
        if not defs:
            return ('unknown', [name], '', ['%s() (not in this module)' % name])
        best = None
        unknown = []
        # breadth first over the module's functions
        seen = set()
        queue = [(d, [d.name]) for d in defs]
        while queue:
            f, chain = queue.pop(0)
            if id(f) in seen:
                continue
            seen.add(id(f))
            for c, line, _ in f.calls:
                if c in SLEEP_WHY and best is None:
                    best = (chain + [c], '%s() in %s:%d %s (%s)' % (
                        f.name, f.path, line, SLEEP_WHY[c], c))
            if f.gfp_sleep and best is None:
                c, line = f.gfp_sleep
                best = (chain + [c], '%s() in %s:%d allocates with a sleeping gfp (%s)' % (
                    f.name, f.path, line, c))
            if best is not None:
                break
            for c, line, _ in f.calls:
                if c in SLEEP_WHY:
                    continue
                sub = self.resolve(c, f.path)
                if sub:
                    for s in sub:
                        queue.append((s, chain + [c]))
                elif c in ALLOCATORS or c.startswith('alloc_'):
                    if f.gfp_unknown and f.gfp_unknown[0] == c:
                        unknown.append('%s() in %s:%d (gfp flags it cannot read)'
                                       % (c, f.path, line))
                elif not atomic_call(c) and not c.isupper() and \
                        not c.startswith('__builtin') and not ONE_FILE:
                    unknown.append('%s() (%s:%d)' % (c, f.path, line))
            for p, line in f.passed:
                for s in self.resolve(p, f.path):
                    if not s.macro:
                        queue.append((s, chain + [p]))
            for text, line in f.indirect:
                if not ONE_FILE:
                    unknown.append('%s (%s:%d)' % (text, f.path, line))
        if best is not None:
            r = ('sleeps', best[0], best[1], [])
        elif unknown:
            u = []
            for x in unknown:
                if x not in u:
                    u.append(x)
            r = ('unknown', [name], '', u)
        else:
            r = ('atomic', [name], '', [])
        self._sleep[key] = r
        return r

    # --- what a function reaches ----------------------------------------

    def reach(self, name, path):
        """Every function (with the definitions) reachable from name."""
        out = {}
        stack = [(d, None) for d in self.resolve(name, path)]
        while stack:
            f, _ = stack.pop()
            if id(f) in out:
                continue
            out[id(f)] = f
            for c, _, _ in f.calls:
                for s in self.resolve(c, f.path):
                    stack.append((s, None))
            for p, _ in f.passed:
                for s in self.resolve(p, f.path):
                    stack.append((s, None))
        return list(out.values())

    def work(self, name, path, skip=()):
        """The work items name does, through the module's functions:
        ('call', kernel or unknown function), ('ind', member call),
        ('field', written field), ('store', function with a store)."""
        items = {}
        for f in self.reach(name, path):
            if f.name in skip:
                continue
            for c, line, _ in f.calls:
                if self.resolve(c, f.path) or bookkeeping(c) or \
                        FIELD_WRITERS.match(c) or FIELD_READERS.match(c):
                    continue
                items.setdefault(('call', c), '%s() (%s:%d)' % (c, f.path, line))
            for text, line in f.indirect:
                items.setdefault(('ind', text), '%s (%s:%d)' % (text, f.path, line))
            for fld, line in f.writes.items():
                items.setdefault(('field', fld), '->%s (%s:%d)' % (fld, f.path, line))
            if f.stores:
                items.setdefault(('store', f.name), 'stores in %s() (%s)' % (f.name, f.where()))
        return items

    def names_reached(self, name, path):
        return set(f.name for f in self.reach(name, path))

    def covers(self, item, work, reached):
        kind, what = item
        if kind in ('call', 'ind'):
            if item in work:
                return True
            if kind == 'call':
                return any(('call', x) in work or x in reached
                           for x in twin_names(what))
            return False
        if kind == 'field':
            return item in work
        if kind == 'store':
            return what in reached
        return False

    def blocks(self, start, end, path, page):
        """How range_start keeps re-faults out until range_end, or None;
        (None, reason) when it cannot tell."""
        sf = self.reach(start, path)
        ef = self.reach(end, path)
        cbs = self.callbacks | {page}
        swrites = {}
        for f in sf:
            for fld, line in f.writes.items():
                swrites.setdefault(fld, (f, line))
        ewrites = {}
        for f in ef:
            for fld, line in f.writes.items():
                ewrites.setdefault(fld, (f, line))
        both = [x for x in swrites if x in ewrites]
        inside = set(id(f) for f in sf) | set(id(f) for f in ef)
        # only the fault path's reads hold re-faults off: statistics,
        # debugfs and ioctl getters that read the counter do not
        fp = self.fault_funcs() or {}
        readers, others = {}, {}
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                if f.name in cbs or id(f) in inside:
                    continue
                for fld in both:
                    if fld not in f.reads:
                        continue
                    if id(f) in fp:
                        readers.setdefault(fld, f)
                    else:
                        others.setdefault(fld, f)
        for fld in both:
            if fld in readers:
                sfn, sline = swrites[fld]
                efn, eline = ewrites[fld]
                r = readers[fld]
                return ('%s() raises ->%s (%s:%d), %s() lowers it (%s:%d) '
                        'and %s() in %s:%d checks it'
                        % (sfn.name, fld, sfn.path, sline, efn.name, efn.path,
                           eline, r.name, r.path, r.reads[fld]), None)
        # a lock range_start leaves held and range_end releases
        held = {}
        for f in sf:
            for lk, nn in f.locks.items():
                if nn > 0:
                    held[lk] = f
        for f in ef:
            for lk, nn in f.locks.items():
                if nn < 0 and lk in held:
                    for s in self.sources:
                        for g in s.funcs:
                            if g.name in cbs or id(g) in inside or \
                                    id(g) not in fp:
                                continue
                            if g.locks.get(lk, 0) > 0 or lk in g.lock_lines:
                                return ('%s() takes %s and leaves it held until '
                                        '%s() releases it; %s() in %s:%d takes it too'
                                        % (held[lk].name, lk, f.name, g.name, g.path,
                                           g.lock_lines.get(lk, g.line)), None)
        if both:
            fld = both[0]
            if fld in others:
                r = others[fld]
                return (None, '%s raises ->%s and %s lowers it, but the fault path '
                        '(the code that maps pages into the device) never reads it: '
                        'only %s() in %s:%d does, which maps nothing (statistics, a '
                        'getter) and holds no re-fault off (is the fault path in '
                        'another module?)'
                        % (start, fld, end, r.name, r.path, r.reads[fld]))
            return (None, '%s raises ->%s and %s lowers it, but nothing in this '
                    'module outside the notifier callbacks reads it '
                    '(is the fault path in another module?)'
                    % (start, fld, end))
        return (None, None)

    def transient(self, f):
        """(call, line) when f takes user pages with get_user_pages() or the
        like only to drop them again before it returns (it stores nothing
        anywhere: a pin for one copy), else None.  Such a pin maps nothing
        into the device: it re-establishes nothing range_start dropped."""
        if f.stores or f.writes:
            return None
        pins = [(c, line) for c, line, _ in f.calls if PINS.match(c)]
        if not pins or not any(c in UNPINS for c, _, _ in f.calls):
            return None
        # pages handed to the caller through a parameter (struct page
        # **page: the pin outlives the call; its put_page() is only the
        # error path): no transient pin.  After the first argument, so
        # that an address parameter does not count (an older form's
        # address in a later place only makes this more careful).
        params = set(f.params)
        for c, _, args in f.calls:
            if PINS.match(c) and any(t.kind == 'id' and t.t in params
                                     for a in args[1:] for t in a):
                return None
        if any(FAULT_IN.match(c) and not PINS.match(c) for c, _, _ in f.calls):
            return None
        return pins[0]

    def pins(self):
        """The transient pins: [(function, call, path, line)]."""
        out = []
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                t = self.transient(f)
                if t:
                    out.append((f.name, t[0], f.path, t[1]))
        return out

    def vm_fault_handlers(self):
        """The functions a vm_operations_struct of the module names as
        its fault handlers (.fault, .page_mkwrite, ...)."""
        out = []
        for s in self.sources:
            for name, _ in s.vm_faults:
                out.extend(self.resolve(name, s.path))
        return out

    def faults_in(self):
        """Where the module maps user pages in (get_user_pages() and the
        like, not a transient pin; a vm_operations_struct fault
        handler): [(function, call, path, line)]."""
        out = []
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                if self.transient(f):
                    continue
                for c, line, _ in f.calls:
                    if FAULT_IN.match(c):
                        out.append((f.name, c, f.path, line))
        for f in self.vm_fault_handlers():
            out.append((f.name, 'its vm_operations_struct fault handler',
                        f.path, f.line))
        return out

    def fault_funcs(self):
        """The fault path, the code that maps pages into the device, as
        {id: Func}: the functions that map user pages in (faults_in()),
        what they call, and the functions that call them (up to the
        top; their own bodies, not what else they call); never a
        notifier callback.  None when the module maps no user pages."""
        roots = {}
        for s in self.sources:
            for f in s.funcs + list(s.macros.values()):
                if f.name in self.callbacks or self.transient(f):
                    continue
                if any(FAULT_IN.match(c) for c, _, _ in f.calls):
                    roots[id(f)] = f
        for f in self.vm_fault_handlers():
            roots[id(f)] = f
        if not roots:
            return None
        path = {}
        for f in roots.values():
            for g in self.reach(f.name, f.path):
                if g.name not in self.callbacks:
                    path[id(g)] = g
        names = set(f.name for f in roots.values())
        grown = True
        while grown:
            grown = False
            for s in self.sources:
                for f in s.funcs + list(s.macros.values()):
                    if id(f) in path or f.name in self.callbacks:
                        continue
                    if any(c in names for c, _, _ in f.calls) or \
                            any(x in names for x, _ in f.passed):
                        path[id(f)] = f
                        names.add(f.name)
                        grown = True
        return path

    def fault_path_reads(self):
        """The fields the fault path (fault_funcs()) reads (None: no fault
        path)."""
        fp = self.fault_funcs()
        if fp is None:
            return None
        fields = set()
        for f in fp.values():
            fields.update(f.reads)
        return fields

    def coverage(self, table, path):
        """For a table with invalidate_page and range callbacks: do
        range_start/range_end still drop, after the page-table change,
        what invalidate_page dropped?  A dict: verdict (covered, move or
        undecided), why (how it was decided), items (the work of
        invalidate_page that nothing redoes after the change)."""
        page = table.fields['invalidate_page'][0]
        start = table.fields.get('invalidate_range_start', (None,))[0]
        end = table.fields.get('invalidate_range_end', (None,))[0]
        res = {'page': page, 'start': start, 'end': end, 'items': []}
        if not self.resolve(page, path):
            res.update(verdict='undecided',
                       why='%s is not defined in this module' % page)
            return res
        from_page = self.names_reached(page, path)
        if end and end in from_page:
            res.update(verdict='covered', why='%s forwards to %s, which runs '
                       'after the page-table change' % (page, end))
            return res
        if end and page in self.names_reached(end, path):
            res.update(verdict='covered',
                       why='%s runs %s after the page-table change' % (end, page))
            return res
        pw = self.work(page, path, skip=(start, end))
        # A field invalidate_page writes matters to the protocol only if
        # the fault path reads it (a sequence count); statistics do not.
        proto = self.fault_path_reads()
        if proto is not None:
            pw = dict((k, v) for k, v in pw.items()
                      if k[0] != 'field' or k[1] in proto)
        if not pw:
            res.update(verdict='covered', why='%s does no work the device\'s '
                       'page protocol depends on (only locks, debugging, '
                       'counters no fault path reads)' % page)
            return res
        ew = self.work(end, path) if end else {}
        reached_e = self.names_reached(end, path) if end else set()
        sw = self.work(start, path) if start else {}
        reached_s = self.names_reached(start, path) if start else set()
        how, unsure = None, None
        faults = sorted(self.faults_in(),
                        key=lambda x: (not x[1].startswith(('get_user', 'pin_user')), x))
        pins = self.pins()
        if start and not faults and pins:
            p = pins[0]
            how = ('nothing in this module maps user pages back in: its only '
                   'get_user_pages() is a transient pin (%s() takes pages with %s() '
                   'at %s:%d and releases them before it returns; no fault handler '
                   'maps them into the device), which re-establishes nothing it '
                   'dropped' % p)
        elif start and not faults:
            how = ('nothing in this module maps user pages back in (no '
                   'get_user_pages() or the like) to re-establish what it dropped')
        elif start and end:
            how, unsure = self.blocks(start, end, path, page)
        by_end, by_start, left = [], [], []
        for item, text in sorted(pw.items()):
            if end and self.covers(item, ew, reached_e):
                by_end.append(text)
            elif start and how and self.covers(item, sw, reached_s):
                by_start.append(text)
            else:
                left.append(text)
        res['items'] = left
        if not left:
            parts = []
            if by_end:
                parts.append('%s does its work after the change (%s)' % (
                    end, ', '.join(by_end[:3])))
            if by_start:
                parts.append('%s does %s before the change and %s' % (
                    start, ', '.join(by_start[:3]), how))
            res.update(verdict='covered', why='; '.join(parts))
            return res
        blind = []
        for fn in (start, end):
            if not fn:
                continue
            for f in self.reach(fn, path):
                for text, line in f.indirect:
                    blind.append('%s in %s() (%s:%d)' % (text, f.name, f.path, line))
        if unsure:
            res.update(verdict='undecided', why=unsure)
        elif blind:
            res.update(verdict='undecided', why='the range callbacks call through '
                       'function pointers the tool cannot follow: %s'
                       % ', '.join(blind[:3]))
        else:
            what = ['%s does not redo it' % end if end else 'there is no range_end']
            if start and faults:
                f = faults[0]
                via = f[1] if f[1].startswith('its ') else '%s()' % f[1]
                what.append('%s does not keep the device from faulting pages back in '
                            'until range_end (%s() maps user pages in with %s at '
                            '%s:%d; no counter or lock of range_start\'s is checked '
                            'there)' % (start, f[0], via, f[2], f[3]))
            elif start:
                what.append('%s does not do the same work as far as the tool can see' % start)
            res.update(verdict='move', why='; '.join(what))
        return res

    # --- facts for the scripts -------------------------------------------

    def fact_of(self, f):
        v, chain, why, unknown = self.sleep(f.name, f.path)
        return {
            'file': f.path, 'line': f.line, 'static': f.static,
            'macro': f.macro, 'params': f.params,
            'unused_params': [p for p in f.params if p not in f.used],
            'sleep': v, 'chain': chain, 'why': why, 'unknown': unknown[:4],
            'calls': sorted(set(c for c, _, _ in f.calls) |
                            set(p for p, _ in f.passed
                                if self.resolve(p, f.path))),
            'returns': f.returns, 'eagain': f.eagain,
            'range_form': f.range_form,
        }


def read_text(path):
    with open(path, 'rb') as fh:
        data = fh.read()
    return data.decode('utf-8', errors='replace').replace('\r\n', '\n')


def build(paths, shown=None):
    """A Module of the files paths (shown: path -> name for notes)."""
    shown = shown or {}
    sources = []
    for p in paths:
        try:
            text = read_text(p)
        except OSError:
            continue
        sources.append(Source(shown.get(p, p), text))
    return Module(sources)


# ---------------------------------------------------------------------
# LINUX_VERSION_CODE guards against compat's probes.
# ---------------------------------------------------------------------

def probe_versions(probes_dir):
    """probe macro -> (version added, commit, version removed/changed)."""
    out = {}
    try:
        names = sorted(os.listdir(probes_dir))
    except OSError:
        return out
    for n in names:
        if not n.endswith('.c'):
            continue
        try:
            with open(os.path.join(probes_dir, n)) as fh:
                text = fh.read(2000)
        except OSError:
            continue
        mm = re.search(r'Probe: (MNCOMPAT_HAVE_\w+)', text)
        up = re.search(r'Upstream: ([^\n]*)', text)
        if not mm or not up:
            continue
        vers = re.findall(r'(\d+\.\d+(?:\.\d+)?) ([0-9a-f]{12})', up.group(1))
        if vers:
            out[mm.group(1)] = vers
    return out


def version_tuple(s):
    parts = [int(x) for x in s.split('.')]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


GUARD = re.compile(r'LINUX_VERSION_CODE\s*(<=|>=|<|>)\s*'
                   r'KERNEL_VERSION\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)')

# What notifier code a stretch of source holds: (probe, description).
FEATURES = (
    (r'clear_flush_young\s*\([^;{]*unsigned long\s+\w+\s*,\s*unsigned long\s+\w+\s*\)',
     'MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_RANGE', 'the range form of clear_flush_young'),
    (r'clear_flush_young\s*\([^;{,]*,[^;{,]*,\s*unsigned long\s+\w+\s*\)',
     'MNCOMPAT_HAVE_CLEAR_FLUSH_YOUNG_ADDR', 'the one-address form of clear_flush_young'),
    (r'\.\s*clear_young\s*=', 'MNCOMPAT_HAVE_CLEAR_YOUNG', 'clear_young'),
    (r'\.\s*invalidate_page\s*=|invalidate_page\s*\(\s*struct mmu_notifier\s*\*',
     'MNCOMPAT_HAVE_INVALIDATE_PAGE', 'invalidate_page'),
    (r'\.\s*arch_invalidate_secondary_tlbs\s*=',
     'MNCOMPAT_HAVE_ARCH_INVALIDATE_SECONDARY_TLBS',
     'arch_invalidate_secondary_tlbs'),
    (r'\.\s*invalidate_range\s*=', 'MNCOMPAT_HAVE_INVALIDATE_RANGE',
     'invalidate_range'),
    (r'const struct mmu_notifier_range\s*\*',
     'MNCOMPAT_HAVE_RANGE_START_RANGE',
     'callbacks taking a struct mmu_notifier_range'),
    (r'\bbool\s+blockable\b', 'MNCOMPAT_HAVE_RANGE_START_BLOCKABLE',
     'the blockable form of invalidate_range_start'),
    (r'\.\s*change_pte\s*=', 'MNCOMPAT_HAVE_CHANGE_PTE', 'change_pte'),
    (r'\bmmu_notifier_range_blockable\s*\(',
     'MNCOMPAT_HAVE_MMU_NOTIFIER_RANGE_BLOCKABLE',
     'mmu_notifier_range_blockable()'),
    (r'\.\s*alloc_notifier\s*=|\bmmu_notifier_get\s*\(',
     'MNCOMPAT_HAVE_MMU_NOTIFIER_GET', 'mmu_notifier_get()'),
    (r'MMU_INVALIDATE_DOES_NOT_BLOCK', 'MNCOMPAT_HAVE_OPS_FLAGS_DOES_NOT_BLOCK',
     'MMU_INVALIDATE_DOES_NOT_BLOCK'),
    (r'\bmmu_interval_notifier\b', 'MNCOMPAT_HAVE_MMU_INTERVAL_NOTIFIER',
     'mmu_interval_notifier'),
)


def guard_notes(src, probes):
    """Notes (line, text) for #if LINUX_VERSION_CODE guards around
    notifier code at a version that is none of those compat's probe for
    that code names (compat/probes/*.c, "Upstream:")."""
    lines = src.text.split('\n')
    # cpp directives by line, the chains of #if ... #endif
    stack, chains = [], []
    for ln, w, text in src.cpp:
        if w in ('if', 'ifdef', 'ifndef'):
            stack.append({'if': (ln, text if w == 'if' else ''), 'marks': [ln]})
        elif w in ('elif', 'else') and stack:
            stack[-1]['marks'].append(ln)
        elif w == 'endif' and stack:
            c = stack.pop()
            c['marks'].append(ln)
            c['depth'] = len(stack)
            chains.append(c)
    notes = []
    for c in chains:
        ln, cond = c['if']
        m = GUARD.search(cond)
        if not m:
            continue
        op, v = m.group(1), (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        if op in ('>', '<='):
            v = (v[0], v[1], v[2] + 1)
        inner = [d for d in chains if d is not c and
                 c['marks'][0] < d['marks'][0] and d['marks'][-1] < c['marks'][-1]]
        text = []
        for k in range(c['marks'][0], c['marks'][-1] - 1):
            if any(d['marks'][0] <= k + 1 <= d['marks'][-1] for d in inner):
                continue
            text.append(lines[k])
        body = '\n'.join(text)
        seen, bad = set(), []
        for pat, probe, what in FEATURES:
            if probe in seen or not re.search(pat, body):
                continue
            seen.add(probe)
            vers = probes.get(probe)
            if not vers or any(version_tuple(x) == v for x, _ in vers):
                continue
            bad.append((probe, what, ', '.join('%s (%s)' % (x, y) for x, y in vers)))
        if not bad:
            continue
        raw = GUARD.search(lines[ln - 1]) or m
        notes.append((ln, 'review: #if %s guards %s, but compat\'s probe%s name%s %s: '
                      'on the kernels in between the wrong branch builds. '
                      'With compat, test the feature instead: #ifdef %s'
                      % (raw.group(0), ' and '.join(b[1] for b in bad),
                         's' if len(bad) > 1 else '', '' if len(bad) > 1 else 's',
                         '; '.join(b[2] for b in bad),
                         ' / '.join(b[0] for b in bad))))
    return notes


# ---------------------------------------------------------------------
# Which files make a module.
# ---------------------------------------------------------------------

def c_files(d):
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    return [n for n in names if n.endswith(('.c', '.h')) and
            os.path.isfile(os.path.join(d, n))]


def whole_tree(base, limit=400):
    """Every .c/.h under base (relative names) when base is one driver
    (a Kbuild or Makefile at its top, at most limit files), else None."""
    if not any(os.path.isfile(os.path.join(base, n))
               for n in ('Kbuild', 'Makefile', 'Kbuild.in', 'Makefile.am')):
        return None
    out = []
    for root, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.'))
        for n in sorted(files):
            if n.endswith(('.c', '.h')):
                out.append(os.path.relpath(os.path.join(root, n), base))
                if len(out) > limit:
                    return None
    return out


def module_of(rel, base, tree):
    """The relative names of the files of rel's module."""
    if tree is not None:
        return tree
    d = os.path.dirname(rel)
    out = [os.path.join(d, n) if d else n
           for n in c_files(os.path.join(base, d) if d else base)]
    return out


def include_dirs(rel):
    d = os.path.dirname(rel)
    return [d, os.path.join(d, 'include'), os.path.join(d, '..', 'include'),
            os.path.join(d, '..')]


# ---------------------------------------------------------------------
# Facts: what the .cocci scripts look up.
# ---------------------------------------------------------------------

def module_facts(mod, refs_only=False):
    refs = {}
    for s in mod.sources:
        for f in s.funcs + list(s.macros.values()):
            for c, _, _ in f.calls:
                refs.setdefault(c, set()).add(s.path)
            for p, _ in f.passed:
                refs.setdefault(p, set()).add(s.path)
        for t in s.tables:
            for v, _ in t.fields.values():
                if v:
                    refs.setdefault(v, set()).add(s.path)
    out = {'refs': dict((k, sorted(v)) for k, v in refs.items())}
    if refs_only:
        return out
    out['funcs'] = dict((name, [mod.fact_of(f) for f in defs])
                        for name, defs in mod.by_name.items())
    out['tables'] = []
    for t in mod.tables:
        d = {'name': t.name, 'file': t.path, 'line': t.line,
             'fields': dict((k, v[0]) for k, v in t.fields.items()),
             'macro': t.macro}
        if 'invalidate_page' in t.fields and t.fields['invalidate_page'][0] \
                and ('invalidate_range_start' in t.fields or
                     'invalidate_range_end' in t.fields):
            d['coverage'] = mod.coverage(t, t.path)
        out['tables'].append(d)
    return out


class Facts:
    """The facts of one module, as the .cocci scripts ask for them:
    computed on first use (the module is parsed only when a question
    needs more than a look at the text of its files)."""

    def __init__(self, pairs, step_map=None):
        self.pairs = pairs          # (path to read, name in notes)
        self.map = step_map or {}
        self._mod = None
        self._texts = None
        self._refs = None
        self._tables = None
        self._facts = {}
        self._page_field_only = {}

    @property
    def mod(self):
        if self._mod is None:
            self._mod = build([p for p, _ in self.pairs], dict(self.pairs))
        return self._mod

    def texts(self):
        if self._texts is None:
            self._texts = []
            for p, name in self.pairs:
                try:
                    self._texts.append((name, read_text(p)))
                except OSError:
                    pass
        return self._texts

    def helper(self, name, here):
        """Where the module defines the function name (file, line), or
        None, and whether a file of the module other than here still
        names it; from the text alone."""
        here = self.real(here)
        defn = re.compile(r'^[A-Za-z_][^;=()]*\b%s\s*\([^;]*$' % re.escape(name), re.M)
        word = re.compile(r'\b%s\b' % re.escape(name))
        found, elsewhere = None, False
        for fname, text in self.texts():
            for m in defn.finditer(text):
                if found is not None:
                    break
                after = text[m.start():m.start() + 2000]
                brace, semi = after.find('{'), after.find(';')
                if brace >= 0 and (semi < 0 or brace < semi):
                    found = (fname, text.count('\n', 0, m.start()) + 1)
            if fname == here or elsewhere:
                continue
            for w in word.finditer(text):
                start = text.rfind('\n', 0, w.start()) + 1
                end = text.find('\n', w.end())
                line = text[start:end if end >= 0 else len(text)]
                # a definition or a prototype at the start of a line is
                # not a use
                if not re.match(r'^[A-Za-z_][^;=()]*\b%s\s*\(' % re.escape(name), line):
                    elsewhere = True
                    break
        return found, elsewhere

    def real(self, path):
        p = path[2:] if path.startswith('./') else path
        return self.map.get(os.path.basename(p), self.map.get(p, path))

    def fact(self, f):
        if id(f) not in self._facts:
            self._facts[id(f)] = self.mod.fact_of(f)
        return self._facts[id(f)]

    def defs(self, name, path=None):
        if path is None:
            return [self.fact(f) for f in self.mod.by_name.get(name, [])]
        return [self.fact(f) for f in self.mod.resolve(name, self.real(path))]

    def defined(self, name):
        return bool(self.mod.by_name.get(name))

    def sleep(self, name, path):
        """('sleeps'|'unknown'|'atomic', chain, why, unknown calls) of name
        as called from path; a name that is not the module's: unknown."""
        return self.mod.sleep(name, self.real(path))

    def tables(self):
        if self._tables is None:
            self._tables = []
            for t in self.mod.tables:
                d = {'name': t.name, 'file': t.path, 'line': t.line,
                     'fields': dict((k, v[0]) for k, v in t.fields.items()),
                     'macro': t.macro, 'obj': t}
                self._tables.append(d)
        return self._tables

    def table(self, name, path):
        real = self.real(path)
        found = [t for t in self.tables() if t['name'] == name and t['file'] == real] or \
            [t for t in self.tables() if t['name'] == name]
        if not found:
            return None
        t = found[0]
        f = t['fields']
        if 'coverage' not in t and f.get('invalidate_page') and \
                ('invalidate_range_start' in f or 'invalidate_range_end' in f):
            t['coverage'] = self.mod.coverage(t['obj'], t['file'])
        return t

    def names(self):
        return set(self.mod.by_name)

    def page_field_only(self, name):
        """Is name, in the whole module, only ever the value of
        .invalidate_page fields: its one definition, its prototypes and
        those fields are every place the text names it (no call, no other
        field, no assignment)?  Then its address can become a range."""
        if name not in self._page_field_only:
            self._page_field_only[name] = self._only_in_page_fields(name)
        return self._page_field_only[name]

    def _only_in_page_fields(self, name):
        defs = self.mod.by_name.get(name, [])
        fields = 0
        for t in self.mod.tables:
            for k, (v, _) in t.fields.items():
                if v == name:
                    if k != 'invalidate_page':
                        return False
                    fields += 1
        word = re.compile(r'\b%s\b' % re.escape(name))
        proto = re.compile(r'\b%s\s*\([^;{()]*\)\s*;' % re.escape(name))
        named = protos = 0
        for _, text in self.texts():
            named += len(word.findall(text))
            protos += len(proto.findall(text))
        return len(defs) == 1 and fields > 0 and \
            named == 1 + fields + protos

    def refs(self, name):
        if self._refs is None:
            self._refs = module_facts(self.mod, refs_only=True)['refs']
        return self._refs.get(name, [])


_cache = {}


def step_map():
    if 'map' not in _cache:
        smap = {}
        mpath = os.environ.get('MNCOMPAT_STEP_MAP')
        if mpath:
            try:
                with open(mpath) as fh:
                    for ln in fh:
                        parts = ln.rstrip('\n').split('\t')
                        if len(parts) == 2:
                            smap[parts[0]] = parts[1]
            except OSError:
                pass
        _cache['map'] = smap
    return _cache['map']


def module_key(rel, tree):
    return '.' if tree is not None else (os.path.dirname(rel) or '.')


def module_paths(rels, base, work):
    """The files of the module of rels (relative to base) as (path, name)
    pairs: every file of their module, read from work where it has them,
    and the headers they include with quotes that are under base."""
    tree = whole_tree(base)
    members = set(rels)
    for rel in rels:
        members.update(module_of(rel, base, tree))

    def where(rel):
        if work and os.path.exists(os.path.join(work, rel)):
            return os.path.join(work, rel)
        return os.path.join(base, rel)
    for rel in list(members):
        try:
            text = read_text(where(rel))
        except OSError:
            continue
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
            for d in include_dirs(rel):
                cand = os.path.normpath(os.path.join(d, inc))
                if not cand.startswith('..') and \
                        os.path.isfile(os.path.join(base, cand)):
                    members.add(cand)
                    break
    return [(where(rel), rel) for rel in sorted(members)]


def build_module(rels, base, work):
    pairs = module_paths(rels, base, work)
    return build([p for p, _ in pairs], dict(pairs))


def facts_for(path):
    """The Facts of the module of the file spatch is working on.  Under
    convert.sh (MNCOMPAT_MODULE_BASE, _WORK and MNCOMPAT_STEP_MAP): the
    module of the real file the step copy stands for, built on first use;
    else the file on its own."""
    base = os.environ.get('MNCOMPAT_MODULE_BASE')
    if os.environ.get('MNCOMPAT_TEST_ONE_FILE'):
        base = None
    if base:
        smap = step_map()
        p = path[2:] if path.startswith('./') else path
        real = smap.get(os.path.basename(p), smap.get(p))
        if real is not None:
            if 'tree' not in _cache:
                _cache['tree'] = whole_tree(base)
            key = ('m', module_key(real, _cache['tree']))
            if key not in _cache:
                _cache[key] = Facts(module_paths(
                    [real], base, os.environ.get('MNCOMPAT_MODULE_WORK')), smap)
            return _cache[key]
    key = ('f', path)
    if key not in _cache:
        _cache[key] = Facts([(path, path)])
    return _cache[key]


# ---------------------------------------------------------------------
# Command line.
# ---------------------------------------------------------------------

def cmd_facts(args):
    base, work, out, rels = '.', None, None, []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ('--base', '--work', '--out', '--list') and \
                i + 1 < len(args):
            if a == '--list':
                with open(args[i + 1]) as fh:
                    rels.extend(x[2:] if x.startswith('./') else x
                                for x in fh.read().split('\n') if x)
            elif a == '--base':
                base = args[i + 1]
            elif a == '--work':
                work = args[i + 1]
            else:
                out = args[i + 1]
            i += 2
            continue
        rels.append(a[2:] if a.startswith('./') else a)
        i += 1
    if not out:
        sys.exit('usage: mnmodule.py facts --base DIR [--work DIR] --out FILE REL...')
    tree = whole_tree(base)
    files, modules, groups = {}, {}, {}
    for rel in rels:
        key = module_key(rel, tree)
        groups.setdefault(key, []).append(rel)
        files[rel] = key
    for key, members in sorted(groups.items()):
        modules[key] = module_facts(build_module(members, base, work))
    tmp = out + '.tmp'
    with open(tmp, 'w') as fh:
        json.dump({'files': files, 'modules': modules}, fh)
    os.replace(tmp, out)


def cmd_explain(args):
    mod = build(args)
    for s in mod.sources:
        print('== %s' % s.path)
        for f in s.funcs + list(s.macros.values()):
            v, chain, why, unknown = mod.sleep(f.name, f.path)
            print('  %s%s:%d %s %s %s' % ('macro ' if f.macro else '', f.name,
                                          f.line, v, why, '; '.join(unknown[:3])))
        for t in s.tables:
            print('  table %s:%d %s' % (t.name, t.line,
                                        dict((k, v[0]) for k, v in t.fields.items())))
            if 'invalidate_page' in t.fields and (
                    'invalidate_range_start' in t.fields or
                    'invalidate_range_end' in t.fields):
                print('    coverage: %s' % mod.coverage(t, t.path))
    probes = probe_versions(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         '..', 'compat', 'probes'))
    for s in mod.sources:
        for line, text in guard_notes(s, probes):
            print('%s:%d: %s' % (s.path, line, text))


def cmd_guards(args):
    """FILE... (--base DIR: names relative to it): print each guard note
    as FILE:LINE: [guard] review: ..."""
    base = None
    if len(args) > 1 and args[0] == '--base':
        base, args = args[1], args[2:]
    probes = probe_versions(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         '..', 'compat', 'probes'))
    for rel in args:
        p = os.path.join(base, rel) if base else rel
        try:
            src = Source(rel, read_text(p))
        except OSError:
            continue
        for line, text in guard_notes(src, probes):
            print('%s:%d: [guard] %s' % (rel, line, text))


def main(argv):
    if len(argv) < 2 or argv[1] not in ('facts', 'explain', 'guards'):
        sys.exit(__doc__.split('Usage:')[1].split('From a')[0])
    if argv[1] == 'facts':
        cmd_facts(argv[2:])
    elif argv[1] == 'guards':
        cmd_guards(argv[2:])
    else:
        cmd_explain(argv[2:])


if __name__ == '__main__':
    main(sys.argv)
