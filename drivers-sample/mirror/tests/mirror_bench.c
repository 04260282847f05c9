// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest micro-benchmark of the compat glue against a glue written without
 * compat/ (mirror built with MIRROR_BENCH=1: one module, the glue chosen per
 * open file by /sys/module/mirror/parameters/native).
 *
 * Each workload runs in rounds of ROUND_NS, alternating the glues in ABBA
 * order (compat, native, native, compat, ...) so that a linear drift of the
 * emulated machine's speed falls on both alike. A round opens the device,
 * maps NR_PAGES pages into it and repeats a cycle of "map into the device,
 * make the kernel invalidate them"; its figure is notifier invalidations
 * (range_start + secondary-TLB + invalidate_page calls, from the driver's
 * stats) per second. The medians of the two glues are compared:
 *
 *   dontneed: touch, map, then MADV_DONTNEED page by page (range_start);
 *   migrate:  map, then move_pages() to the other NUMA node (on a kernel
 *             with invalidate_page, the re-created 4.11-4.12 rmap path: the
 *             compat trampoline against a hand-written invalidate_page).
 *
 * Target: compat at most 2% slower where the native glue saw no
 * invalidate_page call (the table is the same there), 10% where it did. A
 * run passes if the slowdown is within target + margin, margin being two
 * standard errors of the difference of the medians (from the rounds' median
 * absolute deviations), but never more than the target itself: a run noisier
 * than that fails rather than proving nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "mirror_uapi.h"

#define NR_PAGES	64
#define PAIRS		6		/* ABBA blocks: 2 * PAIRS rounds a glue */
#define ROUNDS		(2 * PAIRS)
#define ROUND_NS	50000000LL	/* at least, and at least MIN_CYCLES */
#define MIN_CYCLES	3
#define MPOL_MF_MOVE	(1 << 1)
#define PARAM		"/sys/module/mirror/parameters/native"

enum glue { COMPAT, NATIVE };

struct round {
	double rate;		/* invalidations per second */
	uint64_t via_page;	/* of them, invalidate_page calls */
	long cycles;
};

struct workload {
	const char *name;
	/* One cycle on buf; false on an error. */
	bool (*cycle)(int fd, char *buf, size_t page, long n);
};

static int dev_map(int fd, void *addr, size_t len)
{
	struct mirror_io io = { .addr = (uintptr_t)addr, .len = len };

	return ioctl(fd, MIRROR_IOC_MAP, &io) ? -errno : 0;
}

static bool cycle_dontneed(int fd, char *buf, size_t page, long n)
{
	for (int i = 0; i < NR_PAGES; i++)
		buf[i * page] = (char)(n + i);
	if (dev_map(fd, buf, NR_PAGES * page))
		return false;
	for (int i = 0; i < NR_PAGES; i++)
		if (madvise(buf + i * page, page, MADV_DONTNEED))
			return false;
	return true;
}

static bool cycle_migrate(int fd, char *buf, size_t page, long n)
{
	void *pages[NR_PAGES];
	int nodes[NR_PAGES], status[NR_PAGES];

	if (dev_map(fd, buf, NR_PAGES * page))
		return false;
	for (int i = 0; i < NR_PAGES; i++) {
		pages[i] = buf + i * page;
		nodes[i] = n & 1;
	}
	return syscall(SYS_move_pages, 0, NR_PAGES, pages, nodes, status,
		       MPOL_MF_MOVE) == 0;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static bool set_glue(enum glue g)
{
	int fd = open(PARAM, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, g == NATIVE ? "1" : "0", 1) == 1;
	close(fd);
	return ok;
}

static bool one_round(const struct workload *w, enum glue g, struct round *r)
{
	size_t page = sysconf(_SC_PAGESIZE), len = NR_PAGES * page;
	struct mirror_stats st;
	long long t0, t;
	bool ok = false;
	char *buf;
	int fd;

	if (!set_glue(g))
		return false;
	fd = open("/dev/" MIRROR_DEVICE_NAME, O_RDWR);
	if (fd < 0)
		return false;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		goto out_close;
	memset(buf, 1, len);
	/* A warm-up cycle, then the timed ones. */
	if (!w->cycle(fd, buf, page, 0) || ioctl(fd, MIRROR_IOC_RESET))
		goto out_unmap;
	r->cycles = 0;
	t0 = now_ns();
	do {
		if (!w->cycle(fd, buf, page, ++r->cycles))
			goto out_unmap;
		t = now_ns();
	} while (t - t0 < ROUND_NS || r->cycles < MIN_CYCLES);
	if (ioctl(fd, MIRROR_IOC_STATS, &st))
		goto out_unmap;
	r->via_page = st.calls[MIRROR_CB_INVALIDATE_PAGE];
	r->rate = (st.calls[MIRROR_CB_RANGE_START] +
		   st.calls[MIRROR_CB_SECONDARY_TLBS] + r->via_page) *
		  1e9 / (double)(t - t0);
	ok = true;
out_unmap:
	munmap(buf, len);
out_close:
	close(fd);
	return ok;
}

/* The guest tests link without libm. */
static double root(double x)
{
	double r = x > 1 ? x : 1;

	if (x <= 0)
		return 0;
	for (int i = 0; i < 64; i++)
		r = (r + x / r) / 2;
	return r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[ROUNDS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Standard error of the median, relative to it, from the MAD. */
static double rel_se_median(const double *v, int n)
{
	double m = median(v, n), dev[ROUNDS];

	for (int i = 0; i < n; i++)
		dev[i] = v[i] > m ? v[i] - m : m - v[i];
	return 1.2533 * 1.4826 * median(dev, n) / m / root(n);
}

/* Run one workload; print its figures; return its KTAP verdict. */
static bool run_workload(const struct workload *w, int num)
{
	double rate[2][ROUNDS], med[2], se[2], slow, margin, target;
	uint64_t via_page[2] = { 0, 0 };
	int k[2] = { 0, 0 };
	struct round r;

	for (int i = 0; i < 2 * ROUNDS; i++) {
		/* ABBA: compat, native, native again, compat, ... */
		enum glue g = ((i + 1) / 2) % 2 ? NATIVE : COMPAT;

		if (!one_round(w, g, &r)) {
			printf("# bench: %s: round %d failed: %s\n", w->name, i,
			       strerror(errno));
			printf("not ok %d bench.%s\n", num, w->name);
			return false;
		}
		rate[g][k[g]++] = r.rate;
		via_page[g] += r.via_page;
	}
	set_glue(COMPAT);
	for (int g = 0; g < 2; g++) {
		printf("# bench: %s: %s rounds (invalidations/s):", w->name,
		       g == NATIVE ? "native" : "compat");
		for (int i = 0; i < ROUNDS; i++)
			printf(" %.0f", rate[g][i]);
		printf("\n");
		med[g] = median(rate[g], ROUNDS);
	}
	/* The native glue hears of the event through invalidate_page. */
	target = via_page[NATIVE] ? 0.10 : 0.02;
	slow = 1 - med[COMPAT] / med[NATIVE];
	se[COMPAT] = rel_se_median(rate[COMPAT], ROUNDS);
	se[NATIVE] = rel_se_median(rate[NATIVE], ROUNDS);
	margin = 2 * root(se[COMPAT] * se[COMPAT] + se[NATIVE] * se[NATIVE]);
	if (margin > target)
		margin = target;
	printf("# bench: %s: compat %.0f/s native %.0f/s (medians of %d rounds, %s path), compat slower by %.2f%% (target %.0f%%, noise margin %.2f%%)\n",
	       w->name, med[COMPAT], med[NATIVE], ROUNDS,
	       via_page[NATIVE] ? "invalidate_page" : "range", 100 * slow,
	       100 * target, 100 * margin);
	printf("%sok %d bench.%s\n", slow <= target + margin ? "" : "not ",
	       num, w->name);
	return slow <= target + margin;
}

int main(void)
{
	static const struct workload dontneed = { "dontneed", cycle_dontneed };
	static const struct workload migrate = { "migrate", cycle_migrate };
	int status[1];
	void *probe;
	bool ok;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n1..2\n");
	if (access(PARAM, W_OK)) {
		printf("ok 1 bench.dontneed # SKIP mirror not built with MIRROR_BENCH=1\n");
		printf("ok 2 bench.migrate # SKIP mirror not built with MIRROR_BENCH=1\n");
		return 0;
	}
	/*
	 * Let the boot's deferred work finish first: on deb-6.12 with one CPU
	 * it took half the guest's time for the first second of rounds
	 * (sleeping is free under -icount sleep=off; a warm-up round of each
	 * glue follows).
	 */
	sleep(3);
	for (int g = COMPAT; g <= NATIVE; g++) {
		struct round r;

		if (!one_round(&dontneed, g, &r))
			printf("# bench: warm-up round failed: %s\n",
			       strerror(errno));
	}
	ok = run_workload(&dontneed, 1);
	probe = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (probe == MAP_FAILED ||
	    syscall(SYS_move_pages, 0, 1, &probe, NULL, status, 0) ||
	    access("/sys/devices/system/node/node1", F_OK))
		printf("ok 2 bench.migrate # SKIP one NUMA node only\n");
	else
		ok &= run_workload(&migrate, 2);
	return ok ? 0 : 1;
}
