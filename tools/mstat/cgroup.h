/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup v2 tree (cgroup.c): a cgroup's id, as /proc/mstat_sites
 * labels a row with it, to its path. A cgroup's id is the inode number of
 * its directory under the cgroup2 mount, so the tree is walked once, on
 * the first lookup, and every directory's inode number kept.
 */
#ifndef MSTAT_CGROUP_H
#define MSTAT_CGROUP_H

#include <stddef.h>

/* MSTAT_CGROUP_ROOT, when set, is the tree to walk instead of the mount. */
#define MSTAT_CGROUP_ROOT_ENV	"MSTAT_CGROUP_ROOT"

struct mstat_cgroups;

/*
 * The tree at $MSTAT_CGROUP_ROOT, or at the first cgroup2 mount of
 * /proc/self/mounts; not walked yet. Never NULL: with no tree, every
 * lookup finds nothing.
 */
struct mstat_cgroups *mstat_cgroups_open(void);

/*
 * The path of the cgroup whose directory has inode number @id, relative
 * to the root: "/" for the root itself, "/a/b" below it; NULL if no
 * directory has it (the cgroup is gone, or outside the tree). Valid until
 * mstat_cgroups_free().
 */
const char *mstat_cgroup_path(struct mstat_cgroups *cg, unsigned long long id);

/*
 * A row's cgroup label as the tool shows it: the path of cgroup @id
 * ("/", "/a/b"), "id:N" into @buf if no directory has the id, "hardirq",
 * "softirq"; NULL when unknown (MSTAT_CGROUP_UNKNOWN). *@cg is opened on
 * the first path looked up.
 */
const char *mstat_cgroup_label(struct mstat_cgroups **cg, long long id,
			       char *buf, size_t len);

/*
 * The label of a cgroup value that is no id (@id <= 0): "hardirq",
 * "softirq"; NULL for MSTAT_CGROUP_UNKNOWN and anything else.
 */
const char *mstat_cgroup_special(long long id);

void mstat_cgroups_free(struct mstat_cgroups *cg);

#endif /* MSTAT_CGROUP_H */
