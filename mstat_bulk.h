/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bulk APIs' probes (mstat_bulk.c, layer 4): kmem_cache_alloc_bulk(),
 * kmem_cache_free_bulk() and kfree_bulk(), which trace nothing per
 * object, counted in the cache and kmalloc sources; alloc_pages_bulk(),
 * and the blocks split into order-0 pages by split_page() and
 * alloc_pages_exact(), in the page source.
 */
#ifndef _MSTAT_BULK_H
#define _MSTAT_BULK_H

#include <linux/types.h>

struct seq_file;

int mstat_bulk_init(void);
void mstat_bulk_exit(void);
unsigned long mstat_bulk_show(bool *alloc, bool *free, bool *pages);
void mstat_bulk_show_probes(struct seq_file *m);

#endif /* _MSTAT_BULK_H */
