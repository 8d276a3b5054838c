/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event sources (mstat_sources.c, layer 4): the kmem tracepoint
 * probes, and each source's on/off switch.
 */
#ifndef _MSTAT_SOURCES_H
#define _MSTAT_SOURCES_H

#include <linux/types.h>

#include "mstat_stats.h"

int mstat_source_set(enum mstat_source src, bool on);
bool mstat_source_enabled(enum mstat_source src);
size_t mstat_kfree_size(const void *ptr);
unsigned int mstat_twice_sites(void);
int mstat_sources_init(void);
void mstat_sources_exit(void);

#endif /* _MSTAT_SOURCES_H */
