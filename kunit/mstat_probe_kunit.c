// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mstat's probes: the kprobes' symbols where a kernel
 * cloned a function, the size a kfree() finds and the slab layout it
 * reads, kmalloc and kmem_cache events landing in their classes and
 * caches, the contexts counted apart (a hard irq's, a softirq's, a
 * task's), the probed code's context under a breakpoint kprobe, and
 * nested page watches.
 *
 * Needs mstat.ko loaded first, with every source on (the default).
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/slab.h>
#include <linux/timer.h>

#include "mstat.h"
#include "mstat_caches.h"
#include "mstat_compat.h"
#include "mstat_count.h"
#include "mstat_kprobes.h"
#include "mstat_kunit.h"
#include "mstat_slab.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_watch.h"

/*
 * Whether this kernel has a function named @name (a probe that is never
 * armed finds it: any answer but -ENOENT), so that a case can say which
 * of its facts this build of the kernel has.
 */
static int kunit_probe_symbol(const char *name)
{
	struct kprobe kp = {
		.symbol_name = name,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int err = register_kprobe(&kp);

	if (!err)
		unregister_kprobe(&kp);
	return err;
}

static bool kunit_has_symbol(const char *name)
{
	return kunit_probe_symbol(name) != -ENOENT;
}

/*
 * mstat_kprobe_symbol(), on the test kernel's own symbols: a function
 * emitted under its own name is probed there; one emitted only as a clone
 * (__alloc_pages_slowpath.constprop.0 on the debug kernel, kunit/'s
 * .kunitconfig) under the clone's name, which a probe by the plain name
 * silently missed; one emitted both ways (xas_next_entry, and its
 * .constprop.0) not at all, nor one the kernel does not have. Which
 * clones a kernel has is its compiler's choice (the KCSAN kernel has
 * other ones): each such fact is judged where this kernel has it.
 */
static void mstat_kprobe_symbol_clones(struct kunit *test)
{
	char sym[64];
	int err = kunit_probe_symbol("remove_vm_area");

	/* A kernel whose kprobes refuse it (KCSAN's), as mstat's would. */
	if (err)
		kunit_skip(test, "register_kprobe(remove_vm_area): %d", err);

	KUNIT_EXPECT_EQ(test, mstat_kprobe_symbol("remove_vm_area", sym,
						  sizeof(sym)), 0);
	KUNIT_EXPECT_STREQ(test, sym, "remove_vm_area");
	KUNIT_EXPECT_EQ(test, mstat_kprobe_symbol("mstat_kunit_no_such_function",
						  sym, sizeof(sym)), -ENOENT);
	if (kunit_has_symbol("__alloc_pages_slowpath.constprop.0") &&
	    !kunit_has_symbol("__alloc_pages_slowpath")) {
		KUNIT_EXPECT_EQ(test, mstat_kprobe_symbol("__alloc_pages_slowpath",
							  sym, sizeof(sym)), 0);
		KUNIT_EXPECT_STREQ(test, sym,
				   "__alloc_pages_slowpath.constprop.0");
	} else {
		kunit_info(test, "no lone clone of __alloc_pages_slowpath here\n");
	}
	if (kunit_has_symbol("xas_next_entry.constprop.0") &&
	    kunit_has_symbol("xas_next_entry"))
		KUNIT_EXPECT_EQ(test, mstat_kprobe_symbol("xas_next_entry", sym,
							  sizeof(sym)), -EEXIST);
	else
		kunit_info(test, "no second xas_next_entry here\n");
}

static void mstat_kfree_size_kmalloc(struct kunit *test)
{
	void *p = kmalloc(100, GFP_KERNEL);
	void *big = kmalloc(10000, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NOT_NULL(test, big);
	KUNIT_EXPECT_EQ(test, mstat_kfree_size(p), (size_t)128);
	KUNIT_EXPECT_EQ(test, mstat_kfree_size(big), kmalloc_size_roundup(10000));
	KUNIT_EXPECT_EQ(test, mstat_kfree_size(NULL), (size_t)0);
	KUNIT_EXPECT_EQ(test, mstat_kfree_size(ZERO_SIZE_PTR), (size_t)0);
	kfree(p);
	kfree(big);
}

static void mstat_slab_ctor(void *obj)
{
}

/*
 * The slab layout found at load: an object's cache, whether it is one of
 * kmalloc's, its object size, for a cache of our own, kmalloc objects
 * and a large kmalloc.
 */
static void mstat_slab_layout_reads(struct kunit *test)
{
	struct kmem_cache *s;
	struct folio *folio;
	void *obj, *km, *big;

	KUNIT_ASSERT_STREQ(test, mstat_slab_state(), "validated");
	s = kmem_cache_create("mstat_kunit_layout", 333, 0, 0, mstat_slab_ctor);
	KUNIT_ASSERT_NOT_NULL(test, s);
	obj = kmem_cache_alloc(s, GFP_KERNEL);
	km = kmalloc(100, GFP_KERNEL);
	big = kmalloc(KMALLOC_MAX_CACHE_SIZE + 1, GFP_KERNEL);
	if (obj && km && big) {
		KUNIT_EXPECT_PTR_EQ(test, mstat_slab_cache_of(obj, &folio),
				    (const void *)s);
		KUNIT_EXPECT_FALSE(test, mstat_slab_is_kmalloc(s));
		KUNIT_EXPECT_EQ(test, mstat_slab_size(s), 333U);
		KUNIT_EXPECT_TRUE(test,
				  mstat_slab_is_kmalloc(mstat_slab_cache_of(km, &folio)));
		KUNIT_EXPECT_EQ(test, mstat_slab_size(mstat_slab_cache_of(km, &folio)),
				128U);
		KUNIT_EXPECT_NULL(test, mstat_slab_cache_of(big, &folio));
	} else {
		KUNIT_FAIL(test, "allocation failed");
	}
	kfree(big);
	kfree(km);
	if (obj)
		kmem_cache_free(s, obj);
	kmem_cache_destroy(s);
}

/* Allocations in a kthread of our own land in the right classes. */
struct alloc_ctx {
	struct kmem_cache *cache;
	struct completion done;
};

static int alloc_thread(void *arg)
{
	struct alloc_ctx *ctx = arg;
	void *obj[64], *cobj[16];
	int i;

	for (i = 0; i < 64; i++)
		obj[i] = kmalloc(100, GFP_KERNEL);
	for (i = 0; i < 16; i++)
		cobj[i] = kmem_cache_alloc(ctx->cache, GFP_KERNEL);
	for (i = 0; i < 64; i++)
		kfree(obj[i]);
	for (i = 0; i < 16; i++)
		kmem_cache_free(ctx->cache, cobj[i]);
	complete(&ctx->done);
	return 0;
}

static void mstat_probe_counts_kmalloc_and_cache(struct kunit *test)
{
	unsigned int c128 = mstat_class_of(128), c184 = mstat_class_of(184);
	struct alloc_ctx ctx;
	struct mstat_stats *a, *b;
	struct task_struct *t;

	ctx.cache = kmem_cache_create("mstat_kunit_184", 184, 0, 0, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ctx.cache);
	KUNIT_EXPECT_EQ(test, kmem_cache_size(ctx.cache), 184U);
	init_completion(&ctx.done);

	a = snap_stats(test);
	t = kthread_run(alloc_thread, &ctx, "mstat-kunit-alloc");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&ctx.done);
	b = snap_stats(test);
	kmem_cache_destroy(ctx.cache);

	KUNIT_EXPECT_GE(test, b->src[MSTAT_SRC_KMALLOC].allocs -
			a->src[MSTAT_SRC_KMALLOC].allocs, 64ULL);
	KUNIT_EXPECT_GE(test, b->src[MSTAT_SRC_KMALLOC].frees -
			a->src[MSTAT_SRC_KMALLOC].frees, 64ULL);
	KUNIT_EXPECT_GE(test, b->cls[c128].allocs - a->cls[c128].allocs, 64ULL);
	KUNIT_EXPECT_GE(test, b->cls[c128].frees - a->cls[c128].frees, 64ULL);
	KUNIT_EXPECT_GE(test, b->cls[c128].bytes_req - a->cls[c128].bytes_req,
			64ULL * 100);
	KUNIT_EXPECT_GE(test, b->src[MSTAT_SRC_CACHE].allocs -
			a->src[MSTAT_SRC_CACHE].allocs, 16ULL);
	KUNIT_EXPECT_GE(test, b->src[MSTAT_SRC_CACHE].frees -
			a->src[MSTAT_SRC_CACHE].frees, 16ULL);
	/* Cache objects count as kmem_cache_size(), at free time too. */
	KUNIT_EXPECT_GE(test, b->cls[c184].allocs - a->cls[c184].allocs, 16ULL);
	KUNIT_EXPECT_GE(test, b->cls[c184].frees - a->cls[c184].frees, 16ULL);
	KUNIT_EXPECT_GE(test, b->cls[c184].bytes_freed - a->cls[c184].bytes_freed,
			16ULL * 184);
	KUNIT_EXPECT_GE(test, b->ctx[MSTAT_CTX_TASK].allocs -
			a->ctx[MSTAT_CTX_TASK].allocs, 80ULL);
	KUNIT_EXPECT_GE(test, b->gfp[MSTAT_GFP_SLEEP] - a->gfp[MSTAT_GFP_SLEEP],
			80ULL);
}

/*
 * kmem_cache_alloc() and kmem_cache_free() on one of kmalloc's caches,
 * as a cache merged into one makes them (a kernel without hardened
 * usercopy): the cache probes' rare path counts each in the kmalloc
 * source and its class. The class's background is a few events, so a
 * path that counted them elsewhere fails here. The cache source is not
 * a test of it: under kmemleak every allocation adds one of kmemleak's
 * own objects there (2,051 cache allocations in 2,048 pairs on the debug
 * kernel, 2026-12-07).
 */
#define KMCACHE_PAIRS	2048

static void mstat_probe_counts_kmalloc_cache_events(struct kunit *test)
{
	unsigned int c128 = mstat_class_of(128);
	struct mstat_stats *a, *b;
	struct kmem_cache *kc;
	struct folio *folio;
	void *km, *obj;
	int i;

	KUNIT_ASSERT_STREQ(test, mstat_slab_state(), "validated");
	km = kmalloc(100, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, km);
	kc = (struct kmem_cache *)mstat_slab_cache_of(km, &folio);
	kfree(km);
	KUNIT_ASSERT_NOT_NULL(test, kc);
	KUNIT_ASSERT_TRUE(test, mstat_slab_is_kmalloc(kc));

	a = snap_stats(test);
	for (i = 0; i < KMCACHE_PAIRS; i++) {
		obj = kmem_cache_alloc(kc, GFP_KERNEL);
		if (!obj)
			break;
		kmem_cache_free(kc, obj);
	}
	b = snap_stats(test);
	KUNIT_ASSERT_EQ(test, i, KMCACHE_PAIRS);

	KUNIT_EXPECT_GE(test, b->src[MSTAT_SRC_KMALLOC].allocs -
			a->src[MSTAT_SRC_KMALLOC].allocs, (u64)KMCACHE_PAIRS);
	KUNIT_EXPECT_GE(test, b->src[MSTAT_SRC_KMALLOC].frees -
			a->src[MSTAT_SRC_KMALLOC].frees, (u64)KMCACHE_PAIRS);
	KUNIT_EXPECT_GE(test, b->cls[c128].allocs - a->cls[c128].allocs,
			(u64)KMCACHE_PAIRS);
	KUNIT_EXPECT_GE(test, b->cls[c128].frees - a->cls[c128].frees,
			(u64)KMCACHE_PAIRS);
}

/*
 * Each context's counts against a known truth: the kmalloc+kfree pairs of
 * GFP_ATOMIC made in a hard irq (irq_work), in a softirq (a timer) and in
 * this task, then GFP_KERNEL ones in this task. A task's sleeping
 * allocations and its frees are derived (mstat_count_ctx_alloc()), the
 * others counted: each must be at least its pairs (the background adds).
 */
#define CTX_HARD	16
#define CTX_SOFT	24
#define CTX_ATOMIC	32
#define CTX_SLEEP	40

static struct completion ctx_soft_done;

static void ctx_pairs(unsigned int n, gfp_t gfp)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		kfree(kmalloc(64, gfp));
}

static void ctx_hardirq(struct irq_work *w)
{
	ctx_pairs(CTX_HARD, GFP_ATOMIC);
}

static void ctx_softirq(struct timer_list *t)
{
	ctx_pairs(CTX_SOFT, GFP_ATOMIC);
	complete(&ctx_soft_done);
}

static void mstat_probe_counts_contexts(struct kunit *test)
{
	struct irq_work w = IRQ_WORK_INIT_HARD(ctx_hardirq);
	u64 allocs[MSTAT_NR_CTX], frees[MSTAT_NR_CTX], atomic, sleep;
	struct mstat_stats *a, *b;
	struct timer_list t;
	unsigned int x;

	init_completion(&ctx_soft_done);
	a = snap_stats(test);
	irq_work_queue(&w);
	irq_work_sync(&w);
	timer_setup_on_stack(&t, ctx_softirq, 0);
	mod_timer(&t, jiffies + 1);
	wait_for_completion(&ctx_soft_done);
	timer_delete_sync(&t);
	destroy_timer_on_stack(&t);
	ctx_pairs(CTX_ATOMIC, GFP_ATOMIC);
	ctx_pairs(CTX_SLEEP, GFP_KERNEL);
	b = snap_stats(test);

	for (x = 0; x < MSTAT_NR_CTX; x++) {
		allocs[x] = b->ctx[x].allocs - a->ctx[x].allocs;
		frees[x] = b->ctx[x].frees - a->ctx[x].frees;
	}
	atomic = b->gfp[MSTAT_GFP_ATOMIC] - a->gfp[MSTAT_GFP_ATOMIC];
	sleep = b->gfp[MSTAT_GFP_SLEEP] - a->gfp[MSTAT_GFP_SLEEP];

	KUNIT_EXPECT_GE(test, allocs[MSTAT_CTX_HARDIRQ], (u64)CTX_HARD);
	KUNIT_EXPECT_GE(test, frees[MSTAT_CTX_HARDIRQ], (u64)CTX_HARD);
	KUNIT_EXPECT_GE(test, allocs[MSTAT_CTX_SOFTIRQ], (u64)CTX_SOFT);
	KUNIT_EXPECT_GE(test, frees[MSTAT_CTX_SOFTIRQ], (u64)CTX_SOFT);
	KUNIT_EXPECT_GE(test, allocs[MSTAT_CTX_TASK],
			(u64)CTX_ATOMIC + CTX_SLEEP);
	KUNIT_EXPECT_GE(test, frees[MSTAT_CTX_TASK], (u64)CTX_ATOMIC + CTX_SLEEP);
	KUNIT_EXPECT_GE(test, atomic, (u64)CTX_HARD + CTX_SOFT + CTX_ATOMIC);
	KUNIT_EXPECT_GE(test, sleep, (u64)CTX_SLEEP);
	/* The task's own: every atomic one but the interrupts' at least. */
	KUNIT_EXPECT_GE(test, atomic - allocs[MSTAT_CTX_HARDIRQ] -
			allocs[MSTAT_CTX_SOFTIRQ], (u64)CTX_ATOMIC);
}

/*
 * The context a kprobe's handler sees for the code it probes, where a
 * breakpoint runs the handler (an NMI level on top): mstat's probes on
 * split_page() and the bulk allocators ask it. The probed function is
 * notrace, so the kprobe cannot sit on an ftrace site, and the probe has
 * a post handler, so kprobes does not optimize it into a jump.
 */
static struct {
	struct kprobe kp;
	enum mstat_ctx seen;	/* the handler's mstat_probed_context() */
	enum mstat_ctx inside;	/* the probed function's mstat_context() */
	bool nmi;		/* the handler ran as an NMI */
	bool task;		/* in_task() in the handler */
	int hits;
} probed;
static DECLARE_COMPLETION(probed_done);

static noinline notrace void mstat_kunit_probed(void)
{
	WRITE_ONCE(probed.inside, mstat_context());
	barrier();
}

static int probed_pre(struct kprobe *kp, struct pt_regs *regs)
{
	probed.seen = mstat_probed_context();
	probed.nmi = in_nmi();
	probed.task = in_task();
	probed.hits++;
	return 0;
}

static void probed_post(struct kprobe *kp, struct pt_regs *regs,
			unsigned long flags)
{
}

static void probed_hardirq(struct irq_work *w)
{
	mstat_kunit_probed();
}

static void probed_softirq(struct timer_list *t)
{
	mstat_kunit_probed();
	complete(&probed_done);
}

/*
 * x86's int3 enters a kprobe's handler as an NMI; arm64's BRK does not
 * (in_nmi() false, in_task() true in a task: the soak's arm64 kernels),
 * and the handler sees the probed context's own level. Either way
 * mstat_probed_context() must be the probed code's context.
 */
#define MSTAT_KPROBE_NMI	IS_ENABLED(CONFIG_X86)

static void expect_probed(struct kunit *test, const char *where,
			  enum mstat_ctx want)
{
	KUNIT_EXPECT_EQ_MSG(test, probed.hits, 1, "%s", where);
	KUNIT_EXPECT_EQ_MSG(test, probed.nmi, MSTAT_KPROBE_NMI,
			    "%s: the handler's NMI level is not its arch's", where);
	KUNIT_EXPECT_EQ_MSG(test, probed.inside, want, "%s", where);
	KUNIT_EXPECT_EQ_MSG(test, probed.seen, probed.inside, "%s", where);
	probed.hits = 0;
}

static void mstat_probed_context_breakpoint(struct kunit *test)
{
	struct irq_work w = IRQ_WORK_INIT_HARD(probed_hardirq);
	struct timer_list t;
	int err;

	memset(&probed, 0, sizeof(probed));
	probed.kp.symbol_name = "mstat_kunit_probed";
	probed.kp.pre_handler = probed_pre;
	probed.kp.post_handler = probed_post;
	err = register_kprobe(&probed.kp);
	/* A kernel whose kprobes cannot take this function (KCSAN's). */
	if (err == -EOPNOTSUPP)
		kunit_skip(test, "register_kprobe(): %d", err);
	KUNIT_ASSERT_EQ(test, err, 0);

	mstat_kunit_probed();
	expect_probed(test, "task", MSTAT_CTX_TASK);
	/* What the split_page() probe asked before: wrong on x86. */
	KUNIT_EXPECT_EQ(test, probed.task, !MSTAT_KPROBE_NMI);

	irq_work_queue(&w);
	irq_work_sync(&w);
	expect_probed(test, "hardirq", MSTAT_CTX_HARDIRQ);

	reinit_completion(&probed_done);
	timer_setup_on_stack(&t, probed_softirq, 0);
	mod_timer(&t, jiffies + 1);
	wait_for_completion(&probed_done);
	timer_delete_sync(&t);
	destroy_timer_on_stack(&t);
	expect_probed(test, "softirq", MSTAT_CTX_SOFTIRQ);

	unregister_kprobe(&probed.kp);
}

/*
 * Page watches nest: one begun inside another of the same task and
 * context (a bulk allocation in another's direct reclaim) ends with its
 * own last page, and the outer one with the last page of all.
 */
static void mstat_page_watch_nested(struct kunit *test)
{
	struct page *a, *b, *c, *inner_seen, *outer_seen;
	int outer, inner;

	outer = mstat_page_watch_begin();
	a = alloc_page(GFP_KERNEL);
	inner = mstat_page_watch_begin();
	b = alloc_page(GFP_KERNEL);
	inner_seen = mstat_page_watch_end(inner);
	c = alloc_page(GFP_KERNEL);
	outer_seen = mstat_page_watch_end(outer);
	if (a)
		__free_page(a);
	if (b)
		__free_page(b);
	if (c)
		__free_page(c);

	KUNIT_ASSERT_GE(test, outer, 0);
	KUNIT_ASSERT_GE(test, inner, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_PTR_EQ(test, inner_seen, b);
	KUNIT_EXPECT_PTR_EQ(test, outer_seen, c);
}

static struct kunit_case mstat_probe_cases[] = {
	KUNIT_CASE(mstat_kprobe_symbol_clones),
	KUNIT_CASE(mstat_kfree_size_kmalloc),
	KUNIT_CASE(mstat_slab_layout_reads),
	KUNIT_CASE(mstat_probe_counts_kmalloc_and_cache),
	KUNIT_CASE(mstat_probe_counts_kmalloc_cache_events),
	KUNIT_CASE(mstat_probe_counts_contexts),
	KUNIT_CASE(mstat_probed_context_breakpoint),
	KUNIT_CASE(mstat_page_watch_nested),
	{}
};

static struct kunit_suite mstat_probe_suite = {
	.name = "mstat_probe",
	.test_cases = mstat_probe_cases,
};

kunit_test_suite(mstat_probe_suite);

MODULE_LICENSE("GPL");
MSTAT_IMPORT_KUNIT_NS();
MODULE_DESCRIPTION("KUnit tests of mstat's probes");
