// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input: random ioctls with bad pointers, kernel addresses,
 * overflowing lengths and unmapped ranges. Each must be refused with an
 * error (or succeed where the input happens to be valid), never oops: the
 * host fails the run on any splat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "mirror_uapi.h"

#define NR_PAGES 8

static uint64_t pick_addr(unsigned int *seed, char *valid, size_t len)
{
	static const uint64_t hostile[] = {
		0, 1, 0xfff, 0x1000, 0x7ffffffff000ULL, 0x800000000000ULL,
		0xffff888000000000ULL, 0xffffffff81000000ULL, ~0ULL,
		~0ULL - 0xfff,
	};
	unsigned int r = rand_r(seed);

	switch (r % 3) {
	case 0:
		return hostile[(r >> 2) % (sizeof(hostile) / sizeof(*hostile))];
	case 1:
		return (uintptr_t)valid + (rand_r(seed) % (2 * len)) - len / 2;
	default:
		return ((uint64_t)rand_r(seed) << 32) ^ rand_r(seed);
	}
}

static uint64_t pick_len(unsigned int *seed, size_t len)
{
	static const uint64_t hostile[] = {
		0, 1, 4095, 4096, 4097, ~0ULL, ~0ULL - 4095, 1ULL << 47,
		1ULL << 63,
	};
	unsigned int r = rand_r(seed);

	if (r % 2)
		return hostile[(r >> 1) % (sizeof(hostile) / sizeof(*hostile))];
	return rand_r(seed) % (2 * len);
}

TEST(random_ioctls)
{
	static const unsigned long cmds[] = {
		MIRROR_IOC_MAP, MIRROR_IOC_READ, MIRROR_IOC_STATS,
		MIRROR_IOC_RESET, _IOW(MIRROR_IOC_MAGIC, 99, struct mirror_io),
		0, ~0UL,
	};
	long count = getenv("FUZZ_IOCTLS") ? atol(getenv("FUZZ_IOCTLS")) :
					     100000;
	size_t len = NR_PAGES * sysconf(_SC_PAGESIZE);
	long refused = 0, accepted = 0, odd = 0;
	unsigned int seed = 2017;
	char *valid;
	int fd;

	fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	ASSERT_GE(fd, 0);
	/*
	 * Random pointers near the valid buffer land in PROT_NONE guards, so
	 * the kernel can never be made to write over the test's own memory.
	 */
	valid = mmap(NULL, 3 * len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		     -1, 0);
	ASSERT_NE(valid, MAP_FAILED);
	valid += len;
	ASSERT_EQ(mprotect(valid, len, PROT_READ | PROT_WRITE), 0);
	memset(valid, 0x42, len);

	for (long i = 0; i < count; i++) {
		unsigned long cmd = cmds[rand_r(&seed) %
					 (sizeof(cmds) / sizeof(*cmds))];
		struct mirror_io io = {
			.addr = pick_addr(&seed, valid, len),
			.len = pick_len(&seed, len),
			.buf = pick_addr(&seed, valid, len),
		};
		void *arg = rand_r(&seed) % 8 ? (void *)&io :
			    (void *)(uintptr_t)pick_addr(&seed, valid, len);

		if (cmd == MIRROR_IOC_STATS && arg == &io)
			continue;	/* would overflow io on the stack */
		if (!ioctl(fd, cmd, arg)) {
			accepted++;
			continue;
		}
		switch (errno) {
		case EFAULT: case EINVAL: case ENOTTY: case ENXIO:
		case ENOMEM:
			refused++;
			break;
		default:
			odd++;
			fprintf(stderr, "# cmd %#lx: unexpected errno %d\n",
				cmd, errno);
		}
	}
	printf("# %ld ioctls: %ld refused, %ld accepted, %ld odd errors\n",
	       count, refused, accepted, odd);
	EXPECT_EQ(odd, 0);
	EXPECT_GT(refused, count / 2);
	close(fd);
}

TEST_HARNESS_MAIN
