/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat serve's leak verdicts as Prometheus series (leaks_prom.c): over
 * its window of per-cache series (leaks_cache.h), and of each snapshot's
 * history. mstat leaks' own verdict is leaks_int.h's mstat_leak_report().
 */
#ifndef MSTAT_LEAKS_PROM_H
#define MSTAT_LEAKS_PROM_H

#include <stdio.h>

struct mstat_leak_cgs;
struct mstat_leak_window;
struct mstat_opts;
struct mstat_snap;
struct mstat_sites;

/*
 * The per-cache verdict over the window, at confidence @conf and floor
 * @min_rate bytes/s, as Prometheus series (mstat_leak_*), into @f.
 */
void mstat_leak_prom(FILE *f, const struct mstat_leak_window *w,
		     double conf, double min_rate);

/*
 * The stacks' verdict of one read from the module's history (sites file
 * 2.4: mstat leaks --once), @s and @ss read at CLOCK_MONOTONIC second
 * @t, at @o's confidence and --min-rate, as mstat leaks --prom writes
 * its stacks' series (mstat_leak_stack_*), and the history's length
 * (mstat_leaks_history_seconds); nothing without the history.
 */
void mstat_leak_prom_history(FILE *f, const struct mstat_opts *o,
			     const struct mstat_snap *s,
			     const struct mstat_sites *ss, double t,
			     struct mstat_leak_cgs *cgs);

/*
 * The cgroups' paths that mstat_leak_prom_history() learnt, kept from one
 * read to the next (mstat serve's): a snapshot walks the cgroup tree only
 * for an id it has not seen, once.
 */
struct mstat_leak_cgs *mstat_leak_cgs_new(void);
void mstat_leak_cgs_free(struct mstat_leak_cgs *cgs);

#endif /* MSTAT_LEAKS_PROM_H */
