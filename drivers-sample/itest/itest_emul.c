// SPDX-License-Identifier: GPL-2.0
/* itest on compat's emulation, even where the kernel has the API. */
#define MNCOMPAT_EMULATE_MMU_INTERVAL_NOTIFIER
#define ITEST_DEV	itest_emul_dev
#define ITEST_NAME	"mncompat_itest_emul"
#include "itest_dev.h"
