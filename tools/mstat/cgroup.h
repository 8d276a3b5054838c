/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup v2 tree (cgroup.c): a cgroup's id, as /proc/mstat_sites
 * labels a row with it, to its path. A cgroup's id is the inode number of
 * its directory under the cgroup2 mount, so the tree is walked once, on
 * the first lookup, and every directory's inode number kept.
 */
#ifndef MSTAT_CGROUP_H
#define MSTAT_CGROUP_H

#include <stdbool.h>
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
 * A row's cgroup label as the tool shows it, cgroup @id's path being
 * @path (NULL: not known): @path ("/", "/a/b"), "id:N" into @buf if it is
 * not known, "hardirq" or "softirq" for those values (@id <= 0); NULL
 * for MSTAT_CGROUP_UNKNOWN and any other value that is no id. For the
 * tree of this machine, mstat_cgroup_label(); mstat leaks --from labels
 * with the paths its watch saved.
 */
const char *mstat_cgroup_label_of(long long id, const char *path, char *buf,
				  size_t len);

/*
 * mstat_cgroup_label_of() with @id's path in this machine's tree: *@cg
 * is opened on the first path looked up.
 */
const char *mstat_cgroup_label(struct mstat_cgroups **cg, long long id,
			       char *buf, size_t len);

void mstat_cgroups_free(struct mstat_cgroups *cg);

/* The directory @cg's tree is at, or NULL (no tree); @cg's own. */
const char *mstat_cgroups_root(const struct mstat_cgroups *cg);

/*
 * What a fleet labels a cgroup by, read from its path alone, on the
 * machine that took the sample (the path is that machine's): each field
 * "" when the path does not say.
 *
 * @container_id: the runtime's id of the container (64 hex digits), of
 *	the innermost container the path names: a systemd scope
 *	cri-containerd-ID.scope (containerd), crio-ID.scope (CRI-O),
 *	docker-ID.scope (Docker), libpod-ID.scope (Podman); under the
 *	cgroupfs driver a directory ID (containerd under kubepods, Docker
 *	under /docker), crio-ID, libpod-ID. The runtimes' monitors'
 *	scopes (crio-conmon-ID, libpod-conmon-ID) are not containers.
 * @runtime: "containerd", "cri-o", "docker" or "podman", when the path
 *	says which; "" for a bare ID under kubepods (containerd's under
 *	cgroupfs, or another runtime's).
 * @pod_uid: a Kubernetes pod's UID (8-4-4-4-12 hex digits), from
 *	kubepods' podUID (cgroupfs) or ...-podUID.slice, its dashes
 *	written as underscores (systemd).
 * @pod_qos: its QoS class, "guaranteed" (the pod right under kubepods),
 *	"burstable" or "besteffort".
 * @unit: the innermost systemd unit the path names (NAME.service or
 *	NAME.scope), as systemctl names it.
 * @slice: the slice that unit is in (the last NAME.slice before it,
 *	"-.slice" for a unit right under the root).
 *
 * A path of no layout known (not systemd's, not kubepods', not a
 * runtime's) gives nothing: no label is invented. Returns whether any
 * field was found.
 */
struct mstat_cgroup_tags {
	char container_id[65];
	char runtime[16];
	char pod_uid[37];
	char pod_qos[16];
	char unit[256];
	char slice[256];
};

bool mstat_cgroup_tags(const char *path, struct mstat_cgroup_tags *t);

#endif /* MSTAT_CGROUP_H */
