// SPDX-License-Identifier: GPL-2.0
/*
 * Probe: MNCOMPAT_HAVE_SCHED_SIGNAL_H
 * Upstream: 4.11 3f07c0144132
 * <linux/sched/signal.h>: the signal helpers (fatal_signal_pending(),
 * what wait_event_killable() expands to) moved out of <linux/sched.h>.
 */
#include <linux/sched/signal.h>

bool mncompat_probe_killed(void);
bool mncompat_probe_killed(void)
{
	return fatal_signal_pending(current);
}
