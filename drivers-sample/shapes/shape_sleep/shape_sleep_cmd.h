/* SPDX-License-Identifier: GPL-2.0 */
/* shape_sleep's command queue (shape_sleep_cmd.c). */
#ifndef _SHAPE_SLEEP_CMD_H
#define _SHAPE_SLEEP_CMD_H

#include "shape_core.h"

void sleep_cmd_flush(struct shape_dev *sd, unsigned long start,
		     unsigned long end);

#endif /* _SHAPE_SLEEP_CMD_H */
