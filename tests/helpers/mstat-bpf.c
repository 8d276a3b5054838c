// SPDX-License-Identifier: GPL-2.0
/*
 * mstat-bpf: load one set of the eBPF comparison's programs
 * (tests/bpf/mstat_bpf.bpf.c, built in: see tests/bpf/mstat_bpf.h for
 * the sets; tests/bpf/Makefile builds it), attach them
 * to kmem:kmalloc and kmem:kfree, and say what they counted.
 *
 *   mstat-bpf counters|sized [-r FILE] [-t READS [-c CPU] [-s USEC]]
 *
 * Attaches, prints "bpf: set=S attached" (and creates FILE, with -r) and
 * waits for signals. On SIGTERM or SIGINT it detaches and prints, per
 * class, what the programs counted (all CPUs summed), then per program
 * its JIT image's size and its recursion_misses (events it skipped
 * because it was already running on that CPU), and last
 *
 *   bpf: set=S allocs=N frees=N unsized_frees=N untracked=N events=N recursion_misses=N
 *
 * then checks that no program of its own is still loaded. Exit status: 0,
 * or 1 if anything failed; 2 on usage, or outside a guest: it runs only
 * where scripts/guest.sh put a guest script (/mstat/run.sh), never on the
 * host.
 *
 * With -t READS, SIGUSR1 starts the torn-read test: on CPU CPU (default:
 * the last), READS reads of the per-CPU cells, each the way userspace
 * reads a per-CPU map, one lookup per class copying one CPU's cell after
 * another. Each read is checked against what any one moment's counts
 * satisfy: per class below "large", bytes = allocs * size (and, sized
 * set, bytes_freed = frees * size); sized set, per class, frees <=
 * allocs (a free counts only if its allocation was recorded, after it).
 * Prints
 *
 *   torn: set=S reads=N torn_reads=N bytes_mismatch=N frees_over_allocs=N
 *
 * (torn_reads: the reads that broke any of them) and goes on waiting.
 * With -s USEC, each CPU's cell is copied by a lookup of its own, USEC
 * apart (S is then "S-slow"): a read torn on purpose, to show that the
 * checks catch one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "mstat_bpf.h"

/* The programs' object file, built in (see tests/bpf/Makefile). */
asm(".pushsection .rodata\n"
	".balign 8\n"
	"mstat_bpf_obj:\n"
	".incbin \"" MSTAT_BPF_OBJ "\"\n"
	"mstat_bpf_obj_end:\n"
	".popsection\n");
extern const char mstat_bpf_obj[], mstat_bpf_obj_end[];

static const __u64 class_size[MSTAT_BPF_NR_CLASSES - 1] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
};

static const char *const class_name[MSTAT_BPF_NR_CELLS] = {
	"8", "16", "32", "64", "96", "128", "192", "256", "512", "1k", "2k",
	"4k", "8k", "large", "unsized",
};

struct loaded {
	const char *set;
	bool sized;
	struct bpf_object *obj;
	int cells_fd;
	int ncpus;
	struct mstat_bpf_cell *percpu;	/* one lookup's buffer */
	struct bpf_program *prog[2];
	struct bpf_link *link[2];
	__u32 id[2];
};

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/*
 * read_cells: one read, every cell summed over the CPUs: one lookup per
 * cell, which copies one CPU's value after another. With slow_us, each
 * CPU's value comes from a lookup of its own, slow_us apart: a walk slow
 * enough to be torn, which shows the checks can see a torn read.
 */
static int read_cells(struct loaded *l,
		      struct mstat_bpf_cell sum[MSTAT_BPF_NR_CELLS],
		      long slow_us)
{
	__u32 c;
	int cpu;

	for (c = 0; c < MSTAT_BPF_NR_CELLS; c++) {
		memset(&sum[c], 0, sizeof(sum[c]));
		for (cpu = 0; cpu < l->ncpus; cpu++) {
			if ((!cpu || slow_us) &&
			    bpf_map_lookup_elem(l->cells_fd, &c, l->percpu)) {
				perror("mstat-bpf: lookup");
				return -1;
			}
			if (slow_us && cpu + 1 < l->ncpus)
				usleep(slow_us);
			sum[c].allocs += l->percpu[cpu].allocs;
			sum[c].bytes += l->percpu[cpu].bytes;
			sum[c].frees += l->percpu[cpu].frees;
			sum[c].bytes_freed += l->percpu[cpu].bytes_freed;
		}
	}
	return 0;
}

static int load(struct loaded *l)
{
	static const char *const names[2][2] = {
		{ "mstat_c_kmalloc", "mstat_c_kfree" },
		{ "mstat_s_kmalloc", "mstat_s_kfree" },
	};
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "mstat_bpf");
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	struct bpf_program *p;
	int i;

	l->obj = bpf_object__open_mem(mstat_bpf_obj,
				      mstat_bpf_obj_end - mstat_bpf_obj, &opts);
	if (!l->obj) {
		perror("mstat-bpf: open");
		return -1;
	}
	bpf_object__for_each_program(p, l->obj)
		bpf_program__set_autoload(p, false);
	for (i = 0; i < 2; i++) {
		l->prog[i] = bpf_object__find_program_by_name(l->obj,
							     names[l->sized][i]);
		if (!l->prog[i] || bpf_program__set_autoload(l->prog[i], true))
			return -1;
	}
	/* The counters set needs no hash. */
	if (!l->sized &&
	    bpf_map__set_autocreate(bpf_object__find_map_by_name(l->obj,
								 "sizes"),
				    false))
		return -1;
	if (bpf_object__load(l->obj)) {
		perror("mstat-bpf: load");
		return -1;
	}
	l->cells_fd = bpf_object__find_map_fd_by_name(l->obj, "cells");
	l->ncpus = libbpf_num_possible_cpus();
	if (l->cells_fd < 0 || l->ncpus <= 0)
		return -1;
	l->percpu = calloc(l->ncpus, sizeof(*l->percpu));
	if (!l->percpu)
		return -1;
	for (i = 0; i < 2; i++) {
		l->link[i] = bpf_program__attach(l->prog[i]);
		if (!l->link[i]) {
			perror("mstat-bpf: attach");
			return -1;
		}
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(l->prog[i]), &info,
					   &len))
			return -1;
		l->id[i] = info.id;
		printf("bpf: prog=%s id=%u jited_bytes=%u xlated_bytes=%u\n",
		       names[l->sized][i], info.id, info.jited_prog_len,
		       info.xlated_prog_len);
		if (!info.jited_prog_len) {
			fprintf(stderr, "mstat-bpf: %s is not JIT-compiled\n",
				names[l->sized][i]);
			return -1;
		}
	}
	return 0;
}

/* torn: the torn-read test, reads reads from CPU cpu (see read_cells). */
static int torn(struct loaded *l, long reads, int cpu, long slow_us)
{
	struct mstat_bpf_cell sum[MSTAT_BPF_NR_CELLS];
	long r, torn_reads = 0, bytes_bad = 0, frees_bad = 0, shown = 0;
	cpu_set_t set;
	int c;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("mstat-bpf: sched_setaffinity");
		return -1;
	}
	for (r = 0; r < reads; r++) {
		bool bad = false;

		if (read_cells(l, sum, slow_us))
			return -1;
		for (c = 0; c < MSTAT_BPF_NR_CLASSES; c++) {
			bool b = false, f = false;

			if (c < MSTAT_BPF_CLASS_LARGE)
				b = sum[c].bytes != sum[c].allocs * class_size[c] ||
				    (l->sized && sum[c].bytes_freed !=
				     sum[c].frees * class_size[c]);
			f = l->sized && sum[c].frees > sum[c].allocs;
			bytes_bad += b;
			frees_bad += f;
			if ((b || f) && shown++ < 5)
				printf("# torn read %ld class %s: allocs=%llu bytes=%llu frees=%llu bytes_freed=%llu\n",
				       r, class_name[c], sum[c].allocs,
				       sum[c].bytes, sum[c].frees,
				       sum[c].bytes_freed);
			bad |= b || f;
		}
		torn_reads += bad;
	}
	printf("torn: set=%s%s reads=%ld torn_reads=%ld bytes_mismatch=%ld frees_over_allocs=%s%ld\n",
	       l->set, slow_us ? "-slow" : "", reads, torn_reads, bytes_bad,
	       l->sized ? "" : "n/a:", frees_bad);
	fflush(stdout);
	return 0;
}

/* report: after the detach, the totals, per class and in all. */
static int report(struct loaded *l)
{
	struct mstat_bpf_cell sum[MSTAT_BPF_NR_CELLS];
	unsigned long long allocs = 0, frees = 0, misses = 0;
	struct bpf_prog_info info;
	__u32 len;
	int c, i;

	if (read_cells(l, sum, 0))
		return -1;
	for (c = 0; c < MSTAT_BPF_NR_CELLS; c++) {
		if (c < MSTAT_BPF_UNSIZED)
			allocs += sum[c].allocs;
		frees += sum[c].frees;
		if (!sum[c].allocs && !sum[c].frees)
			continue;
		printf("bpf: class=%s allocs=%llu bytes=%llu frees=%llu bytes_freed=%llu\n",
		       class_name[c], sum[c].allocs, sum[c].bytes,
		       sum[c].frees, sum[c].bytes_freed);
	}
	for (i = 0; i < 2; i++) {
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(bpf_program__fd(l->prog[i]), &info,
					   &len))
			return -1;
		printf("bpf: prog=%s recursion_misses=%llu\n",
		       bpf_program__name(l->prog[i]), info.recursion_misses);
		misses += info.recursion_misses;
	}
	printf("bpf: set=%s allocs=%llu frees=%llu unsized_frees=%llu untracked=%llu events=%llu recursion_misses=%llu\n",
	       l->set, allocs, frees, sum[MSTAT_BPF_UNSIZED].frees,
	       sum[MSTAT_BPF_UNSIZED].allocs, allocs + frees, misses);
	return 0;
}

/* gone: after the close, whether no program of ours is loaded any more. */
static bool gone(struct loaded *l)
{
	int i, try, fd;

	/* A program is freed once its last reference is put: give it 2 s. */
	for (try = 0; try < 20; try++) {
		bool any = false;

		for (i = 0; i < 2; i++) {
			fd = bpf_prog_get_fd_by_id(l->id[i]);
			if (fd >= 0) {
				close(fd);
				any = true;
			}
		}
		if (!any)
			return true;
		usleep(100000);
	}
	return false;
}

static void usage(void)
{
	fprintf(stderr, "usage: mstat-bpf counters|sized [-r FILE] [-t READS [-c CPU] [-s USEC]]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct loaded l = { 0 };
	const char *ready = NULL;
	long reads = 0, slow_us = 0;
	int cpu = -1, opt, sig, i, rc = 0;
	sigset_t sigs;

	/* Never on the host: only where scripts/guest.sh put a guest script. */
	if (access("/mstat/run.sh", F_OK)) {
		fprintf(stderr, "mstat-bpf: not in an mstat guest (no /mstat/run.sh): refusing to load BPF programs here\n");
		return 2;
	}
	if (argc < 2)
		usage();
	l.set = argv[1];
	if (!strcmp(l.set, "sized"))
		l.sized = true;
	else if (strcmp(l.set, "counters"))
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "r:t:c:s:")) != -1) {
		switch (opt) {
		case 'r':
			ready = optarg;
			break;
		case 't':
			reads = atol(optarg);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 's':
			slow_us = atol(optarg);
			break;
		default:
			usage();
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(libbpf_quiet);

	/* Signals are taken by sigwait() alone, blocked from the start. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGUSR1);
	sigprocmask(SIG_BLOCK, &sigs, NULL);

	if (load(&l))
		return 1;
	if (cpu < 0)
		cpu = l.ncpus - 1;
	printf("bpf: set=%s attached\n", l.set);
	if (ready)
		close(open(ready, O_WRONLY | O_CREAT, 0644));
	for (;;) {
		if (sigwait(&sigs, &sig))
			return 1;
		if (sig != SIGUSR1)
			break;
		if (reads > 0 && torn(&l, reads, cpu, slow_us))
			rc = 1;
	}
	for (i = 0; i < 2; i++) {
		if (bpf_link__destroy(l.link[i])) {
			perror("mstat-bpf: detach");
			rc = 1;
		}
	}
	if (report(&l))
		rc = 1;
	bpf_object__close(l.obj);
	if (gone(&l)) {
		printf("bpf: set=%s detached\n", l.set);
	} else {
		fprintf(stderr, "mstat-bpf: a program is still loaded after the close\n");
		rc = 1;
	}
	free(l.percpu);
	return rc;
}
