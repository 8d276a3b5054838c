// SPDX-License-Identifier: GPL-2.0
/*
 * readlat: how long reads of a file take, as a user of /proc/mstat sees
 * them. Reads FILE to its end COUNT times (open, read, close each time),
 * pinned to CPU if one is given, and prints one line:
 *
 *   reads=COUNT p50_us=.. p99_us=.. max_us=.. mean_us=.. min_ns=.. p50_ns=..
 *
 * (in a guest under qemu -icount shift=0,sleep=off, a ns is an
 * instruction: min_ns and p50_ns are then instructions per read)
 *
 *   readlat FILE COUNT|MSms [CPU]
 *
 * Times are CLOCK_MONOTONIC around each open-read-close. Exits 0, or 1 if
 * a read failed (with "readlat: FILE: <strerror>"), 2 on usage errors.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_COUNT	1000000

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* Read @path to its end once; 0 or an errno. */
static int read_once(const char *path)
{
	static char buf[65536];
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	do {
		n = read(fd, buf, sizeof(buf));
	} while (n > 0 || (n < 0 && errno == EINTR));
	if (n < 0)
		err = errno;
	close(fd);
	return err;
}

int main(int argc, char **argv)
{
	unsigned long long *lat, t0, until = 0, sum = 0;
	long count, i;
	cpu_set_t set;
	char *end;
	int err;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: readlat FILE COUNT|MSms [CPU]\n");
		return 2;
	}
	count = strtol(argv[2], &end, 10);
	if (!strcmp(end, "ms") && count >= 1 && count <= 3600000) {
		until = count * 1000000ULL;
		count = MAX_COUNT;
	} else if (*end || count < 1 || count > MAX_COUNT) {
		fprintf(stderr, "readlat: COUNT: 1 to %d, or 1ms to 3600000ms\n",
			MAX_COUNT);
		return 2;
	}
	if (argc == 4) {
		long cpu = strtol(argv[3], &end, 10);

		if (*end || cpu < 0 || cpu >= CPU_SETSIZE) {
			fprintf(stderr, "readlat: CPU: not a CPU number\n");
			return 2;
		}
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "readlat: CPU %ld: %s\n", cpu,
				strerror(errno));
			return 2;
		}
	}
	lat = calloc(count, sizeof(*lat));
	if (!lat) {
		fprintf(stderr, "readlat: out of memory\n");
		return 2;
	}
	if (until)
		until += now_ns();
	for (i = 0; i < count; i++) {
		t0 = now_ns();
		if (until && t0 >= until) {
			count = i;
			break;
		}
		err = read_once(argv[1]);
		lat[i] = now_ns() - t0;
		if (err) {
			fprintf(stderr, "readlat: %s: %s\n", argv[1],
				strerror(err));
			return 1;
		}
		sum += lat[i];
	}
	if (!count) {
		fprintf(stderr, "readlat: no read in the time given\n");
		return 1;
	}
	qsort(lat, count, sizeof(*lat), cmp_ull);
	printf("reads=%ld p50_us=%llu p99_us=%llu max_us=%llu mean_us=%llu min_ns=%llu p50_ns=%llu\n",
	       count, lat[count / 2] / 1000, lat[count * 99 / 100] / 1000,
	       lat[count - 1] / 1000, sum / count / 1000, lat[0],
	       lat[count / 2]);
	return 0;
}
