// SPDX-License-Identifier: GPL-2.0
/*
 * Load and unload the mirror module many times, opening the device and
 * mapping a page through it in each cycle.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mirror_uapi.h"

#define MODULE_PATH "/modules/mirror.ko"

FIXTURE(module) {};
FIXTURE_SETUP(module) {}
FIXTURE_TEARDOWN(module) {}

TEST_F_TIMEOUT(module, load_unload_cycles, 600)
{
	long cycles = getenv("LOAD_CYCLES") ? atol(getenv("LOAD_CYCLES")) :
					      1000;
	long page = sysconf(_SC_PAGESIZE);
	char *buf = mmap(NULL, page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	time_t start = time(NULL);
	long done = 0;

	ASSERT_NE(buf, MAP_FAILED);
	buf[0] = 1;
	for (; done < cycles; done++) {
		struct mirror_io io = { .addr = (unsigned long)buf, .len = page };
		int mod = open(MODULE_PATH, O_RDONLY), fd;

		ASSERT_GE(mod, 0);
		ASSERT_EQ(syscall(SYS_finit_module, mod, "", 0), 0);
		close(mod);
		fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(ioctl(fd, MIRROR_IOC_MAP, &io), 0);
		close(fd);
		ASSERT_EQ(syscall(SYS_delete_module, "mirror", 0), 0);
	}
	printf("# %ld load/unload cycles in %lds\n", done,
	       (long)(time(NULL) - start));
}

TEST_HARNESS_MAIN
