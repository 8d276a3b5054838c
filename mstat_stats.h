/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat's statistics model (layer 1, see docs/ARCHITECTURE.md): the
 * sources, size classes, contexts and their names; the cells that write
 * sections add to, kept by the core instance mstat_core; and the snapshot
 * that is derived from one cut of them. Write sections add to the cells
 * of struct mstat_cells; a snapshot derives struct mstat_stats from one
 * cut of them (mstat_stats_derive()), so every snapshot satisfies,
 * exactly,
 *
 *	live objects (bytes)	= allocs - frees (bytes_alloc - bytes_freed),
 *				  per source, per size class, per page order;
 *	sum over size classes	= sum over the slab-level sources
 *				  (kmalloc, cache, api), for allocs, frees
 *				  and bytes;
 *	sum over kmalloc classes = the kmalloc source, for allocs, frees
 *				  and bytes;
 *	sum over contexts	= allocs + frees of all sources;
 *	sum over GFP kinds	= allocs of all sources;
 *	sum over area kinds	= the vmalloc source, for allocs, frees
 *				  and bytes.
 *
 * Every counter is a u64 that wraps modulo 2^64 (a byte counter first,
 * after 16 EiB). Sums and differences of counters are taken modulo 2^64
 * too, so live objects and bytes (as s64) and the fragmentation (as u64)
 * stay exact across a wrap while their true values fit; a checker that
 * compares them must compare modulo 2^64 as well. Only a product whose
 * true value matters, or a quotient, needs more: mstat_frag_live_est().
 */
#ifndef _MSTAT_STATS_H
#define _MSTAT_STATS_H

#include <linux/bitops.h>
#include <linux/jump_label.h>
#include <linux/mm.h>
#include <linux/types.h>

#include "mstat_core/mstat_core.h"

/* Where events come from; each can be switched on and off on its own. */
enum mstat_source {
	MSTAT_SRC_KMALLOC,	/* kmem:kmalloc, kmem:kfree */
	MSTAT_SRC_CACHE,	/* kmem:kmem_cache_alloc, kmem:kmem_cache_free */
	MSTAT_SRC_PAGE,		/* kmem:mm_page_alloc, kmem:mm_page_free */
	MSTAT_SRC_API,		/* mstat_account_alloc(), mstat_account_free() */
	MSTAT_SRC_VMALLOC,	/* vm areas: __get_vm_area_node(), remove_vm_area() */
	MSTAT_SRC_PERCPU,	/* percpu:percpu_alloc_percpu, percpu_free_percpu */
	MSTAT_NR_SOURCES,
};

/*
 * The slab-level sources, whose objects have size classes: kmalloc,
 * cache and api. The page source's cells are page orders; the vmalloc
 * source's, kinds of area (&enum mstat_vm_kind); the percpu source's,
 * the size class of an object's bytes on one CPU.
 */
static __always_inline bool mstat_source_slab(enum mstat_source src)
{
	return src == MSTAT_SRC_KMALLOC || src == MSTAT_SRC_CACHE ||
	       src == MSTAT_SRC_API;
}

/*
 * What a vm area maps, by its flags (VM_ALLOC, VM_MAP, VM_IOREMAP): pages
 * vmalloc() allocated for it, which are the memory /proc/meminfo's
 * VmallocUsed counts; pages someone else owns (vmap()); device memory;
 * anything else (get_vm_area() users, which map what they please).
 */
enum mstat_vm_kind {
	MSTAT_VM_ALLOC,
	MSTAT_VM_MAP,
	MSTAT_VM_IOREMAP,
	MSTAT_VM_OTHER,
	MSTAT_NR_VM_KINDS,
};

/* kmalloc's size classes, 8 B to 8 KiB with 96 and 192, then "large". */
#define MSTAT_NR_CLASSES	14
#define MSTAT_CLASS_LARGE	(MSTAT_NR_CLASSES - 1)
/* The largest class below %MSTAT_CLASS_LARGE. */
#define MSTAT_CLASS_MAX_SIZE	8192
extern const unsigned int mstat_class_size[MSTAT_NR_CLASSES - 1];

/* Page allocator orders 0..10; higher orders (none on x86) count as 10. */
#define MSTAT_NR_ORDERS		11

enum mstat_ctx {
	MSTAT_CTX_TASK,
	MSTAT_CTX_SOFTIRQ,
	MSTAT_CTX_HARDIRQ,
	MSTAT_NR_CTX,
};

/* In this order, gfpflags_allow_blocking() is the index. */
enum mstat_gfp {
	MSTAT_GFP_ATOMIC,
	MSTAT_GFP_SLEEP,	/* gfpflags_allow_blocking() */
	MSTAT_NR_GFP,
};

/*
 * The kernel's own counters of memory by kind, as /proc/meminfo shows
 * them, in bytes: read while the snapshot is taken, right after the cut
 * of mstat's own counters (mstat_kernel_read()), so that an account can
 * set mstat's counts beside them. Each vmstat counter is a sum of per-CPU
 * differences that the kernel folds now and then, so it may be off the
 * truth by up to the sum over CPUs of their fold thresholds (at most 125
 * pages a CPU and zone or node): the kernel's own figure, read as
 * /proc/meminfo reads it, whose bound a snapshot gives beside it
 * (&struct mstat_kernel_stats). A counter the running kernel does not
 * have reads 0; from MSTAT_K_SWAPCACHE on, it is not shown
 * (mstat_kernel_has()), while the earlier ones are always shown, as in
 * format 1.6 (MSTAT_K_SEC_PAGE_TABLES is 0 before 6.1).
 */
enum mstat_kernel_counter {
	MSTAT_K_TOTAL,		/* MemTotal: totalram_pages() */
	MSTAT_K_FREE,		/* MemFree: NR_FREE_PAGES */
	MSTAT_K_FILE,		/* NR_FILE_PAGES: Cached + SwapCached + Buffers */
	MSTAT_K_SHMEM,		/* Shmem, within file */
	MSTAT_K_ANON,		/* AnonPages: NR_ANON_MAPPED */
	MSTAT_K_SLAB_RECLAIMABLE,	/* SReclaimable */
	MSTAT_K_SLAB_UNRECLAIMABLE,	/* SUnreclaim */
	MSTAT_K_KERNEL_STACK,	/* KernelStack */
	MSTAT_K_PAGE_TABLES,	/* PageTables */
	MSTAT_K_SEC_PAGE_TABLES,	/* SecPageTables (6.1 on) */
	MSTAT_K_PCP_FREE,	/* free pages on per-CPU lists (not MemFree's) */
	/* Format 1.9: each shown only where the kernel has it. */
	MSTAT_K_SWAPCACHE,	/* SwapCached: NR_SWAPCACHE (5.13 on), within file */
	MSTAT_K_KERNEL_MISC_RECLAIMABLE,	/* KReclaimable - SReclaimable */
	MSTAT_K_ZSPAGES,	/* NR_ZSPAGES: zsmalloc's pools (CONFIG_ZSMALLOC) */
	MSTAT_K_UNACCEPTED,	/* Unaccepted (6.5 on, CONFIG_UNACCEPTED_MEMORY) */
	MSTAT_K_BALLOON,	/* Balloon: NR_BALLOON_PAGES (6.15 on) */
	MSTAT_K_GPU_ACTIVE,	/* GPUActive: NR_GPU_ACTIVE (7.1 on) */
	MSTAT_K_GPU_RECLAIM,	/* GPUReclaim: NR_GPU_RECLAIM (7.1 on) */
	MSTAT_K_VMALLOC,	/* VmallocUsed: NR_VMALLOC (7.x) */
	MSTAT_NR_KERNEL,
};

extern const char *const mstat_kernel_name[MSTAT_NR_KERNEL];

/**
 * struct mstat_stats - every counter of a snapshot, as /proc/mstat shows
 *	them; derived from struct mstat_cells
 * @src: per source: events and bytes
 * @cls: per size class (slab-level sources): events and bytes; @bytes_req
 *	is what callers asked for, so bytes_alloc - bytes_req is the
 *	internal fragmentation
 * @kcls: the kmalloc source alone, per size class: what kmalloc's own
 *	caches hold (the kmalloc-N rows of /proc/slabinfo) and its large
 *	allocations
 * @order: per page order: allocations, frees, failures
 * @ctx: allocations and frees per context
 * @gfp: allocations per GFP kind
 * @vm: the vmalloc source alone, per &enum mstat_vm_kind: areas and the
 *	bytes they span (without the guard page)
 * @kern: the kernel's own counters, read within the same snapshot (@v,
 *	by &enum mstat_kernel_counter; @have, a bit each, those the kernel
 *	has: mstat_kernel_has()), and how far their vmstat sums may be off
 *	the truth as they were read: @zone_lag for a zone counter, @node_lag
 *	for a node counter, in bytes (mstat_kernel_read())
 * @kern_mark: the same, as they were when mstat began counting (at load
 *	or the last reset: mstat_kernel_mark())
 */
struct mstat_stats {
	struct mstat_src_stats {
		u64 allocs;
		u64 frees;
		u64 failures;
		u64 bytes_req;
		u64 bytes_alloc;
		u64 bytes_freed;
	} src[MSTAT_NR_SOURCES];
	struct mstat_class_stats {
		u64 allocs;
		u64 frees;
		u64 bytes_req;
		u64 bytes_alloc;
		u64 bytes_freed;
	} cls[MSTAT_NR_CLASSES];
	struct mstat_kclass_stats {
		u64 allocs;
		u64 frees;
		u64 bytes_alloc;
		u64 bytes_freed;
	} kcls[MSTAT_NR_CLASSES];
	struct mstat_order_stats {
		u64 allocs;
		u64 frees;
		u64 failures;
	} order[MSTAT_NR_ORDERS];
	struct mstat_ctx_stats {
		u64 allocs;
		u64 frees;
	} ctx[MSTAT_NR_CTX];
	u64 gfp[MSTAT_NR_GFP];
	struct mstat_vm_stats {
		u64 allocs;
		u64 frees;
		u64 bytes_alloc;
		u64 bytes_freed;
	} vm[MSTAT_NR_VM_KINDS];
	struct mstat_kernel_stats {
		u64 v[MSTAT_NR_KERNEL];
		u64 have;
		u64 zone_lag;
		u64 node_lag;
	} kern, kern_mark;
};

/**
 * mstat_kernel_has() - whether the kernel has a counter of a read
 * @k: the counters, as mstat_kernel_read() read them
 * @i: the counter
 *
 * Those of formats 1.6 and 1.7 always (one the kernel lacks reads 0:
 * %MSTAT_K_SEC_PAGE_TABLES before 6.1); from %MSTAT_K_SWAPCACHE on, only
 * where the kernel keeps the counter, as compat/ found by compiling
 * against its headers (a configuration that leaves it out, such as
 * !CONFIG_SWAP's, among them).
 *
 * Return: true if /proc/mstat shows the counter's lines.
 */
static inline bool mstat_kernel_has(const struct mstat_kernel_stats *k,
				    enum mstat_kernel_counter i)
{
	return k->have & BIT_ULL(i);
}

/**
 * struct mstat_cell - one (source, size class) cell, or one page order
 * @allocs: allocations
 * @frees: frees
 * @failures: failed allocations (a slab-level source's are all in its
 *	class 0 cell, whose size is unknown)
 * @bytes_req: bytes requested; added for kmalloc and api only (cache and
 *	page allocations request what they get: derived as @bytes_alloc)
 * @bytes_alloc: bytes allocated; added only where the cell's object size
 *	is not fixed (see mstat_cell_size())
 * @bytes_freed: bytes freed; added as @bytes_alloc is
 */
struct mstat_cell {
	u64 allocs;
	u64 frees;
	u64 failures;
	u64 bytes_req;
	u64 bytes_alloc;
	u64 bytes_freed;
};

/**
 * struct mstat_cells - what a core slot holds: the counters that write
 *	sections add to, as few per event as the snapshot can be derived
 *	from (an allocation adds to two to four, a free to two or three)
 * @cell: per source and size class; the page source's by order
 * @ctx_gfp_allocs: allocations per context and GFP kind, but a task's
 *	that may sleep: not counted (mstat_count_ctx_alloc()), derived as
 *	the rest of the sources' allocations
 * @ctx_frees: frees per context, but a task's: derived as the rest
 */
struct mstat_cells {
	struct mstat_cell cell[MSTAT_NR_SOURCES][MSTAT_NR_CLASSES];
	u64 ctx_gfp_allocs[MSTAT_NR_CTX][MSTAT_NR_GFP];
	u64 ctx_frees[MSTAT_NR_CTX];
};

/**
 * mstat_size_class() - the size class an object of @size bytes counts in
 * @size: bytes the object occupies
 *
 * Return: index into mstat_class_size[], or %MSTAT_CLASS_LARGE.
 */
static __always_inline unsigned int mstat_size_class(size_t size)
{
	/*
	 * Classes of 0..192 bytes by (size + 7) / 8, as kmalloc's size_index
	 * by (size - 1) / 8, with 0 bytes first: no test for 0.
	 */
	static const u8 small[25] = {
		0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
		5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6,
	};

	/*
	 * The powers of two from 256 (class 7) to 8192 (class 12) by
	 * (size - 1) / 256, a load as for the small ones, whose result the
	 * compiler knows is zero-extended: fls()'s bsr needs its value for
	 * 0 set up first, and its result zero-extended again for an index.
	 */
	static const u8 big[32] = {
		7, 8, 9, 9, 10, 10, 10, 10,
		11, 11, 11, 11, 11, 11, 11, 11,
		12, 12, 12, 12, 12, 12, 12, 12,
		12, 12, 12, 12, 12, 12, 12, 12,
	};

	if (size <= 192)
		return small[(size + 7) / 8];
	if (size > MSTAT_CLASS_MAX_SIZE)
		return MSTAT_CLASS_LARGE;
	return big[(size - 1) / 256];
}

/**
 * mstat_cell_fixed() - whether a cell's objects have a fixed size
 * @src: the source
 * @c: the size class, or for %MSTAT_SRC_PAGE the order
 *
 * kmalloc's objects of a class below %MSTAT_CLASS_LARGE are exactly the
 * class's size (what kmalloc_size_roundup() and ksize() give), and pages
 * of an order below the last, which also counts higher orders, are
 * PAGE_SIZE << order: such cells count events only, and the snapshot
 * derives their bytes (mstat_cell_size()).
 *
 * Return: true if the cell's bytes are derived, not counted.
 */
static __always_inline bool mstat_cell_fixed(enum mstat_source src,
					     unsigned int c)
{
	return (src == MSTAT_SRC_KMALLOC && c < MSTAT_CLASS_LARGE) ||
	       (src == MSTAT_SRC_PAGE && c < MSTAT_NR_ORDERS - 1);
}

/* The fixed size of a cell's objects, or 0; see mstat_cell_fixed(). */
static inline size_t mstat_cell_size(enum mstat_source src, unsigned int c)
{
	if (!mstat_cell_fixed(src, c))
		return 0;
	return src == MSTAT_SRC_PAGE ? PAGE_SIZE << c : mstat_class_size[c];
}

/* The core that keeps the cells; set up by mstat_stats_init(). */
extern struct mstat_core mstat_core;
extern const char *const mstat_source_name[MSTAT_NR_SOURCES];
extern const char *const mstat_ctx_name[MSTAT_NR_CTX];
extern const char *const mstat_vm_kind_name[MSTAT_NR_VM_KINDS];

unsigned int mstat_class_of(size_t size);
void mstat_stats_derive(const struct mstat_cells *cl, struct mstat_stats *st);
void mstat_kernel_read(struct mstat_kernel_stats *k);
void mstat_kernel_mark(void);
u64 mstat_frag_live_est(u64 frag, s64 live, u64 allocs);

/* What adds a part of the model's counts to a snapshot's cells. */
typedef void (*mstat_snapshot_add_fn)(const u64 *total,
				      struct mstat_cells *cells, void *arg);
int mstat_snapshot_read(struct mstat_snapshot *snap, struct mstat_stats *st,
			struct mstat_cells *cells, mstat_snapshot_add_fn add,
			void *arg);
int mstat_stats_init(unsigned int sync, size_t size);
void mstat_stats_exit(void);

#endif /* _MSTAT_STATS_H */
