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

const char *mstat_cgroups_root(const struct mstat_cgroups *cg)
{
	return cg->root;
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

/* The label of a cgroup value that is no id: "hardirq", "softirq", NULL. */
static const char *mstat_cgroup_special(long long id)
{
	if (id == MSTAT_CGROUP_HARDIRQ)
		return "hardirq";
	if (id == MSTAT_CGROUP_SOFTIRQ)
		return "softirq";
	return NULL;
}

const char *mstat_cgroup_label_of(long long id, const char *path, char *buf,
				  size_t len)
{
	if (id <= 0)
		return mstat_cgroup_special(id);
	if (path)
		return path;
	snprintf(buf, len, "id:%lld", id);
	return buf;
}

const char *mstat_cgroup_label(struct mstat_cgroups **cg, long long id,
			       char *buf, size_t len)
{
	const char *path = NULL;

	if (id > 0) {
		if (!*cg)
			*cg = mstat_cgroups_open();
		path = mstat_cgroup_path(*cg, id);
	}
	return mstat_cgroup_label_of(id, path, buf, len);
}

/* Whether @s, @n bytes, is all lowercase hex digits. */
static bool mstat_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return n > 0;
}

/* Whether @s, @n bytes, ends with @suffix. */
static bool mstat_ends(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

static void mstat_copy(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/*
 * A pod UID in @s, @n bytes: 8-4-4-4-12 hex digits, their separator @sep
 * ('-' under cgroupfs, '_' in a systemd slice's name); into @uid with
 * dashes.
 */
static bool mstat_pod_uid(const char *s, size_t n, char sep, char uid[37])
{
	static const size_t group[] = { 8, 4, 4, 4, 12 };
	size_t i, at = 0;

	if (n != 36)
		return false;
	for (i = 0; i < 5; i++) {
		if (!mstat_hex(s + at, group[i]))
			return false;
		at += group[i];
		if (i < 4 && s[at++] != sep)
			return false;
	}
	memcpy(uid, s, 36);
	uid[36] = '\0';
	for (i = 0; i < 36; i++)
		if (uid[i] == sep)
			uid[i] = '-';
	return true;
}

/*
 * A container's directory: PREFIX-ID[.scope] or, with @bare, ID; its id
 * and runtime into @t.
 */
static bool mstat_container(const char *c, size_t n, bool bare,
			    struct mstat_cgroup_tags *t)
{
	static const struct {
		const char *prefix, *runtime;
	} rt[] = {
		{ "cri-containerd-", "containerd" },
		{ "crio-", "cri-o" },
		{ "docker-", "docker" },
		{ "libpod-", "podman" },
	};
	size_t i, k;

	if (mstat_ends(c, n, ".scope"))
		n -= strlen(".scope");
	if (bare && n == 64 && mstat_hex(c, 64)) {
		mstat_copy(t->container_id, sizeof(t->container_id), c, 64);
		t->runtime[0] = '\0';
		return true;
	}
	for (i = 0; i < sizeof(rt) / sizeof(rt[0]); i++) {
		k = strlen(rt[i].prefix);
		if (n == k + 64 && !memcmp(c, rt[i].prefix, k) &&
		    mstat_hex(c + k, 64)) {
			mstat_copy(t->container_id, sizeof(t->container_id),
				   c + k, 64);
			mstat_copy(t->runtime, sizeof(t->runtime),
				   rt[i].runtime, strlen(rt[i].runtime));
			return true;
		}
	}
	return false;
}

/*
 * A systemd slice of the kubelet's (its name a dash-joined chain, as
 * kubepods-burstable-podUID.slice): its pod and QoS class into @t.
 */
static void mstat_kube_slice(const char *c, size_t n, bool *kube,
			     struct mstat_cgroup_tags *t)
{
	const char *last, *prev;
	size_t ln;

	n -= strlen(".slice");
	last = c + n;
	while (last > c && last[-1] != '-')
		last--;
	ln = (size_t)(c + n - last);
	/* kubepods.slice, or kubepods the last link (kind's kubelet-...). */
	if (ln == 8 && !memcmp(last, "kubepods", 8)) {
		*kube = true;
		return;
	}
	if (!*kube)
		return;
	if ((ln == 9 && !memcmp(last, "burstable", 9)) ||
	    (ln == 10 && !memcmp(last, "besteffort", 10))) {
		mstat_copy(t->pod_qos, sizeof(t->pod_qos), last, ln);
		return;
	}
	if (ln > 3 && !memcmp(last, "pod", 3) &&
	    mstat_pod_uid(last + 3, ln - 3, '_', t->pod_uid)) {
		/* The link before it: the QoS class, or kubepods itself. */
		prev = last - 1;
		while (prev > c && prev[-1] != '-')
			prev--;
		if ((size_t)(last - 1 - prev) == 8 && !memcmp(prev, "kubepods", 8))
			mstat_copy(t->pod_qos, sizeof(t->pod_qos),
				   "guaranteed", strlen("guaranteed"));
	}
}

bool mstat_cgroup_tags(const char *path, struct mstat_cgroup_tags *t)
{
	const char *c = path, *e;
	const char *slice = NULL;
	size_t slice_n = 0, n;
	bool kube = false, cgfs_kube = false, docker = false;
	/* Under cgroupfs: right under kubepods 0, its QoS class 1, a pod 2. */
	int since_kube = -1;

	memset(t, 0, sizeof(*t));
	if (!path || path[0] != '/')
		return false;
	for (; *c; c = e) {
		while (*c == '/')
			c++;
		for (e = c; *e && *e != '/'; e++)
			;
		n = (size_t)(e - c);
		if (!n)
			break;
		if (mstat_ends(c, n, ".slice") && n > strlen(".slice")) {
			slice = c;
			slice_n = n;
			mstat_kube_slice(c, n, &kube, t);
			since_kube = -1;
			continue;
		}
		if (mstat_ends(c, n, ".service") || mstat_ends(c, n, ".scope")) {
			mstat_copy(t->unit, sizeof(t->unit), c, n);
			if (slice)
				mstat_copy(t->slice, sizeof(t->slice), slice,
					   slice_n);
			else
				mstat_copy(t->slice, sizeof(t->slice), "-.slice",
					   strlen("-.slice"));
			mstat_container(c, n, false, t);
			/*
			 * Below a unit, a manager of its own (user@UID.service,
			 * a container's systemd) starts again from its root.
			 */
			slice = NULL;
			since_kube = -1;
			continue;
		}
		/* The cgroupfs driver's directories. */
		if (n == 8 && !memcmp(c, "kubepods", 8)) {
			cgfs_kube = true;
			since_kube = 0;
			continue;
		}
		if (n == 6 && !memcmp(c, "docker", 6)) {
			docker = true;
			continue;
		}
		if (cgfs_kube && since_kube == 0 &&
		    ((n == 9 && !memcmp(c, "burstable", 9)) ||
		     (n == 10 && !memcmp(c, "besteffort", 10)))) {
			mstat_copy(t->pod_qos, sizeof(t->pod_qos), c, n);
			since_kube = 1;
			continue;
		}
		if (cgfs_kube && (since_kube == 0 || since_kube == 1) && n > 3 &&
		    !memcmp(c, "pod", 3) &&
		    mstat_pod_uid(c + 3, n - 3, '-', t->pod_uid)) {
			if (since_kube == 0)
				mstat_copy(t->pod_qos, sizeof(t->pod_qos),
					   "guaranteed", strlen("guaranteed"));
			since_kube = 2;
			continue;
		}
		/*
		 * A container: a bare ID right under a pod (kubepods) or
		 * /docker, or a runtime's PREFIX-ID anywhere.
		 */
		if (mstat_container(c, n, since_kube == 2 || docker, t) &&
		    docker && !t->runtime[0] && since_kube != 2)
			mstat_copy(t->runtime, sizeof(t->runtime), "docker",
				   strlen("docker"));
		since_kube = -1;
		docker = false;
	}
	return t->container_id[0] || t->pod_uid[0] || t->pod_qos[0] ||
	       t->unit[0];
}
