/* SPDX-License-Identifier: GPL-2.0 */
/* shape_endonly's device page-table updates (shape_endonly_zap.c). */
#ifndef _SHAPE_ENDONLY_ZAP_H
#define _SHAPE_ENDONLY_ZAP_H

#include "shape_core.h"

void endonly_zap(struct shape_dev *sd, unsigned long start,
		 unsigned long end);

#endif /* _SHAPE_ENDONLY_ZAP_H */
