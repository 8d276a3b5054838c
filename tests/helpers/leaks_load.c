// SPDX-License-Identifier: GPL-2.0
/*
 * leaks_load - the workloads the leak guests run beside a watch, in the
 * `leaks` program (leaks.c's -b and -d; scripts/guest/leaks.sh).
 */
#define _DEFAULT_SOURCE		/* MAP_ANONYMOUS, and POSIX 2008 */

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "leaks_load.h"

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

/* Read @path to its end; quietly nothing if it cannot be opened. */
static void slurp(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

/* 1 MiB mapped, each page touched, unmapped. */
static void touch_map(void)
{
	char *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (m == MAP_FAILED)
		return;
	for (i = 0; i < 1 << 20; i += 4096)
		m[i] = 1;
	munmap(m, 1 << 20);
}

/* What the busy workload reads of /sys: present on every kernel. */
static const char *const sys_files[] = {
	"/sys/kernel/slab/kmalloc-64/object_size",
	"/sys/kernel/slab/dentry/objects",
	"/sys/kernel/mm/transparent_hugepage/enabled",
	"/sys/devices/system/cpu/online",
};

void busy_loop(void)
{
	static char buf[4096];
	char path[512];
	int i, fd, p[2];

	for (;;) {
		for (i = 0; i < 8; i++) {
			snprintf(path, sizeof(path), "/tmp/busy.%d", i);
			fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
			if (fd >= 0) {
				if (write(fd, buf, sizeof(buf)) < 0)
					perror("leaks: busy write");
				close(fd);
			}
		}
		slurp("/proc/meminfo");
		slurp("/proc/self/status");
		slurp("/proc/slabinfo");
		/*
		 * Fixed names of /sys, whose dentries the first round makes
		 * and later ones find. A walk of /sys/kernel/slab made one
		 * for each cache created since, kept by the dcache: the open
		 * path's dentries then grew beside the files' churn on the
		 * same stack, and a verdict named them (1 run in 3).
		 */
		for (i = 0; i < (int)(sizeof(sys_files) / sizeof(*sys_files)); i++)
			slurp(sys_files[i]);
		for (i = 0; i < 8; i++) {
			snprintf(path, sizeof(path), "/tmp/busy.%d", i);
			unlink(path);
		}
		if (!pipe(p)) {
			if (write(p[1], buf, sizeof(buf)) < 0 ||
			    read(p[0], buf, sizeof(buf)) < 0)
				perror("leaks: busy pipe");
			close(p[0]);
			close(p[1]);
		}
		touch_map();
		nap(20);
	}
}

int drive(const char *control)
{
	int fd;

	for (;;) {
		fd = open(control, O_WRONLY);
		if (fd < 0)
			return 0;
		if (write(fd, "cgroup\n", 7) != 7) {
			close(fd);
			return 0;
		}
		close(fd);
		nap(100);
	}
}

