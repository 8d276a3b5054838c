// SPDX-License-Identifier: GPL-2.0
/*
 * The bulk APIs (layer 4): kmem_cache_alloc_bulk(), kmem_cache_free_bulk()
 * and kfree_bulk() trace no event per object, on 6.1 as on 6.12, and
 * kfree_rcu()/kvfree_rcu() free their batches through kfree_bulk();
 * alloc_pages_bulk(), through which vmalloc() gets its pages, traces none
 * for the pages it takes from the per-CPU lists (their frees are traced,
 * one by one). So mstat counts them from probes on the exported functions
 * themselves (alloc_pages_bulk(): see mstat_bulk_pages_ret()):
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
 * kprobes are allowed under lockdown. If the kernel has no such function
 * or will not let it be probed, mstat still loads and counts everything
 * else, and says so in the log and in debugfs' internals; any other
 * error (no memory) fails the load. A kretprobe whose instances run out
 * (more tasks sleeping in kmem_cache_alloc_bulk() at once than it holds)
 * misses returns: debugfs' internals show how many.
 *
 * And on a kernel with fail_page_alloc (fault injection), the page
 * allocations it fails: they return before the mm_page_alloc event that
 * reports every other failure, so a kretprobe on should_fail_alloc_page()
 * counts them (see mstat_fail_page_ret()).
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
#include "mstat_count.h"
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

/*
 * alloc_pages_bulk(gfp, nid, nodemask, nr_pages, list, array): order-0
 * pages taken from the per-CPU lists trace no mm_page_alloc (vmalloc()
 * gets its pages this way). The entry handler counts the pages already
 * in the array (or on the list), the return handler counts them again:
 * the new ones are the difference. When the bulk path cannot be used it
 * falls back to the single-page allocator, for one page, which is
 * traced: one new page where one was asked for is that page, and is not
 * counted here again.
 */
struct mstat_bulk_pages_call {
	struct list_head *list;
	struct page **array;
	unsigned long pre;
	int nr;
	gfp_t gfp;
};

static unsigned long mstat_bulk_pages_held(struct mstat_bulk_pages_call *call)
{
	struct list_head *pos;
	unsigned long n = 0;
	int i;

	if (call->array) {
		for (i = 0; i < call->nr; i++)
			n += !!call->array[i];
	} else if (call->list) {
		list_for_each(pos, call->list)
			n++;
	}
	return n;
}

static int mstat_bulk_pages_entry(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	struct mstat_bulk_pages_call *call = (void *)ri->data;

	call->gfp = (__force gfp_t)regs_get_kernel_argument(regs, 0);
	call->nr = (int)regs_get_kernel_argument(regs, 3);
	call->list = (struct list_head *)regs_get_kernel_argument(regs, 4);
	call->array = (struct page **)regs_get_kernel_argument(regs, 5);
	call->pre = call->nr > 0 ? mstat_bulk_pages_held(call) : 0;
	return 0;
}

static int mstat_bulk_pages_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct mstat_bulk_pages_call *call = (void *)ri->data;
	unsigned long i, n;

	if (call->nr <= 0 || !mstat_source_enabled(MSTAT_SRC_PAGE))
		return 0;
	n = mstat_bulk_pages_held(call) - call->pre;
	/* The single-page fallback's page was traced. */
	if (n == 1)
		return 0;
	for (i = 0; i < n; i++)
		mstat_count_page_alloc(call->gfp);
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

static const char *const mstat_bulk_pages_names[] = {
	"alloc_pages_bulk_noprof", "__alloc_pages_bulk",
};

static struct kretprobe mstat_bulk_pages_rp = {
	.entry_handler = mstat_bulk_pages_entry,
	.handler = mstat_bulk_pages_ret,
	.data_size = sizeof(struct mstat_bulk_pages_call),
};

static struct kprobe mstat_bulk_free_kp = {
	.symbol_name = "kmem_cache_free_bulk",
	.pre_handler = mstat_bulk_free_entry,
};

/*
 * should_fail_alloc_page(gfp, order), on a kernel with fail_page_alloc
 * (fault injection): a page allocation it fails returns NULL from
 * prepare_alloc_pages(), before the mm_page_alloc event that reports
 * every other failure. The entry handler keeps the order, the return
 * handler counts a failure of that order when it said "fail". On other
 * kernels the function does not exist and nothing is registered.
 */
static int mstat_fail_page_entry(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	*(unsigned int *)ri->data = regs_get_kernel_argument(regs, 1);
	return 0;
}

static int mstat_fail_page_ret(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	/* A bool: only the low byte of the return register is defined. */
	if ((u8)regs_return_value(regs) && mstat_source_enabled(MSTAT_SRC_PAGE))
		mstat_count_failure(MSTAT_SRC_PAGE,
				    mstat_order_cell(*(unsigned int *)ri->data));
	return 0;
}

static const char *const mstat_fail_page_names[] = { "should_fail_alloc_page" };

static struct kretprobe mstat_fail_page_rp = {
	.entry_handler = mstat_fail_page_entry,
	.handler = mstat_fail_page_ret,
	.data_size = sizeof(unsigned int),
};

static bool mstat_bulk_alloc_on, mstat_bulk_free_on, mstat_bulk_pages_on;
static bool mstat_fail_page_on;

/* Register @rp on the first of @names the kernel has. */
static int mstat_kretprobe_first(struct kretprobe *rp,
				 const char *const *names, unsigned int n)
{
	unsigned int i;
	int err = -ENOENT;

	/* Enough for every CPU's task to sleep in it a few deep. */
	rp->maxactive = max(64U, 8 * num_possible_cpus());
	for (i = 0; i < n; i++) {
		rp->kp.symbol_name = names[i];
		rp->kp.addr = NULL;
		err = register_kretprobe(rp);
		if (err != -ENOENT && err != -EINVAL)
			break;
	}
	return err;
}

/*
 * Whether @err from registering a probe means the kernel has no such
 * function to probe (or forbids probing it): that API then goes
 * uncounted, with a log line. Any other error (no memory) fails the load.
 */
static bool mstat_probe_absent(int err)
{
	return err == -ENOENT || err == -EINVAL || err == -EOPNOTSUPP ||
	       err == -EACCES;
}

/**
 * mstat_bulk_init() - probe the bulk APIs, and fail_page_alloc's failures
 *
 * A function the kernel does not have, or does not let us probe, leaves
 * that API uncounted, with a log line; mstat works on without it. Any
 * other error undoes what was registered.
 *
 * Context: process; sleeps. After mstat_stats_init().
 * Return: 0 or a negative errno (-ENOMEM).
 */
int mstat_bulk_init(void)
{
	int err;

	err = mstat_kretprobe_first(&mstat_bulk_alloc_rp, mstat_bulk_alloc_names,
				    ARRAY_SIZE(mstat_bulk_alloc_names));
	mstat_bulk_alloc_on = !err;
	if (err && !mstat_probe_absent(err))
		goto fail;
	if (err)
		pr_warn("kmem_cache_alloc_bulk() not counted: kretprobe: %d\n",
			err);
	err = mstat_kretprobe_first(&mstat_bulk_pages_rp, mstat_bulk_pages_names,
				    ARRAY_SIZE(mstat_bulk_pages_names));
	mstat_bulk_pages_on = !err;
	if (err && !mstat_probe_absent(err))
		goto fail;
	if (err)
		pr_warn("alloc_pages_bulk() not counted: kretprobe: %d\n", err);
	err = register_kprobe(&mstat_bulk_free_kp);
	mstat_bulk_free_on = !err;
	if (err && !mstat_probe_absent(err))
		goto fail;
	if (err)
		pr_warn("kmem_cache_free_bulk(), kfree_bulk() not counted: kprobe: %d\n",
			err);
	/* A test build that must fail the failure-counting test skips it. */
	err = MSTAT_COUNTS_BROKEN ? -ENOENT :
	      mstat_kretprobe_first(&mstat_fail_page_rp, mstat_fail_page_names,
				    ARRAY_SIZE(mstat_fail_page_names));
	mstat_fail_page_on = !err;
	if (err && !mstat_probe_absent(err))
		goto fail;
	if (!err)
		pr_info("fail_page_alloc in this kernel: its injected failures counted\n");
	return 0;

fail:
	pr_err("cannot probe the bulk APIs: %d\n", err);
	mstat_bulk_exit();
	return err;
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
	if (mstat_bulk_pages_on)
		unregister_kretprobe(&mstat_bulk_pages_rp);
	if (mstat_fail_page_on)
		unregister_kretprobe(&mstat_fail_page_rp);
	mstat_fail_page_on = false;
	mstat_bulk_free_on = false;
	mstat_bulk_alloc_on = false;
	mstat_bulk_pages_on = false;
}

/**
 * mstat_bulk_show() - the probes' state, for debugfs' internals
 * @alloc: set to whether kmem_cache_alloc_bulk() is counted
 * @free: set to whether kmem_cache_free_bulk() is counted
 * @pages: set to whether alloc_pages_bulk() is counted
 *
 * Return: the kretprobes' missed returns (calls whose allocations were
 * not counted).
 */
unsigned long mstat_bulk_show(bool *alloc, bool *free, bool *pages)
{
	*alloc = mstat_bulk_alloc_on;
	*free = mstat_bulk_free_on;
	*pages = mstat_bulk_pages_on;
	return (mstat_bulk_alloc_on ? READ_ONCE(mstat_bulk_alloc_rp.nmissed) : 0) +
	       (mstat_bulk_pages_on ? READ_ONCE(mstat_bulk_pages_rp.nmissed) : 0) +
	       (mstat_fail_page_on ? READ_ONCE(mstat_fail_page_rp.nmissed) : 0);
}

#else /* no kretprobes */

int mstat_bulk_init(void)
{
	pr_warn("the bulk APIs are not counted: no kretprobes in this kernel\n");
	return 0;
}

void mstat_bulk_exit(void)
{
}

unsigned long mstat_bulk_show(bool *alloc, bool *free, bool *pages)
{
	*alloc = false;
	*free = false;
	*pages = false;
	return 0;
}

#endif
