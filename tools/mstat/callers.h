/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rows summed by their caller (callers.c): what mstat memory --by caller
 * lists and the owners' series give, each kind of memory its fields of
 * struct mstat_caller; the largest first, the rest as one.
 */
#ifndef MSTAT_CALLERS_H
#define MSTAT_CALLERS_H

#include <stddef.h>

#include "util.h"

/**
 * struct mstat_caller - one caller's memory, summed over its rows
 * @name: the caller, "FUNC" or "FUNC [MODULE]", or what stands for several
 * @kind: what its memory is (vmcallers.c's "BPF maps"), or NULL
 * @cache: a slab caller's cache (its first row's), "" if none
 * @bytes: the sort key: its bytes
 * @count: its areas (vmalloc), or its samples (slab)
 * @since_bytes: of @bytes, the vm areas' counted since load
 * @since_count: how many such areas
 * @allocs: objects allocated since load (percpu)
 * @frees: of them, freed
 * @var: a sampled @bytes' variance
 */
struct mstat_caller {
	char name[128];
	const char *kind;
	char cache[64];
	long long bytes, count, since_bytes, since_count, allocs, frees;
	double var;
};

/* Callers by name: @c[0..@n), @m their names' index. */
struct mstat_callers {
	struct mstat_strmap m;
	struct mstat_caller *c;
	size_t n;
};

/* The caller @name of @cs, made (zero, with its name) if new. */
struct mstat_caller *mstat_callers_add(struct mstat_callers *cs,
				       const char *name);
/*
 * @cs's callers by bytes, the largest first (then by name), the @top
 * first kept and the rest summed into one named @rest; its name index
 * freed (no add after).
 */
void mstat_callers_top(struct mstat_callers *cs, size_t top, const char *rest);
void mstat_callers_free(struct mstat_callers *cs);

#endif /* MSTAT_CALLERS_H */
