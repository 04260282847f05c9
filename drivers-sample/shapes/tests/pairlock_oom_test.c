// SPDX-License-Identifier: GPL-2.0
/*
 * pair_oom_test.c on shape_pairlock (issue 44): the pair registered with
 * the mmap lock held (__mmu_notifier_register() before the conversion),
 * converted with --compat. No WARN (the kernel's, or the device's own at
 * close when its count of open invalidations is not back to 0), and a
 * device opened after the kill faults pages in and reads them.
 */
#define DEV		"/dev/shape_pairlock"
#include "pair_oom_test.c"
