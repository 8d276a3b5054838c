// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks: what grows without bound, whose, and how sure.
 *
 * It reads /proc/mstat and /proc/mstat_sites every --interval seconds
 * for --duration seconds (or the reads a --save left in a directory,
 * --from), then judges two tiers and checks them against each other.
 *
 * Per cache, from the exact counts (every slab cache row of /proc/mstat,
 * and each kmalloc size class as "kmalloc-SIZE"): the live bytes of each
 * read form a series. It is cut into B consecutive blocks (B = min(12,
 * reads / 2)), and each block keeps its minimum: the lower envelope, which
 * a sawtooth (everything freed once a block), a burst or a load that
 * comes and goes leaves flat. The rate is the Theil-Sen slope of the B
 * minima against their times (the median of the slopes of all pairs),
 * its interval Sen's distribution-free one at --confidence C, from the
 * Mann-Kendall statistic's variance B(B-1)(2B+5)/18. A cache is judged
 * when that interval has a low end (B >= 7 at C = 0.99, 9 at 0.999: with
 * fewer blocks no interval at C can exclude 0; mstat_leak_min_reads()),
 * and a suspect when the interval's low end is above --min-rate, the
 * growth persists (the
 * slope of the later half of the minima is at least half the whole
 * one's, so that a cache that fills to a plateau, or objects that live
 * for a finite time shorter than half the watch, are not called leaks),
 * and the steps between consecutive minima have a mean above 0 by
 * Student's t at C (a count that wanders like a random walk, whose runs
 * Mann-Kendall takes for trends, is not called a leak).
 *
 * Per stack, from the samples: an object of s bytes is sampled with p =
 * 1 - exp(-s/R) and stands for s/p bytes. A stack is cut after its first
 * interrupt entry (mstat_leak_irq_entry[]), so that an interrupt's
 * allocation is one stack whatever the interrupt stopped. Each read's
 * live lines give each sampled object's birth (the read's time less its
 * age), the read's time aligned with the last read's by the objects live
 * in both (mstat_leak_align()); an object born during the watch, seen
 * in one read and not in the next, was freed, and its lifetime is learnt,
 * as if freed midway between the two reads; unless the module dropped
 * entries of its address table in between without their frees (its
 * addr_phantoms grew: a source switched off or on, a free probe that
 * missed calls, a reset), when a sample gone may be live: then nothing
 * is learnt, and the stack tier counts births from the read before (the
 * samples born earlier are gone). At the last read, a stack's "leak-like"
 * samples are its live ones born since then and older than A = 1.5 L +
 * 2 dt, dt the interval, L the longest lifetime usual for the stack: the
 * longest learnt at which a tenth at least of its objects that lived as
 * long were freed then or later (the others live at the last read), so
 * that one object that outlived its freed siblings does not stand for a
 * stack whose older objects all live (A = 0 if it freed none, 2 dt if
 * no lifetime is usual): objects of a finite
 * lifetime are gone by then. Over the exposure T' = T - A (T the watch)
 * their count k is Poisson, their bytes (each its weight w) a compound
 * Poisson: the rate is their bytes over T', its interval Fay and Feuer's
 * gamma interval over T' (mstat_weighted_poisson(): Garwood's, w
 * chi2((1-C)/2, 2k)/2 to w chi2((1+C)/2, 2k+2)/2, when the weights are
 * one w; wider when they differ). A stack is a suspect when k >= MSTAT_LEAK_MIN_SAMPLES, the low
 * end is above --min-rate, its leak-like samples are not crowded into
 * the first half of the exposure (a fill that stops: fewer than a third
 * born in the later half, a binomial test at 1 - C, as the caches' later
 * half must rise at half the whole rate) and its cache does not
 * contradict it (below).
 *
 * Checked against each other: a stack suspect whose cache's exact growth
 * has a high end below the stack's low end, over the watch or in its
 * later half (struct mstat_trend's @late_high), "grows while its cache
 * does not" (unexplained, no suspect); a cache suspect that no stack
 * suspect in it accounts for (their high ends summed below its low end)
 * "grows, no sampled stack yet" (still a suspect).
 *
 * Built with -DMSTAT_LEAKS_WEAK (make build/mstat-leaks-weak, for the
 * tests only), the detectors are the naive ones the tests must show
 * fail: a difference of the first and last snapshots per cache, and
 * every sample born during the watch per stack.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "input.h"
#include "json.h"
#include "leaks.h"
#include "slab.h"
#include "stats.h"
#include "util.h"

#define MSTAT_LEAK_MAX_BLOCKS	12
#define MSTAT_LEAK_MIN_SAMPLES	5
#define MSTAT_LEAK_TOLERANCE	1.0	/* s: one object's birth in two reads */
#define MSTAT_LEAK_ALIGNED	0.005	/* s: the same, the reads aligned */

/**
 * struct mstat_trend - a cache's growth, from its lower envelope
 * @rate: the Theil-Sen slope of the block minima, bytes/s
 * @low: the low end of Sen's interval at the confidence asked
 *	(-INFINITY when too few blocks bound it)
 * @high: its high end (+INFINITY likewise)
 * @late: the slope of the later half of the minima
 * @late_high: the high end of the later half's rate: the mean of its
 *	steps (the rates between consecutive minima, from the middle one)
 *	plus Student's t at the confidence asked times their standard
 *	error; +INFINITY with fewer than 3 steps
 * @blocks: how many blocks (0: too few reads for any)
 * @judged: enough blocks for a verdict: Sen's interval at the
 *	confidence asked has a low end
 * @suspect: the verdict
 * @filling: it rises, but toward a plateau: the steps between the
 *	minima fall with time, by Student's t at the confidence asked
 *	(mstat_trend_fill()); not a suspect
 * @plateau: P, when filling
 * @tau: tau, when filling
 */
struct mstat_trend {
	double rate, low, high, late, late_high, plateau, tau;
	int blocks;
	bool judged, suspect, filling;
};

/*
 * The steps of the @nb block minima (the rates between consecutive
 * ones), their mean into *@m and its standard error into *@se; false
 * with fewer than 3.
 */
static bool mstat_steps(const double *bt, const double *bx, int nb,
			double *m, double *se, int *n)
{
	double d[MSTAT_LEAK_MAX_BLOCKS], v = 0;
	int i;

	*n = 0;
	*m = 0;
	for (i = 1; i < nb; i++)
		if (bt[i] > bt[i - 1])
			d[(*n)++] = (bx[i] - bx[i - 1]) / (bt[i] - bt[i - 1]);
	if (*n < 3)
		return false;
	for (i = 0; i < *n; i++)
		*m += d[i] / *n;
	for (i = 0; i < *n; i++)
		v += (d[i] - *m) * (d[i] - *m) / (*n - 1);
	*se = sqrt(v / *n);
	return true;
}

/*
 * Do the @nb block minima rise by steps whose mean is above 0 at
 * confidence @conf (Student's t)? Against a count that wanders, a random
 * walk without a level it returns to, whose steps are independent with
 * mean 0: Mann-Kendall takes its runs for trends, this test does not.
 */
static bool mstat_steps_rise(const double *bt, const double *bx, int nb,
			     double conf)
{
	double m, se;
	int n;

	if (!mstat_steps(bt, bx, nb, &m, &se, &n))
		return false;
	return m > 0 && (se <= 0 || m / se > mstat_t_q(conf, n - 1));
}

/*
 * The ranks, from 1, of the low (@lo) and high (@hi) ends of Sen's
 * interval at confidence @conf among @m ordered slopes of @nb points:
 * out of 1..@m when the interval is unbounded on that side.
 */
static void mstat_sen_ranks(int nb, int m, double conf, int *lo, int *hi)
{
	double var = nb * (nb - 1.0) * (2.0 * nb + 5) / 18;
	double c = mstat_norm_q((1 + conf) / 2) * sqrt(var);

	*lo = (int)floor((m - c) / 2);
	*hi = (int)ceil((m + c) / 2) + 1;
}

int mstat_leak_min_reads(double conf)
{
	int nb, lo, hi;

	for (nb = 2; nb <= MSTAT_LEAK_MAX_BLOCKS; nb++) {
		mstat_sen_ranks(nb, nb * (nb - 1) / 2, conf, &lo, &hi);
		if (lo >= 1)
			return 2 * nb;
	}
	return 0;
}

/*
 * A rise whose rate falls as it goes, toward a plateau (a cache warming
 * up, 1 - exp(-t / tau)), told from a leak's steady one by the steps
 * between the @nb block minima (the rates between consecutive ones):
 * a leak's are independent, with one mean (a compound Poisson's
 * increments); a fill's fall with time. Filling when the least-squares
 * slope of the steps against their times is below 0 by Student's t at
 * @conf (n - 2 degrees of freedom), and the minima fit P - C exp(-t/tau)
 * rising (C > 0) toward a plateau above the last (mstat_fill_fit(), for
 * P and tau). The later-half test alone lets a fill pass while the watch
 * is shorter than about 2.2 tau. Not an F test of the fit against a
 * line: the minima of a leak of a few large objects stray from their
 * line as a random walk does, not as independent errors, and such a
 * test took 4 leaks of 30 for fills (by hand: leaks_mixed's replays,
 * seeds 1 to 30 of 600 s, 2026-11-28).
 */
#ifndef MSTAT_LEAKS_WEAK
static void mstat_trend_fill(const double *bt, const double *bx, int nb,
			     double conf, struct mstat_trend *tr)
{
	double d[MSTAT_LEAK_MAX_BLOCKS], m[MSTAT_LEAK_MAX_BLOCKS], slope, se;
	struct mstat_fill fit;
	int n = 0, i;

	for (i = 1; i < nb; i++) {
		if (bt[i] <= bt[i - 1])
			continue;
		d[n] = (bx[i] - bx[i - 1]) / (bt[i] - bt[i - 1]);
		m[n++] = (bt[i] + bt[i - 1]) / 2;
	}
	if (n < 4 || !mstat_slope(m, d, n, &slope, &se) || !(slope < 0) ||
	    (se > 0 && slope / se > -mstat_t_q(conf, n - 2)))
		return;
	/* Falling: where to, the fit says (P and tau, and C > 0). */
	if (mstat_fill_fit(bt, bx, nb, &fit) && fit.c > 0 &&
	    fit.plateau > bx[nb - 1]) {
		tr->filling = true;
		tr->suspect = false;
		tr->plateau = fit.plateau;
		tr->tau = fit.tau;
	}
}
#endif

/* The trend of @np >= 2 points (@pt, @px); see mstat_trend(). */
static void mstat_trend_points(const double *pt, const double *px, int np,
			       double conf, double min_rate,
			       struct mstat_trend *tr)
{
#ifdef MSTAT_LEAKS_WEAK
	/* The naive detector: the difference of two snapshots. */
	tr->rate = (px[np - 1] - px[0]) / (pt[np - 1] - pt[0]);
	tr->low = tr->high = tr->late = tr->late_high = tr->rate;
	tr->blocks = 2;
	tr->judged = true;
	tr->suspect = tr->rate > min_rate && tr->rate > 0;
	(void)conf;
	(void)mstat_steps_rise;
#else
	double bt[MSTAT_LEAK_MAX_BLOCKS], bx[MSTAT_LEAK_MAX_BLOCKS];
	double *sl, m1, m2;
	int nb, b, i, j, m = 0, lo, hi, half;

	nb = np / 2 < MSTAT_LEAK_MAX_BLOCKS ? np / 2 : MSTAT_LEAK_MAX_BLOCKS;
	if (nb < 2)
		return;
	/* Block b holds points [b np / nb, (b + 1) np / nb). */
	for (b = 0; b < nb; b++) {
		int first = b * np / nb, end = (b + 1) * np / nb, at = first;

		for (i = first + 1; i < end; i++)
			if (px[i] < px[at])
				at = i;
		bt[b] = pt[at];
		bx[b] = px[at];
	}
	tr->blocks = nb;
	tr->rate = mstat_sen(bt, bx, nb);
	half = nb / 2;
	tr->late = mstat_sen(bt + half, bx + half, nb - half);
	if (mstat_steps(bt + half - 1, bx + half - 1, nb - half + 1, &m1, &m2, &i))
		tr->late_high = m1 + mstat_t_q(conf, i - 1) * m2;
	/* Sen's interval: the ordered pairwise slopes around the median. */
	sl = mstat_alloc(NULL, (size_t)(nb * nb) * sizeof(*sl));
	for (i = 0; i < nb; i++)
		for (j = i + 1; j < nb; j++)
			if (bt[j] > bt[i])
				sl[m++] = (bx[j] - bx[i]) / (bt[j] - bt[i]);
	qsort(sl, m, sizeof(*sl), mstat_cmp_double);
	mstat_sen_ranks(nb, m, conf, &lo, &hi);
	if (lo >= 1)
		tr->low = sl[lo - 1];
	if (hi <= m)
		tr->high = sl[hi - 1];
	free(sl);
	tr->judged = lo >= 1;
	tr->suspect = tr->judged && tr->low > min_rate && tr->low > 0 &&
		      tr->late >= tr->rate / 2 && mstat_steps_rise(bt, bx, nb, conf);
	if (tr->suspect)
		mstat_trend_fill(bt, bx, nb, conf, tr);
#endif
}

/*
 * The trend of the series @x (NAN where the cache was absent) at times
 * @t, @n reads; the verdict at confidence @conf above @min_rate.
 */
static void mstat_trend(const double *t, const double *x, int n, double conf,
			double min_rate, struct mstat_trend *tr)
{
	double *pt, *px;
	int np = 0, i;

	memset(tr, 0, sizeof(*tr));
	tr->rate = tr->late = NAN;
	tr->low = -INFINITY;
	tr->high = tr->late_high = INFINITY;
	pt = mstat_alloc(NULL, (n + 1) * sizeof(*pt));
	px = mstat_alloc(NULL, (n + 1) * sizeof(*px));
	for (i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		pt[np] = t[i];
		px[np++] = x[i];
	}
	if (np >= 2)
		mstat_trend_points(pt, px, np, conf, min_rate, tr);
	free(pt);
	free(px);
}

/* The per-cache series */

struct mstat_leak_cache {
	char name[MSTAT_CACHE_NAME_MAX + 24];
	double *x;			/* live bytes per read, NAN: absent */
	struct mstat_trend tr;
	double explained_high;		/* stack suspects' high ends in it */
	bool lazy;			/* freed lazily: shown, not a suspect */
};

struct mstat_leak_window {
	int cap, n;			/* reads kept, at most cap */
	double *t;
	long long gen, age_ms;		/* the last read's snapshot */
	struct mstat_leak_cache *c;
	int nc, ccap;
	struct mstat_strmap map;	/* key to index into c */
};

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
 * 71 B/s in a 10-minute watch was called a leak (issue 43). Their growth
 * is shown apart, never a suspect.
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

static void mstat_leak_window_judge(struct mstat_leak_window *w, double conf,
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

static struct mstat_leak_cache *mstat_leak_cache_named(struct mstat_leak_window *w,
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

/* The stacks */

struct mstat_leak_obj {
	double birth;			/* CLOCK_MONOTONIC s */
	long long bytes;
};

/* A row: a stack with one set of labels, and its live samples. */
struct mstat_leak_row {
	int stack;
	long long cgroup, node;
	char *cache;			/* NULL: unknown */
	struct mstat_leak_obj *obj;	/* as of read @seen, by birth */
	size_t n, cap;
	int seen;
	/*
	 * The read being taken: the live samples of every row of the file
	 * that is this one (a stack cut at its interrupt's entry is the
	 * same stack whatever it interrupted), as of read @now.
	 */
	struct mstat_leak_obj *pend;
	size_t pn, pcap;
	int now;
};

struct mstat_leak_stack {
	char *site;
	char **frame;
	size_t nframe;
	double *life;			/* lifetimes of its sampled frees, s */
	size_t nlife, lifecap;
	/* The verdict */
	int k, later;
	double min_age;			/* A: leak-like from this age, s */
	double rate, low, high, oldest, usual, bytes;
	double bytes2, wmax;		/* sum of squared weights, largest */
	double cache_frac;		/* of @bytes, in @cache */
	bool judged, suspect, contradicted, filling, lazy;
	const char *cache;		/* the cache of most leak-like bytes */
};

struct mstat_leaks {
	const struct mstat_opts *o;
	struct mstat_leak_window *w;
	struct mstat_strmap stackmap, rowmap;
	struct mstat_leak_stack *st;
	int nst, stcap;
	struct mstat_leak_row *row;
	int nrow, rowcap;
	int reads;
	double t0, t1;			/* first and last read */
	double tprev;			/* the read before, while reading one */
	/*
	 * The stack tier's times: the reads' times corrected to the
	 * module's clock (mstat_leak_align()), first, last and the one
	 * before; @corr the correction, @tol the births' tolerance.
	 */
	double s0, s1, sprev, corr, tol;
	/*
	 * The samples tell of every birth since @sv: the watch's start, or
	 * the read before the last one after which the module dropped
	 * entries of its address table without their frees (addr_phantoms
	 * grew: a source switched off or on, a free probe that missed
	 * calls, a reset). @phantoms: addr_phantoms of the last read (-1:
	 * not given); @lost: this read's is above it, so the samples gone
	 * since the last read may not have been freed; @restarts: how many
	 * times so.
	 */
	double sv;
	long long phantoms;
	bool lost;
	int restarts;
	long long rate;			/* sample_rate of the last read */
	bool ages;			/* the sites files had live lines (2.2) */
	bool judged;			/* a cache's exact counts judged */
	struct mstat_cgroups *cg;
	/*
	 * The cgroups' paths, by id, as they were during the watch: learnt
	 * from this host's tree at each read that names a cgroup not known
	 * yet (mstat_leak_cg_learn()), and kept with --save in DIR/cgroups,
	 * from which --from takes them; --from never looks at this host's
	 * tree, whose ids are not the watched host's (another boot, another
	 * machine). @cg_walk: the read of the last walk of the tree; @cgf:
	 * DIR/cgroups of --save.
	 */
	long long *cg_id;
	char **cg_path;
	int ncg, cgcap, cg_walk;
	FILE *cgf;
};

/* The path of cgroup @id as the watch learnt it, or NULL. */
static const char *mstat_leak_cg_known(const struct mstat_leaks *lk,
				       long long id)
{
	int i;

	for (i = 0; i < lk->ncg; i++)
		if (lk->cg_id[i] == id)
			return lk->cg_path[i];
	return NULL;
}

static void mstat_leak_cg_add(struct mstat_leaks *lk, long long id,
			      const char *path)
{
	if (lk->ncg == lk->cgcap) {
		lk->cgcap = lk->cgcap ? 2 * lk->cgcap : 16;
		lk->cg_id = mstat_alloc(lk->cg_id, lk->cgcap * sizeof(*lk->cg_id));
		lk->cg_path = mstat_alloc(lk->cg_path,
					  lk->cgcap * sizeof(*lk->cg_path));
	}
	lk->cg_id[lk->ncg] = id;
	lk->cg_path[lk->ncg++] = mstat_strdup(path, strlen(path));
}

/*
 * Watching: cgroup @id of a row of this read, its path learnt now, while
 * it exists, from this host's tree (walked again, once a read, for a
 * cgroup made since the last walk), and written to DIR/cgroups with
 * --save. An id found nowhere stays unknown, its label "id:N".
 */
static void mstat_leak_cg_learn(struct mstat_leaks *lk, long long id)
{
	const char *path;

	if (id <= 0 || mstat_leak_cg_known(lk, id))
		return;
	if (!lk->cg) {
		lk->cg = mstat_cgroups_open();
		lk->cg_walk = lk->reads;
	}
	path = mstat_cgroup_path(lk->cg, id);
	if (!path && lk->cg_walk != lk->reads) {
		mstat_cgroups_free(lk->cg);
		lk->cg = mstat_cgroups_open();
		lk->cg_walk = lk->reads;
		path = mstat_cgroup_path(lk->cg, id);
	}
	if (!path || strchr(path, '\n'))
		return;
	mstat_leak_cg_add(lk, id, path);
	if (lk->cgf && (fprintf(lk->cgf, "%lld %s\n", id, path) < 0 ||
			fflush(lk->cgf)))
		mstat_err("cgroups: %s", strerror(errno));
}

/*
 * --from DIR: the paths DIR/cgroups kept ("ID PATH" lines); none if the
 * watch saved no file (then labels are "id:N"). False after a message.
 */
static bool mstat_leak_cg_load(struct mstat_leaks *lk, const char *dir)
{
	size_t len = strlen(dir) + 16, cap = 0;
	char *name = mstat_alloc(NULL, len), *line = NULL, *end;
	bool good = true;
	long long id;
	ssize_t n;
	int no = 0;
	FILE *f;

	snprintf(name, len, "%s/cgroups", dir);
	f = fopen(name, "r");
	if (!f) {
		good = errno == ENOENT;
		if (!good)
			mstat_err("%s: %s", name, strerror(errno));
		free(name);
		return good;
	}
	while (good && (n = getline(&line, &cap, f)) > 0) {
		no++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		errno = 0;
		id = strtoll(line, &end, 10);
		if (errno || end == line || *end != ' ' || id <= 0 ||
		    end[1] != '/') {
			mstat_err("%s: line %d: not \"ID PATH\": \"%s\"", name,
				  no, line);
			good = false;
		} else if (!mstat_leak_cg_known(lk, id)) {
			mstat_leak_cg_add(lk, id, end + 1);
		}
	}
	if (good && ferror(f)) {
		mstat_err("%s: %s", name, strerror(errno));
		good = false;
	}
	fclose(f);
	free(line);
	free(name);
	return good;
}

/* A row's cgroup label: its path as the watch learnt it, or "id:N". */
static const char *mstat_leak_cg_label(const struct mstat_leaks *lk,
				       long long id, char *buf, size_t len)
{
	return mstat_cgroup_label_of(id, mstat_leak_cg_known(lk, id), buf, len);
}

/* The sampled objects' slab cache, when the file names it (2.2). */
static const char *mstat_site_cache(const struct mstat_site *r)
{
	return r->cache;
}

/*
 * The functions where an asynchronous interrupt's stack begins: a stack
 * sampled there, or in a softirq, goes on into the frames of whatever the
 * interrupt happened to stop (an idle loop, a syscall, another softirq's
 * caller), so one leak would be as many stacks as the code it interrupted.
 * A stack is cut after the first of them, the frame kept: the x86-64 entry
 * stubs of interrupts and of the exceptions that are interrupts (NMI,
 * machine check), arm64's irq and fiq vectors and its switch to the irq
 * stack, and the softirq loop, which also runs where a task enables
 * bottom halves and in ksoftirqd. A synchronous exception (a page fault,
 * asm_exc_page_fault) is not cut: the code that faulted is the caller.
 */
static const char *const mstat_leak_irq_entry[] = {
	"asm_sysvec_", "asm_common_interrupt", "asm_spurious_interrupt",
	"asm_exc_nmi", "asm_exc_machine_check",
	"el1h_64_irq", "el0t_64_irq", "el1h_64_fiq", "el0t_64_fiq",
	"el0t_32_irq", "el0t_32_fiq", "call_on_irq_stack",
	"handle_softirqs", "__do_softirq",
};

/* Is @frame ("func+0x1/0x2 [mod]") in an interrupt's entry? */
static bool mstat_leak_is_entry(const char *frame)
{
	size_t i, l, fl = strcspn(frame, "+ .");

	for (i = 0; i < ARRAY_SIZE(mstat_leak_irq_entry); i++) {
		l = strlen(mstat_leak_irq_entry[i]);
		/* A name ending in '_' is a prefix; else the whole name. */
		if (mstat_leak_irq_entry[i][l - 1] == '_' ?
		    fl > l && !strncmp(frame, mstat_leak_irq_entry[i], l) :
		    fl == l && !strncmp(frame, mstat_leak_irq_entry[i], l))
			return true;
	}
	return false;
}

/* How many of @r's frames are the stack's: up to an interrupt's entry. */
static size_t mstat_leak_nframe(const struct mstat_site *r)
{
	size_t i;

	if (mstat_leak_is_entry(r->text))
		return 0;
	for (i = 0; i < r->nframe; i++)
		if (mstat_leak_is_entry(r->frame[i]))
			return i + 1;
	return r->nframe;
}

static int mstat_leak_stack_get(struct mstat_leaks *lk, const struct mstat_site *r)
{
	struct mstat_buf b = { 0 };
	struct mstat_leak_stack *s;
	size_t i, nframe = mstat_leak_nframe(r);
	int at;

	mstat_buf_put(&b, r->text, strlen(r->text));
	for (i = 0; i < nframe; i++) {
		mstat_buf_put(&b, "\n", 1);
		mstat_buf_put(&b, r->frame[i], strlen(r->frame[i]));
	}
	mstat_buf_put(&b, "", 1);
	at = (int)mstat_strmap_find(&lk->stackmap, (char *)b.p);
	if (at >= 0) {
		free(b.p);
		return at;
	}
	if (lk->nst == lk->stcap) {
		lk->stcap = lk->stcap ? 2 * lk->stcap : 64;
		lk->st = mstat_alloc(lk->st, lk->stcap * sizeof(*lk->st));
	}
	s = &lk->st[lk->nst];
	memset(s, 0, sizeof(*s));
	s->site = mstat_strdup(r->text, strlen(r->text));
	s->nframe = nframe;
	s->frame = mstat_alloc(NULL, (nframe + 1) * sizeof(*s->frame));
	for (i = 0; i < nframe; i++)
		s->frame[i] = mstat_strdup(r->frame[i], strlen(r->frame[i]));
	mstat_strmap_add(&lk->stackmap, (char *)b.p);
	free(b.p);
	return lk->nst++;
}

static void mstat_leak_life(struct mstat_leak_stack *s, double life)
{
	if (s->nlife == s->lifecap) {
		s->lifecap = s->lifecap ? 2 * s->lifecap : 16;
		s->life = mstat_alloc(s->life, s->lifecap * sizeof(*s->life));
	}
	s->life[s->nlife++] = life;
}

static int mstat_cmp_obj(const void *a, const void *b)
{
	const struct mstat_leak_obj *x = a, *y = b;

	return (x->birth > y->birth) - (x->birth < y->birth);
}

/*
 * Row @rw's live samples now, @obj (@n, by birth), at time @t: those of
 * the last read not among them were freed; learn their lifetimes. An
 * object of the last read is the first of @obj not taken yet of its size
 * and within the tolerance of its birth, wherever it stands among the
 * others born within it: births a millisecond apart, or alike, need not
 * sort alike in two reads (their ages are taken at two moments), and an
 * object taken for freed would teach its stack a lifetime that hides the
 * stack's leak.
 */
static void mstat_leak_match(struct mstat_leaks *lk, struct mstat_leak_row *rw,
			     const struct mstat_leak_obj *obj, size_t n,
			     double t)
{
	struct mstat_leak_stack *s = &lk->st[rw->stack];
	bool *taken = n ? mstat_alloc(NULL, n * sizeof(*taken)) : NULL;
	size_t i, j = 0, k;

	if (n)
		memset(taken, 0, n * sizeof(*taken));
	if (rw->seen != lk->reads - 1)
		rw->n = 0;	/* not in the last read: nothing to match */
	for (i = 0; i < rw->n; i++) {
		const struct mstat_leak_obj *p = &rw->obj[i];

		/* Those born before p's window: born since, or taken. */
		while (j < n && (taken[j] || obj[j].birth < p->birth - lk->tol))
			j++;
		for (k = j; k < n && obj[k].birth <= p->birth + lk->tol; k++)
			if (!taken[k] && obj[k].bytes == p->bytes)
				break;
		if (k < n && obj[k].birth <= p->birth + lk->tol)
			taken[k] = true;
		else if (!lk->lost && p->birth >= lk->s0 - lk->tol)
			mstat_leak_life(s, (lk->sprev + t) / 2 - p->birth);
	}
	free(taken);
	if (n > rw->cap) {
		rw->cap = n;
		rw->obj = mstat_alloc(rw->obj, n * sizeof(*rw->obj));
	}
	if (n)
		memcpy(rw->obj, obj, n * sizeof(*obj));
	rw->n = n;
	rw->seen = lk->reads;
}

/*
 * The offset of this read's births from the last read's. A birth is a
 * read's time less an age the module took at its snapshot, a moment the
 * read's time only brackets: on a loaded machine the two differ by
 * something else at every read (a second, under TCG), more than two
 * births of one object may be trusted to agree, and an object taken for
 * freed teaches its stack a lifetime (which then hides its leak). But an
 * object live in both reads is older by exactly the time between the
 * two snapshots, so the births of all such objects are off by the same
 * offset, to the millisecond of the ages: the offset is where the
 * differences between the rows' births of the two reads (same row, same
 * size, within @win) crowd, two at least within 2 ms. Return true and
 * @off, or false (no two objects live in both reads).
 *
 * Of this read's objects, MSTAT_LEAK_PROBES at most, spread over all of
 * them, are paired with the last read's: every pair in the window of
 * each object would be quadratic in a stack's samples (a leak of 20,000
 * live samples of one size), and a few hundred objects live in both
 * reads crowd at the offset plainly enough.
 */
#define MSTAT_LEAK_PROBES	256

static bool mstat_leak_align(const struct mstat_leaks *lk, double win,
			     double *off)
{
	double *d = NULL, best = 0;
	size_t nd = 0, cap = 0, i, j, k, n = 0, bn = 0, all = 0, every, seen = 0;
	int r;

	for (r = 0; r < lk->nrow; r++)
		if (lk->row[r].now == lk->reads && lk->row[r].seen == lk->reads - 1)
			all += lk->row[r].pn;
	every = all / MSTAT_LEAK_PROBES + 1;
	for (r = 0; r < lk->nrow; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->now != lk->reads || rw->seen != lk->reads - 1)
			continue;
		for (i = 0, k = 0; i < rw->pn; i++) {
			const struct mstat_leak_obj *q = &rw->pend[i];

			while (k < rw->n && rw->obj[k].birth < q->birth - win)
				k++;
			if (seen++ % every)
				continue;
			for (j = k; j < rw->n && rw->obj[j].birth <= q->birth + win; j++) {
				if (rw->obj[j].bytes != q->bytes)
					continue;
				if (nd == cap) {
					cap = cap ? 2 * cap : 256;
					d = mstat_alloc(d, cap * sizeof(*d));
				}
				d[nd++] = q->birth - rw->obj[j].birth;
			}
		}
	}
	if (nd)
		qsort(d, nd, sizeof(*d), mstat_cmp_double);
	for (i = 0, j = 0; i < nd; i++) {
		while (d[i] - d[j] > 0.002)
			j++;
		n = i - j + 1;
		if (n > bn || (n == bn && fabs(d[(i + j) / 2]) < fabs(best))) {
			bn = n;
			best = d[(i + j) / 2];
		}
	}
	free(d);
	*off = best;
	return bn >= 2;
}

static void mstat_leak_sites(struct mstat_leaks *lk,
			     const struct mstat_sites *ss, double t)
{
	double off, win;
	struct mstat_leak_row *rw;
	size_t r, i;
	char lab[96];
	int at;

	if (ss->age_ms > 0)
		t -= ss->age_ms / 1000.0;	/* a snapshot served again */
	t += lk->corr;
	lk->rate = ss->rate;
	/* Entries dropped without their frees since the last read. */
	lk->lost = lk->reads && ss->addr_phantoms >= 0 && lk->phantoms >= 0 &&
		   ss->addr_phantoms > lk->phantoms;
	if (ss->addr_phantoms >= 0)
		lk->phantoms = ss->addr_phantoms;
	for (r = 0; r < ss->n; r++) {
		const struct mstat_site *st = &ss->site[r];
		const char *cache = mstat_site_cache(st);
		struct mstat_buf key = { 0 };
		int sk = mstat_leak_stack_get(lk, st);

		if (st->nlive)
			lk->ages = true;
		snprintf(lab, sizeof(lab), "%d %lld %lld ", sk, st->cgroup,
			 st->node);
		mstat_buf_put(&key, lab, strlen(lab));
		mstat_buf_put(&key, cache ? cache : "-",
			      strlen(cache ? cache : "-") + 1);
		at = (int)mstat_strmap_find(&lk->rowmap, (char *)key.p);
		if (at < 0) {
			if (lk->nrow == lk->rowcap) {
				lk->rowcap = lk->rowcap ? 2 * lk->rowcap : 64;
				lk->row = mstat_alloc(lk->row,
						      lk->rowcap * sizeof(*lk->row));
			}
			rw = &lk->row[lk->nrow];
			memset(rw, 0, sizeof(*rw));
			rw->stack = sk;
			rw->cgroup = st->cgroup;
			if (!lk->o->from)
				mstat_leak_cg_learn(lk, st->cgroup);
			rw->node = st->node;
			rw->cache = cache ? mstat_strdup(cache, strlen(cache)) : NULL;
			rw->seen = -2;
			rw->now = -1;
			mstat_strmap_add(&lk->rowmap, (char *)key.p);
			at = lk->nrow++;
		}
		free(key.p);
		rw = &lk->row[at];
		if (rw->now != lk->reads) {
			rw->now = lk->reads;
			rw->pn = 0;
		}
		if (rw->pn + st->nlive > rw->pcap) {
			rw->pcap = rw->pn + st->nlive;
			rw->pend = mstat_alloc(rw->pend,
					       rw->pcap * sizeof(*rw->pend));
		}
		for (i = 0; i < st->nlive; i++) {
			rw->pend[rw->pn].birth = t - st->live[i].age_ms / 1000.0;
			rw->pend[rw->pn++].bytes = st->live[i].bytes;
		}
	}
	for (at = 0; at < lk->nrow; at++) {
		rw = &lk->row[at];
		if (rw->now == lk->reads)
			qsort(rw->pend, rw->pn, sizeof(*rw->pend), mstat_cmp_obj);
	}
	/* This read's births on the last read's clock, if they can be. */
	lk->tol = MSTAT_LEAK_TOLERANCE;
	win = lk->reads ? (t - lk->s1) / 2 : 0;
	if (win > 10)
		win = 10;
	if (lk->reads && mstat_leak_align(lk, win, &off)) {
		lk->tol = MSTAT_LEAK_ALIGNED;
		lk->corr -= off;
		t -= off;
		for (at = 0; at < lk->nrow; at++) {
			rw = &lk->row[at];
			for (i = 0; rw->now == lk->reads && i < rw->pn; i++)
				rw->pend[i].birth -= off;
		}
	}
	lk->sprev = lk->reads ? lk->s1 : t;
	lk->s1 = t;
	if (!lk->reads)
		lk->s0 = lk->sv = t;
	if (lk->lost) {
		/*
		 * Births since the last read may have been dropped: count
		 * from it again (those dropped before it, older, are gone).
		 */
		lk->sv = lk->sprev;
		lk->restarts++;
	}
	for (at = 0; at < lk->nrow; at++) {
		rw = &lk->row[at];
		if (rw->now == lk->reads) {
			mstat_leak_match(lk, rw, rw->pend, rw->pn, t);
		} else if (rw->seen == lk->reads - 1 && lk->reads > 0) {
			/* The last read had it and this one has not: all freed. */
			mstat_leak_match(lk, rw, NULL, 0, t);
		}
		if (rw->seen != lk->reads)
			rw->n = 0;
	}
}

/* Bytes a sample of @bytes stands for at rate @rate. */
static double mstat_leak_weight(long long bytes, long long rate)
{
	return bytes * mstat_sample_scale((double)bytes, (double)rate);
}

/* Is @o, a live sample at the end of the watch, leak-like for @s? */
static bool mstat_leak_like(const struct mstat_leaks *lk,
			    const struct mstat_leak_obj *o, double min_age)
{
	double age = lk->s1 - o->birth;

#ifdef MSTAT_LEAKS_WEAK
	(void)min_age;
	return o->birth >= lk->s0 - MSTAT_LEAK_TOLERANCE && age >= 0;
#else
	return o->birth >= lk->sv - MSTAT_LEAK_TOLERANCE && age >= min_age;
#endif
}

/*
 * The longest lifetime usual for stack @si: the longest of its learnt
 * lifetimes at which a tenth at least of its sampled objects that lived
 * as long were freed (then or later), among those born since the watch
 * began (@lives, @n, sorted) and those live at the last read. A free
 * that most of the objects as old as it outlived (one long-lived object
 * of a stack that leaks, the rest of its objects still live and older)
 * tells of it alone, not of the stack. 0 when none is.
 */
static double mstat_leak_usual_life(const struct mstat_leaks *lk, int si,
				    const double *lives, size_t n)
{
	double *ages = NULL, L = 0;
	size_t na = 0, cap = 0, i, j, a;
	int r;

	for (r = 0; r < lk->nrow; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->stack != si || rw->seen != lk->reads - 1)
			continue;
		for (j = 0; j < rw->n; j++) {
			if (rw->obj[j].birth < lk->s0 - lk->tol)
				continue;
			if (na == cap) {
				cap = cap ? 2 * cap : 64;
				ages = mstat_alloc(ages, cap * sizeof(*ages));
			}
			ages[na++] = lk->s1 - rw->obj[j].birth;
		}
	}
	if (na)
		qsort(ages, na, sizeof(*ages), mstat_cmp_double);
	/* From the longest: n - i frees at lives[i] or later, a live older. */
	for (i = n, a = na; i-- > 0;) {
		while (a > 0 && ages[a - 1] >= lives[i])
			a--;
		if (10 * (n - i) >= (n - i) + (na - a)) {
			L = lives[i];
			break;
		}
	}
	free(ages);
	return L;
}

static void mstat_leak_judge_stack(struct mstat_leaks *lk, int si)
{
	struct mstat_leak_stack *s = &lk->st[si];
	double T = lk->s1 - lk->sv, dt;
	double conf = lk->o->confidence, A = 0, Te, w, mid, best = 0, *lives;
	double cache_bytes[64];
	const char *caches[64];
	int nc = 0, i, r;
	size_t j;

	dt = lk->reads > 1 ? (lk->s1 - lk->s0) / (lk->reads - 1) : T;
	s->usual = NAN;
	if (s->nlife) {
		lives = mstat_alloc(NULL, s->nlife * sizeof(*lives));
		memcpy(lives, s->life, s->nlife * sizeof(*lives));
		qsort(lives, s->nlife, sizeof(*lives), mstat_cmp_double);
		s->usual = mstat_leak_usual_life(lk, si, lives, s->nlife);
		A = 1.5 * s->usual + 2 * dt;
		if (!s->usual)
			s->usual = NAN;	/* frees, none usual */
		free(lives);
	}
#ifdef MSTAT_LEAKS_WEAK
	A = 0;
#endif
	s->min_age = A;
	Te = T - A;
	s->rate = 0;
	s->low = 0;
	s->high = INFINITY;
	s->oldest = NAN;
	if (Te <= T / 4 || T <= 0)
		return;		/* lives too long for this watch to judge */
	s->judged = true;
	mid = lk->sv + Te / 2;
	for (r = 0; r < lk->nrow; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->stack != si || rw->seen != lk->reads - 1)
			continue;
		for (j = 0; j < rw->n; j++) {
			const struct mstat_leak_obj *o = &rw->obj[j];

			if (!mstat_leak_like(lk, o, A))
				continue;
			w = mstat_leak_weight(o->bytes, lk->rate);
			s->k++;
			s->bytes += w;
			s->bytes2 += w * w;
			if (w > s->wmax)
				s->wmax = w;
			s->later += o->birth >= mid;
			if (isnan(s->oldest) || lk->s1 - o->birth > s->oldest)
				s->oldest = lk->s1 - o->birth;
			if (!rw->cache)
				continue;
			for (i = 0; i < nc && strcmp(caches[i], rw->cache); i++)
				;
			if (i == nc && nc < (int)ARRAY_SIZE(caches)) {
				caches[nc] = rw->cache;
				cache_bytes[nc++] = 0;
			}
			if (i < nc)
				cache_bytes[i] += w;
		}
	}
	for (i = 0; i < nc; i++) {
		if (cache_bytes[i] > best) {
			best = cache_bytes[i];
			s->cache = caches[i];
		}
	}
	s->cache_frac = s->bytes > 0 ? best / s->bytes : 0;
	if (!s->k)
		return;
	s->rate = s->bytes / Te;
	mstat_weighted_poisson(s->bytes, s->bytes2, s->wmax, conf, &s->low,
			       &s->high);
	s->low /= Te;
	s->high /= Te;
	s->suspect = s->k >= MSTAT_LEAK_MIN_SAMPLES &&
		     s->low > lk->o->min_rate;
#ifndef MSTAT_LEAKS_WEAK
	/*
	 * Not a fill that stopped: the later half of the exposure has a rate
	 * half the earlier's at least, so a third of the births or more
	 * (rejected when fewer are unlikely at 1 - conf).
	 */
	if (mstat_binom_cdf(s->k, s->later, 1 / 3.0) < 1 - conf)
		s->suspect = false;
#endif
}

/* The stacks against the caches. */
static void mstat_leak_cross(struct mstat_leaks *lk)
{
	struct mstat_leak_cache *c;
#ifndef MSTAT_LEAKS_WEAK
	double share;
#endif
	int i;

	for (i = 0; i < lk->nst; i++) {
		struct mstat_leak_stack *s = &lk->st[i];

		if (!s->suspect || !s->cache)
			continue;
		c = mstat_leak_cache_named(lk->w, s->cache);
		if (!c || !c->tr.judged)
			continue;
#ifndef MSTAT_LEAKS_WEAK
		/*
		 * Its cache grows slower than its share of it, over the watch
		 * or in its later half (a fill that stopped, too young a
		 * stack for its samples to say so); a stack of several sizes
		 * has its bytes in several caches, and only those in its
		 * cache go into this one.
		 */
		share = s->low * s->cache_frac;
		if (c->tr.high < share || c->tr.late_high < share) {
			s->suspect = false;
			s->contradicted = true;
			continue;
		}
		/* Its cache fills toward a plateau: so do its objects. */
		if (c->tr.filling) {
			s->suspect = false;
			s->filling = true;
			continue;
		}
		/* Its cache is freed lazily: so are its objects. */
		if (c->lazy) {
			s->suspect = false;
			s->lazy = true;
			continue;
		}
#endif
		c->explained_high += s->high;
	}
}

/* Output */

/* Does row @rw hold a leak-like sample of its stack? */
static bool mstat_leak_row_counts(const struct mstat_leaks *lk,
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

/* What mstat_leak_labels() lists. */
enum {
	MSTAT_LEAK_CGROUPS,
	MSTAT_LEAK_NODES,
	MSTAT_LEAK_CACHES,
	/* What a fleet knows the cgroups by (mstat_cgroup_tags()). */
	MSTAT_LEAK_CONTAINERS,	/* RUNTIME:ID, or ID; in words, 12 digits */
	MSTAT_LEAK_PODS,	/* pod UIDs */
	MSTAT_LEAK_UNITS,	/* systemd units */
};

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

/* How mstat_leak_labels() writes: words ("-" for none), JSON, or words
 * with whole container ids and nothing for none (a Prometheus label). */
enum { MSTAT_LEAK_FMT_TEXT, MSTAT_LEAK_FMT_JSON, MSTAT_LEAK_FMT_WORDS };

/*
 * The labels of stack @si's leak-like samples, each once, as @fmt
 * gives: @which MSTAT_LEAK_*.
 */
static void mstat_leak_labels(FILE *f, struct mstat_leaks *lk, int si,
			      int which, int fmt)
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

/*
 * In words, after a stack's cgroups: its containers, pods and units,
 * those its cgroups' paths give; nothing on a machine whose paths give
 * none.
 */
static void mstat_leak_fleet_words(struct mstat_leaks *lk, int si)
{
	static const char *const word[] = { "containers", "pods", "units" };
	struct mstat_cgroup_tags t;
	char buf[32];
	const char *v;
	bool any = false;
	int r, w;

	for (r = 0; r < lk->nrow && !any; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->stack != si || !mstat_leak_row_counts(lk, rw))
			continue;
		v = mstat_leak_cg_label(lk, rw->cgroup, buf, sizeof(buf));
		any = v && mstat_cgroup_tags(v, &t) &&
		      (t.container_id[0] || t.pod_uid[0] || t.unit[0]);
	}
	if (!any)
		return;
	for (w = 0; w < 3; w++) {
		printf("; %s ", word[w]);
		mstat_leak_labels(stdout, lk, si, MSTAT_LEAK_CONTAINERS + w, MSTAT_LEAK_FMT_TEXT);
	}
}

static int mstat_leak_order_cmp(const void *a, const void *b);
static const struct mstat_leaks *mstat_leak_sorting;

/* Suspects first by the low end of their rate. */
static int mstat_leak_order_cmp(const void *a, const void *b)
{
	const struct mstat_leaks *lk = mstat_leak_sorting;
	double x = lk->st[*(const int *)a].low, y = lk->st[*(const int *)b].low;

	return (x < y) - (x > y);
}

static int mstat_leak_cache_cmp(const void *a, const void *b)
{
	const struct mstat_leak_cache *x = *(struct mstat_leak_cache *const *)a;
	const struct mstat_leak_cache *y = *(struct mstat_leak_cache *const *)b;

	return (x->tr.low < y->tr.low) - (x->tr.low > y->tr.low);
}

static bool mstat_leak_explained(const struct mstat_leak_cache *c)
{
	return c->explained_high > 0 && c->explained_high >= c->tr.low;
}

/*
 * A stack named in a list after the suspects, by its site and cache;
 * @why: with its low end and "grows while its cache does not".
 */
static void mstat_leak_json_stack_ref(const struct mstat_leak_stack *s,
				      bool why, bool *first)
{
	char names[MSTAT_SLAB_LABEL_MAX];

	printf("%s\n    {\"kind\": \"stack\", \"site\": ", *first ? "" : ",");
	*first = false;
	mstat_json_str(stdout, s->site);
	printf(", \"cache\": ");
	mstat_json_str(stdout, s->cache ? mstat_slab_label(s->cache, names,
							 sizeof(names)) : NULL);
	if (why) {
		printf(", \"rate_low_bps\": ");
		mstat_json_num(stdout, s->low);
		printf(", \"why\": \"grows while its cache does not\"");
	}
	printf("}");
}

static void mstat_leak_json(struct mstat_leaks *lk, const int *ord, int ns,
			    struct mstat_leak_cache **cs, int ncs)
{
	const struct mstat_opts *o = lk->o;
	char names[MSTAT_SLAB_LABEL_MAX];
	bool first = true;
	size_t j;
	int i;

	printf("{\n  \"version\": 1,\n  \"duration_s\": %.1f, \"interval_s\": %.1f, \"reads\": %d, \"sample_rate\": %lld,\n",
	       lk->t1 - lk->t0, lk->reads > 1 ? (lk->t1 - lk->t0) / (lk->reads - 1) : 0.0,
	       lk->reads, lk->rate);
	printf("  \"confidence\": %g, \"min_rate_bps\": %.1f, \"ages\": %s,\n",
	       o->confidence, o->min_rate, lk->ages ? "true" : "false");
	printf("  \"restarts\": %d, \"samples_since_s\": %.1f, \"judged\": %s,\n",
	       lk->restarts, lk->sv - lk->s0, lk->judged ? "true" : "false");
	printf("  \"suspects\": [");
	for (i = 0; i < ns; i++) {
		const struct mstat_leak_stack *s = &lk->st[ord[i]];

		printf("%s\n    {\"kind\": \"stack\", \"site\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, s->site);
		printf(",\n     \"stack\": [");
		mstat_json_str(stdout, s->site);
		for (j = 0; j < s->nframe; j++) {
			printf(", ");
			mstat_json_str(stdout, s->frame[j]);
		}
		printf("],\n     \"cgroups\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CGROUPS, MSTAT_LEAK_FMT_JSON);
		printf(", \"nodes\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_NODES, MSTAT_LEAK_FMT_JSON);
		printf(", \"caches\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CACHES, MSTAT_LEAK_FMT_JSON);
		printf(",\n     \"containers\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CONTAINERS, MSTAT_LEAK_FMT_JSON);
		printf(", \"pods\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_PODS, MSTAT_LEAK_FMT_JSON);
		printf(", \"units\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_UNITS, MSTAT_LEAK_FMT_JSON);
		printf(",\n     \"rate_bps\": ");
		mstat_json_num(stdout, s->rate);
		printf(", \"rate_low_bps\": ");
		mstat_json_num(stdout, s->low);
		printf(", \"rate_high_bps\": ");
		mstat_json_num(stdout, s->high);
		printf(",\n     \"samples\": %d, \"oldest_s\": ", s->k);
		mstat_json_num(stdout, s->oldest);
		printf(", \"usual_lifetime_s\": ");
		mstat_json_num(stdout, s->usual);
		printf(", \"frees_seen\": %zu}", s->nlife);
	}
	for (i = 0; i < ncs; i++) {
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(cs[i]->name, names,
							sizeof(names)));
		printf(",\n     \"rate_bps\": ");
		mstat_json_num(stdout, cs[i]->tr.rate);
		printf(", \"rate_low_bps\": ");
		mstat_json_num(stdout, cs[i]->tr.low);
		printf(", \"rate_high_bps\": ");
		mstat_json_num(stdout, cs[i]->tr.high);
		printf(",\n     \"explained\": %s}",
		       mstat_leak_explained(cs[i]) ? "true" : "false");
	}
	printf("%s],\n  \"unexplained\": [", first ? "" : "\n  ");
	first = true;
	for (i = 0; i < ncs; i++) {
		if (mstat_leak_explained(cs[i]))
			continue;
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(cs[i]->name, names,
							sizeof(names)));
		printf(", \"why\": \"grows, no sampled stack yet\"}");
	}
	for (i = 0; i < lk->nst; i++)
		if (lk->st[i].contradicted)
			mstat_leak_json_stack_ref(&lk->st[i], true, &first);
	printf("%s],\n  \"filling\": [", first ? "" : "\n  ");
	first = true;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->tr.filling)
			continue;
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(fc->name, names,
							sizeof(names)));
		printf(", \"live_bytes\": ");
		mstat_json_num(stdout, fc->x[lk->w->n - 1]);
		printf(", \"plateau_bytes\": ");
		mstat_json_num(stdout, fc->tr.plateau);
		printf(", \"tau_s\": ");
		mstat_json_num(stdout, fc->tr.tau);
		printf("}");
	}
	for (i = 0; i < lk->nst; i++)
		if (lk->st[i].filling)
			mstat_leak_json_stack_ref(&lk->st[i], false, &first);
	printf("%s],\n  \"lazy\": [", first ? "" : "\n  ");
	first = true;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->lazy)
			continue;
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(fc->name, names,
							sizeof(names)));
		printf(", \"rate_bps\": ");
		mstat_json_num(stdout, fc->tr.rate);
		printf(", \"why\": \"freed lazily by the kernel\"}");
	}
	for (i = 0; i < lk->nst; i++)
		if (lk->st[i].lazy)
			mstat_leak_json_stack_ref(&lk->st[i], false, &first);
	printf("%s]\n}\n", first ? "" : "\n  ");
}

static void mstat_leak_prom_num(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else
		fprintf(f, "%.3f", v);
}

/* Stack @si's labels of @which as one Prometheus label value. */
static void mstat_leak_prom_words(FILE *f, struct mstat_leaks *lk, int si,
				  int which)
{
	char *v = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&v, &len);

	if (m) {
		mstat_leak_labels(m, lk, si, which, MSTAT_LEAK_FMT_WORDS);
		if (fclose(m))
			len = 0;
	}
	mstat_prom_label(f, len ? v : "");
	free(v);
}

/* Stack @si's label set, without the closing brace. */
static void mstat_leak_prom_stack(FILE *f, struct mstat_leaks *lk, int si,
				  const char *name)
{
	static const struct { const char *label; int which; } l[] = {
		{ "cache", MSTAT_LEAK_CACHES },
		{ "cgroup", MSTAT_LEAK_CGROUPS },
		{ "container_id", MSTAT_LEAK_CONTAINERS },
		{ "pod_uid", MSTAT_LEAK_PODS },
		{ "systemd_unit", MSTAT_LEAK_UNITS },
	};
	const char *site = lk->st[si].site, *mod;
	size_t k, n;

	/* "fn+0x1a/0x40 [mod]": the function, and the module apart. */
	n = strcspn(site, "+ ");
	fprintf(f, "%s{site=\"", name);
	mstat_prom_label_n(f, site, n);
	fputs("\",module=\"", f);
	mod = strchr(site + n, '[');
	if (mod && strchr(mod, ']'))
		mstat_prom_label_n(f, mod + 1, strcspn(mod + 1, "]"));
	for (k = 0; k < ARRAY_SIZE(l); k++) {
		fprintf(f, "\",%s=\"", l[k].label);
		mstat_leak_prom_words(f, lk, si, l[k].which);
	}
	fputc('"', f);
}

/*
 * The verdict as Prometheus text (--prom), for the node exporter's
 * textfile collector: what it was judged over, then a series a suspect
 * stack (its caller's function and module, so that a series outlives a
 * rebuild that moves an offset, and the caches, cgroups, containers, pods and
 * units of its samples, each a label of words, "" for none) and a
 * series a suspect cache, with their growth and its interval. A stack
 * that is no suspect has no series: the label sets stay as few as the
 * suspects.
 */
static void mstat_leak_prom_verdict(FILE *f, struct mstat_leaks *lk,
				    const int *ord, int ns,
				    struct mstat_leak_cache **cs, int ncs)
{
	static const char *const bound[] = { "low", "est", "high" };
	char names[MSTAT_SLAB_LABEL_MAX];
	const struct mstat_leak_stack *s;
	int i, b;

	mstat_prom_head(f, "mstat_leaks_reads", "gauge",
			"Reads of /proc/mstat and /proc/mstat_sites mstat leaks judged.");
	fprintf(f, "mstat_leaks_reads %d\n", lk->reads);
	mstat_prom_head(f, "mstat_leaks_seconds", "gauge",
			"Time from the first read mstat leaks judged to the last.");
	fprintf(f, "mstat_leaks_seconds %.1f\n", lk->t1 - lk->t0);
	mstat_prom_head(f, "mstat_leaks_judged", "gauge",
			"1 if the reads were enough for a verdict, else 0.");
	fprintf(f, "mstat_leaks_judged %d\n", lk->judged);
	/* So that a verdict nobody renews (the module gone) can be aged out. */
	mstat_prom_head(f, "mstat_leaks_time_seconds", "gauge",
			"When the verdict was written, seconds since the epoch.");
	fprintf(f, "mstat_leaks_time_seconds %lld\n", (long long)time(NULL));
	mstat_prom_head(f, "mstat_leak_stack_suspect", "gauge",
			"1 for each stack whose sampled objects mstat leaks calls a leak.");
	for (i = 0; i < ns; i++) {
		mstat_leak_prom_stack(f, lk, ord[i], "mstat_leak_stack_suspect");
		fputs("} 1\n", f);
	}
	mstat_prom_head(f, "mstat_leak_stack_rate_bytes_per_second", "gauge",
			"Growth of a suspect stack's estimated live bytes: the estimate (est) and its confidence interval (low, high).");
	for (i = 0; i < ns; i++) {
		s = &lk->st[ord[i]];
		for (b = 0; b < 3; b++) {
			mstat_leak_prom_stack(f, lk, ord[i],
					      "mstat_leak_stack_rate_bytes_per_second");
			fprintf(f, ",bound=\"%s\"} ", bound[b]);
			mstat_leak_prom_num(f, b == 0 ? s->low : b == 1 ? s->rate : s->high);
			fputc('\n', f);
		}
	}
	mstat_prom_head(f, "mstat_leaks_cache_suspect", "gauge",
			"1 for each cache whose live bytes mstat leaks calls a leak over its reads.");
	for (i = 0; i < ncs; i++) {
		fputs("mstat_leaks_cache_suspect{cache=\"", f);
		mstat_prom_label(f, mstat_slab_label(cs[i]->name, names,
						     sizeof(names)));
		fputs("\"} 1\n", f);
	}
}

static void mstat_leak_text(struct mstat_leaks *lk, const int *ord, int ns,
			    struct mstat_leak_cache **cs, int ncs)
{
	char a[32], b[32], c[32], names[MSTAT_SLAB_LABEL_MAX];
	size_t j;
	int i, nu = 0;

	printf("mstat leaks: %d reads over %.0f s, sample rate %lld, confidence %g%s\n",
	       lk->reads, lk->t1 - lk->t0, lk->rate, lk->o->confidence,
	       lk->ages ? "" : " (no sampled ages: format 2.2 needed for stacks)");
	if (lk->restarts)
		printf("the samples from %.0f s in (the module dropped its address table %d time%s: a source switched, a reset or missed frees)\n",
		       lk->sv - lk->s0, lk->restarts,
		       lk->restarts > 1 ? "s" : "");
	if (!ns && !ncs && !lk->judged)
		printf("no verdict: not enough reads to judge (%d; at confidence %g the exact counts need %d)\n",
		       lk->reads, lk->o->confidence,
		       mstat_leak_min_reads(lk->o->confidence));
	else if (!ns && !ncs)
		printf("no suspect: nothing grows without bound\n");
	for (i = 0; i < ns; i++) {
		const struct mstat_leak_stack *s = &lk->st[ord[i]];

		printf("\nLEAK stack %s\n", s->site);
		printf("  rate %s/s (%g%%: %s/s to %s/s) from %d samples, oldest %.0f s",
		       mstat_bytes(a, s->rate), lk->o->confidence * 100,
		       mstat_bytes(b, s->low), mstat_bytes(c, s->high), s->k,
		       s->oldest);
		if (!s->nlife)
			printf(", no sampled free\n");
		else if (isnan(s->usual))
			printf(", %zu sampled free%s, none usual for the stack\n",
			       s->nlife, s->nlife > 1 ? "s" : "");
		else
			printf(", usual lifetime %.1f s (%zu frees)\n", s->usual,
			       s->nlife);
		printf("  cgroups ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CGROUPS, MSTAT_LEAK_FMT_TEXT);
		printf("; caches ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CACHES, MSTAT_LEAK_FMT_TEXT);
		printf("; nodes ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_NODES, MSTAT_LEAK_FMT_TEXT);
		mstat_leak_fleet_words(lk, ord[i]);
		printf("\n");
		for (j = 0; j < s->nframe; j++)
			printf("    %s\n", s->frame[j]);
	}
	for (i = 0; i < ncs; i++) {
		printf("\nLEAK cache %s\n",
		       mstat_slab_label(cs[i]->name, names, sizeof(names)));
		printf("  live bytes grow %s/s (%g%%: %s/s to %s/s)%s\n",
		       mstat_bytes(a, cs[i]->tr.rate), lk->o->confidence * 100,
		       mstat_bytes(b, cs[i]->tr.low), mstat_bytes(c, cs[i]->tr.high),
		       mstat_leak_explained(cs[i]) ? ", explained by the stacks above" :
		       ", no sampled stack explains it yet");
	}
	for (i = 0; i < lk->nst; i++) {
		if (!lk->st[i].contradicted)
			continue;
		if (!nu++)
			printf("\nUnexplained (no verdict):\n");
		printf("  stack %s grows (%s/s at least) while its cache %s does not\n",
		       lk->st[i].site, mstat_bytes(a, lk->st[i].low),
		       mstat_slab_label(lk->st[i].cache, names, sizeof(names)));
	}
	nu = 0;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->tr.filling)
			continue;
		if (!nu++)
			printf("\nFilling, not leaking (the rate falls toward a plateau):\n");
		printf("  cache %s: %s live, toward %s (time constant %.0f s)\n",
		       mstat_slab_label(fc->name, names, sizeof(names)), mstat_bytes(a, fc->x[lk->w->n - 1]),
		       mstat_bytes(b, fc->tr.plateau), fc->tr.tau);
		for (j = 0; j < (size_t)lk->nst; j++)
			if (lk->st[j].filling && !strcmp(mstat_leak_cache_named(lk->w,
					lk->st[j].cache)->name, fc->name))
				printf("    stack %s\n", lk->st[j].site);
	}
	nu = 0;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->lazy)
			continue;
		if (!nu++)
			printf("\nFreed lazily by the kernel, not judged:\n");
		printf("  cache %s: grows %s/s (vfree() purges its areas in batches)\n",
		       mstat_slab_label(fc->name, names, sizeof(names)),
		       mstat_bytes(a, fc->tr.rate));
		for (j = 0; j < (size_t)lk->nst; j++)
			if (lk->st[j].lazy && !strcmp(mstat_leak_cache_named(lk->w,
					lk->st[j].cache)->name, fc->name))
				printf("    stack %s\n", lk->st[j].site);
	}
}

/* Reading */

/* The time in DIR/NNNN.time, or false after a message. */
static bool mstat_leak_time(const char *path, double *t)
{
	enum mstat_read_fail how;
	size_t len;
	char *buf = mstat_slurp(path, 4096, NULL, &len, &how), *end;

	if (!buf) {
		mstat_err("%s: %s", path, errno == ENOENT ? "not found" :
			  strerror(errno));
		return false;
	}
	errno = 0;
	*t = strtod(buf, &end);
	if (errno || end == buf || *end != '\n' || end[1] || !isfinite(*t)) {
		mstat_err("%s: line 1: not CLOCK_MONOTONIC seconds: \"%.40s\"",
			  path, strtok(buf, "\n") ? buf : "");
		free(buf);
		return false;
	}
	free(buf);
	return true;
}

/* Copy @src to @dst (a --save): false after a message. */
static bool mstat_leak_copy(const char *src, const char *dst, struct timespec *when)
{
	enum mstat_read_fail how;
	size_t len;
	char *buf = mstat_slurp(src, MSTAT_MAX_INPUT, when, &len, &how);
	FILE *f;
	bool ok;

	if (!buf) {
		mstat_err("%s: %s", src, errno == ENOENT && !strncmp(src, "/proc/", 6) ?
			  "not found: is the mstat module loaded?" : strerror(errno));
		return false;
	}
	f = fopen(dst, "w");
	ok = f && fwrite(buf, 1, len, f) == len;
	if (f && fclose(f))
		ok = false;
	if (!ok)
		mstat_err("%s: %s", dst, strerror(errno));
	free(buf);
	return ok;
}

/* One read: @mpath and @spath taken at @t; false after a message. */
static bool mstat_leak_read(struct mstat_leaks *lk, const char *mpath,
			    const char *spath, double t)
{
	struct mstat_snap *s = mstat_snap_read(mpath);
	struct mstat_sites *ss;

	if (!s)
		return false;
	ss = mstat_sites_read(spath);
	if (!ss) {
		mstat_snap_free(s);
		return false;
	}
	if (!lk->reads)
		lk->t0 = t;
	/* The snapshot's own time: a served again one is older than @t. */
	mstat_leak_window_add(lk->w, s, t - mstat_snap_age(s));
	lk->tprev = lk->reads ? lk->t1 : t;
	lk->t1 = t;
	mstat_leak_sites(lk, ss, t);
	lk->reads++;
	mstat_snap_free(s);
	mstat_sites_free(ss);
	return true;
}

/*
 * Read numbers in numeric order: --save writes them %04ld, so a watch of
 * more than 9,999 reads has names of five digits and more, which sort
 * before "9999" as strings. Leading zeros aside, the longer is the
 * greater.
 */
static int mstat_cmp_num(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t lx, ly;

	x += strspn(x, "0");
	y += strspn(y, "0");
	lx = strlen(x);
	ly = strlen(y);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x, y);
}

/* The NNNN of DIR's NNNN.mstat files, in numeric order; -1 after a message. */
static int mstat_leak_list(const char *dir, char ***names)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0, cap = 0;
	size_t l;

	*names = NULL;
	if (!d) {
		mstat_err("%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		l = strlen(e->d_name);
		if (l <= 6 || strcmp(e->d_name + l - 6, ".mstat") ||
		    strspn(e->d_name, "0123456789") != l - 6)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			*names = mstat_alloc(*names, cap * sizeof(**names));
		}
		(*names)[n++] = mstat_strdup(e->d_name, l - 6);
	}
	closedir(d);
	if (n)
		qsort(*names, n, sizeof(**names), mstat_cmp_num);
	return n;
}

static int mstat_leak_from(struct mstat_leaks *lk, const char *dir)
{
	char **names, *m, *s, *t;
	size_t len = strlen(dir) + 32;
	int n = mstat_leak_list(dir, &names), i, err = 0;
	double sec, last = -INFINITY;

	if (n < 0 || !mstat_leak_cg_load(lk, dir))
		return MSTAT_LEAKS_ERROR;
	/* SLUB's merged names as the watch saw them, never this host's. */
	m = mstat_alloc(NULL, len);
	snprintf(m, len, "%s/slab-names", dir);
	if (!mstat_slab_names_load(m))
		err = MSTAT_LEAKS_ERROR;
	free(m);
	if (!err && n < 2) {
		mstat_err("%s: %d reads (NNNN.mstat), mstat leaks needs 2 at least",
			  dir, n);
		err = MSTAT_LEAKS_ERROR;
	}
	lk->w = mstat_leak_window_new(n > 0 ? n : 1);
	m = mstat_alloc(NULL, len);
	s = mstat_alloc(NULL, len);
	t = mstat_alloc(NULL, len);
	for (i = 0; !err && i < n; i++) {
		snprintf(m, len, "%s/%s.mstat", dir, names[i]);
		snprintf(s, len, "%s/%s.sites", dir, names[i]);
		snprintf(t, len, "%s/%s.time", dir, names[i]);
		if (!mstat_leak_time(t, &sec)) {
			err = MSTAT_LEAKS_ERROR;
		} else if (sec <= last) {
			mstat_err("%s: line 1: %.3f is not after the read before (%.3f)",
				  t, sec, last);
			err = MSTAT_LEAKS_ERROR;
		} else if (access(s, R_OK)) {
			mstat_err("%s: %s", s, errno == ENOENT ? "not found" :
				  strerror(errno));
			err = MSTAT_LEAKS_ERROR;
		} else if (!mstat_leak_read(lk, m, s, sec)) {
			err = MSTAT_LEAKS_ERROR;
		}
		last = sec;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(m);
	free(s);
	free(t);
	return err;
}

static int mstat_leak_watch(struct mstat_leaks *lk)
{
	const struct mstat_opts *o = lk->o;
	long reads = (long)floor(o->duration / o->interval + 1e-9) + 1, i;
	size_t len = o->save ? strlen(o->save) + 32 : 0;
	char *m = NULL, *s = NULL, *t = NULL;
	struct timespec when;
	double start;
	int err = 0;
	FILE *f;

	if (reads < 2)
		reads = 2;
	lk->w = mstat_leak_window_new((int)reads);
	if (o->save) {
		if (mkdir(o->save, 0755) && errno != EEXIST) {
			mstat_err("%s: %s", o->save, strerror(errno));
			return MSTAT_LEAKS_ERROR;
		}
		m = mstat_alloc(NULL, len);
		s = mstat_alloc(NULL, len);
		t = mstat_alloc(NULL, len);
		/* The cgroups' paths, for --from (mstat_leak_cg_learn()). */
		snprintf(m, len, "%s/cgroups", o->save);
		lk->cgf = fopen(m, "w");
		if (!lk->cgf) {
			mstat_err("%s: %s", m, strerror(errno));
			free(m);
			free(s);
			free(t);
			return MSTAT_LEAKS_ERROR;
		}
	}
	start = mstat_now();
	for (i = 0; !err && i < reads; i++) {
		mstat_sleep_until(start + i * o->interval);
		if (!o->save) {
			if (!mstat_leak_read(lk, MSTAT_PROC, MSTAT_SITES_PROC,
					     mstat_now()))
				err = MSTAT_LEAKS_ERROR;
			continue;
		}
		snprintf(m, len, "%s/%04ld.mstat", o->save, i);
		snprintf(s, len, "%s/%04ld.sites", o->save, i);
		snprintf(t, len, "%s/%04ld.time", o->save, i);
		if (!mstat_leak_copy(MSTAT_PROC, m, &when) ||
		    !mstat_leak_copy(MSTAT_SITES_PROC, s, NULL)) {
			err = MSTAT_LEAKS_ERROR;
			continue;
		}
		f = fopen(t, "w");
		if (!f || fprintf(f, "%.6f\n", mstat_secs(&when)) < 0 ||
		    fclose(f)) {
			mstat_err("%s: %s", t, strerror(errno));
			err = MSTAT_LEAKS_ERROR;
		} else if (!mstat_leak_read(lk, m, s, mstat_secs(&when))) {
			err = MSTAT_LEAKS_ERROR;
		}
		/* SLUB's merged names, as they are now, for --from. */
		snprintf(m, len, "%s/slab-names", o->save);
		mstat_slab_names_refresh();
		if (!err && !mstat_slab_names_save(m))
			err = MSTAT_LEAKS_ERROR;
	}
	free(m);
	free(s);
	free(t);
	if (lk->cgf && fclose(lk->cgf) && !err) {
		mstat_err("%s/cgroups: %s", o->save, strerror(errno));
		err = MSTAT_LEAKS_ERROR;
	}
	lk->cgf = NULL;
	return err;
}

static void mstat_leaks_free(struct mstat_leaks *lk)
{
	size_t j;
	int i;

	for (i = 0; i < lk->ncg; i++)
		free(lk->cg_path[i]);
	free(lk->cg_id);
	free(lk->cg_path);

	for (i = 0; i < lk->nst; i++) {
		free(lk->st[i].site);
		for (j = 0; j < lk->st[i].nframe; j++)
			free(lk->st[i].frame[j]);
		free(lk->st[i].frame);
		free(lk->st[i].life);
	}
	for (i = 0; i < lk->nrow; i++) {
		free(lk->row[i].obj);
		free(lk->row[i].pend);
		free(lk->row[i].cache);
	}
	free(lk->st);
	free(lk->row);
	mstat_strmap_free(&lk->stackmap);
	mstat_strmap_free(&lk->rowmap);
	mstat_leak_window_free(lk->w);
	if (lk->cg)
		mstat_cgroups_free(lk->cg);
}

int do_leaks(const struct mstat_opts *o)
{
	struct mstat_leaks lk = { .o = o, .phantoms = -1 };
	struct mstat_leak_cache **cs;
	int err, i, ns = 0, ncs = 0, *ord;
	char tmp[4096];
	FILE *f = NULL;
	bool judged;

	/* 1 is a suspect: running out of memory is an error like any other. */
	mstat_alloc_status(MSTAT_LEAKS_ERROR);
	err = o->from ? mstat_leak_from(&lk, o->from) : mstat_leak_watch(&lk);
	if (err) {
		mstat_leaks_free(&lk);
		return MSTAT_LEAKS_ERROR;
	}
	mstat_leak_window_judge(lk.w, o->confidence, o->min_rate);
	for (i = 0; i < lk.nst; i++)
		mstat_leak_judge_stack(&lk, i);
	mstat_leak_cross(&lk);
	for (i = 0; i < lk.w->nc && !lk.judged; i++)
		lk.judged = lk.w->c[i].tr.judged;
	ord = mstat_alloc(NULL, (lk.nst + 1) * sizeof(*ord));
	for (i = 0; i < lk.nst; i++)
		if (lk.st[i].suspect)
			ord[ns++] = i;
	mstat_leak_sorting = &lk;
	qsort(ord, ns, sizeof(*ord), mstat_leak_order_cmp);
	cs = mstat_alloc(NULL, (lk.w->nc + 1) * sizeof(*cs));
	for (i = 0; i < lk.w->nc; i++)
		if (lk.w->c[i].tr.suspect)
			cs[ncs++] = &lk.w->c[i];
	qsort(cs, ncs, sizeof(*cs), mstat_leak_cache_cmp);
	if (o->prom_out) {
		f = mstat_out_open(o->out, tmp, sizeof(tmp));
		if (f) {
			mstat_leak_prom_verdict(f, &lk, ord, ns, cs, ncs);
			err = mstat_out_close(f, o->out, tmp);
		}
	} else if (o->json) {
		mstat_leak_json(&lk, ord, ns, cs, ncs);
	} else {
		mstat_leak_text(&lk, ord, ns, cs, ncs);
	}
	free(ord);
	free(cs);
	judged = lk.judged;
	mstat_leaks_free(&lk);
	/* A file for the textfile collector: the verdict is in it. */
	if (o->prom_out)
		return f && !err ? MSTAT_LEAKS_NONE : MSTAT_LEAKS_ERROR;
	if (fflush(stdout) || ferror(stdout)) {
		mstat_err("standard output: %s", strerror(errno));
		return MSTAT_LEAKS_ERROR;
	}
	if (ns || ncs)
		return MSTAT_LEAKS_SUSPECT;
	return judged ? MSTAT_LEAKS_NONE : MSTAT_LEAKS_UNJUDGED;
}

/* mstat serve's series */


void mstat_leak_prom(FILE *f, const struct mstat_leak_window *cw, double conf,
		     double min_rate)
{
	struct mstat_leak_window *w = (struct mstat_leak_window *)cw;
	static const char *const bound[] = { "low", "est", "high" };
	const struct mstat_leak_cache *c;
	char names[MSTAT_SLAB_LABEL_MAX];
	double v;
	int i, b;

	mstat_leak_window_judge(w, conf, min_rate);
	mstat_prom_head(f, "mstat_leak_window_reads", "gauge",
			"Reads of /proc/mstat the leak verdict is over (the last /metrics scrapes).");
	fprintf(f, "mstat_leak_window_reads %d\n", w->n);
	mstat_prom_head(f, "mstat_leak_window_seconds", "gauge",
			"Time from the first to the last read of the window.");
	fprintf(f, "mstat_leak_window_seconds %.3f\n",
		w->n ? w->t[w->n - 1] - w->t[0] : 0.0);
	mstat_prom_head(f, "mstat_leak_suspect", "gauge",
			"1 if the cache's live bytes grow without bound over the window (mstat leaks' per-cache rule), else 0.");
	for (i = 0; i < w->nc; i++) {
		c = &w->c[i];
		if (!c->tr.judged || isnan(c->x[w->n - 1]))
			continue;
		fputs("mstat_leak_suspect{cache=\"", f);
		mstat_prom_label(f, mstat_slab_label(c->name, names,
						     sizeof(names)));
		fprintf(f, "\"} %d\n", c->tr.suspect);
	}
	mstat_prom_head(f, "mstat_leak_rate_bytes_per_second", "gauge",
			"Growth of the cache's live bytes over the window: the lower envelope's Theil-Sen slope (est) and its confidence interval (low, high).");
	for (i = 0; i < w->nc; i++) {
		c = &w->c[i];
		if (!c->tr.judged || isnan(c->x[w->n - 1]))
			continue;
		for (b = 0; b < 3; b++) {
			v = b == 0 ? c->tr.low : b == 1 ? c->tr.rate : c->tr.high;
			fputs("mstat_leak_rate_bytes_per_second{cache=\"", f);
			mstat_prom_label(f, mstat_slab_label(c->name, names,
							     sizeof(names)));
			fprintf(f, "\",bound=\"%s\"} ", bound[b]);
			mstat_leak_prom_num(f, v);
			fputc('\n', f);
		}
	}
}
