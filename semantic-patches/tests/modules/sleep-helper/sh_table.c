// SPDX-License-Identifier: GPL-2.0
/* Test input: the device table, behind a mutex. */
#include "sh.h"

void sh_forget(struct sh_dev *d, unsigned long start, unsigned long end)
{
	unsigned long i;

	mutex_lock(&d->table_lock);
	for (i = 0; i < 32; i++)
		if (d->table[i] >= start && d->table[i] < end)
			d->table[i] = 0;
	mutex_unlock(&d->table_lock);
}
