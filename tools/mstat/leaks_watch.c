// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' watch: a read every --interval on the monotonic clock for
 * --duration, each judged as it comes or, with --save, copied into its
 * directory first. A test replaces the clock by its own
 * (MSTAT_LEAK_CLOCK_ENV), so that a replay's reads are judged at the
 * times they were recorded at, not at those a loaded machine gets to
 * them: test_leaks.sh's leaks_watch and leaks_serve.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* SIGINT or SIGTERM during the watch: end it, judge the reads taken. */
static volatile sig_atomic_t mstat_leak_stop;

static void mstat_leak_on_signal(int sig)
{
	(void)sig;
	mstat_leak_stop = 1;
}

/*
 * Catch SIGINT and SIGTERM for the watch, not restarting the sleep they
 * interrupt; @on false puts back what was there.
 */
static void mstat_leak_catch(bool on)
{
	static struct sigaction old_int, old_term;
	struct sigaction sa;

	if (!on) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = mstat_leak_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
}

/*
 * Wait for a read's time @at; @now set to the clock then. On a test's
 * clock, polled every 10 ms until the test moves it to @at, which it
 * does once it has seen the read before saved and offered the next: the
 * watch then takes each read the test offers, whatever the machine's
 * load. False after a message (mstat_leak_clock()); true with
 * mstat_leak_stop set if a signal ended the wait.
 */
static bool mstat_leak_watch_wait(bool test_clock, double at, double *now)
{
	while (!mstat_leak_stop) {
		if (!test_clock) {
			if (mstat_sleep_until_signal(at))
				break;
			continue;	/* a signal, ours or not */
		}
		if (mstat_leak_clock(now) < 0)
			return false;
		if (*now >= at - 1e-9)
			return true;
		mstat_sleep(0.01);
	}
	if (!test_clock)
		*now = mstat_now();
	return true;
}

/*
 * --until-sure: the watch has judged enough once MSTAT_LEAK_SURE reads in
 * a row, each with enough for the exact counts to judge
 * (mstat_leak_min_reads()), named the same suspects, stacks and caches
 * (none among them: nothing became one as the reads went on). @last: the
 * suspects of the read before, kept here; @lk NULL frees it.
 */
#define MSTAT_LEAK_SURE	3

static bool mstat_leak_sure(const struct mstat_leaks *lk, char **last,
			    int *same)
{
	struct mstat_buf b = { 0 };
	char key[MSTAT_CACHE_NAME_MAX + 32];
	int i;

	if (!lk || lk->reads < mstat_leak_min_reads(lk->o->confidence)) {
		free(*last);
		*last = NULL;
		*same = 0;
		return false;
	}
	for (i = 0; i < lk->nst; i++) {
		if (!lk->st[i].suspect)
			continue;
		snprintf(key, sizeof(key), "s %d\n", i);
		mstat_buf_put(&b, key, strlen(key));
	}
	for (i = 0; i < lk->w->nc; i++) {
		if (!lk->w->c[i].tr.suspect)
			continue;
		snprintf(key, sizeof(key), "c %s\n", lk->w->c[i].name);
		mstat_buf_put(&b, key, strlen(key));
	}
	mstat_buf_put(&b, "", 1);
	if (*last && !strcmp(*last, (char *)b.p))
		(*same)++;
	else
		*same = 1;
	free(*last);
	*last = (char *)b.p;
	return *same >= MSTAT_LEAK_SURE;
}

/*
 * After read @lk->reads of a watch: on a terminal, its progress and the
 * suspects so far; with --until-sure, whether to end. True to end.
 */
static bool mstat_leak_after(struct mstat_leaks *lk, bool tty, char **last,
			     int *same)
{
	const struct mstat_opts *o = lk->o;

	if (!tty && !o->until_sure)
		return false;
	mstat_leak_judge(lk);
	if (tty)
		mstat_leak_progress(lk, lk->planned);
	return o->until_sure && mstat_leak_sure(lk, last, same);
}

int mstat_leak_watch(struct mstat_leaks *lk)
{
	const struct mstat_opts *o = lk->o;
	long reads = (long)floor(o->duration / o->interval + 1e-9) + 1, i;
	size_t len = o->save ? strlen(o->save) + 32 : 0;
	char *m = NULL, *s = NULL, *t = NULL, *last = NULL;
	bool tty = !o->json && !o->prom_out && isatty(STDOUT_FILENO);
	struct timespec when;
	double start = 0, now, at;
	int err = 0, test_clock, same = 0;
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
	lk->planned = (int)reads;
	mstat_leak_stop = 0;
	mstat_leak_catch(true);
	for (i = 0; !err && i < reads; i++) {
		if (i && mstat_leak_after(lk, tty, &last, &same))
			break;
		if (!mstat_leak_watch_wait(test_clock, start + i * o->interval,
					   &now)) {
			err = -1;
			continue;
		}
		if (mstat_leak_stop)
			break;
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
	/* The last read's progress, unless the verdict follows at once. */
	if (!err && i == reads && lk->reads && !mstat_leak_stop)
		mstat_leak_after(lk, tty, &last, &same);
	mstat_leak_catch(false);
	lk->interrupted = mstat_leak_stop;
	mstat_leak_sure(NULL, &last, &same);
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
