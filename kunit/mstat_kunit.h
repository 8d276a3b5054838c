/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What mstat's KUnit suites share: a snapshot read as /proc/mstat reads
 * one. A header of static functions, as each suite is a module of its
 * own.
 */
#ifndef MSTAT_KUNIT_H
#define MSTAT_KUNIT_H

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "mstat_caches.h"
#include "mstat_stats.h"

/* One snapshot's statistics, in memory the test frees. */
static inline struct mstat_stats *snap_stats(struct kunit *test)
{
	struct mstat_stats *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct mstat_caches_snap *cs = mstat_caches_alloc();
	struct mstat_snapshot snap;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_ASSERT_NOT_NULL(test, cs);
	err = mstat_snapshot_read(&snap, st, &cs->cells, mstat_caches_add, cs);
	kvfree(cs);
	KUNIT_ASSERT_EQ(test, err, 0);
	return st;
}

#endif /* MSTAT_KUNIT_H */
