/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mirror built with MIRROR_BENCH=1: two notifier glues in one module, the
 * compat one (mirror_notifier.c, its mirror_notifier_ops() renamed by
 * Kbuild) and one without compat/ (mirror_notifier_native.c).
 * mirror_bench.c picks one per open file.
 */
#ifndef _MIRROR_BENCH_H
#define _MIRROR_BENCH_H

#include <linux/mmu_notifier.h>

const struct mmu_notifier_ops *mirror_notifier_ops_compat(void);
const struct mmu_notifier_ops *mirror_notifier_ops_native(void);

#endif /* _MIRROR_BENCH_H */
