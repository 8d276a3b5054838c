/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SLUB's merged caches (slab.c). kmem_cache_create() may hand back an
 * existing cache of a compatible size and flags instead of making one
 * (SLUB merges by default), and that cache keeps its first creator's
 * name, the one mstat reads: a module's leak in its own cache is then
 * counted under another's name ("ip4-frags"). SLUB's sysfs directory has
 * every name: /sys/kernel/slab/NAME is the cache's directory, or a
 * symbolic link to it for each name merged into it (a mergeable cache's
 * directory is named ":A-0000200" and the like, and all its names are
 * links). A cache's label here is the name mstat read, then each other
 * name of the same directory, sorted, each after a comma:
 * "ip4-frags,mstat_leak_merged".
 */
#ifndef MSTAT_SLAB_H
#define MSTAT_SLAB_H

#include <stdbool.h>
#include <stddef.h>

/* MSTAT_SLAB_ROOT, when set, is the directory to read instead. */
#define MSTAT_SLAB_ROOT_ENV	"MSTAT_SLAB_ROOT"
#define MSTAT_SLAB_ROOT		"/sys/kernel/slab"

/* Room enough for a label of many names; longer ones are cut. */
#define MSTAT_SLAB_LABEL_MAX	1024

/* How old the names may be before a label reads the directory again. */
#define MSTAT_SLAB_MAX_AGE_S	10

/*
 * Cache @name's label: @name alone if no other name shares its
 * directory (or there is no directory, or @name is not in it), else the
 * names joined into @buf (cut at @len). The directory is read on the
 * first label, and again once the names are MSTAT_SLAB_MAX_AGE_S old,
 * unless they came from mstat_slab_names_load(). Thread-safe.
 */
const char *mstat_slab_label(const char *name, char *buf, size_t len);

/* Read the directory now (unless loaded from a file). */
void mstat_slab_names_refresh(void);

/*
 * Write the names as "NAME DIR" lines to @path (a watch's DIR/slab-names,
 * for --from). False after a message.
 */
bool mstat_slab_names_save(const char *path);

/*
 * Take the names from @path, and never from this host's directory (whose
 * caches are not the watched host's); no file: no names merged. False
 * after a message.
 */
bool mstat_slab_names_load(const char *path);

#endif /* MSTAT_SLAB_H */
