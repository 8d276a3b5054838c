// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup v2 tree: ids to paths (see cgroup.h). The kernel's cgroup id
 * is its kernfs node's id, which is the inode number of its directory
 * (on a 64-bit kernel; a 32-bit one puts a generation in the high half,
 * which no inode number has: such ids are not found).
 */
#define _DEFAULT_SOURCE		/* getmntent(), and POSIX 2008 */

#include <dirent.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "parse.h"
#include "util.h"

#define MSTAT_CGROUP_DEPTH	64	/* deeper directories are not walked */

struct mstat_cgroup_dir {
	unsigned long long ino;
	char *path;
};

struct mstat_cgroups {
	char *root;			/* NULL: no tree */
	bool walked;
	struct mstat_cgroup_dir *dir;
	size_t n, cap;
};

/* The first cgroup2 mount's directory, or NULL. */
static char *mstat_cgroup2_mount(void)
{
	FILE *f = setmntent("/proc/self/mounts", "r");
	struct mntent *m;
	char *dir = NULL;

	if (!f)
		return NULL;
	while (!dir && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "cgroup2"))
			dir = mstat_strdup(m->mnt_dir, strlen(m->mnt_dir));
	endmntent(f);
	return dir;
}

struct mstat_cgroups *mstat_cgroups_open(void)
{
	struct mstat_cgroups *cg = mstat_alloc(NULL, sizeof(*cg));
	const char *env = getenv(MSTAT_CGROUP_ROOT_ENV);

	memset(cg, 0, sizeof(*cg));
	cg->root = env && *env ? mstat_strdup(env, strlen(env)) :
				 mstat_cgroup2_mount();
	return cg;
}

static void mstat_cgroup_add(struct mstat_cgroups *cg, unsigned long long ino,
			     const char *path)
{
	if (cg->n == cg->cap) {
		cg->cap = cg->cap ? 2 * cg->cap : 64;
		cg->dir = mstat_alloc(cg->dir, cg->cap * sizeof(*cg->dir));
	}
	cg->dir[cg->n].ino = ino;
	cg->dir[cg->n].path = mstat_strdup(path, strlen(path));
	cg->n++;
}

/*
 * The directories below @fd (whose path is @path, "" for the root), on
 * device @dev only: closes @fd. Symbolic links are not followed.
 */
static void mstat_cgroup_walk(struct mstat_cgroups *cg, int fd,
			      const char *path, dev_t dev, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	struct stat st;

	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(path) + strlen(e->d_name) + 2;
		char *sub;
		int subfd;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) || st.st_dev != dev)
			continue;
		sub = mstat_alloc(NULL, n);
		snprintf(sub, n, "%s/%s", path, e->d_name);
		mstat_cgroup_add(cg, st.st_ino, sub);
		if (depth < MSTAT_CGROUP_DEPTH) {
			subfd = openat(dirfd(d), e->d_name,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				       O_CLOEXEC);
			if (subfd >= 0)
				mstat_cgroup_walk(cg, subfd, sub, dev, depth + 1);
		}
		free(sub);
	}
	closedir(d);
}

static int mstat_cgroup_cmp(const void *a, const void *b)
{
	const struct mstat_cgroup_dir *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Every directory of the tree, by inode number. */
static void mstat_cgroups_walk(struct mstat_cgroups *cg)
{
	struct stat st;
	int fd;

	cg->walked = true;
	if (!cg->root)
		return;
	fd = open(cg->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st)) {
		close(fd);
		return;
	}
	mstat_cgroup_add(cg, st.st_ino, "/");
	mstat_cgroup_walk(cg, fd, "", st.st_dev, 1);
	qsort(cg->dir, cg->n, sizeof(*cg->dir), mstat_cgroup_cmp);
}

const char *mstat_cgroup_path(struct mstat_cgroups *cg, unsigned long long id)
{
	struct mstat_cgroup_dir key = { .ino = id }, *d;

	if (!cg->walked)
		mstat_cgroups_walk(cg);
	if (!cg->n)
		return NULL;
	d = bsearch(&key, cg->dir, cg->n, sizeof(*cg->dir), mstat_cgroup_cmp);
	return d ? d->path : NULL;
}

void mstat_cgroups_free(struct mstat_cgroups *cg)
{
	size_t i;

	if (!cg)
		return;
	for (i = 0; i < cg->n; i++)
		free(cg->dir[i].path);
	free(cg->dir);
	free(cg->root);
	free(cg);
}

const char *mstat_cgroup_special(long long id)
{
	if (id == MSTAT_CGROUP_HARDIRQ)
		return "hardirq";
	if (id == MSTAT_CGROUP_SOFTIRQ)
		return "softirq";
	return NULL;
}

const char *mstat_cgroup_label(struct mstat_cgroups **cg, long long id,
			       char *buf, size_t len)
{
	const char *path;

	if (id <= 0)
		return mstat_cgroup_special(id);
	if (!*cg)
		*cg = mstat_cgroups_open();
	path = mstat_cgroup_path(*cg, id);
	if (path)
		return path;
	snprintf(buf, len, "id:%lld", id);
	return buf;
}
