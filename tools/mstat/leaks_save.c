// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' reads: one read of /proc/mstat and /proc/mstat_sites (or
 * of their copies) into both tiers; --save's copies, and --from's replay
 * of a saved directory (DIR/NNNN.mstat, .sites and .time, DIR/cgroups,
 * DIR/slab-names).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "leaks_cache.h"
#include "leaks_int.h"
#include "parse_snap.h"
#include "slab.h"
#include "util.h"

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
bool mstat_leak_copy(const char *src, const char *dst, struct timespec *when)
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
bool mstat_leak_read(struct mstat_leaks *lk, const char *mpath,
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

int mstat_leak_from(struct mstat_leaks *lk, const char *dir)
{
	char **names, *m, *s, *t;
	size_t len = strlen(dir) + 32;
	int n = mstat_leak_list(dir, &names), i, err = 0, use;
	double sec, last = -INFINITY;

	if (n < 0 || !mstat_leak_cg_load(lk, dir))
		return -1;
	/* SLUB's merged names as the watch saw them, never this host's. */
	m = mstat_alloc(NULL, len);
	snprintf(m, len, "%s/slab-names", dir);
	if (!mstat_slab_names_load(m))
		err = -1;
	free(m);
	if (!err && n < 1) {
		mstat_err("%s: no read (NNNN.mstat)", dir);
		err = -1;
	}
	/* --once: the first read alone. */
	use = lk->o->once && n > 1 ? 1 : n;
	lk->w = mstat_leak_window_new(n > 0 ? n : 1);
	m = mstat_alloc(NULL, len);
	s = mstat_alloc(NULL, len);
	t = mstat_alloc(NULL, len);
	for (i = 0; !err && i < use; i++) {
		snprintf(m, len, "%s/%s.mstat", dir, names[i]);
		snprintf(s, len, "%s/%s.sites", dir, names[i]);
		snprintf(t, len, "%s/%s.time", dir, names[i]);
		if (!mstat_leak_time(t, &sec)) {
			err = -1;
		} else if (sec <= last) {
			mstat_err("%s: line 1: %.3f is not after the read before (%.3f)",
				  t, sec, last);
			err = -1;
		} else if (access(s, R_OK)) {
			mstat_err("%s: %s", s, errno == ENOENT ? "not found" :
				  strerror(errno));
			err = -1;
		} else if (!mstat_leak_read(lk, m, s, sec)) {
			err = -1;
		}
		last = sec;
	}
	if (!err && use == 1 && !lk->history) {
		mstat_err("%s: one read without the profile's history (format 2.4 of %s): mstat leaks needs 2 at least",
			  dir, MSTAT_SITES_PROC);
		err = -1;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(m);
	free(s);
	free(t);
	return err;
}
