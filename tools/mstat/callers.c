// SPDX-License-Identifier: GPL-2.0
/*
 * Rows summed by their caller (callers.h): one table for mstat memory
 * --by caller's vm areas, percpu and slab objects, and the owners'
 * series, so that each lists its largest callers and the rest the same
 * way.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callers.h"

struct mstat_caller *mstat_callers_add(struct mstat_callers *cs,
				       const char *name)
{
	long i = mstat_strmap_add(&cs->m, name);

	if ((size_t)i == cs->n) {
		cs->c = mstat_alloc(cs->c, (cs->n + 1) * sizeof(*cs->c));
		memset(&cs->c[cs->n], 0, sizeof(*cs->c));
		snprintf(cs->c[cs->n].name, sizeof(cs->c[cs->n].name), "%s",
			 name);
		cs->n++;
	}
	return &cs->c[i];
}

static int mstat_caller_cmp(const void *x, const void *y)
{
	const struct mstat_caller *a = x, *b = y;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	return strcmp(a->name, b->name);
}

void mstat_callers_top(struct mstat_callers *cs, size_t top, const char *rest)
{
	struct mstat_caller r = { 0 };
	size_t i;

	mstat_strmap_free(&cs->m);
	qsort(cs->c, cs->n, sizeof(*cs->c), mstat_caller_cmp);
	if (cs->n <= top)
		return;
	snprintf(r.name, sizeof(r.name), "%s", rest);
	for (i = top; i < cs->n; i++) {
		r.bytes += cs->c[i].bytes;
		r.count += cs->c[i].count;
		r.since_bytes += cs->c[i].since_bytes;
		r.since_count += cs->c[i].since_count;
		r.allocs += cs->c[i].allocs;
		r.frees += cs->c[i].frees;
		r.var += cs->c[i].var;
	}
	cs->c[top] = r;
	cs->n = top + 1;
}

void mstat_callers_free(struct mstat_callers *cs)
{
	mstat_strmap_free(&cs->m);
	free(cs->c);
	cs->c = NULL;
	cs->n = 0;
}
