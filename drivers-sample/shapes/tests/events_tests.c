// SPDX-License-Identifier: GPL-2.0
/* The tests of /dev/shape_events, converted (events_tests.h). */
#define SHAPE_DEV "shape_events"
#include "events_tests.h"
