// SPDX-License-Identifier: GPL-2.0
/*
 * shape_endonly's device page-table updates. SHAPE_BREAK=1: they do
 * nothing (a test knob: the coherence tests must then fail).
 */
#include "shape_endonly_zap.h"

#ifndef SHAPE_BREAK
#define SHAPE_BREAK 0
#endif

void endonly_zap(struct shape_dev *sd, unsigned long start, unsigned long end)
{
	if (!SHAPE_BREAK)
		shape_drop(sd, start, end);
}
