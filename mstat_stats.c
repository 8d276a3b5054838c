// SPDX-License-Identifier: GPL-2.0
/*
 * mstat's statistics model: the name tables, the core instance that keeps
 * the cells, and the snapshot: the read that takes one cut of them
 * (mstat_snapshot_read(), to which a part of the model, the per-cache
 * table, adds its rows) and the counters derived from it
 * (mstat_stats_derive()). Layer 1: it knows the core and nothing of
 * mstat above.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jump_label.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/vmstat.h>
#include <linux/string.h>

#include "mstat_compat.h"
#include "mstat_stats.h"
#include "mstat_trace.h"

const unsigned int mstat_class_size[MSTAT_NR_CLASSES - 1] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
};
EXPORT_SYMBOL_IF_KUNIT(mstat_class_size);

const char *const mstat_source_name[MSTAT_NR_SOURCES] = {
	[MSTAT_SRC_KMALLOC]	= "kmalloc",
	[MSTAT_SRC_CACHE]	= "cache",
	[MSTAT_SRC_PAGE]	= "page",
	[MSTAT_SRC_API]		= "api",
	[MSTAT_SRC_VMALLOC]	= "vmalloc",
	[MSTAT_SRC_PERCPU]	= "percpu",
};

const char *const mstat_vm_kind_name[MSTAT_NR_VM_KINDS] = {
	[MSTAT_VM_ALLOC]	= "vmalloc",
	[MSTAT_VM_MAP]		= "vmap",
	[MSTAT_VM_IOREMAP]	= "ioremap",
	[MSTAT_VM_OTHER]	= "other",
};

const char *const mstat_kernel_name[MSTAT_NR_KERNEL] = {
	[MSTAT_K_TOTAL]			= "mem_total",
	[MSTAT_K_FREE]			= "mem_free",
	[MSTAT_K_FILE]			= "file",
	[MSTAT_K_SHMEM]			= "shmem",
	[MSTAT_K_ANON]			= "anon",
	[MSTAT_K_SLAB_RECLAIMABLE]	= "slab_reclaimable",
	[MSTAT_K_SLAB_UNRECLAIMABLE]	= "slab_unreclaimable",
	[MSTAT_K_KERNEL_STACK]		= "kernel_stack",
	[MSTAT_K_PAGE_TABLES]		= "page_tables",
	[MSTAT_K_SEC_PAGE_TABLES]	= "sec_page_tables",
	[MSTAT_K_PCP_FREE]		= "pcp_free",
	[MSTAT_K_SWAPCACHE]		= "swapcache",
	[MSTAT_K_KERNEL_MISC_RECLAIMABLE] = "kernel_misc_reclaimable",
	[MSTAT_K_ZSPAGES]		= "zspages",
	[MSTAT_K_UNACCEPTED]		= "unaccepted",
	[MSTAT_K_BALLOON]		= "balloon",
	[MSTAT_K_GPU_ACTIVE]		= "gpu_active",
	[MSTAT_K_GPU_RECLAIM]		= "gpu_reclaim",
	[MSTAT_K_VMALLOC]		= "vmalloc",
};

const char *const mstat_ctx_name[MSTAT_NR_CTX] = {
	[MSTAT_CTX_TASK]	= "task",
	[MSTAT_CTX_SOFTIRQ]	= "softirq",
	[MSTAT_CTX_HARDIRQ]	= "hardirq",
};

struct mstat_core mstat_core;
EXPORT_SYMBOL_IF_KUNIT(mstat_core);

/**
 * mstat_class_of() - mstat_size_class(), out of line, for KUnit
 * @size: bytes the object occupies
 *
 * Return: index into mstat_class_size[], or %MSTAT_CLASS_LARGE.
 */
unsigned int mstat_class_of(size_t size)
{
	return mstat_size_class(size);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_class_of);

/**
 * mstat_stats_derive() - every counter of a snapshot, from its cells
 * @cl: the cells, one consistent cut
 * @st: the counters; overwritten
 *
 * Sums and products of counters of one cut: the invariants of
 * mstat_stats.h hold in @st exactly as the cells hold them.
 */
void mstat_stats_derive(const struct mstat_cells *cl, struct mstat_stats *st)
{
	enum mstat_source src;
	unsigned int c, x, g;
	u64 allocs = 0, frees = 0;

	memset(st, 0, sizeof(*st));
	for (src = 0; src < MSTAT_NR_SOURCES; src++) {
		struct mstat_src_stats *ss = &st->src[src];

		for (c = 0; c < MSTAT_NR_CLASSES; c++) {
			const struct mstat_cell *e = &cl->cell[src][c];
			size_t size = mstat_cell_size(src, c);
			u64 ba = size ? e->allocs * size : e->bytes_alloc;
			u64 bf = size ? e->frees * size : e->bytes_freed;
			u64 br = src == MSTAT_SRC_KMALLOC ||
				 src == MSTAT_SRC_API ? e->bytes_req : ba;

			ss->allocs += e->allocs;
			ss->frees += e->frees;
			ss->failures += e->failures;
			ss->bytes_req += br;
			ss->bytes_alloc += ba;
			ss->bytes_freed += bf;
			if (src == MSTAT_SRC_PAGE) {
				if (c < MSTAT_NR_ORDERS) {
					st->order[c].allocs = e->allocs;
					st->order[c].frees = e->frees;
					st->order[c].failures = e->failures;
				}
				continue;
			}
			if (src == MSTAT_SRC_VMALLOC) {
				if (c < MSTAT_NR_VM_KINDS) {
					st->vm[c].allocs = e->allocs;
					st->vm[c].frees = e->frees;
					st->vm[c].bytes_alloc = ba;
					st->vm[c].bytes_freed = bf;
				}
				continue;
			}
			if (!mstat_source_slab(src))
				continue;
			if (src == MSTAT_SRC_KMALLOC) {
				st->kcls[c].allocs = e->allocs;
				st->kcls[c].frees = e->frees;
				st->kcls[c].bytes_alloc = ba;
				st->kcls[c].bytes_freed = bf;
			}
			st->cls[c].allocs += e->allocs;
			st->cls[c].frees += e->frees;
			st->cls[c].bytes_req += br;
			st->cls[c].bytes_alloc += ba;
			st->cls[c].bytes_freed += bf;
		}
	}
	/*
	 * The common kinds, a sleeping allocation and a free in a task, are
	 * not counted (mstat_count_ctx_alloc()): they are the rest of the
	 * sources' totals, modulo 2^64 as every counter.
	 */
	for (src = 0; src < MSTAT_NR_SOURCES; src++) {
		allocs += st->src[src].allocs;
		frees += st->src[src].frees;
	}
	for (x = 0; x < MSTAT_NR_CTX; x++) {
		for (g = 0; g < MSTAT_NR_GFP; g++) {
			u64 n = cl->ctx_gfp_allocs[x][g];

			if (x == MSTAT_CTX_TASK && g == MSTAT_GFP_SLEEP)
				continue;
			st->ctx[x].allocs += n;
			st->gfp[g] += n;
			allocs -= n;
		}
		if (x != MSTAT_CTX_TASK) {
			st->ctx[x].frees = cl->ctx_frees[x];
			frees -= cl->ctx_frees[x];
		}
	}
	st->ctx[MSTAT_CTX_TASK].allocs += allocs;
	st->gfp[MSTAT_GFP_SLEEP] += allocs;
	st->ctx[MSTAT_CTX_TASK].frees = frees;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_stats_derive);

/*
 * A counter of format 1.9, which not every kernel has: its value, and
 * its bit in @k->have, which says this kernel has it.
 */
static inline void mstat_kernel_set(struct mstat_kernel_stats *k,
				    enum mstat_kernel_counter i, u64 bytes)
{
	k->v[i] = bytes;
	k->have |= BIT_ULL(i);
}

/* A node (zone) vmstat counter's global sum, in bytes. */
static inline u64 mstat_node_bytes(enum node_stat_item item)
{
	return (u64)global_node_page_state(item) << PAGE_SHIFT;
}

static inline u64 mstat_zone_bytes(enum zone_stat_item item)
{
	return (u64)global_zone_page_state(item) << PAGE_SHIFT;
}

/*
 * How far the global sums of the vmstat counters may be off the truth as
 * they are read: the truth of a counter is its sum plus every CPU's
 * difference not folded in yet, and each difference is at most that
 * CPU's threshold (mstat_zone_stat_threshold()). So one zone counter's
 * sum is off by at most the thresholds summed over populated zones and
 * possible CPUs, one node counter's by the node thresholds summed over
 * online nodes and possible CPUs. In bytes, as pages of PAGE_SIZE.
 */
static void mstat_kernel_lag(struct mstat_kernel_stats *k)
{
	u64 zone = 0, node = 0;
	int nid, z, cpu;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		for_each_possible_cpu(cpu)
			node += max(mstat_node_stat_threshold(pgdat, cpu), 0);
		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zn = &pgdat->node_zones[z];

			if (!populated_zone(zn))
				continue;
			for_each_possible_cpu(cpu)
				zone += max(mstat_zone_stat_threshold(zn, cpu), 0);
		}
	}
	k->zone_lag = zone << PAGE_SHIFT;
	k->node_lag = node << PAGE_SHIFT;
}

/**
 * mstat_kernel_read() - the kernel's own counters of memory by kind
 * @k: gets them, in bytes (see &enum mstat_kernel_counter), and how far
 *	they may be off the truth
 *
 * As /proc/meminfo reads them: the global sums of the per-CPU vmstat
 * counters, which may lag the truth by what the CPUs have not folded yet,
 * and the bounds of that lag (mstat_kernel_lag()). A zone counter (MemFree,
 * zsmalloc's, Unaccepted; PageTables before 5.11) is off by at most
 * @k->zone_lag bytes, a node counter (the others) by at most @k->node_lag,
 * or, for KernelStack's, counted in KiB, @k->node_lag / PAGE_SIZE KiB.
 * MemTotal is exact and the per-CPU lists' free pages are read from the
 * lists. A counter this kernel lacks reads 0 (mstat_kernel_has()).
 *
 * Context: any.
 */
void mstat_kernel_read(struct mstat_kernel_stats *k)
{
	u64 *v = k->v;

	BUILD_BUG_ON(MSTAT_NR_KERNEL > 64);
	memset(k, 0, sizeof(*k));
	/* Formats 1.6's and 1.7's: shown on every kernel. */
	k->have = GENMASK_ULL(MSTAT_K_PCP_FREE, 0);
	v[MSTAT_K_TOTAL] = (u64)totalram_pages() << PAGE_SHIFT;
	v[MSTAT_K_FREE] = (u64)global_zone_page_state(NR_FREE_PAGES) <<
			  PAGE_SHIFT;
	v[MSTAT_K_FILE] = (u64)global_node_page_state(NR_FILE_PAGES) <<
			  PAGE_SHIFT;
	v[MSTAT_K_SHMEM] = (u64)global_node_page_state(NR_SHMEM) << PAGE_SHIFT;
	v[MSTAT_K_ANON] = (u64)global_node_page_state(NR_ANON_MAPPED) <<
			  PAGE_SHIFT;
	v[MSTAT_K_SLAB_RECLAIMABLE] =
		(u64)global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B) <<
		PAGE_SHIFT;
	v[MSTAT_K_SLAB_UNRECLAIMABLE] =
		(u64)global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) <<
		PAGE_SHIFT;
	v[MSTAT_K_KERNEL_STACK] =
		(u64)global_node_page_state(NR_KERNEL_STACK_KB) * SZ_1K;
	v[MSTAT_K_PAGE_TABLES] = (u64)mstat_page_tables() << PAGE_SHIFT;
	v[MSTAT_K_PCP_FREE] = (u64)mstat_pcp_free_pages() << PAGE_SHIFT;
#ifdef MSTAT_HAVE_SEC_PAGETABLE
	v[MSTAT_K_SEC_PAGE_TABLES] =
		(u64)global_node_page_state(NR_SECONDARY_PAGETABLE) <<
		PAGE_SHIFT;
#endif
#ifdef MSTAT_HAVE_SWAPCACHE
	mstat_kernel_set(k, MSTAT_K_SWAPCACHE, mstat_node_bytes(NR_SWAPCACHE));
#endif
#ifdef MSTAT_HAVE_KERNEL_MISC_RECLAIMABLE
	mstat_kernel_set(k, MSTAT_K_KERNEL_MISC_RECLAIMABLE,
			 mstat_node_bytes(NR_KERNEL_MISC_RECLAIMABLE));
#endif
#ifdef MSTAT_HAVE_ZSPAGES
	mstat_kernel_set(k, MSTAT_K_ZSPAGES, mstat_zone_bytes(NR_ZSPAGES));
#endif
#ifdef MSTAT_HAVE_UNACCEPTED
	mstat_kernel_set(k, MSTAT_K_UNACCEPTED,
			 mstat_zone_bytes(NR_UNACCEPTED));
#endif
#ifdef MSTAT_HAVE_BALLOON_PAGES
	mstat_kernel_set(k, MSTAT_K_BALLOON, mstat_node_bytes(NR_BALLOON_PAGES));
#endif
#ifdef MSTAT_HAVE_GPU_ACTIVE
	mstat_kernel_set(k, MSTAT_K_GPU_ACTIVE, mstat_node_bytes(NR_GPU_ACTIVE));
#endif
#ifdef MSTAT_HAVE_GPU_RECLAIM
	mstat_kernel_set(k, MSTAT_K_GPU_RECLAIM,
			 mstat_node_bytes(NR_GPU_RECLAIM));
#endif
#ifdef MSTAT_HAVE_NR_VMALLOC
	mstat_kernel_set(k, MSTAT_K_VMALLOC, mstat_node_bytes(NR_VMALLOC));
#endif
	mstat_kernel_lag(k);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_kernel_read);

/*
 * The kernel's counters when mstat began to count: at load, once the
 * sources are on, and again at each reset (mstat_kernel_mark()).
 */
static struct mstat_kernel_stats mstat_kernel_marked;
static DEFINE_RAW_SPINLOCK(mstat_kernel_mark_lock);

/**
 * mstat_kernel_mark() - read the kernel's counters as the ones counting began at
 *
 * What they held then predates mstat's counts: a snapshot shows them
 * beside its own counters (/proc/mstat's kernel_*_bytes_at_load), so
 * that the memory held before mstat counted is a figure of its own. Read
 * right after the sources went on or the counts were reset, not at their
 * cut: the allocations of that moment, a few pages, are on either side.
 *
 * Context: process.
 */
void mstat_kernel_mark(void)
{
	struct mstat_kernel_stats k;

	mstat_kernel_read(&k);
	raw_spin_lock(&mstat_kernel_mark_lock);
	mstat_kernel_marked = k;
	raw_spin_unlock(&mstat_kernel_mark_lock);
}

/**
 * mstat_frag_live_est() - the fragmentation of a size class's live
 *	objects, estimated
 * @frag: the class's fragmentation, bytes_alloc - bytes_req
 * @live: its live objects, allocs - frees
 * @allocs: its allocations
 *
 * A free carries no requested size, so the live objects' fragmentation is
 * estimated as the mean of all allocations' times the live objects:
 * @frag * @live / @allocs, rounded down. The product is taken in 128 bits
 * (mul_u64_u64_div_u64()): in 64 it wraps once @frag * @live passes 2^64,
 * days of uptime for a busy class of a large machine.
 *
 * None live (@live <= 0) or no allocations: 0. At least as many live as
 * allocated: @frag, the estimate's bound (every allocation live). Exact
 * counters never give @live > @allocs (their frees would have wrapped by
 * more than 2^63), but the guards also keep the divisor non-zero and the
 * quotient below @frag, as mul_u64_u64_div_u64() needs: on x86_64 it is
 * one mulq and one divq, and a divq by 0 or of a quotient that does not
 * fit 64 bits raises #DE, an oops.
 *
 * Return: the estimate, 0 to @frag.
 */
u64 mstat_frag_live_est(u64 frag, s64 live, u64 allocs)
{
	if (live <= 0 || !allocs)
		return 0;
	if ((u64)live >= allocs)
		return frag;
	return mul_u64_u64_div_u64(frag, live, allocs);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_frag_live_est);

struct mstat_snapshot_arg {
	struct mstat_stats *st;
	struct mstat_cells *cells;
	mstat_snapshot_add_fn add;
	void *arg;
};

/* Under the reader's lock, right after the fold: the totals are a cut. */
static void mstat_snapshot_fn(const u64 *total, void *arg)
{
	struct mstat_snapshot_arg *a = arg;

	/* A slot's cells come first (mstat_stats_init()). */
	memcpy(a->cells, total, sizeof(*a->cells));
	if (a->add)
		a->add(total, a->cells, a->arg);
	mstat_stats_derive(a->cells, a->st);
	mstat_kernel_read(&a->st->kern);
	raw_spin_lock(&mstat_kernel_mark_lock);
	a->st->kern_mark = mstat_kernel_marked;
	raw_spin_unlock(&mstat_kernel_mark_lock);
}

/**
 * mstat_snapshot_read() - take a consistent snapshot of every counter
 * @snap: its generation and wait figures
 * @st: the counters, derived from the cut's cells
 * @cells: room for the cut's cells (&struct mstat_cells, large: not on
 *	the stack)
 * @add: if not NULL, what adds a part of the model's own counts to the
 *	cells before the counters are derived, from the same cut: the
 *	per-cache table's rows (mstat_caches_add())
 * @arg: @add's argument
 *
 * Emits the mstat:mstat_snapshot trace event.
 *
 * Context: process; sleeps.
 * Return: 0, or -EINTR if a signal arrived while waiting for another
 * reader.
 */
int mstat_snapshot_read(struct mstat_snapshot *snap, struct mstat_stats *st,
			struct mstat_cells *cells, mstat_snapshot_add_fn add,
			void *arg)
{
	struct mstat_snapshot_arg a = {
		.st = st, .cells = cells, .add = add, .arg = arg,
	};
	int err = mstat_read_with(&mstat_core, snap, mstat_snapshot_fn, &a);

	if (!err)
		trace_mstat_snapshot(snap->gen, snap->wait_ns,
				     snap->waited_cpus, snap->latency_ns);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_snapshot_read);

/**
 * mstat_stats_init() - set up the core that keeps the cells
 * @sync: how its reader waits for writers, an &enum mstat_sync
 * @size: bytes of one slot: struct mstat_cells first, then whatever the
 *	per-cache table adds (mstat_caches_slot_size())
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a bad @sync, or -ENOMEM.
 */
int mstat_stats_init(unsigned int sync, size_t size)
{
	int err = mstat_core_init(&mstat_core,
				  max(size, sizeof(struct mstat_cells)));

	if (err)
		return err;
	err = mstat_set_sync(&mstat_core, sync);
	if (err)
		mstat_core_destroy(&mstat_core);
	return err;
}

/**
 * mstat_stats_exit() - free the core
 *
 * Context: no write section may run or start any more.
 */
void mstat_stats_exit(void)
{
	mstat_core_destroy(&mstat_core);
}
