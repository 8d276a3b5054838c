// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' watch: a read every --interval on the monotonic clock for
 * --duration, each judged as it comes or, with --save, copied into its
 * directory first. A test replaces the clock by its own
 * (MSTAT_LEAK_CLOCK_ENV), so that a replay's reads are judged at the
 * times they were recorded at, not at those a loaded machine gets to
 * them: test.sh's leaks_watch and leaks_serve.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "leaks_cache.h"
#include "leaks_int.h"
#include "slab.h"
#include "util.h"

/**
 * mstat_leak_clock() - the time of the read offered now, on a test's clock
 * @t: set to the seconds the file named by $MSTAT_LEAK_CLOCK holds
 *
 * The test writes each recorded read's own time into that file when it
 * offers the read (mstat serve's -f file, or /proc/mstat in a namespace
 * of its own), then lets the tool read; mstat serve places the snapshot
 * at it, less its age, as it places a live one at the monotonic clock's.
 *
 * Return: 0 if $MSTAT_LEAK_CLOCK is unset, 1 with @t set, -1 after a
 * message if its file cannot be read or holds no time.
 */
int mstat_leak_clock(double *t)
{
	const char *path = getenv(MSTAT_LEAK_CLOCK_ENV);
	char buf[64], *end;
	size_t n;
	FILE *f;

	if (!path)
		return 0;
	f = fopen(path, "r");
	if (!f) {
		mstat_err("%s (%s): %s", path, MSTAT_LEAK_CLOCK_ENV,
			  strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	errno = 0;
	*t = strtod(buf, &end);
	if (end == buf || errno || (*end && strcmp(end, "\n")) || !isfinite(*t)) {
		mstat_err("%s (%s): not a time in seconds", path,
			  MSTAT_LEAK_CLOCK_ENV);
		return -1;
	}
	return 1;
}

/*
 * Wait for a read's time @at; @now set to the clock then. On a test's
 * clock, polled every 10 ms until the test moves it to @at, which it
 * does once it has seen the read before saved and offered the next: the
 * watch then takes each read the test offers, whatever the machine's
 * load. False after a message (mstat_leak_clock()).
 */
static bool mstat_leak_watch_wait(bool test_clock, double at, double *now)
{
	if (!test_clock) {
		mstat_sleep_until(at);
		*now = mstat_now();
		return true;
	}
	for (;;) {
		if (mstat_leak_clock(now) < 0)
			return false;
		if (*now >= at - 1e-9)
			return true;
		mstat_sleep(0.01);
	}
}

int mstat_leak_watch(struct mstat_leaks *lk)
{
	const struct mstat_opts *o = lk->o;
	long reads = (long)floor(o->duration / o->interval + 1e-9) + 1, i;
	size_t len = o->save ? strlen(o->save) + 32 : 0;
	char *m = NULL, *s = NULL, *t = NULL;
	struct timespec when;
	double start = 0, now, at;
	int err = 0, test_clock;
	FILE *f;

	if (o->once)
		reads = 1;
	else if (reads < 2)
		reads = 2;
	lk->w = mstat_leak_window_new((int)reads);
	if (o->save) {
		if (mkdir(o->save, 0755) && errno != EEXIST) {
			mstat_err("%s: %s", o->save, strerror(errno));
			return -1;
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
			return -1;
		}
	}
	test_clock = mstat_leak_clock(&start);
	if (test_clock < 0)
		err = -1;
	else if (!test_clock)
		start = mstat_now();
	for (i = 0; !err && i < reads; i++) {
		if (!mstat_leak_watch_wait(test_clock, start + i * o->interval,
					   &now)) {
			err = -1;
			continue;
		}
		if (!o->save) {
			if (!mstat_leak_read(lk, MSTAT_PROC, MSTAT_SITES_PROC,
					     now))
				err = -1;
			continue;
		}
		snprintf(m, len, "%s/%04ld.mstat", o->save, i);
		snprintf(s, len, "%s/%04ld.sites", o->save, i);
		snprintf(t, len, "%s/%04ld.time", o->save, i);
		if (!mstat_leak_copy(MSTAT_PROC, m, &when) ||
		    !mstat_leak_copy(MSTAT_SITES_PROC, s, NULL)) {
			err = -1;
			continue;
		}
		at = test_clock ? now : mstat_secs(&when);
		f = fopen(t, "w");
		if (!f || fprintf(f, "%.6f\n", at) < 0 || fclose(f)) {
			mstat_err("%s: %s", t, strerror(errno));
			err = -1;
		} else if (!mstat_leak_read(lk, m, s, at)) {
			err = -1;
		}
		/* SLUB's merged names, as they are now, for --from. */
		snprintf(m, len, "%s/slab-names", o->save);
		mstat_slab_names_refresh();
		if (!err && !mstat_slab_names_save(m))
			err = -1;
	}
	free(m);
	free(s);
	free(t);
	if (lk->cgf && fclose(lk->cgf) && !err) {
		mstat_err("%s/cgroups: %s", o->save, strerror(errno));
		err = -1;
	}
	lk->cgf = NULL;
	return err;
}
