// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/mstat_owners (layer 5): who holds the vm areas and percpu
 * objects counted since the last reset, a line per (source, kind,
 * cgroup, caller), as mstat_vmem.c's owners' tables say them:
 *
 *	mstat_owners - version: 1.0
 *	# rows 3 capacity 512 reused 0 age_ms 0
 *	vmalloc alloc 7411 8 0 33554432 hold_vmalloc+0x3e/0x90 [mstat_hold]
 *	percpu - softirq 1 0 64 other
 *
 * the columns: source, kind (a vm area's; "-" for percpu), cgroup (its
 * id, "softirq", "hardirq" or "-" as /proc/mstat_sites says it), objects
 * allocated, of them freed, live bytes, and the caller ("other": the
 * owners past a full table). Each source's rows are one hold of its
 * table's lock, so they sum to the objects it counted since the last
 * reset and holds (the vmalloc and percpu lines of /proc/mstat, when
 * nothing allocates between the two reads); each open copies them, an
 * open shares another's copy as /proc/mstat's opens share a snapshot
 * (mstat_shots.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "mstat_faces.h"
#include "mstat_profile.h"
#include "mstat_shots.h"
#include "mstat_stats.h"
#include "mstat_text.h"
#include "mstat_vmem.h"

/* Bump the minor for added lines, the major for anything else. */
#define MSTAT_OWNERS_FORMAT_VERSION	"1.0"

/* The sources that keep owners, in the order their rows are shown. */
static const enum mstat_source mstat_owners_src[] = {
	MSTAT_SRC_VMALLOC, MSTAT_SRC_PERCPU,
};

struct mstat_owners_shot {
	struct mstat_shot shot;
	unsigned int n[ARRAY_SIZE(mstat_owners_src)];
	struct mstat_owner row[ARRAY_SIZE(mstat_owners_src)][MSTAT_OWNER_ROWS];
};

static void mstat_owners_free(struct mstat_shot *shot)
{
	kvfree(container_of(shot, struct mstat_owners_shot, shot));
}

static struct mstat_shot *mstat_owners_take(void)
{
	struct mstat_owners_shot *os;
	unsigned int i;
	int n;

	os = kvmalloc(sizeof(*os), GFP_KERNEL);
	if (!os)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < ARRAY_SIZE(mstat_owners_src); i++) {
		n = mstat_vmem_owners(mstat_owners_src[i], os->row[i]);
		os->n[i] = max(n, 0);
	}
	kref_init(&os->shot.ref);
	os->shot.free = mstat_owners_free;
	return &os->shot;
}

static struct mstat_shots mstat_owners_shots = {
	.lock = __MUTEX_INITIALIZER(mstat_owners_shots.lock),
	.take = mstat_owners_take,
};

static void mstat_owners_show_row(struct seq_file *m, char *sym, size_t size,
				  enum mstat_source src,
				  const struct mstat_owner *r)
{
	seq_printf(m, "%s %s ", mstat_source_name[src],
		   src == MSTAT_SRC_VMALLOC && r->kind < MSTAT_NR_VM_KINDS ?
		   mstat_vm_kind_name[r->kind] : "-");
	switch (r->cgroup) {
	case MSTAT_CGROUP_NONE:
		seq_puts(m, "-");
		break;
	case MSTAT_CGROUP_HARDIRQ:
		seq_puts(m, "hardirq");
		break;
	case MSTAT_CGROUP_SOFTIRQ:
		seq_puts(m, "softirq");
		break;
	default:
		seq_printf(m, "%llu", r->cgroup);
	}
	seq_printf(m, " %llu %llu %llu %s\n", r->allocs, r->frees, r->bytes,
		   r->other ? "other" : mstat_site_name(sym, size, r->site));
}

static int mstat_owners_show(struct seq_file *m, void *v)
{
	struct mstat_proc_open *po = m->private;
	const struct mstat_owners_shot *os =
		container_of(po->shot, struct mstat_owners_shot, shot);
	unsigned int i, j;

	seq_puts(m, "mstat_owners - version: " MSTAT_OWNERS_FORMAT_VERSION "\n");
	seq_printf(m, "# rows %u capacity %u reused %d age_ms %llu\n",
		   os->n[0] + os->n[1], MSTAT_OWNER_ROWS, po->reused,
		   po->age_ms);
	for (i = 0; i < ARRAY_SIZE(mstat_owners_src); i++)
		for (j = 0; j < os->n[i]; j++)
			mstat_owners_show_row(m, po->sym, sizeof(po->sym),
					      mstat_owners_src[i], &os->row[i][j]);
	return 0;
}

static int mstat_owners_open(struct inode *inode, struct file *file)
{
	const struct mstat_owners_shot *os;
	struct mstat_proc_open *po;
	int err;

	po = kmalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;
	err = mstat_shot_get(&mstat_owners_shots, po);
	if (err) {
		kfree(po);
		return err;
	}
	os = container_of(po->shot, struct mstat_owners_shot, shot);
	/* A row is at most its numbers and a caller's name. */
	err = single_open_size(file, mstat_owners_show, po,
			       256 + (os->n[0] + os->n[1]) *
			       (96 + KSYM_SYMBOL_LEN));
	if (err) {
		mstat_shot_put(po->shot);
		kfree(po);
	}
	return err;
}

static int mstat_owners_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct mstat_proc_open *po = m->private;

	mstat_shot_put(po->shot);
	kfree(po);
	return single_release(inode, file);
}

static const struct proc_ops mstat_owners_proc_ops = {
	.proc_open	= mstat_owners_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= mstat_owners_release,
};

/**
 * mstat_owners_init() - create /proc/mstat_owners
 * @mode: its permissions, as /proc/mstat's
 * @gid: its group (owner root)
 *
 * Return: 0 or -ENOMEM.
 */
int mstat_owners_init(umode_t mode, kgid_t gid)
{
	struct proc_dir_entry *pde;

	pde = proc_create("mstat_owners", mode, NULL, &mstat_owners_proc_ops);
	if (!pde)
		return -ENOMEM;
	if (!gid_eq(gid, GLOBAL_ROOT_GID))
		proc_set_user(pde, GLOBAL_ROOT_UID, gid);
	return 0;
}

/**
 * mstat_owners_exit() - remove it, and free its last copy
 */
void mstat_owners_exit(void)
{
	remove_proc_entry("mstat_owners", NULL);
	mstat_shots_drop(&mstat_owners_shots);
}
