// SPDX-License-Identifier: GPL-2.0
/* itest on the kernel's mmu_interval_notifier (emulated before 5.5). */
#define ITEST_DEV	itest_kernel_dev
#define ITEST_NAME	"mncompat_itest_kernel"
#include "itest_dev.h"
