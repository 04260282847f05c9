// SPDX-License-Identifier: GPL-2.0
/* The tests of /dev/shape_guarded (shape_tests.h). */
#define SHAPE_DEV "shape_guarded"
#include "shape_tests.h"
