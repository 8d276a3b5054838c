// SPDX-License-Identifier: GPL-2.0
/*
 * SLUB's merged caches: every name of a cache (see slab.h).
 */
#define _DEFAULT_SOURCE		/* readlink(), lstat() */

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "slab.h"
#include "util.h"

/* A name kmem_cache_create() was given, and its cache's directory. */
struct mstat_slab_name {
	char *name;
	char *dir;
};

struct mstat_slab_names {
	struct mstat_slab_name *n;
	size_t nr, cap;
};

static pthread_mutex_t mstat_slab_lock = PTHREAD_MUTEX_INITIALIZER;
/* Under mstat_slab_lock: the names, when read, and whether from a file. */
static struct mstat_slab_names *mstat_slab_cur;
static time_t mstat_slab_read_at;
static bool mstat_slab_fixed;

static void mstat_slab_add(struct mstat_slab_names *sn, const char *name,
			   const char *dir)
{
	if (sn->nr == sn->cap) {
		sn->cap = sn->cap ? 2 * sn->cap : 256;
		sn->n = mstat_alloc(sn->n, sn->cap * sizeof(*sn->n));
	}
	sn->n[sn->nr].name = mstat_strdup(name, strlen(name));
	sn->n[sn->nr++].dir = mstat_strdup(dir, strlen(dir));
}

static void mstat_slab_free(struct mstat_slab_names *sn)
{
	size_t i;

	if (!sn)
		return;
	for (i = 0; i < sn->nr; i++) {
		free(sn->n[i].name);
		free(sn->n[i].dir);
	}
	free(sn->n);
	free(sn);
}

static struct mstat_slab_names *mstat_slab_new(void)
{
	struct mstat_slab_names *sn = mstat_alloc(NULL, sizeof(*sn));

	memset(sn, 0, sizeof(*sn));
	return sn;
}

/*
 * The directory's names now: each entry a directory (its own name) or a
 * link (its target's last component). None if there is no directory
 * (SLAB, SLUB without sysfs, no /sys).
 */
static struct mstat_slab_names *mstat_slab_walk(void)
{
	const char *root = getenv(MSTAT_SLAB_ROOT_ENV);
	struct mstat_slab_names *sn = mstat_slab_new();
	char path[PATH_MAX], target[PATH_MAX];
	struct dirent *e;
	struct stat st;
	ssize_t n;
	DIR *d;

	if (!root || !*root)
		root = MSTAT_SLAB_ROOT;
	d = opendir(root);
	if (!d)
		return sn;
	while ((e = readdir(d))) {
		const char *dir = e->d_name, *slash;

		/* ".", "..", and SLUB's own ids (":A-0000192"): no names. */
		if (e->d_name[0] == '.' || e->d_name[0] == ':' ||
		    snprintf(path, sizeof(path), "%s/%s", root, e->d_name) >=
			    (int)sizeof(path) ||
		    lstat(path, &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(path, target, sizeof(target) - 1);
			if (n <= 0)
				continue;
			target[n] = '\0';
			slash = strrchr(target, '/');
			dir = slash ? slash + 1 : target;
		} else if (!S_ISDIR(st.st_mode)) {
			continue;
		}
		mstat_slab_add(sn, e->d_name, dir);
	}
	closedir(d);
	return sn;
}

/* Under mstat_slab_lock: the names, read if too old or never read. */
static const struct mstat_slab_names *mstat_slab_names_locked(void)
{
	time_t now = time(NULL);

	if (!mstat_slab_fixed &&
	    (!mstat_slab_cur || now - mstat_slab_read_at >= MSTAT_SLAB_MAX_AGE_S ||
	     now < mstat_slab_read_at)) {
		mstat_slab_free(mstat_slab_cur);
		mstat_slab_cur = mstat_slab_walk();
		mstat_slab_read_at = now;
	}
	return mstat_slab_cur;
}

void mstat_slab_names_refresh(void)
{
	pthread_mutex_lock(&mstat_slab_lock);
	if (!mstat_slab_fixed) {
		mstat_slab_free(mstat_slab_cur);
		mstat_slab_cur = mstat_slab_walk();
		mstat_slab_read_at = time(NULL);
	}
	pthread_mutex_unlock(&mstat_slab_lock);
}

static int mstat_slab_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *mstat_slab_label(const char *name, char *buf, size_t len)
{
	const struct mstat_slab_names *sn;
	const char *dir = NULL, **other = NULL;
	size_t i, n = 0, at;

	pthread_mutex_lock(&mstat_slab_lock);
	sn = mstat_slab_names_locked();
	for (i = 0; !dir && i < sn->nr; i++)
		if (!strcmp(sn->n[i].name, name))
			dir = sn->n[i].dir;
	for (i = 0; dir && i < sn->nr; i++) {
		if (strcmp(sn->n[i].dir, dir) || !strcmp(sn->n[i].name, name))
			continue;
		other = mstat_alloc(other, (n + 1) * sizeof(*other));
		other[n++] = sn->n[i].name;
	}
	if (!n || !len) {
		pthread_mutex_unlock(&mstat_slab_lock);
		free(other);
		return name;
	}
	qsort(other, n, sizeof(*other), mstat_slab_strcmp);
	at = (size_t)snprintf(buf, len, "%s", name);
	for (i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, ",%s", other[i]);
	pthread_mutex_unlock(&mstat_slab_lock);
	free(other);
	return buf;
}

bool mstat_slab_names_save(const char *path)
{
	const struct mstat_slab_names *sn;
	char tmp[PATH_MAX];
	bool good = true;
	size_t i;
	FILE *f;

	f = mstat_out_open(path, tmp, sizeof(tmp));
	if (!f)
		return false;
	pthread_mutex_lock(&mstat_slab_lock);
	sn = mstat_slab_names_locked();
	for (i = 0; good && i < sn->nr; i++)
		if (!strchr(sn->n[i].name, ' ') && !strchr(sn->n[i].name, '\n') &&
		    !strchr(sn->n[i].dir, '\n'))
			good = fprintf(f, "%s %s\n", sn->n[i].name,
				       sn->n[i].dir) >= 0;
	pthread_mutex_unlock(&mstat_slab_lock);
	return !mstat_out_close(f, path, tmp);
}

bool mstat_slab_names_load(const char *path)
{
	struct mstat_slab_names *sn = mstat_slab_new();
	char *line = NULL, *sp;
	bool good = true;
	size_t cap = 0;
	ssize_t n;
	int no = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f && errno != ENOENT) {
		mstat_err("%s: %s", path, strerror(errno));
		mstat_slab_free(sn);
		return false;
	}
	while (f && good && (n = getline(&line, &cap, f)) > 0) {
		no++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		sp = strchr(line, ' ');
		if (!sp || sp == line || !sp[1] || strchr(sp + 1, ' ')) {
			mstat_err("%s: line %d: not \"NAME DIR\": \"%s\"", path,
				  no, line);
			good = false;
			break;
		}
		*sp = '\0';
		mstat_slab_add(sn, line, sp + 1);
	}
	if (f && good && ferror(f)) {
		mstat_err("%s: %s", path, strerror(errno));
		good = false;
	}
	if (f)
		fclose(f);
	free(line);
	if (!good) {
		mstat_slab_free(sn);
		return false;
	}
	pthread_mutex_lock(&mstat_slab_lock);
	mstat_slab_free(mstat_slab_cur);
	mstat_slab_cur = sn;
	mstat_slab_fixed = true;
	pthread_mutex_unlock(&mstat_slab_lock);
	return true;
}
