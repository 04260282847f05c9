// SPDX-License-Identifier: GPL-2.0
/*
 * Test input (issue 44 item 4): ummunotify's shape with its own mmap: the
 * counter user space reads is a page the driver allocates, mapped by the
 * driver's vm_operations_struct .fault.  That fault handler maps the
 * driver's own page, never one of the mm's: it re-establishes nothing
 * range_start dropped, so it is no fault path.  invalidate_range_start
 * and invalidate_page each count one event; from 4.13 range_start counts
 * each change once, so invalidate_page goes, no range_end and no
 * secondary-TLB hook is added (each would count the change again), and
 * nothing sleeps: flags 0.  The output builds.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

struct ev_file {
	struct mmu_notifier mn;
	spinlock_t lock;
	wait_queue_head_t read_wait;
	unsigned long start, end;
	u64 *counter;
};

static void ev_event(struct ev_file *f, unsigned long start,
		     unsigned long end)
{
	spin_lock(&f->lock);
	if (start < f->end && end > f->start)
		WRITE_ONCE(*f->counter, *f->counter + 1);
	spin_unlock(&f->lock);
	wake_up_interruptible(&f->read_wait);
}

static void ev_invalidate_page(struct mmu_notifier *mn, struct mm_struct *mm,
			       unsigned long address)
{
	ev_event(container_of(mn, struct ev_file, mn), address,
		 address + PAGE_SIZE);
}

static void ev_invalidate_range_start(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	ev_event(container_of(mn, struct ev_file, mn), start, end);
}

static const struct mmu_notifier_ops ev_ops = {
	.invalidate_page = ev_invalidate_page,
	.invalidate_range_start = ev_invalidate_range_start,
};

/* The counter page, mapped read-only into the reader's address space. */
static vm_fault_t ev_fault(struct vm_fault *vmf)
{
	struct ev_file *f = vmf->vma->vm_private_data;

	if (vmf->pgoff != 0)
		return VM_FAULT_SIGBUS;
	vmf->page = virt_to_page(f->counter);
	get_page(vmf->page);
	return 0;
}

static const struct vm_operations_struct ev_vm_ops = {
	.fault = ev_fault,
};

int ev_mmap(struct ev_file *f, struct vm_area_struct *vma)
{
	if (vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	vma->vm_ops = &ev_vm_ops;
	vma->vm_private_data = f;
	return 0;
}
EXPORT_SYMBOL_GPL(ev_mmap);

int ev_attach(struct ev_file *f)
{
	f->counter = (u64 *)get_zeroed_page(GFP_KERNEL);
	if (!f->counter)
		return -ENOMEM;
	spin_lock_init(&f->lock);
	init_waitqueue_head(&f->read_wait);
	f->mn.ops = &ev_ops;
	return mmu_notifier_register(&f->mn, current->mm);
}
EXPORT_SYMBOL_GPL(ev_attach);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: an event counter with its own mmap");
