// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' cgroups: the path of each cgroup id as the watch saw it,
 * learnt from this host's tree during a watch, kept in --save's
 * DIR/cgroups and taken from there by --from (never from the tree of the
 * host that replays); a row's label from it (cgroup.c's rule).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "leaks_int.h"
#include "util.h"

/* The path of cgroup @id as the watch learnt it, or NULL. */
static const char *mstat_leak_cg_known(const struct mstat_leaks *lk,
				       long long id)
{
	int i;

	for (i = 0; i < lk->ncg; i++)
		if (lk->cg_id[i] == id)
			return lk->cg_path[i];
	return NULL;
}

static void mstat_leak_cg_add(struct mstat_leaks *lk, long long id,
			      const char *path)
{
	if (lk->ncg == lk->cgcap) {
		lk->cgcap = lk->cgcap ? 2 * lk->cgcap : 16;
		lk->cg_id = mstat_alloc(lk->cg_id, lk->cgcap * sizeof(*lk->cg_id));
		lk->cg_path = mstat_alloc(lk->cg_path,
					  lk->cgcap * sizeof(*lk->cg_path));
	}
	lk->cg_id[lk->ncg] = id;
	lk->cg_path[lk->ncg++] = mstat_strdup(path, strlen(path));
}

/*
 * Watching: cgroup @id of a row of this read, its path learnt now, while
 * it exists, from this host's tree (walked again, once a read, for a
 * cgroup made since the last walk), and written to DIR/cgroups with
 * --save. An id found nowhere stays unknown, its label "id:N".
 */
void mstat_leak_cg_learn(struct mstat_leaks *lk, long long id)
{
	const char *path;

	if (id <= 0 || mstat_leak_cg_known(lk, id))
		return;
	if (!lk->cg) {
		lk->cg = mstat_cgroups_open();
		lk->cg_walk = lk->reads;
	}
	path = mstat_cgroup_path(lk->cg, id);
	if (!path && lk->cg_walk != lk->reads) {
		mstat_cgroups_free(lk->cg);
		lk->cg = mstat_cgroups_open();
		lk->cg_walk = lk->reads;
		path = mstat_cgroup_path(lk->cg, id);
	}
	if (!path || strchr(path, '\n'))
		return;
	mstat_leak_cg_add(lk, id, path);
	if (lk->cgf && (fprintf(lk->cgf, "%lld %s\n", id, path) < 0 ||
			fflush(lk->cgf)))
		mstat_err("cgroups: %s", strerror(errno));
}

/*
 * --from DIR: the paths DIR/cgroups kept ("ID PATH" lines); none if the
 * watch saved no file (then labels are "id:N"). False after a message.
 */
bool mstat_leak_cg_load(struct mstat_leaks *lk, const char *dir)
{
	size_t len = strlen(dir) + 16, cap = 0;
	char *name = mstat_alloc(NULL, len), *line = NULL, *end;
	bool good = true;
	long long id;
	ssize_t n;
	int no = 0;
	FILE *f;

	snprintf(name, len, "%s/cgroups", dir);
	f = fopen(name, "r");
	if (!f) {
		good = errno == ENOENT;
		if (!good)
			mstat_err("%s: %s", name, strerror(errno));
		free(name);
		return good;
	}
	while (good && (n = getline(&line, &cap, f)) > 0) {
		no++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		errno = 0;
		id = strtoll(line, &end, 10);
		if (errno || end == line || *end != ' ' || id <= 0 ||
		    end[1] != '/') {
			mstat_err("%s: line %d: not \"ID PATH\": \"%s\"", name,
				  no, line);
			good = false;
		} else if (!mstat_leak_cg_known(lk, id)) {
			mstat_leak_cg_add(lk, id, end + 1);
		}
	}
	if (good && ferror(f)) {
		mstat_err("%s: %s", name, strerror(errno));
		good = false;
	}
	fclose(f);
	free(line);
	free(name);
	return good;
}

/* A row's cgroup label: its path as the watch learnt it, or "id:N". */
const char *mstat_leak_cg_label(const struct mstat_leaks *lk,
				long long id, char *buf, size_t len)
{
	return mstat_cgroup_label_of(id, mstat_leak_cg_known(lk, id), buf, len);
}
