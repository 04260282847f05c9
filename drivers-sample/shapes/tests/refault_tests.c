// SPDX-License-Identifier: GPL-2.0
/* The tests of /dev/shape_refault (shape_tests.h). */
#define SHAPE_DEV "shape_refault"
#include "shape_tests.h"
