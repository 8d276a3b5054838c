/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat leaks' verdicts written (leaks_out.c): mstat leaks' own is
 * leaks_int.h's mstat_leak_report(); mstat serve's, over its window of
 * per-cache series (leaks_cache.h), is this.
 */
#ifndef MSTAT_LEAKS_OUT_H
#define MSTAT_LEAKS_OUT_H

#include <stdio.h>

struct mstat_leak_window;

/*
 * The per-cache verdict over the window, at confidence @conf and floor
 * @min_rate bytes/s, as Prometheus series (mstat_leak_*), into @f.
 */
void mstat_leak_prom(FILE *f, const struct mstat_leak_window *w,
		     double conf, double min_rate);

#endif /* MSTAT_LEAKS_OUT_H */
