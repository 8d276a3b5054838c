// SPDX-License-Identifier: GPL-2.0
/*
 * huge - huge pages of known size made by a user process, for the page
 * kinds' truth (scripts/guest/kinds.sh): each mode makes MIB MiB (a
 * multiple of 2), then prints "ready BYTES HUGE" (HUGE: the bytes of
 * them the kernel says are huge pages) and waits for its standard input
 * to end before it exits, what it made still held.
 *
 *   huge shmem PATH MIB
 *	writes MIB MiB to the new file PATH (on a tmpfs mounted huge=always
 *	its pages are 2 MiB folios: shmem_alloc_hugefolio() or
 *	shmem_alloc_folio() by kernel); HUGE is left to the caller
 *	(meminfo's ShmemHugePages), printed as 0. The file outlives it.
 *   huge thp MIB
 *	maps MIB MiB of anonymous memory on a 2 MiB boundary, asks for huge
 *	pages (MADV_HUGEPAGE) and writes a byte to each page: each 2 MiB is
 *	one fault, do_huge_pmd_anonymous_page(). HUGE: the mapping's
 *	AnonHugePages in /proc/self/smaps.
 *   huge collapse MIB
 *	the same mapping written page by page as small pages (run it with
 *	the system's THP setting "never"; it fails if any came huge), then
 *	collapsed by MADV_COLLAPSE (6.1 on): collapse_huge_page() in this
 *	process. Exit status 2, and "skip MADV_COLLAPSE: ..." on standard
 *	output, where the kernel has no MADV_COLLAPSE (EINVAL).
 *
 * Exit status: 0, 2 as above, or 1 with a line on standard error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25	/* include/uapi/asm-generic/mman-common.h, 6.1 */
#endif

#define HUGE_SIZE	(2L << 20)

/* The AnonHugePages of the mapping that holds @p, in bytes; -1 if none. */
static long anon_huge(const void *p)
{
	char line[256];
	unsigned long start, end;
	long kb = -1;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = start <= (uintptr_t)p && (uintptr_t)p < end;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb < 0 ? -1 : kb << 10;
}

/* @len bytes of anonymous memory on a HUGE_SIZE boundary. */
static char *map_aligned(long len)
{
	char *p = mmap(NULL, len + HUGE_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + HUGE_SIZE - 1) & ~(uintptr_t)(HUGE_SIZE - 1);
	/* Only the aligned part left mapped: smaps shows it alone. */
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	munmap((char *)a + len, (uintptr_t)p + HUGE_SIZE - a);
	return (char *)a;
}

static int shmem(const char *path, long len)
{
	static char buf[1 << 16];
	long done = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd < 0) {
		perror("huge: open");
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	while (done < len) {
		ssize_t n = write(fd, buf, sizeof(buf));

		if (n <= 0) {
			perror("huge: write");
			return 1;
		}
		done += n;
	}
	if (close(fd)) {
		perror("huge: close");
		return 1;
	}
	printf("ready %ld 0\n", len);
	return 0;
}

static int anon(long len, int collapse)
{
	long page = sysconf(_SC_PAGESIZE), i, huge;
	char *p = map_aligned(len);

	if (!p) {
		perror("huge: mmap");
		return 1;
	}
	if (!collapse && madvise(p, len, MADV_HUGEPAGE)) {
		perror("huge: MADV_HUGEPAGE");
		return 1;
	}
	for (i = 0; i < len; i += page)
		p[i] = 1;
	huge = anon_huge(p);
	if (!collapse) {
		printf("ready %ld %ld\n", len, huge);
		return 0;
	}
	if (huge != 0) {
		fprintf(stderr, "huge: %ld bytes came huge before the collapse (THP not \"never\"?)\n",
			huge);
		return 1;
	}
	if (madvise(p, len, MADV_COLLAPSE)) {
		if (errno == EINVAL) {
			printf("skip MADV_COLLAPSE: EINVAL (before 6.1)\n");
			fflush(stdout);
			return 2;
		}
		perror("huge: MADV_COLLAPSE");
		return 1;
	}
	printf("ready %ld %ld\n", len, anon_huge(p));
	return 0;
}

int main(int argc, char **argv)
{
	long mib = argc >= 3 ? strtol(argv[argc - 1], NULL, 10) : 0;
	int rc = 1;
	char c;

	if (mib <= 0 || mib > 4096 || mib % 2 ||
	    !((argc == 4 && !strcmp(argv[1], "shmem")) ||
	      (argc == 3 && !strcmp(argv[1], "thp")) ||
	      (argc == 3 && !strcmp(argv[1], "collapse")))) {
		fprintf(stderr, "usage: huge shmem PATH MIB | huge thp MIB | huge collapse MIB (MIB even, 2 to 4096)\n");
		return 1;
	}
	if (!strcmp(argv[1], "shmem"))
		rc = shmem(argv[2], mib << 20);
	else
		rc = anon(mib << 20, !strcmp(argv[1], "collapse"));
	fflush(stdout);
	if (rc)
		return rc;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
