// SPDX-License-Identifier: GPL-2.0
/* The tests of /dev/shape_pair (shape_tests.h). */
#define SHAPE_DEV "shape_pair"
#include "shape_tests.h"
