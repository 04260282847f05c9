// SPDX-License-Identifier: GPL-2.0
/*
 * shape_sleep's command queue: the device is told to drop mappings
 * through commands that are serialised by a mutex, so flushing may sleep.
 */
#include "shape_sleep_cmd.h"

void sleep_cmd_flush(struct shape_dev *sd, unsigned long start,
		     unsigned long end)
{
	mutex_lock(&sd->cmd_lock);
	shape_drop(sd, start, end);
	mutex_unlock(&sd->cmd_lock);
}
