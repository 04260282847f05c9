// SPDX-License-Identifier: GPL-2.0
/* The tests of /dev/shape_sleep (shape_tests.h). */
#define SHAPE_DEV "shape_sleep"
#include "shape_tests.h"
