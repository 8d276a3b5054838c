// SPDX-License-Identifier: GPL-2.0
/*
 * mstat top: rates per second from successive snapshots, like slabtop.
 * Frame k compares snapshot k with k + 1. With --caches (format 1.2), per
 * slab cache: rows matched by id (a row new in the later snapshot counts
 * from zero), sorted by allocations per second or, with --sort live, by
 * live bytes.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "parse_snap.h"
#include "show.h"
#include "slab.h"
#include "top.h"
#include "util.h"

struct mstat_rate {
	char name[32];
	int idx;			/* display order on ties */
	double allocs, frees, bytes;
	long long live_obj, live_bytes;
};

static int mstat_rate_cmp(const void *a, const void *b)
{
	const struct mstat_rate *x = a, *y = b;

	if (x->allocs != y->allocs)
		return x->allocs < y->allocs ? 1 : -1;
	return x->idx - y->idx;
}

/*
 * A counter's change from @x to @y: y - x modulo 2^64, as the u64
 * counters wrap, so right across a wrap (and past 2^63, where the
 * parser's long long turns negative).
 */
static double mstat_delta(long long y, long long x)
{
	return (double)((unsigned long long)y - (unsigned long long)x);
}

/* A change of 2^63 or more: the counter went back. */
static bool mstat_back(long long y, long long x)
{
	return (unsigned long long)y - (unsigned long long)x > LLONG_MAX;
}

/* Counters that went back: the module was reloaded or reset. */
static bool mstat_went_back(const struct mstat_snap *a,
			    const struct mstat_snap *b)
{
	int i;

	if ((unsigned long long)b->gen < (unsigned long long)a->gen ||
	    b->ncls != a->ncls)
		return true;
	for (i = 0; i < MSTAT_NR_SRC; i++)
		if (mstat_back(b->src[i][SRC_ALLOCS], a->src[i][SRC_ALLOCS]) ||
		    mstat_back(b->src[i][SRC_FREES], a->src[i][SRC_FREES]))
			return true;
	return false;
}

static void mstat_top_row(const struct mstat_rate *r)
{
	char b[5][32];

	printf("%-8s %12s %12s %12s/s %14s %11s\n", r->name,
	       mstat_rate(b[0], r->allocs), mstat_rate(b[1], r->frees),
	       mstat_bytes(b[2], r->bytes), mstat_count(b[3], r->live_obj),
	       mstat_bytes(b[4], r->live_bytes));
}

static void mstat_top_sources(const struct mstat_snap *a,
			      const struct mstat_snap *b, double dt)
{
	struct mstat_rate r[MSTAT_NR_SRC];
	int i, n = 0;

	for (i = 0; i < MSTAT_NR_SRC; i++) {
		const long long *x = a->src[i], *y = b->src[i];

		if (!b->has_src[i])
			continue;
		snprintf(r[n].name, sizeof(r[n].name), "%s", mstat_src_names[i]);
		r[n].idx = i;
		r[n].allocs = mstat_delta(y[SRC_ALLOCS], x[SRC_ALLOCS]) / dt;
		r[n].frees = mstat_delta(y[SRC_FREES], x[SRC_FREES]) / dt;
		r[n].bytes = mstat_delta(y[SRC_BYTES_ALLOC], x[SRC_BYTES_ALLOC]) / dt;
		r[n].live_obj = y[SRC_LIVE_OBJ];
		r[n].live_bytes = y[SRC_LIVE_BYTES];
		n++;
	}
	qsort(r, n, sizeof(r[0]), mstat_rate_cmp);
	printf("%-8s %12s %12s %14s %14s %11s\n", "source", "allocs/s",
	       "frees/s", "alloc bytes/s", "live objects", "live bytes");
	for (i = 0; i < n; i++)
		mstat_top_row(&r[i]);
}

static void mstat_top_classes(const struct mstat_snap *a,
			      const struct mstat_snap *b, double dt)
{
	struct mstat_rate r[MSTAT_MAX_CLASSES];
	int i;

	for (i = 0; i < b->ncls; i++) {
		const long long *x = a->cls[i].v, *y = b->cls[i].v;

		mstat_class_label(r[i].name, &b->cls[i]);
		r[i].idx = i;
		r[i].allocs = mstat_delta(y[CLS_ALLOCS], x[CLS_ALLOCS]) / dt;
		r[i].frees = mstat_delta(y[CLS_FREES], x[CLS_FREES]) / dt;
		r[i].bytes = mstat_delta(y[CLS_BYTES_ALLOC], x[CLS_BYTES_ALLOC]) / dt;
		r[i].live_obj = y[CLS_LIVE_OBJ];
		r[i].live_bytes = y[CLS_LIVE_BYTES];
	}
	qsort(r, b->ncls, sizeof(r[0]), mstat_rate_cmp);
	printf("\n%-8s %12s %12s %14s %14s %11s\n", "class", "allocs/s",
	       "frees/s", "alloc bytes/s", "live objects", "live bytes");
	for (i = 0; i < b->ncls; i++)
		mstat_top_row(&r[i]);
}

static void mstat_top_orders(const struct mstat_snap *a,
			     const struct mstat_snap *b, double dt)
{
	char c[4][32];
	int i;

	printf("\n%-8s %12s %12s %12s %14s\n", "order", "allocs/s", "frees/s",
	       "failures/s", "live pages");
	for (i = 0; i < b->nord && i < a->nord; i++) {
		const long long *x = a->ord[i].v, *y = b->ord[i].v;

		printf("%-8d %12s %12s %12s %14s\n", i,
		       mstat_rate(c[0], mstat_delta(y[ORD_ALLOCS], x[ORD_ALLOCS]) / dt),
		       mstat_rate(c[1], mstat_delta(y[ORD_FREES], x[ORD_FREES]) / dt),
		       mstat_rate(c[2], mstat_delta(y[ORD_FAILURES], x[ORD_FAILURES]) / dt),
		       mstat_count(c[3], y[ORD_LIVE_PAGES]));
	}
}

#define MSTAT_TOP_CACHES	25

struct mstat_cache_rate {
	const struct mstat_cache *c;
	double allocs, frees;
};

static bool mstat_top_by_live;

static int mstat_cache_rate_cmp(const void *a, const void *b)
{
	const struct mstat_cache_rate *x = a, *y = b;

	if (mstat_top_by_live &&
	    x->c->v[CACHE_LIVE_BYTES] != y->c->v[CACHE_LIVE_BYTES])
		return x->c->v[CACHE_LIVE_BYTES] < y->c->v[CACHE_LIVE_BYTES] ?
		       1 : -1;
	if (x->allocs != y->allocs)
		return x->allocs < y->allocs ? 1 : -1;
	return x->c->id < y->c->id ? -1 : x->c->id > y->c->id;
}

/* The per-cache view: rows matched by id, the busiest first. */
static void mstat_top_caches(const struct mstat_snap *a,
			     const struct mstat_snap *b, double dt)
{
	struct mstat_cache_rate *r;
	char n[4 * MSTAT_SLAB_LABEL_MAX], c[5][32];
	int i, j;

	r = mstat_alloc(NULL, (b->ncache + 1) * sizeof(*r));
	for (i = 0; i < b->ncache; i++) {
		const struct mstat_cache *y = &b->cache[i], *x = NULL;

		for (j = 0; j < a->ncache && !x; j++)
			if (a->cache[j].id == y->id)
				x = &a->cache[j];
		r[i].c = y;
		r[i].allocs = mstat_delta(y->v[CACHE_ALLOCS],
					  x ? x->v[CACHE_ALLOCS] : 0) / dt;
		r[i].frees = mstat_delta(y->v[CACHE_FREES],
					 x ? x->v[CACHE_FREES] : 0) / dt;
	}
	qsort(r, b->ncache, sizeof(*r), mstat_cache_rate_cmp);
	printf("%-24s %8s %12s %12s %14s %11s\n", "cache", "objsize",
	       "allocs/s", "frees/s", "live objects", "live bytes");
	for (i = 0; i < b->ncache && i < MSTAT_TOP_CACHES; i++) {
		mstat_cache_label(n, sizeof(n), r[i].c);
		if (r[i].c->gone)
			strcat(n, " (gone)");
		printf("%-24s %8llu %12s %12s %14s %11s\n", n, r[i].c->size,
		       mstat_rate(c[0], r[i].allocs),
		       mstat_rate(c[1], r[i].frees),
		       mstat_count(c[2], r[i].c->v[CACHE_LIVE_OBJ]),
		       mstat_bytes(c[3], r[i].c->v[CACHE_LIVE_BYTES]));
	}
	printf("%-24s %8s %12s %12s %14s %11s\n", "(overflow)", "",
	       mstat_rate(c[0], mstat_delta(b->over[CACHE_ALLOCS],
					    a->over[CACHE_ALLOCS]) / dt),
	       mstat_rate(c[1], mstat_delta(b->over[CACHE_FREES],
					    a->over[CACHE_FREES]) / dt),
	       mstat_count(c[2], b->over[CACHE_LIVE_OBJ]),
	       mstat_bytes(c[3], b->over[CACHE_LIVE_BYTES]));
	printf("\ncaches: %d rows shown of %d, table %lld of %lld rows used, names %s, sorted by %s\n",
	       i, b->ncache, mstat_get(b, "caches_used"),
	       mstat_get(b, "caches_rows"),
	       mstat_get(b, "caches_named") ? "yes" : "no",
	       mstat_top_by_live ? "live bytes" : "allocations/s");
	free(r);
}

static void mstat_top_frame(const struct mstat_snap *a,
			    const struct mstat_snap *b, bool tty, bool caches)
{
	double dt = mstat_snap_taken(b) - mstat_snap_taken(a);
	char clock[16] = "", g[32];
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	printf("%smstat top - %s  generation %s (+%lld)  interval %.2f s\n\n",
	       tty ? "\033[H\033[2J" : "", clock, mstat_count(g, b->gen),
	       (long long)((unsigned long long)b->gen -
			   (unsigned long long)a->gen), dt);
	if (mstat_went_back(a, b) || dt <= 0) {
		printf("counters went back (module reloaded or reset): %s\n",
		       "rates from the next frame");
		return;
	}
	if (caches) {
		mstat_top_caches(a, b, dt);
		return;
	}
	mstat_top_sources(a, b, dt);
	mstat_top_classes(a, b, dt);
	mstat_top_orders(a, b, dt);
}

/*
 * Frame k compares snapshot k with k + 1; file k + 1, the last repeating.
 * A snapshot served again (a reader under proc_min_interval_ms: "snapshot_
 * reused", the same generation, older) makes no frame: read again after
 * the delay. Rates are over the time between the kernel's snapshots, not
 * between the reads.
 */
int do_top(const struct mstat_opts *o)
{
	bool tty = isatty(STDOUT_FILENO);
	struct mstat_snap *a, *b;
	long k, fi = 0;

	a = mstat_snap_read(o->file[0]);
	if (!a)
		return EXIT_INPUT;
	if (o->caches && !a->has_caches) {
		mstat_err("%s: format %s has no per-cache table (1.2 on)",
			  o->file[0], a->version);
		mstat_snap_free(a);
		return EXIT_INPUT;
	}
	mstat_top_by_live = o->sort_live;
	for (k = 0; !o->iters || k < o->iters; k++) {
		mstat_sleep(o->delay);
		fi++;
		b = mstat_snap_read(o->file[fi < o->nfile ? fi : o->nfile - 1]);
		if (!b) {
			mstat_snap_free(a);
			return EXIT_INPUT;
		}
		if (mstat_snap_again(b, a->gen, mstat_get(a, "snapshot_age_ms"))) {
			mstat_snap_free(b);
			k--;
			continue;
		}
		if (k && !tty)
			putchar('\n');
		mstat_top_frame(a, b, tty, o->caches && b->has_caches);
		if (fflush(stdout)) {
			mstat_snap_free(a);
			mstat_snap_free(b);
			mstat_err("write error on standard output");
			return EXIT_INPUT;
		}
		mstat_snap_free(a);
		a = b;
	}
	mstat_snap_free(a);
	return 0;
}

static const struct option mstat_top_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "caches", no_argument, NULL, 'c' },
	{ "sort", required_argument, NULL, OPT_SORT },
	{ NULL, 0, NULL, 0 }
};

/* -f several times, read in turn; the others as every command has them. */
static int mstat_top_opt(void *o, int c, const char *v)
{
	if (c == 'f')
		return mstat_opt_file(o, v, MSTAT_MAX_FILES);
	return mstat_opt_value(o, c, v);
}

const struct mstat_optspec mstat_top_optspec = {
	.name = "top", .shortopts = "-:hcf:d:n:",
	.longopts = mstat_top_longopts, .opt = mstat_top_opt,
	.file = MSTAT_PROC,
};

int cmd_top(int argc, char **argv)
{
	struct mstat_opts o = MSTAT_OPTS_INIT;
	int err = mstat_opts_parse(&mstat_top_optspec, argc, argv, &o);

	if (!err && o.sort_set && !o.caches)
		err = mstat_bad_usage("--sort goes with --caches", NULL);
	return err ? err : do_top(&o);
}
