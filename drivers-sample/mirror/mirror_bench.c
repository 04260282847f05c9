// SPDX-License-Identifier: GPL-2.0
/*
 * MIRROR_BENCH=1: which glue a newly opened file registers. Writing 1 to
 * /sys/module/mirror/parameters/native makes the next opens use the glue
 * without compat/, 0 the compat one; files already open keep theirs. The
 * device code and the module image are the same for both, so an in-guest
 * benchmark (tests/mirror_bench.c) can alternate them in one boot.
 */
#include <linux/compiler.h>
#include <linux/moduleparam.h>

#include "mirror.h"
#include "mirror_bench.h"

static bool native;
module_param(native, bool, 0644);
MODULE_PARM_DESC(native, "new opens use the glue without compat/ (benchmark)");

const struct mmu_notifier_ops *mirror_notifier_ops(void)
{
	return READ_ONCE(native) ? mirror_notifier_ops_native() :
				   mirror_notifier_ops_compat();
}
