/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The word ioctls of the devices that map and read single words of their
 * opener's memory through a devpt (shadow, the shape fixtures).
 */
#ifndef _DEVPT_WORD_H
#define _DEVPT_WORD_H

#include <linux/compiler.h>

#include "devpt.h"
#include "devpt_uapi.h"

/* The struct devpt_word at uarg, its addr 8-byte aligned in user space. */
int devpt_word_from_user(struct devpt_word *w, const void __user *uarg);

/*
 * READ: the word at w->addr through pt into w->value, and w back to uarg;
 * -ENOENT when pt does not map it.
 */
int devpt_word_read(struct devpt *pt, struct devpt_word *w,
		    void __user *uarg);

#endif /* _DEVPT_WORD_H */
