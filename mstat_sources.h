/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event sources (mstat_sources.c, layer 4): the kmem tracepoint
 * probes, and each source's on/off switch.
 */
#ifndef _MSTAT_SOURCES_H
#define _MSTAT_SOURCES_H

#include <linux/gfp.h>
#include <linux/types.h>

#include "mstat_stats.h"

int mstat_source_set(enum mstat_source src, bool on);
bool mstat_source_enabled(enum mstat_source src);
bool mstat_source_present(enum mstat_source src);
unsigned long mstat_source_frees(enum mstat_source src);
size_t mstat_kfree_size(const void *ptr);
unsigned int mstat_twice_sites(void);
struct kmem_cache;
struct page;
void mstat_count_kfree(const void *ptr, unsigned long site);
void mstat_count_cache_alloc(struct kmem_cache *s, const void *ptr,
			     gfp_t gfp, unsigned long site);
/* Before 6.0 only (no cache in the kmem_cache_free event): mstat_kprobes.c. */
extern bool mstat_cache_free_at_entry;
void mstat_count_cache_free_entry(struct kmem_cache *s, const void *ptr);
void mstat_count_cache_free(struct kmem_cache *s, const void *ptr,
			    unsigned long site);
void mstat_count_page_alloc(gfp_t gfp, struct page *page,
			    unsigned long site);
int mstat_sources_init(void);
void mstat_sources_exit(void);

#endif /* _MSTAT_SOURCES_H */
