// SPDX-License-Identifier: GPL-2.0
/*
 * The /proc face (layer 5), both files, each open one consistent
 * snapshot; the formats are versioned by their first line and documented
 * in the README:
 *
 *  /proc/mstat: one "name value" line per counter, then the size-class
 *	and page-order tables, whose rows start with "class" and "order";
 *  /proc/mstat_sites: the heap profile as of a snapshot, one line per
 *	stack, by estimated bytes in use: the figures and the call site,
 *	then a line per caller, a tab and the frame (format 2).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mstat_bulk.h"
#include "mstat_caches.h"
#include "mstat_faces.h"
#include "mstat_profile.h"
#include "mstat_sources.h"
#include "mstat_stats.h"

/* Bump the minor for added lines, the major for anything else. */
#define MSTAT_FORMAT_VERSION	"1.5"
#define MSTAT_SITES_FORMAT_VERSION	"2.0"

struct mstat_proc_snap {
	struct mstat_snapshot snap;
	struct mstat_stats st;
	struct mstat_caches_snap *cs;
};

static void mstat_show_source(struct seq_file *m, enum mstat_source i,
			      const struct mstat_src_stats *s)
{
	const char *n = mstat_source_name[i];

	seq_printf(m, "%s_enabled %d\n", n, mstat_source_enabled(i));
	seq_printf(m, "%s_allocs %llu\n", n, s->allocs);
	seq_printf(m, "%s_frees %llu\n", n, s->frees);
	seq_printf(m, "%s_failures %llu\n", n, s->failures);
	seq_printf(m, "%s_bytes_requested %llu\n", n, s->bytes_req);
	seq_printf(m, "%s_bytes_allocated %llu\n", n, s->bytes_alloc);
	seq_printf(m, "%s_bytes_freed %llu\n", n, s->bytes_freed);
	seq_printf(m, "%s_live_objects %lld\n", n, (s64)(s->allocs - s->frees));
	seq_printf(m, "%s_live_bytes %lld\n", n,
		   (s64)(s->bytes_alloc - s->bytes_freed));
}

static void mstat_show_slab(struct seq_file *m, const struct mstat_stats *st)
{
	struct mstat_src_stats t = { };
	int i;

	for (i = 0; i < MSTAT_NR_SOURCES; i++) {
		if (i == MSTAT_SRC_PAGE)
			continue;
		t.allocs += st->src[i].allocs;
		t.frees += st->src[i].frees;
		t.bytes_req += st->src[i].bytes_req;
		t.bytes_alloc += st->src[i].bytes_alloc;
		t.bytes_freed += st->src[i].bytes_freed;
	}
	seq_printf(m, "slab_allocs %llu\n", t.allocs);
	seq_printf(m, "slab_frees %llu\n", t.frees);
	seq_printf(m, "slab_bytes_requested %llu\n", t.bytes_req);
	seq_printf(m, "slab_bytes_allocated %llu\n", t.bytes_alloc);
	seq_printf(m, "slab_bytes_freed %llu\n", t.bytes_freed);
	seq_printf(m, "slab_live_objects %lld\n", (s64)(t.allocs - t.frees));
	seq_printf(m, "slab_live_bytes %lld\n",
		   (s64)(t.bytes_alloc - t.bytes_freed));
	seq_printf(m, "slab_frag_bytes %llu\n", t.bytes_alloc - t.bytes_req);
}

static void mstat_show_classes(struct seq_file *m,
			       const struct mstat_stats *st)
{
	int i;

	seq_puts(m, "# class size allocs frees live_objects bytes_requested bytes_allocated bytes_freed live_bytes frag_bytes frag_live_bytes_est\n");
	for (i = 0; i < MSTAT_NR_CLASSES; i++) {
		const struct mstat_class_stats *c = &st->cls[i];
		s64 live = c->allocs - c->frees;
		u64 frag = c->bytes_alloc - c->bytes_req;
		s64 frag_live = 0;

		/* Frees carry no requested size: scale the mean. */
		if (c->allocs && live > 0)
			frag_live = div64_u64(frag * (u64)live, c->allocs);
		if (i == MSTAT_CLASS_LARGE)
			seq_puts(m, "class large");
		else
			seq_printf(m, "class %u", mstat_class_size[i]);
		seq_printf(m, " %llu %llu %lld %llu %llu %llu %lld %llu %lld\n",
			   c->allocs, c->frees, live, c->bytes_req,
			   c->bytes_alloc, c->bytes_freed,
			   (s64)(c->bytes_alloc - c->bytes_freed), frag,
			   frag_live);
	}
}

/* Format 1.1: the kmalloc source alone, per size class. */
static void mstat_show_kmalloc_classes(struct seq_file *m,
				       const struct mstat_stats *st)
{
	int i;

	seq_puts(m, "# kmalloc_class size allocs frees live_objects live_bytes\n");
	for (i = 0; i < MSTAT_NR_CLASSES; i++) {
		const struct mstat_kclass_stats *c = &st->kcls[i];

		if (i == MSTAT_CLASS_LARGE)
			seq_puts(m, "kmalloc_class large");
		else
			seq_printf(m, "kmalloc_class %u", mstat_class_size[i]);
		seq_printf(m, " %llu %llu %lld %lld\n", c->allocs, c->frees,
			   (s64)(c->allocs - c->frees),
			   (s64)(c->bytes_alloc - c->bytes_freed));
	}
}

static void mstat_show_orders(struct seq_file *m,
			      const struct mstat_stats *st)
{
	int i;

	seq_puts(m, "# order n allocs frees failures live_pages\n");
	for (i = 0; i < MSTAT_NR_ORDERS; i++) {
		const struct mstat_order_stats *o = &st->order[i];

		seq_printf(m, "order %d %llu %llu %llu %lld\n", i, o->allocs,
			   o->frees, o->failures,
			   (s64)(o->allocs - o->frees) << i);
	}
}

/*
 * A cache's name as one word: bytes outside '!'..'~', and the backslash,
 * as a backslash and three octal digits; "-" if unknown, so a cache named
 * "-" is "\055".
 */
static void mstat_show_cache_name(struct seq_file *m, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;

	if (!*p) {
		seq_putc(m, '-');
		return;
	}
	if (!strcmp(name, "-")) {
		seq_puts(m, "\\055");
		return;
	}
	for (; *p; p++) {
		if (*p < '!' || *p > '~' || *p == '\\')
			seq_printf(m, "\\%03o", *p);
		else
			seq_putc(m, *p);
	}
}

/* Format 1.2: the per-cache table, then its overflow row. */
static void mstat_show_caches(struct seq_file *m,
			      const struct mstat_caches_snap *cs)
{
	const struct mstat_cell *o = &cs->over;
	unsigned int i;

	seq_printf(m, "caches_enabled %d\n", cs->enabled);
	seq_printf(m, "caches_rows %u\n", cs->nr_rows);
	seq_printf(m, "caches_used %u\n", cs->used);
	seq_printf(m, "caches_named %d\n", cs->named);
	seq_printf(m, "# caches: %s\n", mstat_caches_names_why());
	seq_puts(m, "# cache id object_size allocs frees failures live_objects live_bytes state name\n");
	for (i = 0; i < cs->n; i++) {
		const struct mstat_cache_stat *c = &cs->row[i];
		s64 live = c->allocs - c->frees;

		seq_printf(m, "cache %u %u %llu %llu %llu %lld %lld %s ", c->id,
			   c->size, c->allocs, c->frees, c->failures, live,
			   live * c->size, c->gone ? "gone" : "live");
		mstat_show_cache_name(m, c->name);
		seq_putc(m, '\n');
	}
	seq_printf(m, "cache_overflow %llu %llu %llu %lld %lld\n", o->allocs,
		   o->frees, o->failures, (s64)(o->allocs - o->frees),
		   (s64)(o->bytes_alloc - o->bytes_freed));
}

static int mstat_proc_show(struct seq_file *m, void *v)
{
	const struct mstat_proc_snap *ps = m->private;
	const struct mstat_stats *st = &ps->st;
	s64 pages = 0;
	int i;

	seq_puts(m, "mstat - version: " MSTAT_FORMAT_VERSION "\n");
	seq_printf(m, "generation %llu\n", ps->snap.gen);
	seq_printf(m, "snapshot_wait_ns %llu\n", ps->snap.wait_ns);
	seq_printf(m, "snapshot_waited_cpus %u\n", ps->snap.waited_cpus);
	seq_printf(m, "snapshot_folded_cpus %u\n", ps->snap.folded_cpus);
	for (i = 0; i < MSTAT_NR_SOURCES; i++)
		mstat_show_source(m, i, &st->src[i]);
	mstat_show_slab(m, st);
	for (i = 0; i < MSTAT_NR_ORDERS; i++)
		pages += (s64)(st->order[i].allocs - st->order[i].frees) << i;
	seq_printf(m, "page_live_pages %lld\n", pages);
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		seq_printf(m, "ctx_%s_allocs %llu\n", mstat_ctx_name[i],
			   st->ctx[i].allocs);
		seq_printf(m, "ctx_%s_frees %llu\n", mstat_ctx_name[i],
			   st->ctx[i].frees);
	}
	seq_printf(m, "gfp_sleep_allocs %llu\n", st->gfp[MSTAT_GFP_SLEEP]);
	seq_printf(m, "gfp_atomic_allocs %llu\n", st->gfp[MSTAT_GFP_ATOMIC]);
	mstat_bulk_show_probes(m);
	mstat_show_classes(m, st);
	mstat_show_orders(m, st);
	mstat_show_kmalloc_classes(m, st);
	mstat_show_caches(m, ps->cs);
	return 0;
}

/* One open is one snapshot, however the output is read. */
static int mstat_proc_open(struct inode *inode, struct file *file)
{
	struct mstat_proc_snap *ps;
	int err;

	ps = kmalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	ps->cs = mstat_caches_alloc();
	if (!ps->cs) {
		kfree(ps);
		return -ENOMEM;
	}
	err = mstat_caches_read(&ps->snap, &ps->st, ps->cs);
	/* A cache row is at most about 400 bytes, its name escaped. */
	if (!err)
		err = single_open_size(file, mstat_proc_show, ps,
				       8192 + ps->cs->n * 400);
	if (err) {
		kvfree(ps->cs);
		kfree(ps);
	}
	return err;
}

static int mstat_proc_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct mstat_proc_snap *ps = m->private;

	kvfree(ps->cs);
	kfree(ps);
	return single_release(inode, file);
}

static const struct proc_ops mstat_proc_ops = {
	.proc_open	= mstat_proc_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= mstat_proc_release,
};

/* /proc/mstat_sites */

static void *mstat_sites_start(struct seq_file *m, loff_t *pos)
{
	struct mstat_sites *ss = m->private;

	if (!*pos)
		return SEQ_START_TOKEN;
	return *pos <= ss->n ? &ss->row[*pos - 1] : NULL;
}

static void *mstat_sites_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return mstat_sites_start(m, pos);
}

static void mstat_sites_stop(struct seq_file *m, void *v)
{
}

static int mstat_sites_show(struct seq_file *m, void *v)
{
	struct mstat_sites *ss = m->private;
	const struct mstat_site_row *r = v;
	s64 inuse, calls;
	unsigned int i;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "mstat_sites - version: " MSTAT_SITES_FORMAT_VERSION "\n");
		seq_printf(m, "# snapshot %llu sample_rate %lu stacks %u stack_drops %lld addr_drops %lld addr_live %d depth %u leafless %lld\n",
			   ss->gen, ss->rate, ss->n, (s64)ss->site_drops,
			   (s64)ss->addr_drops, ss->addr_live, ss->depth,
			   (s64)ss->leafless);
		seq_puts(m, "# est_bytes est_calls sampled_bytes sampled_calls allocs alloc_bytes frees free_bytes site\n");
		return 0;
	}
	inuse = mstat_row_inuse(r);
	calls = r->v[MSTAT_B_ALLOCS] - r->v[MSTAT_B_FREES];
	seq_printf(m, "%lld %lld %lld %lld %llu %llu %llu %llu %s\n",
		   r->est_bytes, r->est_calls, inuse, calls,
		   r->v[MSTAT_B_ALLOCS], r->v[MSTAT_B_ABYTES],
		   r->v[MSTAT_B_FREES], r->v[MSTAT_B_FBYTES],
		   mstat_site_name(ss->sym, sizeof(ss->sym), r->site));
	for (i = 1; i < r->nr; i++)
		seq_printf(m, "\t%s\n",
			   mstat_site_name(ss->sym, sizeof(ss->sym), r->stack[i]));
	return 0;
}

static const struct seq_operations mstat_sites_sops = {
	.start	= mstat_sites_start,
	.next	= mstat_sites_next,
	.stop	= mstat_sites_stop,
	.show	= mstat_sites_show,
};

/* As /proc/mstat: one open is one snapshot. */
static int mstat_sites_open(struct inode *inode, struct file *file)
{
	struct mstat_snapshot snap;
	struct mstat_sites *ss = mstat_profile_read(&snap);
	int err;

	if (IS_ERR(ss))
		return PTR_ERR(ss);
	err = seq_open(file, &mstat_sites_sops);
	if (err) {
		vfree(ss);
		return err;
	}
	((struct seq_file *)file->private_data)->private = ss;
	return 0;
}

static int mstat_sites_release(struct inode *inode, struct file *file)
{
	vfree(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct proc_ops mstat_sites_proc_ops = {
	.proc_open	= mstat_sites_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= mstat_sites_release,
};

/* A file of ours, its group @gid unless that is root's. */
static bool mstat_proc_create(const char *name, umode_t mode, kgid_t gid,
			      const struct proc_ops *ops)
{
	struct proc_dir_entry *pde = proc_create(name, mode, NULL, ops);

	if (pde && !gid_eq(gid, GLOBAL_ROOT_GID))
		proc_set_user(pde, GLOBAL_ROOT_UID, gid);
	return pde;
}

/**
 * mstat_proc_init() - create /proc/mstat and /proc/mstat_sites
 * @mode: their permissions
 * @gid: their group (owner root)
 *
 * Return: 0 or -ENOMEM.
 */
int mstat_proc_init(umode_t mode, kgid_t gid)
{
	if (!mstat_proc_create("mstat", mode, gid, &mstat_proc_ops))
		return -ENOMEM;
	if (!mstat_proc_create("mstat_sites", mode, gid, &mstat_sites_proc_ops)) {
		remove_proc_entry("mstat", NULL);
		return -ENOMEM;
	}
	return 0;
}

/**
 * mstat_proc_exit() - remove both; waits for open readers' calls
 */
void mstat_proc_exit(void)
{
	remove_proc_entry("mstat_sites", NULL);
	remove_proc_entry("mstat", NULL);
}
