/* SPDX-License-Identifier: GPL-2.0 */
/*
 * <mncompat/sched.h>: <linux/sched.h> plus <linux/sched/signal.h> where the
 * kernel has it (4.11, 3f07c0144132 moved fatal_signal_pending() and what
 * wait_event_killable() needs there); before, <linux/sched.h> has it all.
 */
#ifndef _MNCOMPAT_SCHED_H
#define _MNCOMPAT_SCHED_H

#include <linux/sched.h>
#include <mncompat_config.h>

#ifdef MNCOMPAT_HAVE_SCHED_SIGNAL_H
#include <linux/sched/signal.h>
#endif

#endif /* _MNCOMPAT_SCHED_H */
