// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: a transcendent-memory backend. cleancache_ops and
 * frontswap_ops have invalidate_page fields that mean "drop this page
 * from the backing store"; they have nothing to do with MMU notifiers
 * and must come out of every conversion unchanged.
 */
#include <linux/cleancache.h>
#include <linux/frontswap.h>

static void tmem_cleancache_invalidate_page(int pool, struct cleancache_filekey key,
					    pgoff_t index)
{
	tmem_flush_page(pool, key, index);
}

static void tmem_frontswap_invalidate_page(unsigned int type, pgoff_t offset)
{
	tmem_flush_page(type, swap_key(offset), offset);
}

static const struct cleancache_ops tmem_cleancache_ops = {
	.put_page = tmem_cleancache_put_page,
	.get_page = tmem_cleancache_get_page,
	.invalidate_page = tmem_cleancache_invalidate_page,
	.invalidate_inode = tmem_cleancache_invalidate_inode,
};

static struct frontswap_ops tmem_frontswap_ops = {
	.store = tmem_frontswap_store,
	.load = tmem_frontswap_load,
	.invalidate_page = tmem_frontswap_invalidate_page,
	.invalidate_area = tmem_frontswap_invalidate_area,
};

static void tmem_setup_ops(struct cleancache_ops *cops,
			   struct frontswap_ops *fops)
{
	cops->invalidate_page = tmem_cleancache_invalidate_page;
	fops->invalidate_page = tmem_frontswap_invalidate_page;
}
