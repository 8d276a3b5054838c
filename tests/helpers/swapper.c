// SPDX-License-Identifier: GPL-2.0
/*
 * swapper - anonymous memory pushed out to swap and read back, for the
 * memory account's swap truth (scripts/guest/swap.sh).
 *
 *   swapper MIB
 *	maps MIB MiB of anonymous memory without transparent huge pages
 *	(MADV_NOHUGEPAGE), writes each page's number into it, and, once
 *	every page is written, reads them all back and checks them: run in
 *	a memory cgroup smaller than MIB, the kernel reclaims the pages to
 *	swap as they are written, and the reads fault them back in through
 *	the swap cache. Then prints "ready PAGES" and waits for its
 *	standard input to end before it exits, the pages still mapped.
 *	Exit status: 0, or 1 with a line on standard error (a page read
 *	back wrong among them).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long mib = argc == 2 ? strtol(argv[1], NULL, 10) : 0;
	long page = sysconf(_SC_PAGESIZE), n, i;
	unsigned char *p;
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
	return 0;
}
