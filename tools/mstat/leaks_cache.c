// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' per-cache tier (leaks.c states the method): each cache's
 * live bytes, one point a read, over a window of reads that slides (all
 * of them for mstat leaks, the last scrapes' for mstat serve), each
 * series judged by stats.c's mstat_trend().
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leaks_cache.h"
#include "parse_snap.h"
#include "stats.h"
#include "util.h"

struct mstat_leak_window *mstat_leak_window_new(int cap)
{
	struct mstat_leak_window *w = mstat_alloc(NULL, sizeof(*w));

	memset(w, 0, sizeof(*w));
	w->cap = cap;
	w->t = mstat_alloc(NULL, cap * sizeof(*w->t));
	return w;
}

void mstat_leak_window_free(struct mstat_leak_window *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->nc; i++)
		free(w->c[i].x);
	free(w->c);
	free(w->t);
	mstat_strmap_free(&w->map);
	free(w);
}

/* "kmalloc-1k" for 1024, as the kernel names its kmalloc caches. */
static void mstat_kmalloc_name(char *buf, size_t len, unsigned long long size)
{
	if (!size)
		snprintf(buf, len, "kmalloc-large");
	else if (size >= 1024 && !(size % 1024))
		snprintf(buf, len, "kmalloc-%lluk", size / 1024);
	else
		snprintf(buf, len, "kmalloc-%llu", size);
}

/* The series of @key, named @name, made if new. */
static struct mstat_leak_cache *mstat_leak_cache_get(struct mstat_leak_window *w,
						     const char *key,
						     const char *name)
{
	struct mstat_leak_cache *c;
	int i = (int)mstat_strmap_find(&w->map, key);

	if (i >= 0)
		return &w->c[i];
	if (w->nc == w->ccap) {
		w->ccap = w->ccap ? 2 * w->ccap : 64;
		w->c = mstat_alloc(w->c, w->ccap * sizeof(*w->c));
	}
	c = &w->c[w->nc];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	/* Labels never repeat: a later cache of a name is NAME#ID, as in prom. */
	for (i = 0; i < w->nc; i++)
		if (!strcmp(w->c[i].name, name))
			snprintf(c->name, sizeof(c->name), "%s#%s", name, key + 1);
	c->x = mstat_alloc(NULL, w->cap * sizeof(*c->x));
	for (i = 0; i < w->cap; i++)
		c->x[i] = NAN;
	mstat_strmap_add(&w->map, key);
	return &w->c[w->nc++];
}

void mstat_leak_window_add(struct mstat_leak_window *w,
			   const struct mstat_snap *s, double t)
{
	char key[48], name[MSTAT_CACHE_NAME_MAX + 24];
	struct mstat_leak_cache *c;
	int i, at;

	/*
	 * The snapshot of the last read served again (a reader under
	 * proc_min_interval_ms): one point of the series, not two.
	 */
	if (w->n && mstat_snap_again(s, w->gen, w->age_ms))
		return;
	w->gen = s->gen;
	w->age_ms = mstat_get(s, "snapshot_age_ms");
	if (w->n == w->cap) {
		/* Slide: the oldest read goes. */
		memmove(w->t, w->t + 1, (w->cap - 1) * sizeof(*w->t));
		for (i = 0; i < w->nc; i++)
			memmove(w->c[i].x, w->c[i].x + 1,
				(w->cap - 1) * sizeof(double));
		w->n--;
	}
	at = w->n++;
	w->t[at] = t;
	for (i = 0; i < w->nc; i++)
		w->c[i].x[at] = NAN;
	for (i = 0; i < s->nkcls; i++) {
		snprintf(key, sizeof(key), "k%llu", s->kcls[i].size);
		mstat_kmalloc_name(name, sizeof(name), s->kcls[i].size);
		c = mstat_leak_cache_get(w, key, name);
		c->x[at] = (double)s->kcls[i].v[KCLS_LIVE_BYTES];
	}
	for (i = 0; i < s->ncache; i++) {
		const struct mstat_cache *r = &s->cache[i];

		if (r->gone)
			continue;	/* a destroyed cache holds nothing */
		snprintf(key, sizeof(key), "c%llu", r->id);
		if (r->named)
			snprintf(name, sizeof(name), "%s", r->name);
		else
			snprintf(name, sizeof(name), "#%llu", r->id);
		c = mstat_leak_cache_get(w, key, name);
		c->x[at] = (double)r->v[CACHE_LIVE_BYTES];
	}
}

/*
 * Caches the kernel frees lazily, in batches whose timing has nothing to
 * do with a leak: vfree() leaves its vmap_area on a lazy list until the
 * areas' pages pass lazy_max_pages() (32 MiB times fls() of the online
 * CPUs, mm/vmalloc.c), then purges them at once, so a fresh machine's
 * vmap_area grows for minutes under forks (each a vmalloc()ed thread
 * stack when the per-CPU cache of two misses) before it falls: a guest's
 * 71 B/s in a 10-minute watch would be called a leak. Their growth is
 * shown apart, never a suspect.
 */
static const char *const mstat_leak_lazy[] = { "vmap_area" };

static bool mstat_leak_is_lazy(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mstat_leak_lazy); i++)
		if (!strcmp(name, mstat_leak_lazy[i]))
			return true;
	return false;
}

void mstat_leak_window_judge(struct mstat_leak_window *w, double conf,
			     double min_rate)
{
	struct mstat_leak_cache *c;
	int i;

	for (i = 0; i < w->nc; i++) {
		c = &w->c[i];
		mstat_trend(w->t, c->x, w->n, conf, min_rate, &c->tr);
		c->lazy = c->tr.suspect && mstat_leak_is_lazy(c->name);
		if (c->lazy)
			c->tr.suspect = false;
	}
}

/*
 * The cache a sampled object's slab cache name stands for in the exact
 * table: kmalloc's variants (kmalloc-cg-256, kmalloc-rcl-1k,
 * kmalloc-rnd-03-64, dma-kmalloc-96) are their size class's row.
 */
static void mstat_leak_norm(char *buf, size_t len, const char *name)
{
	const char *last = strrchr(name, '-');

	if (strstr(name, "kmalloc-") && last)
		snprintf(buf, len, "kmalloc-%s", last + 1);
	else
		snprintf(buf, len, "%s", name);
}

struct mstat_leak_cache *mstat_leak_cache_named(struct mstat_leak_window *w,
						const char *name)
{
	char n[MSTAT_CACHE_NAME_MAX + 24];
	int i;

	mstat_leak_norm(n, sizeof(n), name);
	for (i = 0; i < w->nc; i++)
		if (!strcmp(w->c[i].name, n))
			return &w->c[i];
	return NULL;
}
