// SPDX-License-Identifier: GPL-2.0
/*
 * swapper - anonymous memory pushed out to swap and read back, for the
 * memory account's swap truth (scripts/guest/swap.sh).
 *
 *   swapper MIB
 *	maps MIB MiB of anonymous memory without transparent huge pages
 *	(MADV_NOHUGEPAGE), writes each page's number into it, then forks a
 *	child that keeps a copy of the mapping, and reads every page back
 *	and checks it: run in a memory cgroup smaller than MIB, the kernel
 *	reclaims the pages to swap as they are written, and the reads fault
 *	them back in through the swap cache (the child's share of each swap
 *	entry keeps it there: on a synchronous device such as zram a page
 *	of one owner would bypass the swap cache). Then prints "ready
 *	PAGES" and waits for its standard input to end before it exits, the
 *	pages still mapped, the child with it.
 *	Exit status: 0, or 1 with a line on standard error (a page read
 *	back wrong among them).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long mib = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
	long page = sysconf(_SC_PAGESIZE), n, i;
	unsigned char *p;
	pid_t child;
	char c;

	if (mib <= 0 || mib > 4096) {
		fprintf(stderr, "usage: swapper MIB (1 to 4096)\n");
		return 1;
	}
	n = (mib << 20) / page;
	p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("swapper: mmap");
		return 1;
	}
	madvise(p, n * page, MADV_NOHUGEPAGE);
	for (i = 0; i < n; i++)
		*(long *)(p + i * page) = i;
	child = fork();
	if (child < 0) {
		perror("swapper: fork");
		return 1;
	}
	if (!child) {
		while (read(0, &c, 1) > 0)
			;
		_exit(0);
	}
	for (i = 0; i < n; i++) {
		if (*(long *)(p + i * page) != i) {
			fprintf(stderr, "swapper: page %ld read back wrong\n", i);
			return 1;
		}
	}
	printf("ready %ld\n", n);
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	waitpid(child, NULL, 0);
	return 0;
}
