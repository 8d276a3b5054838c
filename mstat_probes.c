// SPDX-License-Identifier: GPL-2.0
/*
 * mstat's event sources: probes on the kmem tracepoints and the API for
 * other modules' allocators. Each event is one mstat_core write section.
 *
 * Probes never sleep and never allocate. Tracepoint probes run with
 * preemption disabled, in any context the allocator runs in (task,
 * softirq, hardirq). Sizes are counted as the size class the object
 * occupies, computed the same way at allocation and at free, so that
 * live bytes come back to zero when every object is freed:
 *
 *  - kmalloc: kmalloc_size_roundup(bytes requested); kfree: ksize() of
 *    the object, which is still allocated when the tracepoint fires,
 *    rounded up the same way (ksize() of a KFENCE object is the requested
 *    size, and under KASAN the cache's object size, never its padded
 *    slot size that the tracepoint reports);
 *  - kmem_cache_alloc/free: kmem_cache_size() of the cache passed;
 *  - pages: PAGE_SIZE << order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/kfence.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "mstat.h"
#include "mstat_compat.h"
#include "mstat_events.h"
#include "mstat_internal.h"
#include "mstat_profile.h"
#include "mstat_trace.h"

const unsigned int mstat_class_size[MSTAT_NR_CLASSES - 1] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
};
EXPORT_SYMBOL_IF_KUNIT(mstat_class_size);

const char *const mstat_source_name[MSTAT_NR_SOURCES] = {
	[MSTAT_SRC_KMALLOC]	= "kmalloc",
	[MSTAT_SRC_CACHE]	= "cache",
	[MSTAT_SRC_PAGE]	= "page",
	[MSTAT_SRC_API]		= "api",
};

const char *const mstat_ctx_name[MSTAT_NR_CTX] = {
	[MSTAT_CTX_TASK]	= "task",
	[MSTAT_CTX_SOFTIRQ]	= "softirq",
	[MSTAT_CTX_HARDIRQ]	= "hardirq",
};

/**
 * mstat_size_class() - the size class an object of @size bytes counts in
 * @size: bytes the object occupies
 *
 * Return: index into mstat_class_size[], or %MSTAT_CLASS_LARGE.
 */
unsigned int mstat_size_class(size_t size)
{
	/* Classes of 1..192 bytes by (size - 1) / 8, as kmalloc's size_index. */
	static const u8 small[24] = {
		0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
		5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6,
	};

	if (size <= 192)
		return size ? small[(size - 1) / 8] : 0;
	if (size > 8192)
		return MSTAT_CLASS_LARGE;
	/* Powers of two from 256 (class 7) to 8192 (class 12). */
	return fls(size - 1) - 1;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_size_class);

static enum mstat_ctx mstat_context(void)
{
	if (in_hardirq() || in_nmi())
		return MSTAT_CTX_HARDIRQ;
	if (in_serving_softirq())
		return MSTAT_CTX_SOFTIRQ;
	return MSTAT_CTX_TASK;
}

#define mstat_stat_add(s, field, val) \
	mstat_add(s, struct mstat_stats, field, val)

/**
 * mstat_count_alloc() - count one allocation event
 * @src: the source
 * @req: bytes requested
 * @alloc: bytes the object occupies; 0 for a failed allocation
 * @gfp: the allocation's flags
 * @order: page order, for %MSTAT_SRC_PAGE
 * @ptr: the object, for the event stream
 * @site: the call site, for the event stream
 *
 * Context: any but NMI.
 */
void mstat_count_alloc(enum mstat_source src, size_t req, size_t alloc,
		       gfp_t gfp, unsigned int order, unsigned long ptr,
		       unsigned long site)
{
	unsigned int c = src == MSTAT_SRC_PAGE ? min_t(unsigned int, order,
					MSTAT_NR_ORDERS - 1) :
					mstat_size_class(alloc);
	enum mstat_gfp g = gfpflags_allow_blocking(gfp) ? MSTAT_GFP_SLEEP :
							  MSTAT_GFP_ATOMIC;
	struct mstat_section s;
	unsigned long rate;

	mstat_write_begin(&mstat_core, &s);
	if (!alloc) {
		mstat_stat_add(&s, src[src].failures, 1);
		if (src == MSTAT_SRC_PAGE)
			mstat_stat_add(&s, order[c].failures, 1);
		goto out;
	}
	mstat_stat_add(&s, src[src].allocs, 1);
	mstat_stat_add(&s, src[src].bytes_req, req);
	mstat_stat_add(&s, src[src].bytes_alloc, alloc);
	if (src == MSTAT_SRC_PAGE) {
		mstat_stat_add(&s, order[c].allocs, 1);
	} else {
		mstat_stat_add(&s, cls[c].allocs, 1);
		mstat_stat_add(&s, cls[c].bytes_req, req);
		mstat_stat_add(&s, cls[c].bytes_alloc, alloc);
	}
	mstat_stat_add(&s, ctx[mstat_context()].allocs, 1);
	mstat_stat_add(&s, gfp[g], 1);
	rate = READ_ONCE(mstat_profile_rate);
	if (src != MSTAT_SRC_PAGE && rate)
		__mstat_profile_alloc(&s, rate, ptr, alloc, site);
out:
	mstat_write_end(&mstat_core, &s);

	if (unlikely(READ_ONCE(mstat_events_sources) & BIT(src)) && alloc)
		mstat_event(src, true, ptr, alloc, site);
}

/**
 * mstat_count_free() - count one free event
 * @src: the source
 * @size: bytes the object occupied (as mstat_count_alloc()'s @alloc)
 * @order: page order, for %MSTAT_SRC_PAGE
 * @ptr: the object, for the event stream
 * @site: the call site, for the event stream
 *
 * Context: any but NMI.
 */
void mstat_count_free(enum mstat_source src, size_t size, unsigned int order,
		      unsigned long ptr, unsigned long site)
{
	struct mstat_section s;
	unsigned int c;

	mstat_write_begin(&mstat_core, &s);
	mstat_stat_add(&s, src[src].frees, 1);
	mstat_stat_add(&s, src[src].bytes_freed, size);
	if (src == MSTAT_SRC_PAGE) {
		c = min_t(unsigned int, order, MSTAT_NR_ORDERS - 1);
		mstat_stat_add(&s, order[c].frees, 1);
	} else {
		c = mstat_size_class(size);
		mstat_stat_add(&s, cls[c].frees, 1);
		mstat_stat_add(&s, cls[c].bytes_freed, size);
	}
	mstat_stat_add(&s, ctx[mstat_context()].frees, 1);
	if (src != MSTAT_SRC_PAGE && ptr)
		__mstat_profile_free(&s, ptr);
	mstat_write_end(&mstat_core, &s);

	if (unlikely(READ_ONCE(mstat_events_sources) & BIT(src)))
		mstat_event(src, false, ptr, size, site);
}

/**
 * mstat_site_name() - a call site as text, never a raw address
 * @buf: at least KSYM_SYMBOL_LEN bytes
 * @size: its size
 * @site: the call site
 *
 * "%pS" prints the bare address of a site it cannot name (__init code, an
 * unloaded module): that would leak the kernel's layout, so such a site
 * becomes "[unknown]" followed by its hashed address ("%p").
 *
 * Return: @buf.
 */
char *mstat_site_name(char *buf, size_t size, unsigned long site)
{
	snprintf(buf, size, "%pS", (void *)site);
	if (!strncmp(buf, "0x", 2))
		snprintf(buf, size, "[unknown]/%p", (void *)site);
	return buf;
}

/**
 * mstat_kfree_size() - the size a kfree()d object counts as
 * @ptr: the object, still allocated (the kfree tracepoint fires first)
 *
 * Return: its size class's size, as kmalloc_size_roundup() of its
 * requested size was counted at allocation; 0 for NULL and ZERO_SIZE_PTR.
 */
size_t mstat_kfree_size(const void *ptr)
{
	size_t size;

	if (ZERO_OR_NULL_PTR(ptr))
		return 0;
	size = ksize(ptr);
	/* Only a KFENCE object's ksize() is not already its class's size. */
	if (unlikely(is_kfence_address(ptr)) && size)
		size = kmalloc_size_roundup(size);
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_kfree_size);

/* Tracepoint probes. */

static void mstat_probe_kmalloc(void *data, unsigned long call_site,
				const void *ptr, size_t bytes_req,
				size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	if (ptr == ZERO_SIZE_PTR)
		return;		/* kmalloc(0): nothing allocated */
	mstat_count_alloc(MSTAT_SRC_KMALLOC, bytes_req,
			  ptr ? kmalloc_size_roundup(bytes_req) : 0,
			  gfp_flags, 0, (unsigned long)ptr, call_site);
}

static void mstat_probe_kfree(void *data, unsigned long call_site,
			      const void *ptr)
{
	size_t size = mstat_kfree_size(ptr);

	if (size)
		mstat_count_free(MSTAT_SRC_KMALLOC, size, 0,
				 (unsigned long)ptr, call_site);
}

static void mstat_probe_cache_alloc(void *data, unsigned long call_site,
				    const void *ptr, struct kmem_cache *s,
				    gfp_t gfp_flags, int node)
{
	size_t size = kmem_cache_size(s);

	mstat_count_alloc(MSTAT_SRC_CACHE, size, ptr ? size : 0, gfp_flags,
			  0, (unsigned long)ptr, call_site);
}

static void mstat_probe_cache_free(void *data, unsigned long call_site,
				   const void *ptr,
				   const struct kmem_cache *s)
{
	if (ptr)
		mstat_count_free(MSTAT_SRC_CACHE,
				 kmem_cache_size((struct kmem_cache *)s), 0,
				 (unsigned long)ptr, call_site);
}

static void mstat_probe_page_alloc(void *data, struct page *page,
				   unsigned int order, gfp_t gfp_flags,
				   int migratetype)
{
	size_t size = PAGE_SIZE << order;

	mstat_count_alloc(MSTAT_SRC_PAGE, size, page ? size : 0, gfp_flags,
			  order, (unsigned long)page, _RET_IP_);
}

static void mstat_probe_page_free(void *data, struct page *page,
				  unsigned int order)
{
	mstat_count_free(MSTAT_SRC_PAGE, PAGE_SIZE << order, order,
			 (unsigned long)page, _RET_IP_);
}

/**
 * mstat_account_alloc() - report an allocation of another allocator
 * @req: bytes the caller asked for
 * @alloc: bytes the allocator handed out (>= @req); 0 for a failure
 * @call_site: the caller's address, usually _RET_IP_
 *
 * Counts one allocation of @alloc bytes in the "api" source and in the
 * size class of @alloc, or one failure if @alloc is 0. Report the free
 * with the same @alloc. Does nothing while the api source is disabled.
 * Never sleeps, never allocates.
 *
 * Context: any but NMI. This function is preempt and irq safe.
 * Return: 0, -EINVAL if @alloc is smaller than @req (nothing is counted
 * then), or -ENODEV if the source is disabled.
 */
int mstat_account_alloc(size_t req, size_t alloc, unsigned long call_site)
{
	if (!mstat_source_enabled(MSTAT_SRC_API))
		return -ENODEV;
	if (alloc && alloc < req) {
		pr_warn_ratelimited("%s: %zu bytes allocated for %zu requested, from %pS\n",
				    __func__, alloc, req, (void *)call_site);
		return -EINVAL;
	}
	preempt_disable();
	mstat_count_alloc(MSTAT_SRC_API, req, alloc, GFP_ATOMIC, 0, 0,
			  call_site);
	preempt_enable();
	return 0;
}
EXPORT_SYMBOL_GPL(mstat_account_alloc);

/**
 * mstat_account_free() - report a free of another allocator
 * @alloc: the @alloc given to mstat_account_alloc() for the object
 * @call_site: the caller's address, usually _RET_IP_
 *
 * Context: any but NMI. This function is preempt and irq safe.
 * Return: 0, -EINVAL for a zero @alloc, or -ENODEV if the source is
 * disabled.
 */
int mstat_account_free(size_t alloc, unsigned long call_site)
{
	if (!mstat_source_enabled(MSTAT_SRC_API))
		return -ENODEV;
	if (!alloc) {
		pr_warn_ratelimited("%s: zero size, from %pS\n", __func__,
				    (void *)call_site);
		return -EINVAL;
	}
	preempt_disable();
	mstat_count_free(MSTAT_SRC_API, alloc, 0, 0, call_site);
	preempt_enable();
	return 0;
}
EXPORT_SYMBOL_GPL(mstat_account_free);

/* Switching sources on and off. */

struct mstat_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

/* Per source, its alloc and free tracepoints (none for the API). */
static struct mstat_tp mstat_tps[MSTAT_NR_SOURCES][2] = {
	[MSTAT_SRC_KMALLOC] = {
		{ "kmalloc", mstat_probe_kmalloc },
		{ "kfree", mstat_probe_kfree },
	},
	[MSTAT_SRC_CACHE] = {
		{ "kmem_cache_alloc", mstat_probe_cache_alloc },
		{ "kmem_cache_free", mstat_probe_cache_free },
	},
	[MSTAT_SRC_PAGE] = {
		{ "mm_page_alloc", mstat_probe_page_alloc },
		{ "mm_page_free", mstat_probe_page_free },
	},
};

static DEFINE_MUTEX(mstat_sources_lock);
static bool mstat_sources_on[MSTAT_NR_SOURCES];

/**
 * mstat_source_enabled() - whether a source is counted now
 * @src: the source
 *
 * Return: true if enabled.
 */
bool mstat_source_enabled(enum mstat_source src)
{
	return READ_ONCE(mstat_sources_on[src]);
}

static int mstat_tp_register(struct mstat_tp *t)
{
	return t->tp ? tracepoint_probe_register(t->tp, t->probe, NULL) : 0;
}

static void mstat_tp_unregister(struct mstat_tp *t)
{
	if (t->tp)
		WARN_ON_ONCE(tracepoint_probe_unregister(t->tp, t->probe, NULL));
}

/**
 * mstat_source_set() - switch a source on or off
 * @src: the source
 * @on: the new state
 *
 * Objects allocated while a source was off and freed while it is on make
 * live counts negative; see the README.
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a bad @src, or a tracepoint registration error
 * (the source stays off then).
 */
int mstat_source_set(enum mstat_source src, bool on)
{
	struct mstat_tp *t;
	int err = 0;

	if (src >= MSTAT_NR_SOURCES)
		return -EINVAL;
	t = mstat_tps[src];

	mutex_lock(&mstat_sources_lock);
	if (mstat_sources_on[src] == on)
		goto out;
	if (on) {
		err = mstat_tp_register(&t[0]);
		if (!err) {
			err = mstat_tp_register(&t[1]);
			if (err)
				mstat_tp_unregister(&t[0]);
		}
	} else {
		mstat_tp_unregister(&t[1]);
		mstat_tp_unregister(&t[0]);
	}
	if (!err) {
		WRITE_ONCE(mstat_sources_on[src], on);
		trace_mstat_source(mstat_source_name[src], on);
	} else {
		pr_err("cannot switch on source %s: %d\n",
		       mstat_source_name[src], err);
	}
out:
	mutex_unlock(&mstat_sources_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_source_set);

static void mstat_tp_lookup(struct tracepoint *tp, void *priv)
{
	int src, i;

	for (src = 0; src < MSTAT_NR_SOURCES; src++)
		for (i = 0; i < 2; i++)
			if (mstat_tps[src][i].name &&
			    !strcmp(tp->name, mstat_tps[src][i].name))
				mstat_tps[src][i].tp = tp;
}

/**
 * mstat_probes_init() - find the kmem tracepoints
 *
 * The page allocator's are not exported, so all six are looked up by
 * name among the kernel's tracepoints.
 *
 * Return: 0, or -ENOENT if one is missing.
 */
int mstat_probes_init(void)
{
	int src, i;

	/*
	 * Registration is by name, so let the compiler check each probe's
	 * prototype against the tracepoint's (sizeof evaluates nothing).
	 */
	BUILD_BUG_ON(!sizeof(register_trace_kmalloc(mstat_probe_kmalloc, NULL)));
	BUILD_BUG_ON(!sizeof(register_trace_kfree(mstat_probe_kfree, NULL)));
	BUILD_BUG_ON(!sizeof(register_trace_kmem_cache_alloc(mstat_probe_cache_alloc,
							     NULL)));
	BUILD_BUG_ON(!sizeof(register_trace_kmem_cache_free(mstat_probe_cache_free,
							    NULL)));
	BUILD_BUG_ON(!sizeof(register_trace_mm_page_alloc(mstat_probe_page_alloc,
							  NULL)));
	BUILD_BUG_ON(!sizeof(register_trace_mm_page_free(mstat_probe_page_free,
							 NULL)));

	for_each_kernel_tracepoint(mstat_tp_lookup, NULL);
	for (src = 0; src < MSTAT_NR_SOURCES; src++) {
		for (i = 0; i < 2; i++) {
			if (mstat_tps[src][i].name && !mstat_tps[src][i].tp) {
				pr_err("tracepoint kmem:%s not found\n",
				       mstat_tps[src][i].name);
				return -ENOENT;
			}
		}
	}
	return 0;
}

/**
 * mstat_probes_exit() - switch every source off and wait for probes
 *
 * After this no probe runs or will run: the core can be freed.
 */
void mstat_probes_exit(void)
{
	int src;

	for (src = 0; src < MSTAT_NR_SOURCES; src++)
		mstat_source_set(src, false);
	tracepoint_synchronize_unregister();
}
