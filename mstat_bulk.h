/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bulk APIs' probes (mstat_bulk.c, layer 4): kmem_cache_alloc_bulk(),
 * kmem_cache_free_bulk() and kfree_bulk(), which trace nothing per
 * object, counted in the cache and kmalloc sources; alloc_pages_bulk(),
 * and the blocks split into order-0 pages by split_page() and
 * alloc_pages_exact(), in the page source; and the other probed
 * functions. The faces show each probe's state through
 * mstat_bulk_state().
 */
#ifndef _MSTAT_BULK_H
#define _MSTAT_BULK_H

#include <linux/types.h>

/* The probed functions, in the order /proc/mstat's probe_* lines show. */
enum mstat_bulk_id {
	MSTAT_BULK_ALLOC,	/* kmem_cache_alloc_bulk() */
	MSTAT_BULK_FREE,	/* kmem_cache_free_bulk(), kfree_bulk() */
	MSTAT_BULK_CACHE_FREE,	/* kmem_cache_free(), before 6.0 only */
	MSTAT_BULK_PAGES,	/* alloc_pages_bulk() */
	MSTAT_BULK_SPLIT_PAGE,	/* split_page() */
	MSTAT_BULK_EXACT,	/* alloc_pages_exact() */
	MSTAT_BULK_EXACT_NID,	/* alloc_pages_exact_nid() */
	MSTAT_BULK_SHEAF,	/* __kfree_rcu_sheaf(), 7.0 on */
	MSTAT_BULK_FAIL_PAGE,	/* should_fail_alloc_page() */
	MSTAT_BULK_VM_AREA,	/* __get_vm_area_node() */
	MSTAT_BULK_VM_REMOVE,	/* remove_vm_area() */
	MSTAT_BULK_NR
};

/**
 * struct mstat_bulk_view - one probe, as the faces show it
 * @api: what it counts, as /proc/mstat's probe_* line names it
 * @on: whether it is counted (false where the function is absent)
 * @missed: calls it did not count because the probe missed them
 */
struct mstat_bulk_view {
	const char *api;
	bool on;
	unsigned long missed;
};

int mstat_bulk_init(void);
void mstat_bulk_exit(void);
bool mstat_bulk_state(enum mstat_bulk_id id, struct mstat_bulk_view *st);
unsigned long mstat_bulk_sheaf_mismatch(void);
unsigned long mstat_bulk_pages_unsampled(void);
bool mstat_bulk_vm_present(void);
int mstat_bulk_symbol(const char *fn, char *sym, size_t size);

#endif /* _MSTAT_BULK_H */
