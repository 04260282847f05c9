/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The misc-device side of the sample devices: their file operations, their
 * struct miscdevice and the module's init and exit that register them.
 */
#ifndef _DEVPT_MISC_H
#define _DEVPT_MISC_H

#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#ifdef DEVPT_REGISTER_GET
#include <mncompat/mmu_notifier.h>
#endif

/*
 * DEVPT_FOPS(name): name##_fops, for files that name##_open() opens and
 * name##_file_release() releases, and whose ioctls
 * name##_ioctl(file->private_data, cmd, (void __user *)arg) serves.
 */
#define DEVPT_FOPS(name)						\
static long name##_unlocked_ioctl(struct file *file, unsigned int cmd,	\
				  unsigned long arg)			\
{									\
	return name##_ioctl(file->private_data, cmd,			\
			    (void __user *)arg);			\
}									\
static const struct file_operations name##_fops = {			\
	.owner = THIS_MODULE,						\
	.open = name##_open,						\
	.release = name##_file_release,					\
	.unlocked_ioctl = name##_unlocked_ioctl,			\
	.llseek = noop_llseek,						\
}

/* The initializer of a struct miscdevice: node /dev/NODE, file operations OPS. */
#define DEVPT_MISC_DEVICE(node, ops)					\
	{ .minor = MISC_DYNAMIC_MINOR, .name = (node), .fops = (ops) }

/* Register the n devices of devs: all of them or, on an error, none. */
static inline int devpt_misc_register(struct miscdevice *const *devs,
				      unsigned int n)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = misc_register(devs[i]);
		if (ret) {
			while (i--)
				misc_deregister(devs[i]);
			return ret;
		}
	}
	return 0;
}

static inline void devpt_misc_deregister(struct miscdevice *const *devs,
					 unsigned int n)
{
	while (n--)
		misc_deregister(devs[n]);
#ifdef DEVPT_REGISTER_GET
	/* The files' subscriptions are freed after an SRCU grace period. */
	mncompat_mmu_notifier_synchronize();
#endif
}

/*
 * DEVPT_MODULE_MISC(name): the module's init, name##_init(), registers the
 * devices of the array name##_devs, its exit, name##_exit(), deregisters
 * them (in reverse order).
 */
#define DEVPT_MODULE_MISC(name)						\
static int __init name##_init(void)					\
{									\
	return devpt_misc_register(name##_devs, ARRAY_SIZE(name##_devs)); \
}									\
module_init(name##_init);						\
static void __exit name##_exit(void)					\
{									\
	devpt_misc_deregister(name##_devs, ARRAY_SIZE(name##_devs));	\
}									\
module_exit(name##_exit)

#endif /* _DEVPT_MISC_H */
