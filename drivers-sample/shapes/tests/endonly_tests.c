// SPDX-License-Identifier: GPL-2.0
/* The tests of /dev/shape_endonly (shape_tests.h). */
#define SHAPE_DEV "shape_endonly"
#include "shape_tests.h"
