/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences that only mstat's test modules meet
 * (tests/, kunit/): the kmalloc tracepoint's parameters for a probe of
 * their own, alloc_pages_bulk()'s names, get_random_u32_below() and
 * hrtimer_setup(). What the product
 * itself needs is in mstat_compat.h, whose conftest results these use.
 */
#ifndef _MSTAT_TEST_COMPAT_H
#define _MSTAT_TEST_COMPAT_H

#include <linux/hrtimer.h>

#include "mstat_compat.h"

/*
 * The kmalloc tracepoint's parameters, for a probe's prototype: with the
 * node from 6.0 (before, kmalloc_node was an event of its own).
 */
#ifdef MSTAT_HAVE_TP_KMALLOC_NODE
#define MSTAT_TP_KMALLOC_PARAMS						\
	unsigned long call_site, const void *ptr, size_t bytes_req,	\
	size_t bytes_alloc, gfp_t gfp_flags, int node
#else
#define MSTAT_TP_KMALLOC_PARAMS						\
	unsigned long call_site, const void *ptr, size_t bytes_req,	\
	size_t bytes_alloc, gfp_t gfp_flags
#endif

/*
 * alloc_pages_bulk() into an array: alloc_pages_bulk_array() from 5.13
 * to 6.13 (beside alloc_pages_bulk_list()), alloc_pages_bulk() from 6.14,
 * whose list is gone; none before 5.13 (MSTAT_TEST_BULK_ARRAY undefined).
 */
#if defined(MSTAT_HAVE_BULK_PAGES_ARRAY)
#define MSTAT_TEST_BULK_ARRAY(gfp, nr, a)	alloc_pages_bulk(gfp, nr, a)
#elif defined(MSTAT_HAVE_BULK_PAGES_NOPROF_LIST) || \
	defined(MSTAT_HAVE_BULK_PAGES_LIST)
#define MSTAT_TEST_BULK_ARRAY(gfp, nr, a)	alloc_pages_bulk_array(gfp, nr, a)
#define MSTAT_TEST_BULK_LIST(gfp, nr, l)	alloc_pages_bulk_list(gfp, nr, l)
#endif

/* get_random_u32_below() came in 6.2; prandom_u32_max() before. */
#ifndef MSTAT_HAVE_RANDOM_U32_BELOW
#include <linux/prandom.h>
#define get_random_u32_below(ceil)	prandom_u32_max(ceil)
#endif

/*
 * An hrtimer set up with its function: hrtimer_setup() came in 6.13,
 * and hrtimer_init() is gone since 6.15.
 */
static inline void
mstat_hrtimer_setup(struct hrtimer *timer,
		    enum hrtimer_restart (*fn)(struct hrtimer *),
		    clockid_t clock, enum hrtimer_mode mode)
{
#ifdef MSTAT_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* _MSTAT_TEST_COMPAT_H */
