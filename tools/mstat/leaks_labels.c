// SPDX-License-Identifier: GPL-2.0
/*
 * What every form of mstat leaks' verdict says of a stack alike: the
 * labels of its leak-like samples (cgroups, nodes, caches, and the
 * containers, pods and units a fleet's cgroup paths name), and the
 * order of the suspects. Below leaks_out.c and leaks_prom.c, which
 * write them.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "json.h"
#include "leaks_int.h"
#include "slab.h"
#include "util.h"

bool mstat_leak_row_counts(const struct mstat_leaks *lk,
			   const struct mstat_leak_row *rw)
{
	const struct mstat_leak_stack *s = &lk->st[rw->stack];
	size_t j;

	if (rw->seen != lk->reads - 1)
		return false;
	for (j = 0; j < rw->n; j++)
		if (mstat_leak_like(lk, &rw->obj[j], s->min_age))
			return true;
	return false;
}

/*
 * A fleet's label of cgroup @path, @which of MSTAT_LEAK_CONTAINERS, _PODS
 * and _UNITS, into @buf; NULL if its path does not say.
 */
static const char *mstat_leak_tag(const char *path, int which, bool json,
				  char *buf, size_t len)
{
	struct mstat_cgroup_tags t;

	if (!path || !mstat_cgroup_tags(path, &t))
		return NULL;
	switch (which) {
	case MSTAT_LEAK_CONTAINERS:
		if (!t.container_id[0])
			return NULL;
		snprintf(buf, len, "%s%s%.*s", t.runtime, t.runtime[0] ? ":" : "",
			 json ? 64 : 12, t.container_id);
		return buf;
	case MSTAT_LEAK_PODS:
		snprintf(buf, len, "%s", t.pod_uid);
		break;
	default:
		snprintf(buf, len, "%s", t.unit);
		break;
	}
	return buf[0] ? buf : NULL;
}

void mstat_leak_labels(FILE *f, struct mstat_leaks *lk, int si, int which,
		       int fmt)
{
	char buf[32], tag[300], names[MSTAT_SLAB_LABEL_MAX], *seen[64];
	bool json = fmt == MSTAT_LEAK_FMT_JSON;
	const char *v;
	int r, i, n = 0;

	fputs(json ? "[" : "", f);
	for (r = 0; r < lk->nrow; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->stack != si || !mstat_leak_row_counts(lk, rw))
			continue;
		if (which == MSTAT_LEAK_CGROUPS ||
		    which >= MSTAT_LEAK_CONTAINERS) {
			v = mstat_leak_cg_label(lk, rw->cgroup, buf,
						sizeof(buf));
			if (which >= MSTAT_LEAK_CONTAINERS)
				v = mstat_leak_tag(v, which,
						   fmt != MSTAT_LEAK_FMT_TEXT,
						   tag, sizeof(tag));
		} else if (which == MSTAT_LEAK_NODES) {
			if (rw->node == MSTAT_NODE_UNKNOWN)
				continue;
			snprintf(buf, sizeof(buf), "%lld", rw->node);
			v = buf;
		} else {
			v = rw->cache ? mstat_slab_label(rw->cache, names,
							 sizeof(names)) : NULL;
		}
		if (!v)
			continue;
		for (i = 0; i < n && strcmp(seen[i], v); i++)
			;
		if (i < n || n == (int)ARRAY_SIZE(seen))
			continue;
		seen[n] = mstat_strdup(v, strlen(v));
		if (n)
			fputs(json ? ", " : " ", f);
		n++;
		if (json && which != MSTAT_LEAK_NODES)
			mstat_json_str(f, v);
		else
			fputs(v, f);
	}
	if (!n && fmt == MSTAT_LEAK_FMT_TEXT)
		fputs("-", f);
	fputs(json ? "]" : "", f);
	for (i = 0; i < n; i++)
		free(seen[i]);
}

static const struct mstat_leaks *mstat_leak_sorting;

/* Suspects first by the low end of their rate. */
static int mstat_leak_order_cmp(const void *a, const void *b)
{
	const struct mstat_leaks *lk = mstat_leak_sorting;
	double x = lk->st[*(const int *)a].low, y = lk->st[*(const int *)b].low;

	return (x < y) - (x > y);
}

void mstat_leak_sort(const struct mstat_leaks *lk, int *ord, int ns)
{
	mstat_leak_sorting = lk;
	qsort(ord, ns, sizeof(*ord), mstat_leak_order_cmp);
}
