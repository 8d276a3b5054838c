// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' watch: a read every --interval on the monotonic clock for
 * --duration, each judged as it comes or, with --save, copied into its
 * directory first.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "leaks_cache.h"
#include "leaks_int.h"
#include "slab.h"
#include "util.h"

int mstat_leak_watch(struct mstat_leaks *lk)
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
	start = mstat_now();
	for (i = 0; !err && i < reads; i++) {
		mstat_sleep_until(start + i * o->interval);
		if (!o->save) {
			if (!mstat_leak_read(lk, MSTAT_PROC, MSTAT_SITES_PROC,
					     mstat_now()))
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
		f = fopen(t, "w");
		if (!f || fprintf(f, "%.6f\n", mstat_secs(&when)) < 0 ||
		    fclose(f)) {
			mstat_err("%s: %s", t, strerror(errno));
			err = -1;
		} else if (!mstat_leak_read(lk, m, s, mstat_secs(&when))) {
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
