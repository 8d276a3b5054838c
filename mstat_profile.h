/* SPDX-License-Identifier: GPL-2.0 */
/* The sampled per-call-site heap profile (mstat_profile.c). */
#ifndef _MSTAT_PROFILE_H
#define _MSTAT_PROFILE_H

#include <linux/bits.h>
#include <linux/types.h>

#include "mstat_core/mstat_core.h"

/* Mean bytes between samples; 0: off. */
extern unsigned long mstat_profile_rate;
#define MSTAT_PROFILE_RATE_MAX	BIT_ULL(40)

void __mstat_profile_alloc(struct mstat_section *s, unsigned long rate,
			   unsigned long ptr, u64 size, unsigned long site);
void __mstat_profile_free(struct mstat_section *s, unsigned long ptr);
int mstat_profile_init(unsigned long rate, unsigned int buckets,
		       unsigned int addrs);
void mstat_profile_exit(void);
void mstat_profile_set_rate(unsigned long rate);
int mstat_profile_site(const char *name, u64 *allocs, u64 *frees);
void mstat_profile_drops(u64 *site_drops, u64 *addr_drops);
u64 mstat_sample_interval(unsigned long rate);
u64 mstat_sample_prob_q32(u64 size, unsigned long rate);

#endif /* _MSTAT_PROFILE_H */
