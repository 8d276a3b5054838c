// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the mstat module: the size classes, exact counts
 * through the API, what a source's switch drops from the heap profile,
 * the vmalloc and percpu sources' object table, the statistics' rules
 * and their invariants in every snapshot under load. The probes' own
 * tests are mstat_probe_kunit.c's.
 *
 * Needs mstat.ko loaded first, with every source on (the default).
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mstat.h"
#include "mstat_caches.h"
#include "mstat_compat.h"
#include "mstat_count.h"
#include "mstat_kunit.h"
#include "mstat_profile.h"
#include "mstat_sites.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_vmem.h"

struct class_case {
	size_t size;
	unsigned int class_size;	/* 0: large */
};

static const struct class_case class_cases[] = {
	{ 1, 8 }, { 8, 8 }, { 9, 16 }, { 33, 64 }, { 65, 96 }, { 96, 96 },
	{ 97, 128 }, { 129, 192 }, { 193, 256 }, { 4097, 8192 },
	{ 8192, 8192 }, { 8193, 0 }, { SIZE_MAX, 0 }, { 0, 8 }, { 192, 192 },
	{ 256, 256 }, { 257, 512 }, { 2049, 4096 },
	/* Each step of the table from 256 B to 8 KiB, both sides. */
	{ 512, 512 }, { 513, 1024 }, { 1024, 1024 }, { 1025, 2048 },
	{ 2048, 2048 }, { 4096, 4096 }, { 4095, 4096 }, { 8191, 8192 },
};

static void class_case_desc(const struct class_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%zu", c->size);
}

KUNIT_ARRAY_PARAM(class, class_cases, class_case_desc);

static void mstat_size_class_table(struct kunit *test)
{
	const struct class_case *c = test->param_value;
	unsigned int i = mstat_class_of(c->size);

	if (!c->class_size)
		KUNIT_EXPECT_EQ(test, i, (unsigned int)MSTAT_CLASS_LARGE);
	else
		KUNIT_EXPECT_EQ(test, mstat_class_size[i], c->class_size);
}

static void mstat_account_exact_counts(struct kunit *test)
{
	struct mstat_stats *a, *b;
	const struct mstat_src_stats *x, *y;
	unsigned int c100 = mstat_class_of(128), c4k = mstat_class_of(4096);
	int i;

	a = snap_stats(test);
	for (i = 0; i < 100; i++)
		KUNIT_ASSERT_EQ(test, mstat_account_alloc(100, 128, _THIS_IP_), 0);
	for (i = 0; i < 7; i++)
		KUNIT_ASSERT_EQ(test, mstat_account_alloc(4000, 4096, _THIS_IP_), 0);
	for (i = 0; i < 40; i++)
		KUNIT_ASSERT_EQ(test, mstat_account_free(128, _THIS_IP_), 0);
	KUNIT_ASSERT_EQ(test, mstat_account_alloc(10, 0, _THIS_IP_), 0);
	b = snap_stats(test);

	x = &a->src[MSTAT_SRC_API];
	y = &b->src[MSTAT_SRC_API];
	KUNIT_EXPECT_EQ(test, y->allocs - x->allocs, 107ULL);
	KUNIT_EXPECT_EQ(test, y->frees - x->frees, 40ULL);
	KUNIT_EXPECT_EQ(test, y->failures - x->failures, 1ULL);
	KUNIT_EXPECT_EQ(test, y->bytes_req - x->bytes_req, 100ULL * 100 + 7 * 4000);
	KUNIT_EXPECT_EQ(test, y->bytes_alloc - x->bytes_alloc, 100ULL * 128 + 7 * 4096);
	KUNIT_EXPECT_EQ(test, y->bytes_freed - x->bytes_freed, 40ULL * 128);
	/* The API is the only source of these classes' fragmentation here. */
	KUNIT_EXPECT_GE(test, b->cls[c100].allocs - a->cls[c100].allocs, 100ULL);
	KUNIT_EXPECT_GE(test, b->cls[c4k].allocs - a->cls[c4k].allocs, 7ULL);

	/* Leave the API's live count as it was. */
	for (i = 0; i < 60; i++)
		mstat_account_free(128, _THIS_IP_);
	for (i = 0; i < 7; i++)
		mstat_account_free(4096, _THIS_IP_);
}

static void mstat_account_bad_input(struct kunit *test)
{
	struct mstat_stats *a, *b;

	a = snap_stats(test);
	KUNIT_EXPECT_EQ(test, mstat_account_alloc(100, 50, _THIS_IP_), -EINVAL);
	KUNIT_EXPECT_EQ(test, mstat_account_free(0, _THIS_IP_), -EINVAL);
	b = snap_stats(test);
	KUNIT_EXPECT_EQ(test, memcmp(&a->src[MSTAT_SRC_API], &b->src[MSTAT_SRC_API],
				     sizeof(a->src[0])), 0);
}

static void mstat_account_source_disabled(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_API, false), 0);
	KUNIT_EXPECT_EQ(test, mstat_account_alloc(8, 8, _THIS_IP_), -ENODEV);
	KUNIT_EXPECT_EQ(test, mstat_account_free(8, _THIS_IP_), -ENODEV);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_API, true), 0);
	KUNIT_EXPECT_EQ(test, mstat_source_set(MSTAT_NR_SOURCES, true), -EINVAL);
}

/* The site of mstat_source_set_keeps_other_samples()'s objects. */
static noinline void source_site_alloc(void **obj, int k)
{
	int i;

	for (i = 0; i < k; i++)
		obj[i] = kmalloc(100, GFP_KERNEL);
}

/*
 * A source switched off and on drops from the heap profile the sampled
 * objects whose frees its probes may have missed, and only those
 * (mstat_source_frees()): the page source's switch keeps kmalloc's
 * objects, whose frees then count; the cache source's drops them, each
 * counted freed once (kmem_cache_free() frees kmalloc's caches' objects
 * too).
 */
static void mstat_source_set_keeps_other_samples(struct kunit *test)
{
	unsigned long rate = READ_ONCE(mstat_profile_rate);
	u64 a0, f0, a1, f1, a2, f2, a3, f3, a4, f4;
	const int k = 16, j = 6;
	void *obj[16];
	int i;

	KUNIT_EXPECT_EQ(test, mstat_source_frees(MSTAT_SRC_PAGE),
			BIT(MSTAT_SRC_PAGE));
	KUNIT_EXPECT_EQ(test, mstat_source_frees(MSTAT_SRC_KMALLOC),
			BIT(MSTAT_SRC_KMALLOC) | BIT(MSTAT_SRC_CACHE));
	KUNIT_EXPECT_EQ(test, mstat_source_frees(MSTAT_SRC_CACHE),
			BIT(MSTAT_SRC_KMALLOC) | BIT(MSTAT_SRC_CACHE));

	KUNIT_ASSERT_EQ(test, mstat_profile_site("source_site_alloc", &a0, &f0), 0);
	mstat_profile_set_rate(1);
	source_site_alloc(obj, k);
	mstat_profile_set_rate(rate);
	for (i = 0; i < k; i++)
		KUNIT_ASSERT_NOT_NULL(test, obj[i]);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PAGE, false), 0);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PAGE, true), 0);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("source_site_alloc", &a1, &f1), 0);
	for (i = 0; i < j; i++)
		kfree(obj[i]);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("source_site_alloc", &a2, &f2), 0);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_CACHE, false), 0);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_CACHE, true), 0);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("source_site_alloc", &a3, &f3), 0);
	for (i = j; i < k; i++)
		kfree(obj[i]);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("source_site_alloc", &a4, &f4), 0);

	KUNIT_EXPECT_EQ(test, a1 - a0, (u64)k);
	/* The page source's switch: kmalloc's objects kept ... */
	KUNIT_EXPECT_EQ(test, f1, f0);
	/* ... their frees found them. */
	KUNIT_EXPECT_EQ(test, f2 - f0, (u64)j);
	/* The cache source's: the rest dropped, counted freed ... */
	KUNIT_EXPECT_EQ(test, f3 - f0, (u64)k);
	/* ... once: their frees find no entry. */
	KUNIT_EXPECT_EQ(test, f4, f3);
	KUNIT_EXPECT_EQ(test, a4, a1);
}

/*
 * The percpu source's object table (mstat_vmem.c), with the source off
 * so that only this test's objects count: every object allocated is
 * freed once with the bytes it was counted with, whatever collisions and
 * deletions its slot saw; a free of an object never counted is an
 * unknown free, not a count; an address allocated again counts its
 * unseen free; a full table counts nothing more, and says so; what
 * switching the source off does (mstat_vmem_forget()) frees what is left.
 */
static void mstat_vmem_table(struct kunit *test)
{
	struct mstat_vmem_view v0, v1, v2;
	const struct mstat_src_stats *x, *y, *z;
	struct mstat_stats *a, *b, *c;
	unsigned long i, n, cap;
	u64 bytes = 0;

	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, false), 0);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_PERCPU, &v0));
	KUNIT_ASSERT_EQ(test, v0.tracked, 0UL);
	cap = v0.capacity;
	n = cap + 10;
	a = snap_stats(test);
	/* Keys 64 apart, as percpu pointers are; sizes 8 to 512. */
	for (i = 1; i <= n; i++) {
		mstat_count_percpu_alloc((void __percpu *)(i * 64), 8 << (i % 7),
					 (8 << (i % 7)) * 4, GFP_KERNEL, 0);
		if (i <= cap)
			bytes += (8 << (i % 7)) * 4;
	}
	/* Every odd one freed, from the last back; one never counted. */
	for (i = n; i >= 1; i--)
		if (i % 2)
			mstat_count_percpu_free((void __percpu *)(i * 64));
	mstat_count_percpu_free((void __percpu *)(7 * 64 + 8));
	b = snap_stats(test);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_PERCPU, &v1));
	x = &a->src[MSTAT_SRC_PERCPU];
	y = &b->src[MSTAT_SRC_PERCPU];
	KUNIT_EXPECT_EQ(test, y->allocs - x->allocs, (u64)cap);
	KUNIT_EXPECT_EQ(test, y->frees - x->frees, (u64)(cap + 1) / 2);
	KUNIT_EXPECT_EQ(test, v1.tracked, cap / 2);
	KUNIT_EXPECT_EQ(test, v1.untracked - v0.untracked, 10UL);
	/* The odd untracked ones, and the one never counted. */
	KUNIT_EXPECT_EQ(test, v1.unknown_frees - v0.unknown_frees,
			(n + 1) / 2 - (cap + 1) / 2 + 1);
	/* One even one allocated again, unseen freed: its free counts. */
	mstat_count_percpu_alloc((void __percpu *)(2 * 64), 8, 32, GFP_KERNEL,
				 0);
	/* What switching it off does, once its probes are gone. */
	mstat_vmem_forget(MSTAT_SRC_PERCPU);
	c = snap_stats(test);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_PERCPU, &v2));
	z = &c->src[MSTAT_SRC_PERCPU];
	/* Switched off: nothing left, every byte counted back out. */
	KUNIT_EXPECT_EQ(test, v2.tracked, 0UL);
	KUNIT_EXPECT_EQ(test, z->allocs - z->frees, x->allocs - x->frees);
	KUNIT_EXPECT_EQ(test, (z->bytes_alloc - x->bytes_alloc) -
			      (z->bytes_freed - x->bytes_freed), 0ULL);
	KUNIT_EXPECT_EQ(test, z->bytes_alloc - x->bytes_alloc, bytes + 32);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, true), 0);
}

/* What the reader of mstat_vmem_forget_in_batches() saw. */
struct vmem_watch {
	unsigned long full;	/* objects before the forget */
	bool stop;
	bool reading;
	bool partial;		/* a count between full and none */
};

static int vmem_watch_fn(void *arg)
{
	struct vmem_watch *w = arg;
	struct mstat_vmem_view v;

	while (!READ_ONCE(w->stop)) {
		if (mstat_vmem_state(MSTAT_SRC_PERCPU, &v) && v.tracked &&
		    v.tracked < w->full)
			WRITE_ONCE(w->partial, true);
		WRITE_ONCE(w->reading, true);
		cpu_relax();
	}
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * mstat_vmem_forget() on a full table lets go of the table's lock (and so
 * turns interrupts back on) between batches of slots: a reader on another
 * CPU, which takes the same lock, sees the table part emptied at least
 * once. A forget that walks the whole table under one hold of the lock
 * (up to 2^21 slots and 2^20 frees with interrupts off) shows it only
 * full or empty. Every object still counts as freed once.
 */
static void mstat_vmem_forget_in_batches(struct kunit *test)
{
	struct vmem_watch w = {};
	struct mstat_vmem_view v0, v1;
	const struct mstat_src_stats *x, *z;
	struct task_struct *reader;
	struct mstat_stats *a, *c;
	unsigned long i;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU for the reader");
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, false), 0);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_PERCPU, &v0));
	KUNIT_ASSERT_EQ(test, v0.tracked, 0UL);
	a = snap_stats(test);
	for (i = 1; i <= v0.capacity; i++)
		mstat_count_percpu_alloc((void __percpu *)(i * 64), 8, 32,
					 GFP_KERNEL, 0);
	w.full = v0.capacity;
	reader = kthread_run(vmem_watch_fn, &w, "mstat-kunit-forget");
	KUNIT_ASSERT_FALSE(test, IS_ERR(reader));
	while (!READ_ONCE(w.reading))
		cond_resched();
	mstat_vmem_forget(MSTAT_SRC_PERCPU);
	WRITE_ONCE(w.stop, true);
	kthread_stop(reader);
	c = snap_stats(test);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_PERCPU, &v1));
	x = &a->src[MSTAT_SRC_PERCPU];
	z = &c->src[MSTAT_SRC_PERCPU];
	KUNIT_EXPECT_TRUE_MSG(test, w.partial,
			      "the lock held for the whole table of %lu objects",
			      w.full);
	KUNIT_EXPECT_EQ(test, v1.tracked, 0UL);
	KUNIT_EXPECT_EQ(test, z->allocs - x->allocs, (u64)w.full);
	KUNIT_EXPECT_EQ(test, z->frees - x->frees, (u64)w.full);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_PERCPU, true), 0);
}

/*
 * A vm area's address given again before the return probe of its removal
 * ran (mstat_vmem.c's struct mstat_obj): area A at X is removed, and
 * another CPU's __get_vm_area_node() returns area B at X before
 * remove_vm_area()'s return probe sees A go. B's allocation counts A's
 * free; A's late free must leave B counted (an unknown free), and B's own
 * free then counts. The vmalloc source off, so that only these areas
 * count, with the table's own calls.
 */
static void mstat_vmem_vm_area_reused(struct kunit *test)
{
	static struct vm_struct va, vb;
	struct mstat_vmem_view v0, v1, v2;
	const struct mstat_src_stats *x, *y, *z;
	struct mstat_stats *a, *b, *c;
	unsigned long addr = 0x7ff0000UL << PAGE_SHIFT;

	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_VMALLOC, false), 0);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_VMALLOC, &v0));
	KUNIT_ASSERT_EQ(test, v0.tracked, 0UL);
	va.addr = (void *)addr;
	va.size = 5 * PAGE_SIZE;	/* four pages and the guard page */
	va.flags = VM_ALLOC;
	va.caller = (void *)_THIS_IP_;
	vb = va;
	vb.size = 3 * PAGE_SIZE;
	a = snap_stats(test);
	mstat_count_vm_area(&va, true);
	/* A's address freed, given to B, before A's removal returned. */
	mstat_count_vm_area(&vb, true);
	mstat_count_vm_area(&va, false);
	b = snap_stats(test);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_VMALLOC, &v1));
	mstat_count_vm_area(&vb, false);
	c = snap_stats(test);
	KUNIT_ASSERT_TRUE(test, mstat_vmem_state(MSTAT_SRC_VMALLOC, &v2));
	x = &a->src[MSTAT_SRC_VMALLOC];
	y = &b->src[MSTAT_SRC_VMALLOC];
	z = &c->src[MSTAT_SRC_VMALLOC];
	/* B still live, A freed once, A's late free unknown. */
	KUNIT_EXPECT_EQ(test, v1.tracked, 1UL);
	KUNIT_EXPECT_EQ(test, y->allocs - x->allocs, 2ULL);
	KUNIT_EXPECT_EQ(test, y->frees - x->frees, 1ULL);
	KUNIT_EXPECT_EQ(test, (y->bytes_alloc - x->bytes_alloc) -
			      (y->bytes_freed - x->bytes_freed),
			(u64)(2 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, v1.unknown_frees - v0.unknown_frees, 1UL);
	/* B's free, counted with its own bytes. */
	KUNIT_EXPECT_EQ(test, v2.tracked, 0UL);
	KUNIT_EXPECT_EQ(test, z->frees - x->frees, 2ULL);
	KUNIT_EXPECT_EQ(test, z->bytes_freed - x->bytes_freed,
			(u64)(6 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, v2.unknown_frees, v1.unknown_frees);
	KUNIT_ASSERT_EQ(test, mstat_source_set(MSTAT_SRC_VMALLOC, true), 0);
}

/* The invariants of mstat_stats.h, checked on one snapshot. */
static void expect_invariants(struct kunit *test, const struct mstat_stats *st)
{
	u64 allocs = 0, frees = 0, req = 0, ba = 0, bf = 0;
	u64 ca = 0, cf = 0, creq = 0, cba = 0, cbf = 0;
	u64 oa = 0, of = 0, ofail = 0, xa = 0, xf = 0, all_a = 0, all_f = 0;
	int i;

	for (i = 0; i < MSTAT_NR_SOURCES; i++) {
		all_a += st->src[i].allocs;
		all_f += st->src[i].frees;
		if (!mstat_source_slab(i))
			continue;
		allocs += st->src[i].allocs;
		frees += st->src[i].frees;
		req += st->src[i].bytes_req;
		ba += st->src[i].bytes_alloc;
		bf += st->src[i].bytes_freed;
	}
	for (i = 0; i < MSTAT_NR_CLASSES; i++) {
		ca += st->cls[i].allocs;
		cf += st->cls[i].frees;
		creq += st->cls[i].bytes_req;
		cba += st->cls[i].bytes_alloc;
		cbf += st->cls[i].bytes_freed;
	}
	for (i = 0; i < MSTAT_NR_ORDERS; i++) {
		oa += st->order[i].allocs;
		of += st->order[i].frees;
		ofail += st->order[i].failures;
	}
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		xa += st->ctx[i].allocs;
		xf += st->ctx[i].frees;
	}
	KUNIT_EXPECT_EQ(test, ca, allocs);
	KUNIT_EXPECT_EQ(test, cf, frees);
	KUNIT_EXPECT_EQ(test, creq, req);
	KUNIT_EXPECT_EQ(test, cba, ba);
	KUNIT_EXPECT_EQ(test, cbf, bf);
	KUNIT_EXPECT_EQ(test, oa, st->src[MSTAT_SRC_PAGE].allocs);
	KUNIT_EXPECT_EQ(test, of, st->src[MSTAT_SRC_PAGE].frees);
	KUNIT_EXPECT_EQ(test, ofail, st->src[MSTAT_SRC_PAGE].failures);
	KUNIT_EXPECT_EQ(test, xa, all_a);
	KUNIT_EXPECT_EQ(test, xf, all_f);
	KUNIT_EXPECT_EQ(test, st->gfp[MSTAT_GFP_SLEEP] + st->gfp[MSTAT_GFP_ATOMIC],
			all_a);
	/* The kmalloc source alone, by class, sums to the source. */
	allocs = 0;
	frees = 0;
	ba = 0;
	bf = 0;
	for (i = 0; i < MSTAT_NR_CLASSES; i++) {
		allocs += st->kcls[i].allocs;
		frees += st->kcls[i].frees;
		ba += st->kcls[i].bytes_alloc;
		bf += st->kcls[i].bytes_freed;
	}
	KUNIT_EXPECT_EQ(test, allocs, st->src[MSTAT_SRC_KMALLOC].allocs);
	KUNIT_EXPECT_EQ(test, frees, st->src[MSTAT_SRC_KMALLOC].frees);
	KUNIT_EXPECT_EQ(test, ba, st->src[MSTAT_SRC_KMALLOC].bytes_alloc);
	KUNIT_EXPECT_EQ(test, bf, st->src[MSTAT_SRC_KMALLOC].bytes_freed);
	/* The vm areas, by kind, sum to the vmalloc source. */
	allocs = 0;
	frees = 0;
	ba = 0;
	bf = 0;
	for (i = 0; i < MSTAT_NR_VM_KINDS; i++) {
		allocs += st->vm[i].allocs;
		frees += st->vm[i].frees;
		ba += st->vm[i].bytes_alloc;
		bf += st->vm[i].bytes_freed;
	}
	KUNIT_EXPECT_EQ(test, allocs, st->src[MSTAT_SRC_VMALLOC].allocs);
	KUNIT_EXPECT_EQ(test, frees, st->src[MSTAT_SRC_VMALLOC].frees);
	KUNIT_EXPECT_EQ(test, ba, st->src[MSTAT_SRC_VMALLOC].bytes_alloc);
	KUNIT_EXPECT_EQ(test, bf, st->src[MSTAT_SRC_VMALLOC].bytes_freed);
}

/*
 * Allocates and frees until stopped; each block freed in its own order
 * (an order-1 block freed as order 0 leaks its second page).
 */
static int churn_thread(void *arg)
{
	while (!kthread_should_stop()) {
		void *p = kmalloc(64 + (get_random_u32() & 1023), GFP_KERNEL);
		unsigned int order = get_random_u32() & 1;
		struct page *pg = alloc_pages(GFP_KERNEL, order);

		kfree(p);
		if (pg)
			__free_pages(pg, order);
		cond_resched();
	}
	return 0;
}

/*
 * Snapshots read under the churn of two threads: for 2 s, and until 11
 * at least have been checked (a slow machine, such as a KASAN kernel
 * under emulation beside other guests, read 10 in 2 s), within 60 s.
 */
#define MSTAT_LOAD_SNAPSHOTS	11

static void mstat_snapshot_invariants_under_load(struct kunit *test)
{
	struct task_struct *t[2];
	struct mstat_stats *st, *prev;
	unsigned long start = jiffies;
	int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		t[i] = kthread_run(churn_thread, NULL, "mstat-kunit-churn/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
	}
	prev = snap_stats(test);
	while ((n < MSTAT_LOAD_SNAPSHOTS ||
		time_before(jiffies, start + 2 * HZ)) &&
	       time_before(jiffies, start + 60 * HZ)) {
		st = snap_stats(test);
		expect_invariants(test, st);
		KUNIT_EXPECT_GE(test, st->src[MSTAT_SRC_KMALLOC].allocs,
				prev->src[MSTAT_SRC_KMALLOC].allocs);
		KUNIT_EXPECT_GE(test, st->src[MSTAT_SRC_PAGE].frees,
				prev->src[MSTAT_SRC_PAGE].frees);
		kunit_kfree(test, prev);
		prev = st;
		n++;
	}
	for (i = 0; i < ARRAY_SIZE(t); i++)
		kthread_stop(t[i]);
	KUNIT_EXPECT_GE(test, n, MSTAT_LOAD_SNAPSHOTS);
	kunit_info(test, "%d snapshots checked", n);
}

/* The snapshot's counters from cells set by hand, one rule at a time. */
static void mstat_derive_rules(struct kunit *test)
{
	struct mstat_cells *cl = kunit_kzalloc(test, sizeof(*cl), GFP_KERNEL);
	struct mstat_stats *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	unsigned int c64 = mstat_class_of(64);
	struct mstat_cell *e;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, st);
	/* kmalloc, fixed class: bytes from the class size, requested added. */
	e = &cl->cell[MSTAT_SRC_KMALLOC][c64];
	e->allocs = 10;
	e->frees = 4;
	e->bytes_req = 500;
	e->failures = 99;	/* ignored but for the failure count */
	/* kmalloc, large: bytes added. */
	e = &cl->cell[MSTAT_SRC_KMALLOC][MSTAT_CLASS_LARGE];
	e->allocs = 2;
	e->frees = 1;
	e->bytes_req = 20000;
	e->bytes_alloc = 24576;
	e->bytes_freed = 12288;
	/* cache: requested is allocated. */
	e = &cl->cell[MSTAT_SRC_CACHE][c64];
	e->allocs = 3;
	e->bytes_alloc = 150;
	e->bytes_freed = 50;
	e->frees = 1;
	/* page, order 2, and the last order, which counts higher ones too. */
	e = &cl->cell[MSTAT_SRC_PAGE][2];
	e->allocs = 5;
	e->frees = 5;
	e->failures = 1;
	e = &cl->cell[MSTAT_SRC_PAGE][MSTAT_NR_ORDERS - 1];
	e->allocs = 1;
	e->bytes_alloc = PAGE_SIZE << 12;
	/*
	 * The uncommon contexts' counts; a task's sleeping allocations and
	 * its frees are the rest of the 21 allocations and 11 frees above
	 * (mstat_count_ctx_alloc()): what their cells hold is not read.
	 */
	cl->ctx_gfp_allocs[MSTAT_CTX_TASK][MSTAT_GFP_SLEEP] = 1000;
	cl->ctx_gfp_allocs[MSTAT_CTX_HARDIRQ][MSTAT_GFP_ATOMIC] = 2;
	cl->ctx_frees[MSTAT_CTX_TASK] = 1000;
	cl->ctx_frees[MSTAT_CTX_SOFTIRQ] = 3;

	mstat_stats_derive(cl, st);

	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_KMALLOC].allocs, 12ULL);
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_KMALLOC].failures, 99ULL);
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_KMALLOC].bytes_req, 20500ULL);
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_KMALLOC].bytes_alloc,
			640ULL + 24576);
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_KMALLOC].bytes_freed,
			256ULL + 12288);
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_CACHE].bytes_req, 150ULL);
	KUNIT_EXPECT_EQ(test, st->cls[c64].allocs, 13ULL);
	KUNIT_EXPECT_EQ(test, st->cls[c64].bytes_alloc, 640ULL + 150);
	KUNIT_EXPECT_EQ(test, st->cls[c64].bytes_freed, 256ULL + 50);
	KUNIT_EXPECT_EQ(test, st->cls[MSTAT_CLASS_LARGE].allocs, 2ULL);
	/* kmalloc alone: the cache's 3 allocations are not in it. */
	KUNIT_EXPECT_EQ(test, st->kcls[c64].allocs, 10ULL);
	KUNIT_EXPECT_EQ(test, st->kcls[c64].frees, 4ULL);
	KUNIT_EXPECT_EQ(test, st->kcls[c64].bytes_alloc, 640ULL);
	KUNIT_EXPECT_EQ(test, st->kcls[MSTAT_CLASS_LARGE].bytes_alloc, 24576ULL);
	KUNIT_EXPECT_EQ(test, st->order[2].allocs, 5ULL);
	KUNIT_EXPECT_EQ(test, st->order[2].failures, 1ULL);
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_PAGE].bytes_alloc,
			5 * (PAGE_SIZE << 2) + (PAGE_SIZE << 12));
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_PAGE].bytes_req,
			st->src[MSTAT_SRC_PAGE].bytes_alloc);
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_PAGE].bytes_freed,
			5 * (PAGE_SIZE << 2));
	KUNIT_EXPECT_EQ(test, st->src[MSTAT_SRC_PAGE].failures, 1ULL);
	KUNIT_EXPECT_EQ(test, st->ctx[MSTAT_CTX_TASK].allocs, 19ULL);
	KUNIT_EXPECT_EQ(test, st->ctx[MSTAT_CTX_HARDIRQ].allocs, 2ULL);
	KUNIT_EXPECT_EQ(test, st->ctx[MSTAT_CTX_SOFTIRQ].allocs, 0ULL);
	KUNIT_EXPECT_EQ(test, st->ctx[MSTAT_CTX_TASK].frees, 8ULL);
	KUNIT_EXPECT_EQ(test, st->ctx[MSTAT_CTX_SOFTIRQ].frees, 3ULL);
	KUNIT_EXPECT_EQ(test, st->ctx[MSTAT_CTX_HARDIRQ].frees, 0ULL);
	KUNIT_EXPECT_EQ(test, st->gfp[MSTAT_GFP_SLEEP], 19ULL);
	KUNIT_EXPECT_EQ(test, st->gfp[MSTAT_GFP_ATOMIC], 2ULL);
}

/*
 * A class's counters as a snapshot derives them, and the estimate of its
 * live objects' fragmentation (bytes_allocated - bytes_requested, scaled
 * by live / allocs), exact where frag * live passes 2^64.
 */
struct frag_case {
	const char *desc;
	u64 allocs, frees, bytes_req, bytes_alloc;
	u64 est;
};

static const struct frag_case frag_cases[] = {
	{ "none live", 10, 10, 1000, 1800, 0 },
	{ "more freed than allocated", 5, 7, 100, 140, 0 },
	/* tools/mstat/testdata/mstat-1.0.txt's class 96 */
	{ "small", 28139, 4934, 2636496, 2669088, 26877 },
	/* frag 2^40 + 12345, live 2^62 + 2^61 + 3 */
	{ "allocs near 2^63", BIT_ULL(63) + 3, BIT_ULL(61),
	  BIT_ULL(63) + 1000, BIT_ULL(63) + 1000 + BIT_ULL(40) + 12345,
	  824633730090ULL },
	/* bytes_req 2^64 - 1000, bytes_alloc past 2^64: frag 2^50 */
	{ "bytes wrapped past 2^64", BIT_ULL(63) + 7, BIT_ULL(63) - BIT_ULL(40),
	  U64_MAX - 999, BIT_ULL(50) - 1000, 134217728ULL },
	/* live S64_MAX, frag 2^64 - 12 */
	{ "frag near 2^64", BIT_ULL(63) + 9, 10, 7, U64_MAX - 4,
	  0xffffffffffffffe0ULL },
	{ "all live", BIT_ULL(62) + 11, 0, 3, BIT_ULL(62), BIT_ULL(62) - 3 },
	/* live 15 > allocs: every allocation counts live, the bound */
	{ "frees wrapped", 5, (u64)-10, 100, 400, 300 },
	{ "no allocs", 0, U64_MAX, 0, 0, 0 },
};

static void frag_case_desc(const struct frag_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(frag, frag_cases, frag_case_desc);

static void mstat_frag_live_est_table(struct kunit *test)
{
	const struct frag_case *fc = test->param_value;
	struct mstat_cells *cl = kunit_kzalloc(test, sizeof(*cl), GFP_KERNEL);
	struct mstat_stats *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	const struct mstat_class_stats *c;
	struct mstat_cell *e;

	KUNIT_ASSERT_NOT_NULL(test, cl);
	KUNIT_ASSERT_NOT_NULL(test, st);
	/* The API's large class: every column counted, none derived. */
	e = &cl->cell[MSTAT_SRC_API][MSTAT_CLASS_LARGE];
	e->allocs = fc->allocs;
	e->frees = fc->frees;
	e->bytes_req = fc->bytes_req;
	e->bytes_alloc = fc->bytes_alloc;
	mstat_stats_derive(cl, st);
	c = &st->cls[MSTAT_CLASS_LARGE];
	KUNIT_EXPECT_EQ(test, c->allocs, fc->allocs);
	KUNIT_EXPECT_EQ(test, c->frees, fc->frees);
	KUNIT_EXPECT_EQ(test, c->bytes_req, fc->bytes_req);
	KUNIT_EXPECT_EQ(test, c->bytes_alloc, fc->bytes_alloc);
	/* As mstat_show_classes() prints it. */
	KUNIT_EXPECT_EQ(test, mstat_frag_live_est(c->bytes_alloc - c->bytes_req,
						  (s64)(c->allocs - c->frees),
						  c->allocs),
			fc->est);
}

static struct kunit_case mstat_module_cases[] = {
	KUNIT_CASE(mstat_derive_rules),
	KUNIT_CASE_PARAM(mstat_frag_live_est_table, frag_gen_params),
	KUNIT_CASE_PARAM(mstat_size_class_table, class_gen_params),
	KUNIT_CASE(mstat_account_exact_counts),
	KUNIT_CASE(mstat_account_bad_input),
	KUNIT_CASE(mstat_account_source_disabled),
	KUNIT_CASE(mstat_source_set_keeps_other_samples),
	KUNIT_CASE(mstat_vmem_table),
	KUNIT_CASE(mstat_vmem_forget_in_batches),
	KUNIT_CASE(mstat_vmem_vm_area_reused),
	MSTAT_KUNIT_CASE_SLOW(mstat_snapshot_invariants_under_load),
	{}
};

static struct kunit_suite mstat_module_suite = {
	.name = "mstat_module",
	.test_cases = mstat_module_cases,
};

kunit_test_suite(mstat_module_suite);

MODULE_LICENSE("GPL");
MSTAT_IMPORT_KUNIT_NS();
MODULE_DESCRIPTION("KUnit tests for the mstat module");
