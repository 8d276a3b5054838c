/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat leaks' per-cache series (leaks_cache.c), which mstat serve also
 * keeps over its last scrapes; its verdict as series: leaks_prom.h.
 */
#ifndef MSTAT_LEAKS_CACHE_H
#define MSTAT_LEAKS_CACHE_H

#include <stdbool.h>

#include "parse.h"
#include "parse_snap.h"
#include "stats.h"
#include "util.h"

/*
 * The per-cache series of the last @cap reads (a window that slides):
 * mstat serve adds each /metrics snapshot and appends the verdict.
 */
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

struct mstat_leak_window *mstat_leak_window_new(int cap);
/*
 * Add snapshot @s taken at CLOCK_MONOTONIC second @t; the oldest goes.
 * The last one's snapshot served again (mstat_snap_again()) is not
 * added: it is one point, not two.
 */
void mstat_leak_window_add(struct mstat_leak_window *w,
			   const struct mstat_snap *s, double t);
void mstat_leak_window_free(struct mstat_leak_window *w);

/*
 * The verdict of each series in @w at confidence @conf above @min_rate
 * (stats.c's mstat_trend()), into its @tr.
 */
void mstat_leak_window_judge(struct mstat_leak_window *w, double conf,
			     double min_rate);
/* The series of the cache named @name (a stack's sampled cache), or NULL. */
struct mstat_leak_cache *mstat_leak_cache_named(struct mstat_leak_window *w,
						const char *name);

/*
 * A test's clock for the reads the leak verdicts are over: the file it
 * names holds the time (seconds) of the read offered now. Unset, the
 * monotonic clock's (mstat_leak_clock() in leaks_watch.c).
 */
#define MSTAT_LEAK_CLOCK_ENV	"MSTAT_LEAK_CLOCK"

int mstat_leak_clock(double *t);

#endif /* MSTAT_LEAKS_CACHE_H */
