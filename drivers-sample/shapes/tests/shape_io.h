/* SPDX-License-Identifier: GPL-2.0 */
/* One word through a shape device (shape_uapi.h), for its in-guest tests. */
#ifndef _SHAPE_IO_H
#define _SHAPE_IO_H

#include <errno.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "shape_uapi.h"

/*
 * SHAPE_IOC_MAP or SHAPE_IOC_READ of the word at addr: 0 (and *value
 * when given), or -errno.
 */
static inline int shape_io(int fd, unsigned long cmd, void *addr,
			   uint64_t *value)
{
	struct devpt_word w = { .addr = (uintptr_t)addr };
	int ret = ioctl(fd, cmd, &w) ? -errno : 0;

	if (!ret && value)
		*value = w.value;
	return ret;
}

#endif /* _SHAPE_IO_H */
