// SPDX-License-Identifier: GPL-2.0
/*
 * mstat: the snapshot in /proc/mstat, readable: sources, contexts, size
 * classes, page orders.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_snap.h"
#include "show.h"
#include "slab.h"
#include "util.h"

static void mstat_show_sources(const struct mstat_snap *s)
{
	char b[7][32];
	int i;

	printf("%-8s %3s %14s %14s %9s %14s %11s %11s %11s\n", "source",
	       "on", "allocs", "frees", "failures", "live objects",
	       "live bytes", "allocated", "requested");
	for (i = 0; i < MSTAT_NR_SRC; i++) {
		const long long *v = s->src[i];

		if (!s->has_src[i])
			continue;
		printf("%-8s %3lld %14s %14s %9s %14s %11s %11s %11s\n",
		       mstat_src_names[i], v[SRC_ENABLED],
		       mstat_count(b[0], v[SRC_ALLOCS]),
		       mstat_count(b[1], v[SRC_FREES]),
		       mstat_count(b[2], v[SRC_FAILURES]),
		       mstat_count(b[3], v[SRC_LIVE_OBJ]),
		       mstat_bytes(b[4], v[SRC_LIVE_BYTES]),
		       mstat_bytes(b[5], mstat_u64(v[SRC_BYTES_ALLOC])),
		       mstat_bytes(b[6], mstat_u64(v[SRC_BYTES_REQ])));
	}
	printf("%-8s %3s %14s %14s %9s %14s %11s %11s %11s\n", "slab", "-",
	       mstat_count(b[0], mstat_get(s, "slab_allocs")),
	       mstat_count(b[1], mstat_get(s, "slab_frees")), "-",
	       mstat_count(b[3], mstat_get(s, "slab_live_objects")),
	       mstat_bytes(b[4], mstat_get(s, "slab_live_bytes")),
	       mstat_bytes(b[5], mstat_u64(mstat_get(s, "slab_bytes_allocated"))),
	       mstat_bytes(b[6], mstat_u64(mstat_get(s, "slab_bytes_requested"))));
}

static void mstat_show_misc(const struct mstat_snap *s)
{
	char b[3][32], name[64];
	int i;

	printf("\nlive pages %s (%s); slab fragmentation %s (cumulative)\n",
	       mstat_count(b[0], mstat_get(s, "page_live_pages")),
	       mstat_bytes(b[1], mstat_get(s, "page_live_bytes")),
	       mstat_bytes(b[2], mstat_u64(mstat_get(s, "slab_frag_bytes"))));
	printf("gfp: %s may sleep, %s atomic\n\n",
	       mstat_count(b[0], mstat_get(s, "gfp_sleep_allocs")),
	       mstat_count(b[1], mstat_get(s, "gfp_atomic_allocs")));
	printf("%-8s %14s %14s\n", "context", "allocs", "frees");
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		snprintf(name, sizeof(name), "ctx_%s_allocs", mstat_ctx_names[i]);
		mstat_count(b[0], mstat_get(s, name));
		snprintf(name, sizeof(name), "ctx_%s_frees", mstat_ctx_names[i]);
		printf("%-8s %14s %14s\n", mstat_ctx_names[i], b[0],
		       mstat_count(b[1], mstat_get(s, name)));
	}
}

static void mstat_show_classes(const struct mstat_snap *s)
{
	char b[9][32];
	int i;

	printf("\n%-8s %14s %14s %14s %11s %11s %11s %11s %11s\n", "class",
	       "allocs", "frees", "live objects", "live bytes", "requested",
	       "allocated", "frag", "frag live~");
	for (i = 0; i < s->ncls; i++) {
		const long long *v = s->cls[i].v;

		printf("%-8s %14s %14s %14s %11s %11s %11s %11s %11s\n",
		       mstat_class_label(b[0], &s->cls[i]),
		       mstat_count(b[1], v[CLS_ALLOCS]),
		       mstat_count(b[2], v[CLS_FREES]),
		       mstat_count(b[3], v[CLS_LIVE_OBJ]),
		       mstat_bytes(b[4], v[CLS_LIVE_BYTES]),
		       mstat_bytes(b[5], mstat_u64(v[CLS_BYTES_REQ])),
		       mstat_bytes(b[6], mstat_u64(v[CLS_BYTES_ALLOC])),
		       mstat_bytes(b[7], mstat_u64(v[CLS_FRAG])),
		       mstat_bytes(b[8], mstat_u64(v[CLS_FRAG_LIVE_EST])));
	}
}

static void mstat_show_orders(const struct mstat_snap *s)
{
	char b[4][32];
	int i;

	printf("\n%-8s %14s %14s %9s %14s\n", "order", "allocs", "frees",
	       "failures", "live pages");
	for (i = 0; i < s->nord; i++) {
		const long long *v = s->ord[i].v;

		printf("%-8d %14s %14s %9s %14s\n", i,
		       mstat_count(b[0], v[ORD_ALLOCS]),
		       mstat_count(b[1], v[ORD_FREES]),
		       mstat_count(b[2], v[ORD_FAILURES]),
		       mstat_count(b[3], v[ORD_LIVE_PAGES]));
	}
}

/*
 * Every name of the cache (slab.h: SLUB's merged caches); control bytes,
 * bytes of 0x7f and up and the backslash as \ooo.
 */
const char *mstat_cache_label(char *buf, size_t len,
			      const struct mstat_cache *c)
{
	char names[MSTAT_SLAB_LABEL_MAX];
	const unsigned char *p;
	size_t n = 0;

	if (!c->named) {
		snprintf(buf, len, "#%llu", c->id);
		return buf;
	}
	p = (const unsigned char *)mstat_slab_label(c->name, names,
						     sizeof(names));
	for (; *p && n + 5 < len; p++) {
		if (*p < 0x20 || *p >= 0x7f || *p == '\\')
			n += snprintf(buf + n, len - n, "\\%03o", *p);
		else
			buf[n++] = *p;
	}
	buf[n] = '\0';
	return buf;
}

/* Most live bytes first; ties: the lower id. */
static int mstat_cache_live_cmp(const void *a, const void *b)
{
	const struct mstat_cache *x = *(const struct mstat_cache *const *)a;
	const struct mstat_cache *y = *(const struct mstat_cache *const *)b;

	if (x->v[CACHE_LIVE_BYTES] != y->v[CACHE_LIVE_BYTES])
		return x->v[CACHE_LIVE_BYTES] < y->v[CACHE_LIVE_BYTES] ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/**
 * mstat_show_caches() - the per-cache table, most live bytes first
 * @s: a snapshot of format 1.2 (nothing is printed for older ones)
 * @rows: print at most this many rows, then the overflow row
 */
void mstat_show_caches(const struct mstat_snap *s, int rows)
{
	const struct mstat_cache **c;
	char b[6][32], name[4 * MSTAT_SLAB_LABEL_MAX];
	int i;

	if (!s->has_caches)
		return;
	c = mstat_alloc(NULL, (s->ncache + 1) * sizeof(*c));
	for (i = 0; i < s->ncache; i++)
		c[i] = &s->cache[i];
	qsort(c, s->ncache, sizeof(*c), mstat_cache_live_cmp);
	printf("\n%-24s %8s %14s %14s %14s %11s\n", "cache", "objsize",
	       "allocs", "frees", "live objects", "live bytes");
	for (i = 0; i < s->ncache && i < rows; i++) {
		mstat_cache_label(name, sizeof(name), c[i]);
		if (c[i]->gone)
			strcat(name, " (gone)");
		printf("%-24s %8llu %14s %14s %14s %11s\n", name, c[i]->size,
		       mstat_count(b[0], c[i]->v[CACHE_ALLOCS]),
		       mstat_count(b[1], c[i]->v[CACHE_FREES]),
		       mstat_count(b[2], c[i]->v[CACHE_LIVE_OBJ]),
		       mstat_bytes(b[3], c[i]->v[CACHE_LIVE_BYTES]));
	}
	printf("%-24s %8s %14s %14s %14s %11s\n", "(overflow)", "",
	       mstat_count(b[0], s->over[CACHE_ALLOCS]),
	       mstat_count(b[1], s->over[CACHE_FREES]),
	       mstat_count(b[2], s->over[CACHE_LIVE_OBJ]),
	       mstat_bytes(b[3], s->over[CACHE_LIVE_BYTES]));
	printf("caches: %d shown of %d, table %s of %s rows used, names %s\n",
	       i, s->ncache, mstat_count(b[4], mstat_get(s, "caches_used")),
	       mstat_count(b[5], mstat_get(s, "caches_rows")),
	       mstat_get(s, "caches_named") ? "yes" : "no");
	free(c);
}

void mstat_show(const struct mstat_snap *s)
{
	char b[3][32];

	printf("mstat %s  generation %s  (snapshot waited %s ns for %s CPUs)\n\n",
	       s->version, mstat_count(b[0], s->gen),
	       mstat_count(b[1], mstat_get(s, "snapshot_wait_ns")),
	       mstat_count(b[2], mstat_get(s, "snapshot_waited_cpus")));
	mstat_show_sources(s);
	mstat_show_misc(s);
	mstat_show_classes(s);
	mstat_show_orders(s);
	mstat_show_caches(s, 20);
}
