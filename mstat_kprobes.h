/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kprobes and kretprobes (mstat_kprobes.c, layer 4): what the kmem
 * tracepoints do not report, counted from probes on the functions
 * themselves. The bulk APIs kmem_cache_alloc_bulk(), kmem_cache_free_bulk()
 * and kfree_bulk(), which trace nothing per object, in the cache and
 * kmalloc sources; alloc_pages_bulk(), and the blocks split into order-0
 * pages by split_page() and alloc_pages_exact(), in the page source;
 * kfree_rcu()'s sheaf (7.0 on), kmem_cache_free() before 6.0, the page
 * allocations fail_page_alloc fails, and the vm areas made and removed.
 * The faces show each probe's state through mstat_kprobe_state(). The
 * splits' probes, and what they learn at load, are mstat_exact.c's.
 */
#ifndef _MSTAT_KPROBES_H
#define _MSTAT_KPROBES_H

#include <linux/types.h>

/* The probed functions, in the order /proc/mstat's probe_* lines show. */
enum mstat_kprobe_id {
	MSTAT_KPROBE_ALLOC,	/* kmem_cache_alloc_bulk() */
	MSTAT_KPROBE_FREE,	/* kmem_cache_free_bulk(), kfree_bulk() */
	MSTAT_KPROBE_CACHE_FREE,	/* kmem_cache_free(), before 6.0 only */
	MSTAT_KPROBE_PAGES,	/* alloc_pages_bulk() */
	MSTAT_KPROBE_SPLIT_PAGE,	/* split_page() */
	MSTAT_KPROBE_EXACT,	/* alloc_pages_exact() */
	MSTAT_KPROBE_EXACT_NID,	/* alloc_pages_exact_nid() */
	MSTAT_KPROBE_SHEAF,	/* __kfree_rcu_sheaf(), 7.0 on */
	MSTAT_KPROBE_FAIL_PAGE,	/* should_fail_alloc_page() */
	MSTAT_KPROBE_VM_AREA,	/* __get_vm_area_node() */
	MSTAT_KPROBE_VM_REMOVE,	/* remove_vm_area() */
	MSTAT_KPROBE_NR
};

/**
 * struct mstat_kprobe_view - one probe, as the faces show it
 * @api: what it counts, as /proc/mstat's probe_* line names it
 * @on: whether it is counted (false where the function is absent)
 * @missed: calls it did not count because the probe missed them
 */
struct mstat_kprobe_view {
	const char *api;
	bool on;
	unsigned long missed;
};

int mstat_kprobes_init(void);
void mstat_kprobes_exit(void);
bool mstat_kprobe_state(enum mstat_kprobe_id id, struct mstat_kprobe_view *st);
unsigned long mstat_kprobe_sheaf_mismatch(void);
unsigned long mstat_bulk_pages_unsampled(void);
bool mstat_kprobe_vm_present(void);
int mstat_kprobe_symbol(const char *fn, char *sym, size_t size);

#endif /* _MSTAT_KPROBES_H */
