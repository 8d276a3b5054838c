/* SPDX-License-Identifier: GPL-2.0 */
/* The snapshot as text, for people (show.c). */
#ifndef MSTAT_SHOW_H
#define MSTAT_SHOW_H

#include <stddef.h>

#include "parse.h"

void mstat_show(const struct mstat_snap *s);
/* The per-cache table, at most @rows rows, most live bytes first. */
void mstat_show_caches(const struct mstat_snap *s, int rows);
/*
 * A cache row's name for people: its names, SLUB's merged ones after
 * the first (slab.h), control bytes, bytes of 0x7f and up and the
 * backslash as \ooo, or "#ID" if it has none; cut to @len, which
 * 4 * MSTAT_SLAB_LABEL_MAX holds whole.
 */
const char *mstat_cache_label(char *buf, size_t len,
			      const struct mstat_cache *c);

#endif /* MSTAT_SHOW_H */
