// SPDX-License-Identifier: GPL-2.0
/*
 * mstat's kprobes and kretprobes (layer 4): what the kmem tracepoints do
 * not report, counted from probes on the functions themselves, one table
 * of them by id (struct mstat_kprobe), registered at load.
 *
 * The bulk APIs: kmem_cache_alloc_bulk(), kmem_cache_free_bulk()
 * and kfree_bulk() trace no event per object, on 6.1 as on 6.12, and
 * kfree_rcu()/kvfree_rcu() free their batches through kfree_bulk();
 * alloc_pages_bulk(), through which vmalloc() gets its pages, traces none
 * for the pages it takes from the per-CPU lists (their frees are traced,
 * one by one). So mstat counts them from probes on the exported functions
 * themselves (alloc_pages_bulk(): see mstat_bulk_pages_ret(), which also
 * gives each page to the heap profile as a traced page is given, at the
 * same rate, its stack its caller's, its free found by mm_page_free: the
 * pages of page_pool's refills and of 6.x vmalloc() are sampled too):
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
 *  - split_page(page, order), alloc_pages_exact(size, gfp) and
 *    alloc_pages_exact_nid(nid, size, gfp): a block made into order-0
 *    pages; probed by mstat_exact.c, which says how, and learns at load
 *    which of them counts the split;
 *  - __kfree_rcu_sheaf(s, obj, ...) (7.0 on): kfree_rcu() and
 *    kvfree_rcu() put a slab object into the per-CPU "sheaf" of objects
 *    to free after a grace period; those frees trace nothing and never
 *    reach kfree_bulk(). A kretprobe counts each object the sheaf took,
 *    as the kfree probe counts one, when it takes it.
 *
 * Each object is one write section of the hot path, as a traced event
 * is. A probe reads its function's arguments by position, so each
 * position comes from a prototype that compat/ checked against the
 * target kernel's own declaration when mstat was built: which function
 * (6.10's allocation profiling renamed them *_noprof()), which argument
 * holds what (6.14 dropped alloc_pages_bulk()'s list), what it returns
 * (7.2's kmem_cache_alloc_bulk() returns a bool). Where no known
 * prototype matched, that probe is not registered at all: a log line
 * says so, and /proc/mstat's probe_* lines show 0 for it. The one
 * function no header declares, __kfree_rcu_sheaf(), is private to mm/:
 * its handler counts an object only if the cache argument is the cache
 * the object lives in, so arguments in other places count nothing and
 * touch nothing (mstat_bulk_sheaf_ret()).
 *
 * The functions are found by name in the running kernel (the vm areas'
 * two, private to mm/vmalloc.c, under their own name or as the one
 * clone the compiler emitted: mstat_kprobe_symbol()); kprobes are allowed
 * under lockdown. If the kernel has no such function or will not
 * let it be probed, mstat still loads and counts everything else, and
 * says so in the log, in /proc/mstat and in debugfs' internals; any
 * other error (no memory) fails the load. A kretprobe whose instances run out
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

#include <linux/bitmap.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mstat_compat.h"
#include "mstat_count.h"
#include "mstat_kprobes.h"
#include "mstat_kprobes_priv.h"
#include "mstat_mutant.h"
#include "mstat_slab.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_text.h"
#include "mstat_vmem.h"
#include "mstat_watch.h"

/*
 * What compat/ found: each probe's function and its arguments' places.
 * A probe without a matching prototype is left out (MSTAT_BULK_*_FN
 * undefined).
 */
#if defined(MSTAT_HAVE_CACHE_ALLOC_BULK_BOOL)
/* 7.2 on: all of size objects, or none. */
#define MSTAT_BULK_ALLOC_FN	"kmem_cache_alloc_bulk_noprof"
#elif defined(MSTAT_HAVE_CACHE_ALLOC_BULK_NOPROF)
#define MSTAT_BULK_ALLOC_FN	"kmem_cache_alloc_bulk_noprof"
#elif defined(MSTAT_HAVE_CACHE_ALLOC_BULK)
#define MSTAT_BULK_ALLOC_FN	"kmem_cache_alloc_bulk"
#endif

/* (gfp, nid, nodemask, nr_pages, [list,] array): the list's and array's. */
#if defined(MSTAT_HAVE_BULK_PAGES_ARRAY)
#define MSTAT_BULK_PAGES_FN	"alloc_pages_bulk_noprof"
#define MSTAT_BULK_PAGES_LIST	-1
#define MSTAT_BULK_PAGES_ARRAY	4
#elif defined(MSTAT_HAVE_BULK_PAGES_NOPROF_LIST)
#define MSTAT_BULK_PAGES_FN	"alloc_pages_bulk_noprof"
#define MSTAT_BULK_PAGES_LIST	4
#define MSTAT_BULK_PAGES_ARRAY	5
#elif defined(MSTAT_HAVE_BULK_PAGES_LIST)
#define MSTAT_BULK_PAGES_FN	"__alloc_pages_bulk"
#define MSTAT_BULK_PAGES_LIST	4
#define MSTAT_BULK_PAGES_ARRAY	5
#endif

#ifdef MSTAT_HAVE_CACHE_FREE_BULK
#define MSTAT_BULK_FREE_FN	"kmem_cache_free_bulk"
#endif

/* Both or neither: an area made and never removed would stay counted. */
#ifdef MSTAT_HAVE_VM_AREA_PROTOS
#define MSTAT_VM_AREA_FN	"__get_vm_area_node"
#define MSTAT_VM_REMOVE_FN	"remove_vm_area"
#else
#define MSTAT_VM_AREA_FN	NULL
#define MSTAT_VM_REMOVE_FN	NULL
#endif

#ifdef MSTAT_HAVE_SPLIT_PAGE
#define MSTAT_SPLIT_PAGE_FN	"split_page"
#endif

#if defined(MSTAT_HAVE_ALLOC_PAGES_EXACT_NOPROF)
#define MSTAT_EXACT_FN		"alloc_pages_exact_noprof"
#elif defined(MSTAT_HAVE_ALLOC_PAGES_EXACT)
#define MSTAT_EXACT_FN		"alloc_pages_exact"
#endif

#if defined(MSTAT_HAVE_ALLOC_PAGES_EXACT_NID_NOPROF)
#define MSTAT_EXACT_NID_FN	"alloc_pages_exact_nid_noprof"
#elif defined(MSTAT_HAVE_ALLOC_PAGES_EXACT_NID)
#define MSTAT_EXACT_NID_FN	"alloc_pages_exact_nid"
#endif

/*
 * Before 6.0 the kmem_cache_free event does not name the cache, and it
 * comes after the free, when the object's slab may be gone (back to the
 * page allocator, even reused): the free is counted at kmem_cache_free()'s
 * entry instead, where its arguments are whole.
 */
#ifndef MSTAT_HAVE_TP_CACHE_FREE_CACHE
#define MSTAT_PROBE_CACHE_FREE
#ifdef MSTAT_HAVE_CACHE_FREE
#define MSTAT_CACHE_FREE_FN	"kmem_cache_free"
#else
#define MSTAT_CACHE_FREE_FN	NULL
#endif
#define MSTAT_CACHE_FREE_FALLBACK \
	"its frees counted by its event, after the free, by their slab if still there"
#endif

#ifdef MSTAT_HAVE_FAIL_ALLOC_PAGE
#define MSTAT_FAIL_PAGE_FN	"should_fail_alloc_page"
#endif

/*
 * One probed function. Every function has its entry in the table, at its
 * mstat_kprobe_id, on every kernel and in every build.
 *
 * @api: what it counts, as /proc/mstat's probe_* line names it
 * @fn: the function probed; NULL if no prototype compat/ knows matched
 *	(the function is then absent: never registered, its line says 0)
 * @rp: its kretprobe, or
 * @kp: its kprobe
 * @unused: not probed on this kernel, and not shown: something else
 *	counts what it would
 * @quiet: whether its absence is normal and logged at info level
 * @fallback: if set, what counts its events when it is absent (logged
 *	with the absence), instead of nothing
 * @on_flag: if set, kept equal to @on, for the fallback to see
 * @exact: alloc_pages_exact()'s: counts the split only where
 *	split_page()'s probe does not count it already, and is not
 *	registered where make_alloc_exact()'s kprobe counts for it
 *	(mstat_exact_learn())
 * @clones: private to its file, so that the compiler may have emitted
 *	it only as a clone (mstat_kprobe_symbol())
 * @sym: the name probed: @fn, or its clone's
 * @on: whether it is registered
 */
struct mstat_kprobe {
	const char *api;
	const char *fn;
	struct kretprobe *rp;
	struct kprobe *kp;
	bool unused;
	bool quiet;
	const char *fallback;
	bool *on_flag;
	bool exact;
	bool clones;
	char sym[MSTAT_KPROBE_SYM_LEN];
	bool on;
};

/* Sheaf frees not counted: their slab did not name the cache argument. */
static atomic_long_t mstat_bulk_sheaf_bad;

/* alloc_pages_bulk()'s pages counted without their page (never sampled). */
static atomic_long_t mstat_bulk_pages_unsampled_n;

#ifdef MSTAT_CAN_KRETPROBE

/* What the alloc_bulk kretprobe's entry handler keeps for its return. */
struct mstat_bulk_call {
	struct kmem_cache *s;
	void **p;
	size_t size;
	gfp_t gfp;
};

static int mstat_bulk_alloc_entry(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	struct mstat_bulk_call *call = (void *)ri->data;

	if (mstat_probe_empty())
		return 0;

	call->s = (struct kmem_cache *)regs_get_kernel_argument(regs, 0);
	call->gfp = (__force gfp_t)regs_get_kernel_argument(regs, 1);
	call->size = regs_get_kernel_argument(regs, 2);
	call->p = (void **)regs_get_kernel_argument(regs, 3);
	return 0;
}

static int mstat_bulk_alloc_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct mstat_bulk_call *call = (void *)ri->data;
	unsigned long site = mstat_kretprobe_retaddr(ri);
	long i, n;

	if (mstat_probe_empty())
		return 0;

#ifdef MSTAT_BULK_ALLOC_FN
	/* A bool: only the low byte of the return register is defined. */
	if (MSTAT_CACHE_ALLOC_BULK_BOOL)
		n = (u8)regs_return_value(regs) ? call->size : 0;
	else
		n = (int)regs_return_value(regs);
#else
	n = 0;
#endif
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

	if (mstat_probe_empty())
		return 0;

	if (mstat_mutant(MSTAT_MUT_NO_BULK_FREE))
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
 * alloc_pages_bulk(gfp, nid, nodemask, nr_pages, [list,] array): order-0
 * pages taken from the per-CPU lists trace no mm_page_alloc (vmalloc()
 * gets its pages this way). The entry handler counts the pages already
 * in the array (or on the list), the return handler counts them again:
 * the new ones are the difference.
 *
 * When the kernel does not take the per-CPU path it falls back to the
 * single-page allocator, for one page, which is traced, and must not be
 * counted again. It does so when one page is all that is missing after
 * the array's leading run of filled slots, or when the per-CPU path gave
 * it nothing (or may not be used: __GFP_ACCOUNT with kmem accounting
 * on). One new page where more were missing is the second case only if
 * the mm_page_alloc probe saw that very page in this call's own task and
 * context (a page watch, mstat_sources.c: not an interrupt's page, and
 * wherever the call migrated); otherwise it came from the per-CPU lists
 * into a hole of the array, untraced, and is counted here.
 *
 * Each page counted here is counted as the mm_page_alloc probe counts
 * one, with its struct page: sampled for the heap profile at the same
 * rate, its stack the caller's (the kretprobe's return address, from
 * which mstat_page_stack() starts it), its free matched by mm_page_free.
 * Which pages are new: the kernel never takes a page out of the array
 * and fills only its holes, past the leading run; it adds to the head of
 * the list. So the new pages are the first n entries of the list, or
 * the slots past the leading run that are filled now and were holes at
 * entry. The entry handler keeps which of the first MSTAT_BULK_SEEN
 * slots past the run were filled (a sparse array: sunrpc's, mstat_truth's
 * holes), and how many beyond: where there are some beyond, a new page
 * there cannot be told from an old one, and is counted without its page
 * (never sampled: an old page's sample would be counted twice), in
 * debugfs' internals as bulk_pages_unsampled. The callers that matter
 * (vmalloc(), page_pool's refill, xfs's buffers) pass arrays with no
 * filled slot after a hole. The entry handler walks the array once, the
 * return handler twice (its second walk stops at the last new page): a
 * call of N pages costs what N traced pages cost and a few loads a slot
 * (the bitmap: 64 bytes of each of the kretprobe's instances).
 */
#define MSTAT_BULK_SEEN		512

struct mstat_bulk_pages_call {
	struct list_head *list;
	struct page **array;
	unsigned long pre;
	int nr;
	int lead;	/* the array's leading filled slots */
	int watch;	/* mstat_page_watch_begin()'s */
	int far;	/* filled slots from lead + MSTAT_BULK_SEEN on */
	gfp_t gfp;
	/* Bit i: slot lead + i was filled at entry. */
	DECLARE_BITMAP(filled, MSTAT_BULK_SEEN);
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

/* The entry's walk of the array: its leading run, then its other pages. */
static void mstat_bulk_pages_seen(struct mstat_bulk_pages_call *call)
{
	int i;

	call->lead = 0;
	call->far = 0;
	call->pre = 0;
	if (!call->array) {
		call->pre = call->nr > 0 ? mstat_bulk_pages_held(call) : 0;
		return;
	}
	while (call->lead < call->nr && call->array[call->lead])
		call->lead++;
	call->pre = call->lead;
	bitmap_zero(call->filled, MSTAT_BULK_SEEN);
	for (i = call->lead; i < call->nr; i++) {
		if (!call->array[i])
			continue;
		call->pre++;
		if (i - call->lead < MSTAT_BULK_SEEN)
			__set_bit(i - call->lead, call->filled);
		else
			call->far++;
	}
}

static __always_inline unsigned long mstat_arg(struct pt_regs *regs, int n)
{
	return n < 0 ? 0 : regs_get_kernel_argument(regs, n);
}

static int mstat_bulk_pages_entry(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	struct mstat_bulk_pages_call *call = (void *)ri->data;

	if (mstat_probe_empty())
		return 0;

	call->gfp = (__force gfp_t)regs_get_kernel_argument(regs, 0);
	call->nr = (int)regs_get_kernel_argument(regs, 3);
#ifdef MSTAT_BULK_PAGES_FN
	call->list = (struct list_head *)mstat_arg(regs, MSTAT_BULK_PAGES_LIST);
	call->array = (struct page **)mstat_arg(regs, MSTAT_BULK_PAGES_ARRAY);
#else
	call->list = NULL;
	call->array = NULL;
#endif
	mstat_bulk_pages_seen(call);
	call->watch = mstat_mutant(MSTAT_MUT_NO_WATCH) ? -1 :
		      mstat_page_watch_begin();
	return 0;
}

/* The one page the call added: the first hole's, or the list's head. */
static struct page *mstat_bulk_pages_new(struct mstat_bulk_pages_call *call)
{
	if (call->array)
		return call->lead < call->nr ? call->array[call->lead] : NULL;
	if (call->list && !list_empty(call->list))
		return list_first_entry(call->list, struct page, lru);
	return NULL;
}

/*
 * Count the @n pages the call added, each with its page where it is
 * known which they are, from the call's return address @site.
 */
static void mstat_bulk_pages_count(struct mstat_bulk_pages_call *call,
				   unsigned long n, unsigned long site)
{
	bool sample = !mstat_mutant(MSTAT_MUT_BULK_UNSAMPLED);
	struct page *page;
	int i;

	if (call->array) {
		for (i = call->lead; n && i < call->nr; i++) {
			if (i - call->lead >= MSTAT_BULK_SEEN && call->far)
				break;
			page = call->array[i];
			if (!page || (i - call->lead < MSTAT_BULK_SEEN &&
				      test_bit(i - call->lead, call->filled)))
				continue;
			mstat_count_page_alloc(call->gfp, sample ? page : NULL,
					       site);
			n--;
		}
	} else {
		list_for_each_entry(page, call->list, lru) {
			if (!n)
				break;
			mstat_count_page_alloc(call->gfp, sample ? page : NULL,
					       site);
			n--;
		}
	}
	if (n)
		atomic_long_add(n, &mstat_bulk_pages_unsampled_n);
	for (; n; n--)
		mstat_count_page_alloc(call->gfp, NULL, site);
}

static int mstat_bulk_pages_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct mstat_bulk_pages_call *call = (void *)ri->data;
	struct page *traced = mstat_page_watch_end(call->watch);
	unsigned long n;

	if (mstat_probe_empty())
		return 0;

	if (call->nr <= 0 || !mstat_source_enabled(MSTAT_SRC_PAGE))
		return 0;
	n = mstat_bulk_pages_held(call);
	if (n <= call->pre)
		return 0;
	n -= call->pre;
	/* The single-page fallback's page was traced. */
	if (n == 1 && (call->nr - call->lead == 1 ||
		       (traced && traced == mstat_bulk_pages_new(call))))
		return 0;
	mstat_bulk_pages_count(call, n, mstat_kretprobe_retaddr(ri));
	return 0;
}

/*
 * __kfree_rcu_sheaf(s, obj, ...) (7.0 on), private to mm/: true if the
 * object went into the per-CPU sheaf of objects that are freed after a
 * grace period, untraced. Only an object whose slab names @s as its
 * cache is counted (where the slab layout is unknown: a slab object):
 * that is what the kernel's prototype promises, and arguments found
 * elsewhere (a changed prototype) then count nothing.
 */
struct mstat_bulk_sheaf_call {
	struct kmem_cache *s;
	void *obj;
};

static int mstat_bulk_sheaf_entry(struct kretprobe_instance *ri,
				  struct pt_regs *regs)
{
	struct mstat_bulk_sheaf_call *call = (void *)ri->data;

	if (mstat_probe_empty())
		return 0;

	call->s = (struct kmem_cache *)regs_get_kernel_argument(regs, 0);
	call->obj = (void *)regs_get_kernel_argument(regs, 1);
	return 0;
}

static int mstat_bulk_sheaf_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct mstat_bulk_sheaf_call *call = (void *)ri->data;
	struct mstat_head *head;

	if (mstat_probe_empty())
		return 0;

	/* A bool: only the low byte of the return register is defined. */
	if (!(u8)regs_return_value(regs) || mstat_mutant(MSTAT_MUT_NO_SHEAF))
		return 0;
	/* Without the slab layout: a slab object at least. */
	if (!call->s || !virt_addr_valid(call->obj) ||
	    (static_branch_likely(&mstat_slab_known) ?
	     mstat_slab_cache_of(call->obj, &head) != call->s :
	     !mstat_head_test_slab(mstat_virt_to_head(call->obj)))) {
		atomic_long_inc(&mstat_bulk_sheaf_bad);
		return 0;
	}
	if (mstat_source_enabled(MSTAT_SRC_KMALLOC) ||
	    mstat_source_enabled(MSTAT_SRC_CACHE))
		mstat_count_kfree(call->obj, mstat_kretprobe_retaddr(ri));
	return 0;
}

static struct kretprobe mstat_bulk_alloc_rp = {
	.entry_handler = mstat_bulk_alloc_entry,
	.handler = mstat_bulk_alloc_ret,
	.data_size = sizeof(struct mstat_bulk_call),
};

static struct kretprobe mstat_bulk_pages_rp = {
	.entry_handler = mstat_bulk_pages_entry,
	.handler = mstat_bulk_pages_ret,
	.data_size = sizeof(struct mstat_bulk_pages_call),
};

static struct kretprobe mstat_bulk_sheaf_rp = {
	.entry_handler = mstat_bulk_sheaf_entry,
	.handler = mstat_bulk_sheaf_ret,
	.data_size = sizeof(struct mstat_bulk_sheaf_call),
};

static struct kprobe mstat_bulk_free_kp = {
	.pre_handler = mstat_bulk_free_entry,
};

#ifdef MSTAT_PROBE_CACHE_FREE
static int mstat_cache_free_entry(struct kprobe *kp, struct pt_regs *regs)
{
	struct kmem_cache *s = (void *)regs_get_kernel_argument(regs, 0);
	void *x = (void *)regs_get_kernel_argument(regs, 1);

	if (mstat_probe_empty())
		return 0;

	if (x && s && mstat_source_enabled(MSTAT_SRC_CACHE))
		mstat_count_cache_free_entry(s, x);
	return 0;
}

static struct kprobe mstat_cache_free_kp = {
	.pre_handler = mstat_cache_free_entry,
};
#endif

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
	if (mstat_probe_empty())
		return 0;
	*(unsigned int *)ri->data = regs_get_kernel_argument(regs, 1);
	return 0;
}

static int mstat_fail_page_ret(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	if (mstat_probe_empty())
		return 0;
	/* A bool: only the low byte of the return register is defined. */
	if ((u8)regs_return_value(regs) && mstat_source_enabled(MSTAT_SRC_PAGE))
		mstat_count_failure(MSTAT_SRC_PAGE,
				    mstat_order_cell(*(unsigned int *)ri->data));
	return 0;
}

static struct kretprobe mstat_fail_page_rp = {
	.entry_handler = mstat_fail_page_entry,
	.handler = mstat_fail_page_ret,
	.data_size = sizeof(unsigned int),
};

/*
 * vm areas (mstat_vmem.c): __get_vm_area_node() returns each area it
 * made, whole (NULL: none), and remove_vm_area() each area it took out,
 * still whole until its caller frees it. Only their return values are
 * read: compat/vm_area_protos.conftest checks that they are a struct
 * vm_struct (the private function's through its public callers');
 * without that, neither is probed and the source is absent, as it is
 * where the running kernel has neither function, or not one name for
 * it alone (mstat_kprobe_symbol(): inlined, or emitted twice).
 */
static int mstat_vm_area_ret(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct vm_struct *vm = (void *)regs_return_value(regs);

	if (mstat_probe_empty())
		return 0;

	/* Not without the other end: its areas would never be freed. */
	if (!mstat_source_enabled(MSTAT_SRC_VMALLOC) || !mstat_kprobe_vm_present())
		return 0;
	if (vm)
		mstat_count_vm_area(vm, true);
	else
		mstat_count_vm_failure();
	return 0;
}

static int mstat_vm_remove_ret(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	struct vm_struct *vm = (void *)regs_return_value(regs);

	if (mstat_probe_empty())
		return 0;

	/* Nor without it: its frees would all be unknown. */
	if (vm && mstat_source_enabled(MSTAT_SRC_VMALLOC) &&
	    mstat_kprobe_vm_present())
		mstat_count_vm_area(vm, false);
	return 0;
}

static struct kretprobe mstat_vm_area_rp = {
	.handler = mstat_vm_area_ret,
};

static struct kretprobe mstat_vm_remove_rp = {
	.handler = mstat_vm_remove_ret,
};

/*
 * Calls a kretprobe follows at once, in all tasks, sleeping ones
 * included: a fixed number, not one that grows with the CPUs. Since 6.7
 * the kernel keeps a kretprobe's instances in an objpool whose every
 * possible CPU has a slot for all of them (P x maxactive pointers):
 * 8 x P instances made that grow with P squared, 27 MiB at 384 CPUs for
 * two kretprobes. At 128, a CPU's slot is one page (vmalloc's least).
 * A call that finds no instance free is not counted, and is counted in
 * probe_API_missed (/proc/mstat).
 */
#define MSTAT_KRETPROBE_MAXACTIVE	128

#else /* no kretprobes */

/* What the same table points to: probes never registered. */
static struct kretprobe mstat_bulk_alloc_rp, mstat_bulk_pages_rp,
	mstat_bulk_sheaf_rp, mstat_fail_page_rp, mstat_vm_area_rp,
	mstat_vm_remove_rp;
static struct kprobe mstat_bulk_free_kp;
#ifdef MSTAT_PROBE_CACHE_FREE
static struct kprobe mstat_cache_free_kp;
#endif

#endif

#ifndef MSTAT_BULK_ALLOC_FN
#define MSTAT_BULK_ALLOC_FN	NULL
#endif
#ifndef MSTAT_BULK_FREE_FN
#define MSTAT_BULK_FREE_FN	NULL
#endif
#ifndef MSTAT_BULK_PAGES_FN
#define MSTAT_BULK_PAGES_FN	NULL
#endif
#ifndef MSTAT_FAIL_PAGE_FN
#define MSTAT_FAIL_PAGE_FN	NULL
#endif
#ifndef MSTAT_SPLIT_PAGE_FN
#define MSTAT_SPLIT_PAGE_FN	NULL
#endif
#ifndef MSTAT_EXACT_FN
#define MSTAT_EXACT_FN		NULL
#endif
#ifndef MSTAT_EXACT_NID_FN
#define MSTAT_EXACT_NID_FN	NULL
#endif

/* Registered in this order; /proc/mstat shows them in it. */
static struct mstat_kprobe mstat_kprobes[MSTAT_KPROBE_NR] = {
	[MSTAT_KPROBE_ALLOC] = {
		.api = "kmem_cache_alloc_bulk",
		.fn = MSTAT_BULK_ALLOC_FN,
		.rp = &mstat_bulk_alloc_rp,
	},
	[MSTAT_KPROBE_FREE] = {
		.api = "kmem_cache_free_bulk",
		.fn = MSTAT_BULK_FREE_FN,
		.kp = &mstat_bulk_free_kp,
	},
	[MSTAT_KPROBE_CACHE_FREE] = {
		.api = "kmem_cache_free",
#ifdef MSTAT_PROBE_CACHE_FREE
		.fn = MSTAT_CACHE_FREE_FN,
		.kp = &mstat_cache_free_kp,
		.on_flag = &mstat_cache_free_at_entry,
		.fallback = MSTAT_CACHE_FREE_FALLBACK,
#else
		/* 6.0 on: its event names the cache, and counts it. */
		.unused = true,
#endif
	},
	[MSTAT_KPROBE_PAGES] = {
		.api = "alloc_pages_bulk",
		.fn = MSTAT_BULK_PAGES_FN,
		.rp = &mstat_bulk_pages_rp,
	},
	[MSTAT_KPROBE_SPLIT_PAGE] = {
		.api = "split_page",
		.fn = MSTAT_SPLIT_PAGE_FN,
		.kp = &mstat_split_page_kp,
	},
	/*
	 * After split_page(): mstat_exact_learn() asks its probe, and
	 * probes make_alloc_exact() in place of these two where it can.
	 */
	[MSTAT_KPROBE_EXACT] = {
		.api = "alloc_pages_exact",
		.fn = MSTAT_EXACT_FN,
		.rp = &mstat_exact_rp,
		.exact = true,
	},
	/* Not exported; in init code, freed, without memory hotplug. */
	[MSTAT_KPROBE_EXACT_NID] = {
		.api = "alloc_pages_exact_nid",
		.fn = MSTAT_EXACT_NID_FN,
		.rp = &mstat_exact_nid_rp,
		.exact = true,
		.quiet = true,
	},
	/* Before 7.0 kfree_rcu() frees through kfree_bulk(). */
	[MSTAT_KPROBE_SHEAF] = {
		.api = "kfree_rcu_sheaf",
		.fn = "__kfree_rcu_sheaf",
		.rp = &mstat_bulk_sheaf_rp,
		.quiet = true,
	},
	/* Only kernels with fail_page_alloc have it. */
	[MSTAT_KPROBE_FAIL_PAGE] = {
		.api = "fail_page_alloc",
		.fn = MSTAT_FAIL_PAGE_FN,
		.rp = &mstat_fail_page_rp,
		.quiet = true,
	},
	/* Private to mm/vmalloc.c, where the compiler may clone or inline it. */
	[MSTAT_KPROBE_VM_AREA] = {
		.api = "get_vm_area",
		.fn = MSTAT_VM_AREA_FN,
		.rp = &mstat_vm_area_rp,
		.clones = true,
	},
	[MSTAT_KPROBE_VM_REMOVE] = {
		.api = "remove_vm_area",
		.fn = MSTAT_VM_REMOVE_FN,
		.rp = &mstat_vm_remove_rp,
		.clones = true,
	},
};

/*
 * The clones a compiler makes of a function that keep its return value:
 * its constants propagated (.constprop.0), its arguments reduced
 * (.isra.0). Not fn.part.0, a piece of it, nor fn.cold.
 */
static const char *const mstat_kprobe_suffix[] = {
	"", ".constprop.0", ".isra.0",
};

/**
 * mstat_kprobe_symbol() - the name under which a function can be probed
 * @fn: the function, as its source names it
 * @sym: set to the name the kernel has it under: @fn, or a clone's
 *	("__get_vm_area_node.constprop.0"), which a kprobe's symbol_name
 *	takes as it is
 * @size: bytes of @sym
 *
 * A function private to its file may be emitted under its own name, or
 * only as a clone (each of its callers calls the clone), or as both (some
 * callers call each), or inlined into its callers, where no probe sees
 * it. One name found is the one to probe; with two, a probe on either
 * would count a part of the calls. An inlined copy beside an emitted one
 * is not found by its name: the truth guests' counts catch that.
 *
 * Context: process; sleeps.
 * Return: 0 (@sym set), -ENOENT (none found: inlined, or not in this
 * kernel), -EEXIST (more than one), -ENAMETOOLONG or -ENOMEM.
 */
int mstat_kprobe_symbol(const char *fn, char *sym, size_t size)
{
	const unsigned int n = ARRAY_SIZE(mstat_kprobe_suffix);
	char names[ARRAY_SIZE(mstat_kprobe_suffix)][MSTAT_KPROBE_SYM_LEN];
	struct mstat_text_range r[ARRAY_SIZE(mstat_kprobe_suffix)];
	const char *np[ARRAY_SIZE(mstat_kprobe_suffix)];
	unsigned int i;
	int found;

	for (i = 0; i < n; i++) {
		if (snprintf(names[i], sizeof(names[i]), "%s%s", fn,
			     mstat_kprobe_suffix[i]) >= sizeof(names[i]))
			return -ENAMETOOLONG;
		np[i] = names[i];
	}
	found = mstat_text_resolve(np, n, r);
	if (found <= 0)
		return found ? found : -ENOENT;
	if (found > 1)
		return -EEXIST;
	for (i = 0; !r[i].size; i++)
		;
	return strscpy(sym, names[i], size) < 0 ? -ENAMETOOLONG : 0;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_kprobe_symbol);

#ifdef MSTAT_CAN_KRETPROBE

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

/* Register probe @id; 0 also when the kernel has no such function. */
static int mstat_kprobe_register(enum mstat_kprobe_id id)
{
	struct mstat_kprobe *p = &mstat_kprobes[id];
	const char *sym;
	int err;

	if (p->unused)
		return 0;
	/* make_alloc_exact()'s kprobe counts it (mstat_exact_learn()). */
	if (p->exact && mstat_exact_inner)
		return 0;
	if (!p->fn) {
		if (p->fallback)
			pr_warn("%s(): no prototype mstat knows matched this kernel's when it was built: %s\n",
				p->api, p->fallback);
		else if (p->quiet)
			pr_info("%s() not counted: no prototype mstat knows matched this kernel's when it was built\n",
				p->api);
		else
			pr_warn("%s() not counted: no prototype mstat knows matched this kernel's when it was built\n",
				p->api);
		return 0;
	}
	if ((id == MSTAT_KPROBE_FAIL_PAGE && mstat_mutant(MSTAT_MUT_NO_FAIL_PAGE)) ||
	    (p->exact && mstat_mutant(MSTAT_MUT_NO_EXACT)))
		return 0;
	sym = p->fn;
	if (p->clones) {
		err = mstat_kprobe_symbol(p->fn, p->sym, sizeof(p->sym));
		if (err == -ENOMEM)
			return err;
		if (err == -ENOENT)
			pr_warn("%s() not counted: neither %s() nor a clone of it (%s.constprop.0, .isra.0) in this kernel (inlined?)\n",
				p->api, p->fn, p->fn);
		else if (err)
			pr_warn("%s() not counted: %s() and a clone of it (.constprop.0, .isra.0) both in this kernel: a probe on one would count a part of the calls\n",
				p->api, p->fn);
		if (err)
			return 0;
		sym = p->sym;
		if (strcmp(sym, p->fn))
			pr_info("%s(): %s() is in this kernel as its clone %s(): probed there\n",
				p->api, p->fn, sym);
	}
	if (p->rp) {
		p->rp->maxactive = MSTAT_KRETPROBE_MAXACTIVE;
		p->rp->kp.symbol_name = sym;
		p->rp->kp.addr = NULL;
		err = register_kretprobe(p->rp);
	} else {
		p->kp->symbol_name = sym;
		p->kp->addr = NULL;
		err = register_kprobe(p->kp);
	}
	p->on = !err;
	if (p->on_flag)
		WRITE_ONCE(*p->on_flag, p->on);
	if (!err) {
		if (id == MSTAT_KPROBE_FAIL_PAGE)
			pr_info("fail_page_alloc in this kernel: its injected failures counted\n");
		return 0;
	}
	if (!mstat_probe_absent(err))
		return err;
	if (p->quiet)
		pr_info("%s() not in this kernel (%d): nothing of it to count\n",
			sym, err);
	else if (p->fallback)
		pr_warn("%s(): probe on %s(): %d: %s\n", p->api, sym, err,
			p->fallback);
	else
		pr_warn("%s() not counted: probe on %s(): %d\n", p->api, sym,
			err);
	return 0;
}

/**
 * mstat_kprobes_init() - probe the bulk APIs, and fail_page_alloc's failures
 *
 * A function the kernel does not have, or does not let us probe, or whose
 * prototype is not one compat/ knows, leaves that API uncounted, with a
 * log line; mstat works on without it. Any other error undoes what was
 * registered. alloc_pages_exact()'s probes count its split only where
 * split_page()'s does not (learnt here, before the sources are on).
 *
 * Context: process; sleeps. After mstat_stats_init(), before
 * mstat_ctl_start().
 * Return: 0 or a negative errno (-ENOMEM).
 */
int mstat_kprobes_init(void)
{
	struct mstat_kprobe *split = &mstat_kprobes[MSTAT_KPROBE_SPLIT_PAGE];
	struct mstat_kprobe *p;
	unsigned int i;
	int err;

	mstat_exact_by_split = -1;
	for (i = 0; i < MSTAT_KPROBE_NR; i++) {
		p = &mstat_kprobes[i];
		err = 0;
		if (p->exact && mstat_exact_by_split < 0)
			err = mstat_exact_learn(split->on);
		if (!err)
			err = mstat_kprobe_register(i);
		if (err) {
			pr_err("cannot probe %s(): %d\n", p->fn, err);
			mstat_kprobes_exit();
			return err;
		}
	}
	return 0;
}

/**
 * mstat_kprobes_exit() - remove the probes and wait for their handlers
 *
 * Context: process; sleeps. Before the core is freed.
 */
void mstat_kprobes_exit(void)
{
	struct mstat_kprobe *p;
	unsigned int i;

	for (i = 0; i < MSTAT_KPROBE_NR; i++) {
		p = &mstat_kprobes[i];
		if (!p->on)
			continue;
		if (p->rp)
			unregister_kretprobe(p->rp);
		else
			unregister_kprobe(p->kp);
		p->on = false;
		if (p->on_flag)
			WRITE_ONCE(*p->on_flag, false);
	}
	if (mstat_exact_inner) {
		unregister_kprobe(&mstat_exact_inner_kp);
		WRITE_ONCE(mstat_exact_inner, false);
	}
}

#else /* no kretprobes */

int mstat_kprobes_init(void)
{
	pr_warn("the bulk APIs are not counted: no kretprobes in this kernel\n");
	return 0;
}

void mstat_kprobes_exit(void)
{
}

#endif

/*
 * Calls @p's probe missed: a kretprobe with all its instances in use, or
 * a probe that fired inside another.
 */
static unsigned long mstat_kprobe_missed(const struct mstat_kprobe *p)
{
	/* Both APIs' calls through make_alloc_exact()'s: shown on each. */
	if (p->exact && READ_ONCE(mstat_exact_inner))
		return READ_ONCE(mstat_exact_inner_kp.nmissed);
	if (!p->on)
		return 0;
	if (p->rp)
		return READ_ONCE(p->rp->nmissed) + READ_ONCE(p->rp->kp.nmissed);
	return READ_ONCE(p->kp->nmissed);
}

/**
 * mstat_kprobe_state() - one probe's state, for the faces
 * @id: the probe
 * @st: set to its name, whether it counts and the calls it missed
 *
 * alloc_pages_exact()'s split counts where its probe is registered, or
 * make_alloc_exact()'s, or where split_page()'s probe counts it
 * instead. A probe this kernel has
 * no use for (kmem_cache_free() from 6.0 on: its event counts it) has no
 * state to show.
 *
 * Context: any; the state read may be a moment old.
 * Return: false if @id is not probed on this kernel (@st is untouched).
 */
bool mstat_kprobe_state(enum mstat_kprobe_id id, struct mstat_kprobe_view *st)
{
	const struct mstat_kprobe *p = &mstat_kprobes[id];

	if (p->unused)
		return false;
	st->api = p->api;
	st->on = p->on || (p->exact && (mstat_exact_by_split > 0 ||
					READ_ONCE(mstat_exact_inner)));
	st->missed = mstat_kprobe_missed(p);
	return true;
}

/**
 * mstat_kprobe_vm_present() - whether the vmalloc source can count
 *
 * Return: true if both of its probes are registered: an area's making
 * and its removal.
 */
bool mstat_kprobe_vm_present(void)
{
	return mstat_kprobes[MSTAT_KPROBE_VM_AREA].on &&
	       mstat_kprobes[MSTAT_KPROBE_VM_REMOVE].on;
}

/**
 * mstat_kprobe_sheaf_mismatch() - sheaf frees not counted
 *
 * Context: any.
 * Return: how many kfree_rcu() sheaf frees were not counted because the
 * object's slab did not name the cache argument (0 unless the private
 * prototype of __kfree_rcu_sheaf() changed).
 */
unsigned long mstat_kprobe_sheaf_mismatch(void)
{
	return atomic_long_read(&mstat_bulk_sheaf_bad);
}

/**
 * mstat_bulk_pages_unsampled() - bulk pages counted but never sampled
 *
 * Context: any.
 * Return: how many pages of alloc_pages_bulk() calls with filled slots
 * far into their array were counted without their page, since load.
 */
unsigned long mstat_bulk_pages_unsampled(void)
{
	return atomic_long_read(&mstat_bulk_pages_unsampled_n);
}
