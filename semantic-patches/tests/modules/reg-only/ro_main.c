// SPDX-License-Identifier: GPL-2.0
/*
 * Test input: the registration, in a file that includes only the
 * module's own header (which brings <linux/mmu_notifier.h>).
 */
#include "ro.h"

static struct ro_dev ro;

int ro_attach(void)
{
	ro.mn.ops = ro_notifier_ops();
	return mmu_notifier_register(&ro.mn, current->mm);
}

void ro_detach(void)
{
	mmu_notifier_unregister(&ro.mn, current->mm);
}
