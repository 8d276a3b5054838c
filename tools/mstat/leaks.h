/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat leaks (leaks.c): what grows without bound, from successive
 * snapshots of /proc/mstat (exact per-cache live bytes) and
 * /proc/mstat_sites (sampled live objects with their ages), watched or
 * replayed from a directory saved earlier; and, for mstat serve, the
 * per-cache verdict over a window of recent reads as Prometheus series.
 * The statistics are stated at the top of leaks.c and in the README
 * ("Is it growing? mstat leaks"); its files are listed in leaks_int.h.
 */
#ifndef MSTAT_LEAKS_H
#define MSTAT_LEAKS_H

#include "opts.h"
#include "parse.h"
#include "stats.h"

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
 * mstat_leak_min_reads(): stats.h's, as the per-cache rule is; mstat
 * serve's window of per-cache series: leaks_cache.h, and its verdict:
 * leaks_prom.h.
 */

/* The options mstat leaks takes. */
extern const struct mstat_optspec mstat_leaks_optspec;

/*
 * mstat leaks's command line, @argv[0] "leaks": parse it and run;
 * returns the exit status (MSTAT_HELP for --help).
 */
int cmd_leaks(int argc, char **argv);

#endif /* MSTAT_LEAKS_H */
