# SPDX-License-Identifier: GPL-2.0
"""What kernel calls do, for the module view (mnmodule.py): which calls
may sleep and how to say it, the allocators (they sleep or not by their
gfp argument), the helpers known not to sleep, the bookkeeping calls
that do no device work, the calls that write or read a field, the lock
calls, the calls by which a driver maps user pages (back) in or pins
and unpins pages.  Data and small lookups only."""
import os
import re

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
alloc_pages_node dma_alloc_coherent mempool_alloc kmem_cache_alloc_node'''.split())
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
kfree_sensitive kmem_cache_free mempool_free free_page free_pages __free_page
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
