/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/mstat_sites' reader (mstat_sites.c, layer 2): the sampled heap
 * profile as of a fresh snapshot, as the rows of mstat_profile.h's
 * struct mstat_sites.
 */
#ifndef _MSTAT_SITES_H
#define _MSTAT_SITES_H

#include <linux/types.h>

struct mstat_site_row;
struct mstat_sites;
struct mstat_snapshot;

struct mstat_sites *mstat_profile_read(struct mstat_snapshot *snap);
void mstat_sites_free(struct mstat_sites *ss);
s64 mstat_row_inuse(const struct mstat_site_row *r);
int mstat_profile_site(const char *name, u64 *allocs, u64 *frees);
void mstat_sites_exit(void);

#endif /* _MSTAT_SITES_H */
