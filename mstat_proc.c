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
 *
 * Each open gets a snapshot that opens may share, and readers without
 * CAP_SYS_ADMIN are bounded in how often they take one (mstat_shots.c).
 * The lines after the version say whether this open took its snapshot
 * or was served an earlier one, and how old it was then
 * (snapshot_reused and snapshot_age_ms; in mstat_sites's header, reused
 * and age_ms), and every value in them is the snapshot's, as of when it
 * was taken.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mstat_caches.h"
#include "mstat_compat.h"
#include "mstat_faces.h"
#include "mstat_kprobes.h"
#include "mstat_profile.h"
#include "mstat_shots.h"
#include "mstat_sites.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_text.h"
#include "mstat_vmem.h"

/* Bump the minor for added lines, the major for anything else. */
#define MSTAT_FORMAT_VERSION	"1.10"
#define MSTAT_SITES_FORMAT_VERSION	"2.5"

/* /proc/mstat */

struct mstat_proc_snap {
	struct mstat_shot shot;
	struct mstat_snapshot snap;
	struct mstat_stats st;
	struct mstat_caches_snap *cs;
	/* The lines beside the counts, read as the snapshot was taken. */
	bool enabled[MSTAT_NR_SOURCES];
	bool present[MSTAT_NR_SOURCES];
	struct mstat_vmem_view vmem[2];	/* vmalloc's table, percpu's */
	bool has_probe[MSTAT_KPROBE_NR];	/* a probe this kernel uses */
	struct mstat_kprobe_view probe[MSTAT_KPROBE_NR];
	unsigned long sheaf_mismatch;
	const char *caches_why;
};

static void mstat_show_source(struct seq_file *m, enum mstat_source i,
			      const struct mstat_proc_snap *ps,
			      const struct mstat_src_stats *s)
{
	const char *n = mstat_source_name[i];

	seq_printf(m, "%s_enabled %d\n", n, ps->enabled[i]);
	/* Format 1.6: whether this kernel gives the source at all. */
	seq_printf(m, "%s_present %d\n", n, ps->present[i]);
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
		if (!mstat_source_slab(i))
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

/*
 * The probe_* lines, from the probe table (mstat_kprobes.c): "probe_API 1"
 * if API is counted, "probe_API 0" if not (this kernel lacks the
 * function, or its prototype is not one mstat was built to read: the
 * load's log says which; alloc_pages_exact()'s split is counted by its
 * own probe or by split_page()'s); "probe_kfree_rcu_sheaf_mismatch N",
 * sheaf frees not counted because their arguments were not where the
 * prototype puts them; "probe_API_missed N", calls not counted because
 * the probe missed them (a kretprobe with all its instances in use, or a
 * probe that fired inside another). A probe this kernel has no use for
 * has no lines.
 */
static void mstat_show_probes(struct seq_file *m,
			      const struct mstat_proc_snap *ps)
{
	int i;

	for (i = 0; i < MSTAT_KPROBE_NR; i++)
		if (ps->has_probe[i])
			seq_printf(m, "probe_%s %d\n", ps->probe[i].api,
				   ps->probe[i].on);
	seq_printf(m, "probe_kfree_rcu_sheaf_mismatch %lu\n",
		   ps->sheaf_mismatch);
	for (i = 0; i < MSTAT_KPROBE_NR; i++)
		if (ps->has_probe[i])
			seq_printf(m, "probe_%s_missed %lu\n", ps->probe[i].api,
				   ps->probe[i].missed);
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

		if (i == MSTAT_CLASS_LARGE)
			seq_puts(m, "class large");
		else
			seq_printf(m, "class %u", mstat_class_size[i]);
		seq_printf(m, " %llu %llu %lld %llu %llu %llu %lld %llu %llu\n",
			   c->allocs, c->frees, live, c->bytes_req,
			   c->bytes_alloc, c->bytes_freed,
			   (s64)(c->bytes_alloc - c->bytes_freed), frag,
			   mstat_frag_live_est(frag, live, c->allocs));
	}
}

/*
 * Format 1.1: the kmalloc source alone, per size class; from 1.8 with the
 * objects its caches held when counting began, in its live counts and
 * as a column of their own (0 for "large", or where they are not known).
 */
static void mstat_show_kmalloc_classes(struct seq_file *m,
				       const struct mstat_stats *st,
				       const struct mstat_caches_snap *cs)
{
	int i;

	seq_puts(m, "# kmalloc_class size allocs frees live_objects live_bytes at_load_objects\n");
	for (i = 0; i < MSTAT_NR_CLASSES; i++) {
		const struct mstat_kclass_stats *c = &st->kcls[i];
		u64 then = 0, size = 0;

		if (i == MSTAT_CLASS_LARGE) {
			seq_puts(m, "kmalloc_class large");
		} else {
			size = mstat_class_size[i];
			then = cs->kcls_at_load[i];	/* 0 where unknown */
			seq_printf(m, "kmalloc_class %llu", size);
		}
		/* The counters' arithmetic, modulo 2^64 (mstat_stats.h). */
		seq_printf(m, " %llu %llu %lld %lld %llu\n", c->allocs, c->frees,
			   (s64)(then + c->allocs - c->frees),
			   (s64)(then * size + c->bytes_alloc - c->bytes_freed),
			   then);
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
			   (s64)((o->allocs - o->frees) << i));
	}
}

/*
 * Format 1.10: what makes boot's first percpu chunk, which Percpu counts
 * and MemTotal does not (memblock's). Each possible CPU's unit of it
 * holds the kernel's static per-CPU data (__per_cpu_end -
 * __per_cpu_start, which a module cannot read: /proc/kallsyms has it),
 * then the modules' reserve and the dynamic part, page-aligned together:
 * pcpu_build_alloc_info(), called with these on x86-64 and arm64 (boot
 * prints them, "percpu: Embedded N pages/cpu sS rR dD"). A unit of a
 * possible CPU's group that has no CPU (a hole, where a group's units
 * are rounded up) is counted by Percpu too, and not here.
 */
static void mstat_show_percpu_boot(struct seq_file *m)
{
	seq_printf(m, "kernel_percpu_first_chunk_reserved_bytes %lu\n",
		   (unsigned long)PERCPU_MODULE_RESERVE);
	seq_printf(m, "kernel_percpu_first_chunk_dynamic_bytes %lu\n",
		   (unsigned long)max_t(size_t, PERCPU_DYNAMIC_RESERVE,
					PERCPU_DYNAMIC_EARLY_SIZE));
	seq_printf(m, "kernel_percpu_units %u\n", num_possible_cpus());
}

/*
 * Format 1.6: the vmalloc source by kind of area, the tables of the
 * objects the vmalloc and percpu sources count, and the kernel's own
 * counters, read within the snapshot (mstat_kernel_read()); from 1.9,
 * those this kernel has (mstat_kernel_has()), and their lag bounds.
 */
static void mstat_show_vmem(struct seq_file *m,
			    const struct mstat_proc_snap *ps)
{
	const struct mstat_stats *st = &ps->st;
	static const enum mstat_source src[2] = {
		MSTAT_SRC_VMALLOC, MSTAT_SRC_PERCPU,
	};
	int i;

	for (i = 0; i < 2; i++) {
		const struct mstat_vmem_view *v = &ps->vmem[i];
		const char *n = mstat_source_name[src[i]];

		seq_printf(m, "%s_tracked %lu\n", n, v->tracked);
		seq_printf(m, "%s_tracked_max %lu\n", n, v->capacity);
		seq_printf(m, "%s_untracked %lu\n", n, v->untracked);
		seq_printf(m, "%s_unknown_frees %lu\n", n, v->unknown_frees);
		if (src[i] == MSTAT_SRC_VMALLOC)
			seq_printf(m, "%s_unknown_bytes %lu\n", n,
				   v->unknown_bytes);
		/* 1.10: live bytes of objects in boot's first chunk. */
		if (src[i] == MSTAT_SRC_PERCPU)
			seq_printf(m, "%s_first_chunk_bytes %llu\n", n,
				   v->boot_bytes);
	}
	/* 1.9: a counter this kernel does not have has no lines. */
	for (i = 0; i < MSTAT_NR_KERNEL; i++) {
		if (mstat_kernel_has(&st->kern, i))
			seq_printf(m, "kernel_%s_bytes %llu\n",
				   mstat_kernel_name[i], st->kern.v[i]);
	}
	/* 1.9: how far the vmstat counters above may be off the truth. */
	seq_printf(m, "kernel_zone_stat_lag_bytes %llu\n", st->kern.zone_lag);
	seq_printf(m, "kernel_node_stat_lag_bytes %llu\n", st->kern.node_lag);
	/* 1.7: the same, when counting began (load, or the last reset). */
	for (i = 0; i < MSTAT_NR_KERNEL; i++) {
		if (mstat_kernel_has(&st->kern_mark, i))
			seq_printf(m, "kernel_%s_bytes_at_load %llu\n",
				   mstat_kernel_name[i], st->kern_mark.v[i]);
	}
	/* Kernel stacks are vm areas, made by vmalloc() (VMAP_STACK). */
	seq_printf(m, "kernel_stack_in_vmalloc %d\n",
		   IS_ENABLED(CONFIG_VMAP_STACK));
	/* 1.9: each process's page directory NR_PAGETABLE leaves out. */
	seq_printf(m, "kernel_pgd_uncounted_bytes_each %lu\n",
		   MSTAT_PGD_UNCOUNTED);
	/* 1.10: the page tables below it that NR_PAGETABLE leaves out. */
	seq_printf(m, "kernel_pud_uncounted %d\n", MSTAT_PUD_UNCOUNTED);
	seq_printf(m, "kernel_pte_kernel_uncounted %d\n",
		   MSTAT_PTE_KERNEL_UNCOUNTED);
	mstat_show_percpu_boot(m);
	seq_puts(m, "# vm kind allocs frees live_areas bytes_allocated bytes_freed live_bytes\n");
	for (i = 0; i < MSTAT_NR_VM_KINDS; i++) {
		const struct mstat_vm_stats *v = &st->vm[i];

		seq_printf(m, "vm %s %llu %llu %lld %llu %llu %lld\n",
			   mstat_vm_kind_name[i], v->allocs, v->frees,
			   (s64)(v->allocs - v->frees), v->bytes_alloc,
			   v->bytes_freed,
			   (s64)(v->bytes_alloc - v->bytes_freed));
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
			      const struct mstat_caches_snap *cs,
			      const char *why)
{
	const struct mstat_cell *o = &cs->over;
	unsigned int i;

	seq_printf(m, "caches_enabled %d\n", cs->enabled);
	seq_printf(m, "caches_rows %u\n", cs->nr_rows);
	seq_printf(m, "caches_used %u\n", cs->used);
	seq_printf(m, "caches_named %d\n", cs->named);
	seq_printf(m, "# caches: %s\n", why);
	/* 1.8: the objects at load, in the rows' live counts and after NAME. */
	seq_printf(m, "caches_at_load %d\n", cs->at_load);
	seq_printf(m, "# caches at load: %s\n", cs->at_load_why);
	seq_puts(m, "# cache id object_size allocs frees failures live_objects live_bytes state name at_load_objects\n");
	for (i = 0; i < cs->n; i++) {
		const struct mstat_cache_stat *c = &cs->row[i];
		s64 live = c->at_load + c->allocs - c->frees;

		/* live_bytes modulo 2^64, as the counters (mstat_stats.h). */
		seq_printf(m, "cache %u %u %llu %llu %llu %lld %lld %s ", c->id,
			   c->size, c->allocs, c->frees, c->failures, live,
			   (s64)((u64)live * c->size),
			   c->gone ? "gone" : "live");
		mstat_show_cache_name(m, c->name);
		seq_printf(m, " %llu\n", c->at_load);
	}
	seq_printf(m, "cache_overflow %llu %llu %llu %lld %lld\n", o->allocs,
		   o->frees, o->failures, (s64)(o->allocs - o->frees),
		   (s64)(o->bytes_alloc - o->bytes_freed));
}

static int mstat_proc_show(struct seq_file *m, void *v)
{
	const struct mstat_proc_open *po = m->private;
	const struct mstat_proc_snap *ps =
		container_of(po->shot, struct mstat_proc_snap, shot);
	const struct mstat_stats *st = &ps->st;
	s64 pages = 0;
	int i;

	seq_puts(m, "mstat - version: " MSTAT_FORMAT_VERSION "\n");
	seq_printf(m, "generation %llu\n", ps->snap.gen);
	seq_printf(m, "snapshot_reused %d\n", po->reused);
	seq_printf(m, "snapshot_age_ms %llu\n", po->age_ms);
	seq_printf(m, "snapshot_wait_ns %llu\n", ps->snap.wait_ns);
	seq_printf(m, "snapshot_waited_cpus %u\n", ps->snap.waited_cpus);
	seq_printf(m, "snapshot_folded_cpus %u\n", ps->snap.folded_cpus);
	for (i = 0; i < MSTAT_NR_SOURCES; i++)
		mstat_show_source(m, i, ps, &st->src[i]);
	mstat_show_slab(m, st);
	for (i = 0; i < MSTAT_NR_ORDERS; i++)
		pages += (s64)((st->order[i].allocs - st->order[i].frees) << i);
	seq_printf(m, "page_live_pages %lld\n", pages);
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		seq_printf(m, "ctx_%s_allocs %llu\n", mstat_ctx_name[i],
			   st->ctx[i].allocs);
		seq_printf(m, "ctx_%s_frees %llu\n", mstat_ctx_name[i],
			   st->ctx[i].frees);
	}
	seq_printf(m, "gfp_sleep_allocs %llu\n", st->gfp[MSTAT_GFP_SLEEP]);
	seq_printf(m, "gfp_atomic_allocs %llu\n", st->gfp[MSTAT_GFP_ATOMIC]);
	mstat_show_probes(m, ps);
	mstat_show_classes(m, st);
	mstat_show_orders(m, st);
	mstat_show_kmalloc_classes(m, st, ps->cs);
	mstat_show_caches(m, ps->cs, ps->caches_why);
	mstat_show_vmem(m, ps);
	return 0;
}

static void mstat_proc_snap_free(struct mstat_shot *shot)
{
	struct mstat_proc_snap *ps =
		container_of(shot, struct mstat_proc_snap, shot);

	kvfree(ps->cs);
	kfree(ps);
}

static struct mstat_shot *mstat_proc_take(void)
{
	struct mstat_proc_snap *ps;
	int err, i;

	ps = kmalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return ERR_PTR(-ENOMEM);
	ps->cs = mstat_caches_alloc();
	if (!ps->cs) {
		kfree(ps);
		return ERR_PTR(-ENOMEM);
	}
	err = mstat_snapshot_read(&ps->snap, &ps->st, &ps->cs->cells,
				  mstat_caches_add, ps->cs);
	if (err) {
		mstat_proc_snap_free(&ps->shot);
		return ERR_PTR(err);
	}
	for (i = 0; i < MSTAT_NR_SOURCES; i++) {
		ps->enabled[i] = mstat_source_enabled(i);
		ps->present[i] = mstat_source_present(i) &&
				 (i != MSTAT_SRC_VMALLOC ||
				  mstat_kprobe_vm_present());
	}
	mstat_vmem_state(MSTAT_SRC_VMALLOC, &ps->vmem[0]);
	mstat_vmem_state(MSTAT_SRC_PERCPU, &ps->vmem[1]);
	for (i = 0; i < MSTAT_KPROBE_NR; i++)
		ps->has_probe[i] = mstat_kprobe_state(i, &ps->probe[i]);
	ps->sheaf_mismatch = mstat_kprobe_sheaf_mismatch();
	ps->caches_why = mstat_caches_names_why();
	kref_init(&ps->shot.ref);
	ps->shot.free = mstat_proc_snap_free;
	return &ps->shot;
}

static struct mstat_shots mstat_proc_shots = {
	.lock = __MUTEX_INITIALIZER(mstat_proc_shots.lock),
	.take = mstat_proc_take,
};

/* One open is one snapshot, however the output is read. */
static int mstat_proc_open(struct inode *inode, struct file *file)
{
	const struct mstat_proc_snap *ps;
	struct mstat_proc_open *po;
	int err;

	po = kmalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;
	err = mstat_shot_get(&mstat_proc_shots, po);
	if (err) {
		kfree(po);
		return err;
	}
	ps = container_of(po->shot, struct mstat_proc_snap, shot);
	/* A cache row is at most about 400 bytes, its name escaped. */
	err = single_open_size(file, mstat_proc_show, po,
			       12288 + ps->cs->n * 400);
	if (err) {
		mstat_shot_put(po->shot);
		kfree(po);
	}
	return err;
}

static int mstat_proc_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;
	struct mstat_proc_open *po = m->private;

	mstat_shot_put(po->shot);
	kfree(po);
	return single_release(inode, file);
}

static const struct proc_ops mstat_proc_ops = {
	.proc_open	= mstat_proc_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= mstat_proc_release,
};

/* /proc/mstat_sites */

struct mstat_proc_sites {
	struct mstat_shot shot;
	struct mstat_sites *ss;
};

static struct mstat_sites *mstat_sites_of(struct seq_file *m)
{
	const struct mstat_proc_open *po = m->private;

	return container_of(po->shot, struct mstat_proc_sites, shot)->ss;
}

static void *mstat_sites_start(struct seq_file *m, loff_t *pos)
{
	struct mstat_sites *ss = mstat_sites_of(m);

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

static void mstat_sites_show_cgroup(struct seq_file *m, u64 cgroup)
{
	switch (cgroup) {
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
		seq_printf(m, "%llu", cgroup);
	}
}

static int mstat_sites_show(struct seq_file *m, void *v)
{
	struct mstat_proc_open *po = m->private;
	struct mstat_sites *ss = mstat_sites_of(m);
	const struct mstat_site_row *r = v;
	s64 inuse, calls;
	unsigned int i;

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "mstat_sites - version: " MSTAT_SITES_FORMAT_VERSION "\n");
		/*
		 * 2.1: reused, age_ms. 2.2: addr_phantoms. 2.3: the source
		 * column, before the site. 2.4: history_ms, counts_ms.
		 * 2.5: the drops column, before the site.
		 */
		seq_printf(m, "# snapshot %llu sample_rate %lu stacks %u stack_drops %lld addr_drops %lld addr_live %d depth %u leafless %lld reused %d age_ms %llu addr_phantoms %lld history_ms %llu counts_ms %llu\n",
			   ss->gen, ss->rate, ss->n, (s64)ss->site_drops,
			   (s64)ss->addr_drops, ss->addr_live, ss->depth,
			   (s64)ss->leafless, po->reused, po->age_ms,
			   (s64)ss->addr_phantoms,
			   div_u64(ss->history, NSEC_PER_MSEC),
			   div_u64(ss->counts, NSEC_PER_MSEC));
		seq_puts(m, "# est_bytes est_calls sampled_bytes sampled_calls allocs alloc_bytes frees free_bytes cgroup node cache source drops site\n");
		return 0;
	}
	inuse = mstat_row_inuse(r);
	calls = r->v[MSTAT_B_ALLOCS] - r->v[MSTAT_B_FREES];
	seq_printf(m, "%lld %lld %lld %lld %llu %llu %llu %llu ",
		   r->est_bytes, r->est_calls, inuse, calls,
		   r->v[MSTAT_B_ALLOCS], r->v[MSTAT_B_ABYTES],
		   r->v[MSTAT_B_FREES], r->v[MSTAT_B_FBYTES]);
	/* 2.2: the labels, then the live objects after the frames. */
	mstat_sites_show_cgroup(m, r->cgroup);
	if (r->node == NUMA_NO_NODE)
		seq_puts(m, " -");
	else
		seq_printf(m, " %d", r->node);
	seq_putc(m, ' ');
	mstat_show_cache_name(m, r->cache);
	seq_printf(m, " %s %llu %s\n",
		   r->src < MSTAT_NR_SOURCES ? mstat_source_name[r->src] : "-",
		   r->v[MSTAT_B_DROPS],
		   mstat_site_name(po->sym, sizeof(po->sym), r->site));
	for (i = 1; i < r->nr; i++)
		seq_printf(m, "\t%s\n",
			   mstat_site_name(po->sym, sizeof(po->sym), r->stack[i]));
	for (i = 0; i < r->nlive; i++)
		seq_printf(m, "+ %llu %llu\n",
			   div_u64(ss->now - min(r->live[i].time, ss->now),
				   NSEC_PER_MSEC),
			   r->live[i].size);
	return 0;
}

static const struct seq_operations mstat_sites_sops = {
	.start	= mstat_sites_start,
	.next	= mstat_sites_next,
	.stop	= mstat_sites_stop,
	.show	= mstat_sites_show,
};

static void mstat_proc_sites_free(struct mstat_shot *shot)
{
	struct mstat_proc_sites *ps =
		container_of(shot, struct mstat_proc_sites, shot);

	mstat_sites_free(ps->ss);
	kfree(ps);
}

/*
 * A free probe that missed calls (a kprobe hit inside another probe's
 * handler, a kretprobe out of instances) may have left sampled objects in
 * the profile's address table for good: drop those it could have freed
 * (mstat_profile_forget_sources()). Each of these probes frees slab
 * objects alone (mstat_count_kfree(), mstat_count_cache_free(),
 * mstat_count_cache_free_entry()), which count in the kmalloc or the
 * cache source, either of them whichever the probe (mstat_source_frees());
 * a page's, a vm area's or a percpu object's free never comes through
 * them. So the slab sources' entries are dropped, the others kept. Under
 * mstat_sites_shots.lock.
 */
static void mstat_sites_check_missed(void)
{
	static const enum mstat_kprobe_id free_probes[] = {
		MSTAT_KPROBE_FREE, MSTAT_KPROBE_CACHE_FREE, MSTAT_KPROBE_SHEAF,
	};
	static unsigned long seen;
	struct mstat_kprobe_view p;
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(free_probes); i++)
		if (mstat_kprobe_state(free_probes[i], &p))
			missed += p.missed;
	if (missed == seen)
		return;
	seen = missed;
	mstat_profile_forget_sources(mstat_source_frees(MSTAT_SRC_KMALLOC) |
				     mstat_source_frees(MSTAT_SRC_CACHE),
				     "a free probe missed calls");
}

static struct mstat_shot *mstat_sites_take(void)
{
	struct mstat_snapshot snap;
	struct mstat_proc_sites *ps;

	mstat_sites_check_missed();
	ps = kmalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return ERR_PTR(-ENOMEM);
	ps->ss = mstat_profile_read(&snap);
	if (IS_ERR(ps->ss)) {
		long err = PTR_ERR(ps->ss);

		kfree(ps);
		return ERR_PTR(err);
	}
	kref_init(&ps->shot.ref);
	ps->shot.free = mstat_proc_sites_free;
	return &ps->shot;
}

static struct mstat_shots mstat_sites_shots = {
	.lock = __MUTEX_INITIALIZER(mstat_sites_shots.lock),
	.take = mstat_sites_take,
};

/* As /proc/mstat: one open is one snapshot. */
static int mstat_sites_open(struct inode *inode, struct file *file)
{
	struct mstat_proc_open *po;
	int err;

	po = kmalloc(sizeof(*po), GFP_KERNEL);
	if (!po)
		return -ENOMEM;
	err = mstat_shot_get(&mstat_sites_shots, po);
	if (!err) {
		err = seq_open(file, &mstat_sites_sops);
		if (err)
			mstat_shot_put(po->shot);
	}
	if (err) {
		kfree(po);
		return err;
	}
	((struct seq_file *)file->private_data)->private = po;
	return 0;
}

static int mstat_sites_release(struct inode *inode, struct file *file)
{
	struct mstat_proc_open *po =
		((struct seq_file *)file->private_data)->private;

	mstat_shot_put(po->shot);
	kfree(po);
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
 * @interval_ms: proc_min_interval_ms at load
 *
 * Return: 0 or -ENOMEM.
 */
int mstat_proc_init(umode_t mode, kgid_t gid, u64 interval_ms)
{
	mstat_proc_set_interval(interval_ms);
	if (!mstat_proc_create("mstat", mode, gid, &mstat_proc_ops))
		return -ENOMEM;
	if (!mstat_proc_create("mstat_sites", mode, gid, &mstat_sites_proc_ops)) {
		remove_proc_entry("mstat", NULL);
		return -ENOMEM;
	}
	return 0;
}

/**
 * mstat_proc_exit() - remove both, and free their last snapshots
 *
 * remove_proc_entry() waits for the calls in progress and releases the
 * opens left (as their close would), so no open holds a snapshot after
 * it.
 */
void mstat_proc_exit(void)
{
	remove_proc_entry("mstat_sites", NULL);
	remove_proc_entry("mstat", NULL);
	mstat_shots_drop(&mstat_sites_shots);
	mstat_shots_drop(&mstat_proc_shots);
}
