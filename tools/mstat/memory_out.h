/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat memory's account (memory.c builds it) and its outputs
 * (memory_out.c): text, JSON, and the Prometheus series besides the
 * account's lines.
 */
#ifndef MSTAT_MEMORY_OUT_H
#define MSTAT_MEMORY_OUT_H

#include <stdio.h>

#include "owners.h"
#include "pages.h"
#include "parse.h"
#include "vmcallers.h"

/* /proc/meminfo's lines this account reads, in bytes; -1 if absent. */
enum {
	MI_TOTAL, MI_FREE, MI_VMALLOC_USED, MI_PERCPU, MI_HUGETLB,
	MI_KERNEL_STACK, MI_SLAB, MI_NR
};

#define MAX_LINES	48

/* Whose figure a line is: its from="..." label in Prometheus. */
enum line_from { FROM_KERNEL, FROM_MEMINFO, FROM_MSTAT, FROM_SUM, FROM_REST };

/* The label of each: mstat_memory_from[FROM_KERNEL] is "kernel". */
extern const char *const mstat_memory_from[FROM_REST + 1];

struct line {
	int depth;
	const char *name;
	const char *key;	/* its place in the tree: line="..." */
	enum line_from kind;
	long long bytes;
	char from[160];
};

#define KEY_LEN		32

struct account {
	struct line l[MAX_LINES];
	int n;
	char keys[4][KEY_LEN];	/* counted()'s */
	int nkeys;
	long long total, unexplained;
	long long bound;	/* lag_bound()'s, -1 unknown */
	long long pcpu_first;	/* percpu_first_chunk()'s, -1 unknown */
	long long pcpu_static;
	long long gen;
};

/* The account as text: its lines, then the checks beside them. */
void mstat_memory_text(const struct account *a, const long long mi[MI_NR],
		       const struct mstat_snap *s,
		       const struct mstat_page_samples *ps, const char *sites);
/*
 * Whose the account's memory is, as --by caller and --cgroup ask: each
 * NULL when not asked (or, @pc, without an owners file).
 */
struct mstat_memory_whose {
	const struct mstat_vm_callers *vc;
	const struct mstat_pcpu_callers *pc;
	const struct mstat_slab_callers *sc;
	const struct mstat_cg_table *cg;
};

/*
 * The account as one JSON object, its page samples' estimates with it,
 * and @w's parts as "vmalloc_by_caller", "percpu_by_caller",
 * "slab_by_caller" and "by_cgroup".
 */
void mstat_memory_json(const struct account *a,
		       const struct mstat_page_samples *ps,
		       const struct mstat_memory_whose *w);
/* The raw pages the profile sampled, by caller, as Prometheus series. */
void mstat_memory_raw_prom(FILE *f, const struct mstat_page_samples *ps);
/* The unexplained line's bound and the snapshot's age beside meminfo. */
void mstat_memory_moment_prom(FILE *f, const struct account *a,
			      const struct mstat_snap *s,
			      const long long mi[MI_NR]);

#endif /* MSTAT_MEMORY_OUT_H */
