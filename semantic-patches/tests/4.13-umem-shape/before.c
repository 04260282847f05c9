// SPDX-License-Identifier: GPL-2.0
/*
 * Test input in the shape of an on-demand-paging memory region notifier
 * (seed 008): a tree walked with per-item trampolines, an rwsem and
 * start/end accounting around every invalidation.
 */
#include <linux/mmu_notifier.h>
#include <linux/rwsem.h>

struct odp_context {
	struct mmu_notifier mn;
	struct rw_semaphore umem_rwsem;
	struct rb_root_cached umem_tree;
	void (*invalidate_range)(struct odp_umem *umem,
				 unsigned long start, unsigned long end);
};

static void odp_notifier_start_account(struct odp_context *ctx);
static void odp_notifier_end_account(struct odp_context *ctx);

static int invalidate_page_trampoline(struct odp_umem *item, u64 start,
				      u64 end, void *cookie)
{
	odp_umem_notifier_start_account(item);
	item->context->invalidate_range(item, start, start + PAGE_SIZE);
	odp_umem_notifier_end_account(item);
	return 0;
}

static void odp_notifier_invalidate_page(struct mmu_notifier *mn,
					 struct mm_struct *mm,
					 unsigned long address)
{
	struct odp_context *ctx = container_of(mn, struct odp_context, mn);

	if (!ctx->invalidate_range)
		return;

	odp_notifier_start_account(ctx);
	down_read(&ctx->umem_rwsem);
	odp_umem_for_each_in_range(&ctx->umem_tree, address,
				   address + PAGE_SIZE,
				   invalidate_page_trampoline, NULL);
	up_read(&ctx->umem_rwsem);
	odp_notifier_end_account(ctx);
}

static int invalidate_range_start_trampoline(struct odp_umem *item, u64 start,
					     u64 end, void *cookie)
{
	odp_umem_notifier_start_account(item);
	item->context->invalidate_range(item, start, end);
	return 0;
}

static void odp_notifier_invalidate_range_start(struct mmu_notifier *mn,
						struct mm_struct *mm,
						unsigned long start,
						unsigned long end)
{
	struct odp_context *ctx = container_of(mn, struct odp_context, mn);

	if (!ctx->invalidate_range)
		return;

	odp_notifier_start_account(ctx);
	down_read(&ctx->umem_rwsem);
	odp_umem_for_each_in_range(&ctx->umem_tree, start, end,
				   invalidate_range_start_trampoline, NULL);
	up_read(&ctx->umem_rwsem);
}

static int invalidate_range_end_trampoline(struct odp_umem *item, u64 start,
					   u64 end, void *cookie)
{
	odp_umem_notifier_end_account(item);
	return 0;
}

static void odp_notifier_invalidate_range_end(struct mmu_notifier *mn,
					      struct mm_struct *mm,
					      unsigned long start,
					      unsigned long end)
{
	struct odp_context *ctx = container_of(mn, struct odp_context, mn);

	if (!ctx->invalidate_range)
		return;

	down_read(&ctx->umem_rwsem);
	odp_umem_for_each_in_range(&ctx->umem_tree, start, end,
				   invalidate_range_end_trampoline, NULL);
	up_read(&ctx->umem_rwsem);
	odp_notifier_end_account(ctx);
}

static const struct mmu_notifier_ops odp_notifiers = {
	.release                    = odp_notifier_release,
	.invalidate_page            = odp_notifier_invalidate_page,
	.invalidate_range_start     = odp_notifier_invalidate_range_start,
	.invalidate_range_end       = odp_notifier_invalidate_range_end,
};

static void odp_notifier_start_account(struct odp_context *ctx)
{
	atomic_inc(&ctx->notifier_count);
}

static void odp_notifier_end_account(struct odp_context *ctx)
{
	atomic_dec(&ctx->notifier_count);
}
