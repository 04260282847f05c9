// SPDX-License-Identifier: GPL-2.0
/*
 * Test input for the whole series (issue 44 item 2), in the shape of
 * Intel OPA hfi1's pinned-buffer cache of 4.18: a table with only
 * range_start that declares, with 4.16-4.19's .flags =
 * MMU_INVALIDATE_DOES_NOT_BLOCK, that it never blocks.  range_start walks
 * an interval tree made by INTERVAL_TREE_DEFINE() in this file and asks
 * the cache's owner, through a function pointer, whether a node may go;
 * the tool cannot follow that pointer, so the driver's own declaration
 * decides: no -EAGAIN guard in the 4.19 start.  .flags and its constant
 * are gone from 4.20: with --compat the table is MNCOMPAT_MMU_NOTIFIER_OPS
 * with flags 0 (compat sets the flag where the kernel has it).  The
 * output builds.
 */
#include <linux/module.h>
#include <linux/interval_tree_generic.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct nb_node {
	struct rb_node rb;
	unsigned long start, last, __last;
	struct list_head list;
};

struct nb_ops {
	bool (*invalidate)(void *arg, struct nb_node *node);
};

struct nb_cache {
	struct mmu_notifier mn;
	struct rb_root_cached root;
	spinlock_t lock;
	const struct nb_ops *ops;
	void *arg;
	struct list_head del_list;
	struct work_struct del_work;
};

static unsigned long nb_node_start(struct nb_node *n)
{
	return n->start;
}

static unsigned long nb_node_last(struct nb_node *n)
{
	return n->last;
}

INTERVAL_TREE_DEFINE(struct nb_node, rb, unsigned long, __last,
		     nb_node_start, nb_node_last, static, __nb_it);

static void nb_invalidate_range_start(struct mmu_notifier *mn,
				      struct mm_struct *mm,
				      unsigned long start, unsigned long end)
{
	struct nb_cache *c = container_of(mn, struct nb_cache, mn);
	struct nb_node *node, *next;
	unsigned long flags;
	bool added = false;

	spin_lock_irqsave(&c->lock, flags);
	for (node = __nb_it_iter_first(&c->root, start, end - 1); node;
	     node = next) {
		next = __nb_it_iter_next(node, start, end - 1);
		if (c->ops->invalidate(c->arg, node)) {
			__nb_it_remove(node, &c->root);
			list_move(&node->list, &c->del_list);
			added = true;
		}
	}
	spin_unlock_irqrestore(&c->lock, flags);
	if (added)
		schedule_work(&c->del_work);
}

static const struct mmu_notifier_ops nb_ops_table = {
	.flags = MMU_INVALIDATE_DOES_NOT_BLOCK,
	.invalidate_range_start = nb_invalidate_range_start,
};

int nb_insert(struct nb_cache *c, struct nb_node *node)
{
	unsigned long flags;

	spin_lock_irqsave(&c->lock, flags);
	__nb_it_insert(node, &c->root);
	spin_unlock_irqrestore(&c->lock, flags);
	return 0;
}
EXPORT_SYMBOL_GPL(nb_insert);

int nb_attach(struct nb_cache *c)
{
	c->root = RB_ROOT_CACHED;
	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->del_list);
	c->mn.ops = &nb_ops_table;
	return mmu_notifier_register(&c->mn, current->mm);
}
EXPORT_SYMBOL_GPL(nb_attach);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("semantic-patches fixture: a table that declares it never blocks");
