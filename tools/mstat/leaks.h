/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat leaks (leaks.c): what grows without bound, from successive
 * snapshots of /proc/mstat (exact per-cache live bytes) and
 * /proc/mstat_sites (sampled live objects with their ages), watched or
 * replayed from a directory saved earlier; and, for mstat serve, the
 * per-cache verdict over a window of recent reads as Prometheus series.
 * The statistics are stated at the top of leaks.c and in the README
 * ("Is it growing? mstat leaks").
 */
#ifndef MSTAT_LEAKS_H
#define MSTAT_LEAKS_H

#include <stdio.h>

#include "opts.h"
#include "parse.h"

/*
 * Exit status of mstat leaks: no suspect, a suspect, an error, no
 * verdict (no suspect, and too few reads for the exact counts to judge
 * at the confidence asked).
 */
enum {
	MSTAT_LEAKS_NONE = 0, MSTAT_LEAKS_SUSPECT = 1, MSTAT_LEAKS_ERROR = 2,
	MSTAT_LEAKS_UNJUDGED = 3,
};

/* Watch (or replay --from) and report; returns the exit status above. */
int do_leaks(const struct mstat_opts *o);

/*
 * The fewest reads over which the per-cache rule can judge at
 * confidence @conf (Sen's interval bounded below), 0 if none can.
 */
int mstat_leak_min_reads(double conf);

/*
 * The per-cache series of the last @cap reads (a window that slides):
 * mstat serve adds each /metrics snapshot and appends the verdict.
 */
struct mstat_leak_window;

struct mstat_leak_window *mstat_leak_window_new(int cap);
/*
 * Add snapshot @s taken at CLOCK_MONOTONIC second @t; the oldest goes.
 * The last one's snapshot served again (mstat_snap_again()) is not
 * added: it is one point, not two.
 */
void mstat_leak_window_add(struct mstat_leak_window *w,
			   const struct mstat_snap *s, double t);
/*
 * The per-cache verdict over the window, at confidence @conf and floor
 * @min_rate bytes/s, as Prometheus series (mstat_leak_*), into @f.
 */
void mstat_leak_prom(FILE *f, const struct mstat_leak_window *w,
		     double conf, double min_rate);
void mstat_leak_window_free(struct mstat_leak_window *w);

#endif /* MSTAT_LEAKS_H */
