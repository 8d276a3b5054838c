// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the owners' tables (mstat_vmem.c): the rows of
 * (caller, cgroup) hold what each allocated and has not freed, whichever
 * task or softirq frees it, and sum to what the table counted; a full
 * table's later owners count in its "other" row, their sum still whole.
 *
 * Needs mstat.ko loaded first. Each case switches the percpu source off
 * (its probes gone: only the test's objects count) and calls its counts
 * as the percpu events' probes do, with callers of its own, so that the
 * other rows (the boot's and the guest's objects) do not matter.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>

#include "mstat_compat.h"
#include "mstat_profile.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_vmem.h"

/* Callers that no percpu allocation of the kernel has: bytes of ours. */
static char owners_sites[1024];

static unsigned long owners_site(unsigned int i)
{
	return (unsigned long)&owners_sites[i];
}

/* Keys 64 apart, as percpu pointers are, far from any real one. */
static void __percpu *owners_key(unsigned int i)
{
	return (void __percpu *)(0x1000UL + 64UL * i);
}

/* A source's rows now, in a buffer the test frees. */
static struct mstat_owner *owners_read(struct kunit *test, int *n)
{
	struct mstat_owner *rows;

	rows = kunit_kcalloc(test, MSTAT_OWNER_ROWS, sizeof(*rows), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rows);
	*n = mstat_vmem_owners(MSTAT_SRC_PERCPU, rows);
	KUNIT_ASSERT_GE(test, *n, 0);
	return rows;
}

/* The row of @site and @cgroup, or NULL. */
static const struct mstat_owner *owners_find(const struct mstat_owner *rows,
					     int n, unsigned long site,
					     u64 cgroup)
{
	int i;

	for (i = 0; i < n; i++)
		if (!rows[i].other && rows[i].site == site &&
		    rows[i].cgroup == cgroup)
			return &rows[i];
	return NULL;
}

struct owners_softirq {
	struct timer_list timer;
	struct completion done;
};

/*
 * In a softirq: free keys 0 to 7 (allocated by the test's task), and
 * allocate keys 100 to 103 of 256 bytes each with caller 1.
 */
static void owners_in_softirq(struct timer_list *t)
{
	struct owners_softirq *o = container_of(t, struct owners_softirq, timer);
	unsigned int i;

	for (i = 0; i < 8; i++)
		mstat_count_percpu_free(owners_key(i));
	for (i = 100; i < 104; i++)
		mstat_count_percpu_alloc(owners_key(i), 64, 256, GFP_ATOMIC,
					 owners_site(1));
	complete(&o->done);
}

/*
 * 16 objects of 128 bytes by caller 0 from the test's task, 8 of them
 * freed in a softirq, which also allocates 4 of 256 bytes by caller 1:
 * the task's row holds 16 allocated, 8 freed and 8 * 128 bytes, the
 * softirq's 4 and 1024 bytes, and no row of caller 0 in the softirq
 * (the frees are the allocating cgroup's). Then everything freed: both
 * rows at 0 bytes.
 */
static void mstat_vmem_owners_free_elsewhere(struct kunit *test)
{
	const struct mstat_owner *task, *soft;
	struct owners_softirq o;
	struct mstat_owner *rows;
	u64 cgroup;
	unsigned int i;
	int n;

	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, false), 0);
	preempt_disable();
	cgroup = mstat_cgroup_now();
	preempt_enable();
	for (i = 0; i < 16; i++)
		mstat_count_percpu_alloc(owners_key(i), 32, 128, GFP_KERNEL,
					 owners_site(0));
	init_completion(&o.done);
	timer_setup_on_stack(&o.timer, owners_in_softirq, 0);
	mod_timer(&o.timer, jiffies + 1);
	wait_for_completion(&o.done);
	timer_delete_sync(&o.timer);
	destroy_timer_on_stack(&o.timer);

	rows = owners_read(test, &n);
	task = owners_find(rows, n, owners_site(0), cgroup);
	soft = owners_find(rows, n, owners_site(1), MSTAT_CGROUP_SOFTIRQ);
	KUNIT_ASSERT_NOT_NULL(test, task);
	KUNIT_ASSERT_NOT_NULL(test, soft);
	KUNIT_EXPECT_EQ(test, task->allocs, 16ULL);
	KUNIT_EXPECT_EQ(test, task->frees, 8ULL);
	KUNIT_EXPECT_EQ(test, task->bytes, 8ULL * 128);
	KUNIT_EXPECT_EQ(test, soft->allocs, 4ULL);
	KUNIT_EXPECT_EQ(test, soft->frees, 0ULL);
	KUNIT_EXPECT_EQ(test, soft->bytes, 4ULL * 256);
	KUNIT_EXPECT_NULL(test, owners_find(rows, n, owners_site(0),
					    MSTAT_CGROUP_SOFTIRQ));

	for (i = 8; i < 16; i++)
		mstat_count_percpu_free(owners_key(i));
	for (i = 100; i < 104; i++)
		mstat_count_percpu_free(owners_key(i));
	rows = owners_read(test, &n);
	task = owners_find(rows, n, owners_site(0), cgroup);
	soft = owners_find(rows, n, owners_site(1), MSTAT_CGROUP_SOFTIRQ);
	KUNIT_ASSERT_NOT_NULL(test, task);
	KUNIT_ASSERT_NOT_NULL(test, soft);
	KUNIT_EXPECT_EQ(test, task->frees, 16ULL);
	KUNIT_EXPECT_EQ(test, task->bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, soft->bytes, 0ULL);
	mstat_vmem_forget(MSTAT_SRC_PERCPU);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, true), 0);
}

/*
 * One object of 64 bytes by each of MSTAT_OWNER_ROWS + 20 callers of the
 * test's own: the table fills, the rest count in "other", and the live
 * bytes of every row with a test caller, plus "other"'s growth, are all
 * 64 each; freed, every one goes back to 0.
 */
static void mstat_vmem_owners_full(struct kunit *test)
{
	const unsigned int callers = MSTAT_OWNER_ROWS + 20;
	const struct mstat_owner *other0 = NULL, *other1 = NULL;
	u64 ours = 0, before = 0;
	struct mstat_owner *rows0, *rows1;
	unsigned int i;
	int n0, n1;

	BUILD_BUG_ON(10 + MSTAT_OWNER_ROWS + 20 > sizeof(owners_sites));
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, false), 0);
	rows0 = owners_read(test, &n0);
	for (i = 0; i < n0; i++)
		if (rows0[i].other)
			other0 = &rows0[i];
	if (other0)
		before = other0->bytes;
	for (i = 0; i < callers; i++)
		mstat_count_percpu_alloc(owners_key(200 + i), 16, 64, GFP_KERNEL,
					 owners_site(10 + i));
	rows1 = owners_read(test, &n1);
	KUNIT_EXPECT_EQ(test, n1, (int)MSTAT_OWNER_ROWS);
	for (i = 0; i < n1; i++) {
		if (rows1[i].other)
			other1 = &rows1[i];
		else if (rows1[i].site >= owners_site(10) &&
			 rows1[i].site < owners_site(10 + callers))
			ours += rows1[i].bytes;
	}
	KUNIT_ASSERT_NOT_NULL(test, other1);
	KUNIT_EXPECT_EQ(test, ours + other1->bytes - before, 64ULL * callers);
	KUNIT_EXPECT_GE(test, other1->bytes - before, 64ULL * 20);

	for (i = 0; i < callers; i++)
		mstat_count_percpu_free(owners_key(200 + i));
	rows1 = owners_read(test, &n1);
	ours = 0;
	for (i = 0; i < n1; i++) {
		if (rows1[i].other)
			other1 = &rows1[i];
		else if (rows1[i].site >= owners_site(10) &&
			 rows1[i].site < owners_site(10 + callers))
			ours += rows1[i].bytes;
	}
	KUNIT_EXPECT_EQ(test, ours, 0ULL);
	KUNIT_EXPECT_EQ(test, other1->bytes, before);
	mstat_vmem_forget(MSTAT_SRC_PERCPU);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, true), 0);
}

static struct kunit_case mstat_vmem_cases[] = {
	KUNIT_CASE(mstat_vmem_owners_free_elsewhere),
	KUNIT_CASE(mstat_vmem_owners_full),
	{}
};

static struct kunit_suite mstat_vmem_suite = {
	.name = "mstat_vmem",
	.test_cases = mstat_vmem_cases,
};

kunit_test_suite(mstat_vmem_suite);

MODULE_LICENSE("GPL");
MSTAT_IMPORT_KUNIT_NS();
MODULE_DESCRIPTION("KUnit tests for mstat's owners of vm areas and percpu objects");
