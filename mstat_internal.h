/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat's statistics model and what its files share. The counters are
 * one struct mstat_stats, kept by mstat_core: every event is one write
 * section, so every snapshot satisfies, exactly,
 *
 *	live objects (bytes)	= allocs - frees (bytes_alloc - bytes_freed),
 *				  per source, per size class, per page order;
 *	sum over size classes	= sum over the slab-level sources
 *				  (kmalloc, cache, api), for allocs, frees
 *				  and bytes;
 *	sum over contexts	= allocs + frees of all sources;
 *	sum over GFP kinds	= allocs of all sources.
 */
#ifndef _MSTAT_INTERNAL_H
#define _MSTAT_INTERNAL_H

#include <linux/types.h>

#include "mstat_core/mstat_core.h"

/* Where events come from; each can be switched on and off on its own. */
enum mstat_source {
	MSTAT_SRC_KMALLOC,	/* kmem:kmalloc, kmem:kfree */
	MSTAT_SRC_CACHE,	/* kmem:kmem_cache_alloc, kmem:kmem_cache_free */
	MSTAT_SRC_PAGE,		/* kmem:mm_page_alloc, kmem:mm_page_free */
	MSTAT_SRC_API,		/* mstat_account_alloc(), mstat_account_free() */
	MSTAT_NR_SOURCES,
};

/* kmalloc's size classes, 8 B to 8 KiB with 96 and 192, then "large". */
#define MSTAT_NR_CLASSES	14
#define MSTAT_CLASS_LARGE	(MSTAT_NR_CLASSES - 1)
extern const unsigned int mstat_class_size[MSTAT_NR_CLASSES - 1];

/* Page allocator orders 0..10; higher orders (none on x86) count as 10. */
#define MSTAT_NR_ORDERS		11

enum mstat_ctx {
	MSTAT_CTX_TASK,
	MSTAT_CTX_SOFTIRQ,
	MSTAT_CTX_HARDIRQ,
	MSTAT_NR_CTX,
};

enum mstat_gfp {
	MSTAT_GFP_SLEEP,	/* gfpflags_allow_blocking() */
	MSTAT_GFP_ATOMIC,
	MSTAT_NR_GFP,
};

/**
 * struct mstat_stats - every counter, as one core slot lays them out
 * @src: per source: events and bytes
 * @cls: per size class (slab-level sources): events and bytes; @bytes_req
 *	is what callers asked for, so bytes_alloc - bytes_req is the
 *	internal fragmentation
 * @order: per page order: allocations, frees, failures
 * @ctx: allocations and frees per context
 * @gfp: allocations per GFP kind
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
};

extern struct mstat_core mstat_core;
extern const char *const mstat_source_name[MSTAT_NR_SOURCES];
extern const char *const mstat_ctx_name[MSTAT_NR_CTX];

/* mstat_probes.c */
unsigned int mstat_size_class(size_t size);
void mstat_count_alloc(enum mstat_source src, size_t req, size_t alloc,
		       gfp_t gfp, unsigned int order, unsigned long ptr,
		       unsigned long site);
void mstat_count_free(enum mstat_source src, size_t size, unsigned int order,
		      unsigned long ptr, unsigned long site);
int mstat_source_set(enum mstat_source src, bool on);
bool mstat_source_enabled(enum mstat_source src);
int mstat_probes_init(void);
void mstat_probes_exit(void);
size_t mstat_kfree_size(const void *ptr);
char *mstat_site_name(char *buf, size_t size, unsigned long site);

/* mstat_mod.c: a snapshot, traced. */
int mstat_snapshot(struct mstat_snapshot *snap, struct mstat_stats *st);

/* mstat_proc.c */
extern umode_t mstat_proc_mode;
int mstat_proc_init(umode_t mode);
void mstat_proc_exit(void);

/* mstat_debugfs.c and the event stream */
void mstat_debugfs_init(void);
void mstat_debugfs_exit(void);
int mstat_events_init(unsigned int per_cpu);
void mstat_events_exit(void);
void mstat_event(enum mstat_source src, bool alloc, unsigned long ptr,
		 size_t size, unsigned long site);

#endif /* _MSTAT_INTERNAL_H */
