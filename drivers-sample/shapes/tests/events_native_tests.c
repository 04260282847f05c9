// SPDX-License-Identifier: GPL-2.0
/* The tests of /dev/shape_events_native, the reference (events_tests.h). */
#define SHAPE_DEV "shape_events_native"
#include "events_tests.h"
