// SPDX-License-Identifier: GPL-2.0
/*
 * The bulk APIs (layer 4): kmem_cache_alloc_bulk(), kmem_cache_free_bulk()
 * and kfree_bulk() trace no event per object, on 6.1 as on 6.12, and
 * kfree_rcu()/kvfree_rcu() free their batches through kfree_bulk(). So
 * mstat counts them from probes on the exported functions themselves:
 *
 *  - kmem_cache_alloc_bulk(s, gfp, size, p): a kretprobe; its entry
 *    handler keeps s, gfp and p, its return handler counts the objects
 *    p[0..ret-1] it returned, each as the kmem_cache_alloc probe counts
 *    one;
 *  - kmem_cache_free_bulk(s, size, p): a kprobe at entry, where every
 *    p[i] is still allocated; with a cache, each as the kmem_cache_free
 *    probe counts one; without one (kfree_bulk()), each as the kfree
 *    probe does.
 *
 * Each object is one write section of the hot path, as a traced event
 * is. The functions are found by name in the running kernel (with 6.10's
 * allocation profiling the allocator is kmem_cache_alloc_bulk_noprof());
 * kprobes are allowed under lockdown. If they cannot be registered, mstat
 * still loads and counts everything else, and says so in the log and in
 * debugfs' internals. A kretprobe whose instances run out (more tasks
 * sleeping in kmem_cache_alloc_bulk() at once than it holds) misses
 * returns: debugfs' internals show how many.
 *
 * Not counted: a kmem_cache_alloc_bulk() that fails after it allocated
 * part of the batch frees that part through kmem_cache_free_bulk() and
 * returns 0, so those frees are counted without their allocations. It
 * happens only when memory runs out (or a memory cgroup's charge fails).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/slab.h>

#include "mstat_bulk.h"
#include "mstat_sources.h"
#include "mstat_stats.h"

#if IS_ENABLED(CONFIG_KRETPROBES) && \
	IS_ENABLED(CONFIG_HAVE_REGS_AND_STACK_ACCESS_API)

/* What the alloc_bulk kretprobe's entry handler keeps for its return. */
struct mstat_bulk_call {
	struct kmem_cache *s;
	void **p;
	gfp_t gfp;
};

static int mstat_bulk_alloc_entry(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	struct mstat_bulk_call *call = (void *)ri->data;

	call->s = (struct kmem_cache *)regs_get_kernel_argument(regs, 0);
	call->gfp = (__force gfp_t)regs_get_kernel_argument(regs, 1);
	call->p = (void **)regs_get_kernel_argument(regs, 3);
	return 0;
}

static int mstat_bulk_alloc_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct mstat_bulk_call *call = (void *)ri->data;
	long i, n = (int)regs_return_value(regs);
	unsigned long site = get_kretprobe_retaddr(ri);

	if (n <= 0 || !call->s || !mstat_source_enabled(MSTAT_SRC_CACHE))
		return 0;
	for (i = 0; i < n; i++)
		mstat_count_cache_alloc(call->s, call->p[i], call->gfp, site);
	return 0;
}

static int mstat_bulk_free_entry(struct kprobe *kp, struct pt_regs *regs)
{
	struct kmem_cache *s = (void *)regs_get_kernel_argument(regs, 0);
	size_t i, n = regs_get_kernel_argument(regs, 1);
	void **p = (void **)regs_get_kernel_argument(regs, 2);

	/* A test build that must fail the ground-truth test. */
	if (MSTAT_COUNTS_BROKEN)
		return 0;
	if (s) {
		if (!mstat_source_enabled(MSTAT_SRC_CACHE))
			return 0;
		for (i = 0; i < n; i++)
			if (p[i])
				mstat_count_cache_free(s, p[i], 0);
		return 0;
	}
	if (!mstat_source_enabled(MSTAT_SRC_KMALLOC))
		return 0;
	for (i = 0; i < n; i++)
		mstat_count_kfree(p[i], 0);
	return 0;
}

/* The allocator's name for each, newest first. */
static const char *const mstat_bulk_alloc_names[] = {
	"kmem_cache_alloc_bulk_noprof", "kmem_cache_alloc_bulk",
};

static struct kretprobe mstat_bulk_alloc_rp = {
	.entry_handler = mstat_bulk_alloc_entry,
	.handler = mstat_bulk_alloc_ret,
	.data_size = sizeof(struct mstat_bulk_call),
};

static struct kprobe mstat_bulk_free_kp = {
	.symbol_name = "kmem_cache_free_bulk",
	.pre_handler = mstat_bulk_free_entry,
};

static bool mstat_bulk_alloc_on, mstat_bulk_free_on;

/**
 * mstat_bulk_init() - probe the bulk APIs
 *
 * A probe that cannot be registered leaves that API uncounted, with a
 * log line; mstat works on without it.
 *
 * Context: process; sleeps. After mstat_stats_init().
 */
void mstat_bulk_init(void)
{
	unsigned int i;
	int err = -ENOENT;

	/* Enough for every CPU's task to sleep in it a few deep. */
	mstat_bulk_alloc_rp.maxactive = max(64U, 8 * num_possible_cpus());
	for (i = 0; i < ARRAY_SIZE(mstat_bulk_alloc_names); i++) {
		mstat_bulk_alloc_rp.kp.symbol_name = mstat_bulk_alloc_names[i];
		mstat_bulk_alloc_rp.kp.addr = NULL;
		err = register_kretprobe(&mstat_bulk_alloc_rp);
		if (err != -ENOENT && err != -EINVAL)
			break;
	}
	mstat_bulk_alloc_on = !err;
	if (err)
		pr_warn("kmem_cache_alloc_bulk() not counted: kretprobe: %d\n",
			err);
	err = register_kprobe(&mstat_bulk_free_kp);
	mstat_bulk_free_on = !err;
	if (err)
		pr_warn("kmem_cache_free_bulk(), kfree_bulk() not counted: kprobe: %d\n",
			err);
}

/**
 * mstat_bulk_exit() - remove the probes and wait for their handlers
 *
 * Context: process; sleeps. Before the core is freed.
 */
void mstat_bulk_exit(void)
{
	if (mstat_bulk_free_on)
		unregister_kprobe(&mstat_bulk_free_kp);
	if (mstat_bulk_alloc_on)
		unregister_kretprobe(&mstat_bulk_alloc_rp);
	mstat_bulk_free_on = false;
	mstat_bulk_alloc_on = false;
}

/**
 * mstat_bulk_show() - the probes' state, for debugfs' internals
 * @alloc: set to whether kmem_cache_alloc_bulk() is counted
 * @free: set to whether kmem_cache_free_bulk() is counted
 *
 * Return: the kretprobe's missed returns (allocations not counted).
 */
unsigned long mstat_bulk_show(bool *alloc, bool *free)
{
	*alloc = mstat_bulk_alloc_on;
	*free = mstat_bulk_free_on;
	return mstat_bulk_alloc_on ? READ_ONCE(mstat_bulk_alloc_rp.nmissed) : 0;
}

#else /* no kretprobes */

void mstat_bulk_init(void)
{
	pr_warn("the bulk APIs are not counted: no kretprobes in this kernel\n");
}

void mstat_bulk_exit(void)
{
}

unsigned long mstat_bulk_show(bool *alloc, bool *free)
{
	*alloc = false;
	*free = false;
	return 0;
}

#endif
