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
 *  - kmalloc: the tracepoint's bytes_alloc, the slab's object size, when
 *    it is the size of the class of the bytes requested (always, but with
 *    KASAN or slab debugging, whose metadata it includes; then
 *    kmalloc_size_roundup() of the bytes requested); kfree: ksize() of the
 *    object, which is still allocated when the tracepoint fires, rounded
 *    up the same way (ksize() of a KFENCE object is the requested size,
 *    and under KASAN the cache's object size, never its padded slot
 *    size);
 *  - kmem_cache_alloc/free: kmem_cache_size() of the cache passed;
 *  - pages: PAGE_SIZE << order.
 *
 * The hot path: each probe is one write section that adds to the fewest
 * cells the snapshot can be derived from (struct mstat_cells), inlined
 * for its source, with no call but ksize() on kfree. What is optional
 * costs a patched-out jump while off: the heap profile
 * (mstat_profile_alloc_key, mstat_profile_free_key) and the event stream
 * (mstat_events_key).
 *
 * Page events have no call site: inside a probe, _RET_IP_ names the
 * tracepoint's dispatcher, and the page allocator's caller is not passed.
 * The event stream prints their site as "-".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/jump_label.h>
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
 * mstat_class_of() - mstat_size_class(), out of line, for KUnit
 * @size: bytes the object occupies
 *
 * Return: index into mstat_class_size[], or %MSTAT_CLASS_LARGE.
 */
unsigned int mstat_class_of(size_t size)
{
	return mstat_size_class(size);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_class_of);

static __always_inline enum mstat_ctx mstat_context(void)
{
	if (preempt_count() & (HARDIRQ_MASK | NMI_MASK))
		return MSTAT_CTX_HARDIRQ;
	if (in_serving_softirq())
		return MSTAT_CTX_SOFTIRQ;
	return MSTAT_CTX_TASK;
}

#define mstat_cell_add(s, src, c, field, val) \
	mstat_add(s, struct mstat_cells, cell[src][c].field, val)

/*
 * What a section may do besides counting, out of line: sample for the
 * profile (@sample), attribute a free to its sample (@sampled), stream
 * the event (@stream). Called last in the section, so that the inlined
 * probe keeps nothing live across a call but the section's end.
 */
static noinline void mstat_extras(unsigned int slot, bool alloc,
				  bool sample, bool sampled, bool stream,
				  enum mstat_source src, unsigned long ptr,
				  size_t size, unsigned long site)
{
	unsigned long rate;

	if (sample) {
		rate = READ_ONCE(mstat_profile_rate);
		if (rate)
			__mstat_profile_sample(slot, rate, ptr, size, site);
	}
	if (sampled)
		__mstat_profile_free(slot, ptr);
	if (stream)
		mstat_event(src, alloc, ptr, size, site);
}

static __always_inline bool mstat_streamed(enum mstat_source src)
{
	return static_branch_unlikely(&mstat_events_key) &&
	       (READ_ONCE(mstat_events_sources) & BIT(src));
}

/*
 * On while the profile or the event stream may want an event: one
 * patched-out jump in each probe while both are off.
 */
DEFINE_STATIC_KEY_FALSE(mstat_extras_key);

/**
 * mstat_extras_update() - switch mstat_extras_key as its users stand
 *
 * Called after a change of the profile's keys or the stream's.
 *
 * Context: process; sleeps.
 */
void mstat_extras_update(void)
{
	static DEFINE_MUTEX(lock);

	mutex_lock(&lock);
	if (static_key_enabled(&mstat_profile_alloc_key) ||
	    static_key_enabled(&mstat_profile_free_key) ||
	    static_key_enabled(&mstat_events_key))
		static_branch_enable(&mstat_extras_key);
	else
		static_branch_disable(&mstat_extras_key);
	mutex_unlock(&lock);
}

/*
 * One allocation of @alloc bytes (@req requested) in cell (@src, @c).
 * Inlined into each probe with @src constant, so that only the adds the
 * source needs are left.
 */
static __always_inline void mstat_hot_alloc(enum mstat_source src,
					    unsigned int c, size_t req,
					    size_t alloc, gfp_t gfp,
					    unsigned long ptr,
					    unsigned long site)
{
	enum mstat_gfp g = gfpflags_allow_blocking(gfp);
	struct mstat_section s;
	bool sample, stream;

	mstat_write_begin(&mstat_core, &s);
	mstat_cell_add(&s, src, c, allocs, 1);
	if (src == MSTAT_SRC_KMALLOC || src == MSTAT_SRC_API)
		mstat_cell_add(&s, src, c, bytes_req, req);
	if (!mstat_cell_fixed(src, c))
		mstat_cell_add(&s, src, c, bytes_alloc, alloc);
	mstat_add(&s, struct mstat_cells, ctx_gfp_allocs[mstat_context()][g], 1);
	if (static_branch_unlikely(&mstat_extras_key)) {
		sample = src != MSTAT_SRC_PAGE && mstat_profile_due(alloc);
		stream = mstat_streamed(src);
		if (sample || stream)
			mstat_extras(mstat_section_slot(&mstat_core, &s), true,
				     sample, false, stream, src, ptr, alloc,
				     site);
	}
	mstat_write_end(&mstat_core, &s);
}

/* One free of @size bytes from cell (@src, @c); as mstat_hot_alloc(). */
static __always_inline void mstat_hot_free(enum mstat_source src,
					   unsigned int c, size_t size,
					   unsigned long ptr,
					   unsigned long site)
{
	struct mstat_section s;
	bool sampled, stream;

	mstat_write_begin(&mstat_core, &s);
	mstat_cell_add(&s, src, c, frees, 1);
	if (!mstat_cell_fixed(src, c))
		mstat_cell_add(&s, src, c, bytes_freed, size);
	mstat_add(&s, struct mstat_cells, ctx_frees[mstat_context()], 1);
	if (static_branch_unlikely(&mstat_extras_key)) {
		sampled = src != MSTAT_SRC_PAGE && ptr &&
			  mstat_profile_held(ptr);
		stream = mstat_streamed(src);
		if (sampled || stream)
			mstat_extras(mstat_section_slot(&mstat_core, &s),
				     false, false, sampled, stream, src, ptr,
				     mstat_cell_fixed(src, c) ?
				     mstat_cell_size(src, c) : size, site);
	}
	mstat_write_end(&mstat_core, &s);
}

/* One failed allocation; for pages, of @order. */
static noinline void mstat_count_failure(enum mstat_source src,
					 unsigned int order)
{
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	mstat_cell_add(&s, src, src == MSTAT_SRC_PAGE ? order : 0, failures, 1);
	mstat_write_end(&mstat_core, &s);
}

static __always_inline unsigned int mstat_order_cell(unsigned int order)
{
	return min_t(unsigned int, order, MSTAT_NR_ORDERS - 1);
}

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
 * The probes inline the same for their own source; this is for the API.
 *
 * Context: any but NMI.
 */
void mstat_count_alloc(enum mstat_source src, size_t req, size_t alloc,
		       gfp_t gfp, unsigned int order, unsigned long ptr,
		       unsigned long site)
{
	if (!alloc)
		mstat_count_failure(src, order);
	else if (src == MSTAT_SRC_PAGE)
		mstat_hot_alloc(MSTAT_SRC_PAGE, mstat_order_cell(order), req,
				alloc, gfp, ptr, site);
	else
		mstat_hot_alloc(src, mstat_size_class(alloc), req, alloc, gfp,
				ptr, site);
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
	if (src == MSTAT_SRC_PAGE)
		mstat_hot_free(MSTAT_SRC_PAGE, mstat_order_cell(order), size,
			       ptr, site);
	else
		mstat_hot_free(src, mstat_size_class(size), size, ptr, site);
}

/**
 * mstat_stats_derive() - every counter of a snapshot, from its cells
 * @cl: the cells, one consistent cut
 * @st: the counters; overwritten
 *
 * Sums and products of counters of one cut: the invariants of
 * mstat_internal.h hold in @st exactly as the cells hold them.
 */
void mstat_stats_derive(const struct mstat_cells *cl, struct mstat_stats *st)
{
	enum mstat_source src;
	unsigned int c, x, g;

	memset(st, 0, sizeof(*st));
	for (src = 0; src < MSTAT_NR_SOURCES; src++) {
		struct mstat_src_stats *ss = &st->src[src];

		for (c = 0; c < MSTAT_NR_CLASSES; c++) {
			const struct mstat_cell *e = &cl->cell[src][c];
			size_t size = mstat_cell_size(src, c);
			u64 ba = size ? e->allocs * size : e->bytes_alloc;
			u64 bf = size ? e->frees * size : e->bytes_freed;
			u64 br = src == MSTAT_SRC_KMALLOC ||
				 src == MSTAT_SRC_API ? e->bytes_req : ba;

			ss->allocs += e->allocs;
			ss->frees += e->frees;
			ss->failures += e->failures;
			ss->bytes_req += br;
			ss->bytes_alloc += ba;
			ss->bytes_freed += bf;
			if (src == MSTAT_SRC_PAGE) {
				if (c < MSTAT_NR_ORDERS) {
					st->order[c].allocs = e->allocs;
					st->order[c].frees = e->frees;
					st->order[c].failures = e->failures;
				}
				continue;
			}
			st->cls[c].allocs += e->allocs;
			st->cls[c].frees += e->frees;
			st->cls[c].bytes_req += br;
			st->cls[c].bytes_alloc += ba;
			st->cls[c].bytes_freed += bf;
		}
	}
	for (x = 0; x < MSTAT_NR_CTX; x++) {
		for (g = 0; g < MSTAT_NR_GFP; g++) {
			st->ctx[x].allocs += cl->ctx_gfp_allocs[x][g];
			st->gfp[g] += cl->ctx_gfp_allocs[x][g];
		}
		st->ctx[x].frees = cl->ctx_frees[x];
	}
}
EXPORT_SYMBOL_IF_KUNIT(mstat_stats_derive);

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

/* mstat_kfree_size(), inline for the probe. */
static __always_inline size_t __mstat_kfree_size(const void *ptr)
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

/**
 * mstat_kfree_size() - the size a kfree()d object counts as
 * @ptr: the object, still allocated (the kfree tracepoint fires first)
 *
 * Return: its size class's size, as kmalloc_size_roundup() of its
 * requested size was counted at allocation; 0 for NULL and ZERO_SIZE_PTR.
 */
size_t mstat_kfree_size(const void *ptr)
{
	return __mstat_kfree_size(ptr);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_kfree_size);

/* Tracepoint probes. */

/* kmalloc whose bytes_alloc is not what kfree will see: see below. */
static noinline void mstat_kmalloc_slow(size_t req, gfp_t gfp,
					unsigned long ptr, unsigned long site)
{
	size_t size = kmalloc_size_roundup(req);

	mstat_hot_alloc(MSTAT_SRC_KMALLOC, mstat_size_class(size), req, size,
			gfp, ptr, site);
}

static void mstat_probe_kmalloc(void *data, unsigned long call_site,
				const void *ptr, size_t bytes_req,
				size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	unsigned int c = mstat_size_class(bytes_req);

	if (unlikely(ZERO_OR_NULL_PTR(ptr))) {
		if (!ptr)
			mstat_count_failure(MSTAT_SRC_KMALLOC, 0);
		return;		/* kmalloc(0): nothing allocated */
	}
	/*
	 * bytes_alloc is the slab's object size, the size ksize() gives at
	 * kfree: the size of the class of bytes_req, unless KASAN or slab
	 * debugging added metadata to it (or kmalloc's smallest caches are
	 * not mstat's classes). For a large kmalloc it is its pages, which
	 * ksize() gives too.
	 */
	if (unlikely(c != MSTAT_CLASS_LARGE &&
		     bytes_alloc != mstat_class_size[c])) {
		mstat_kmalloc_slow(bytes_req, gfp_flags, (unsigned long)ptr,
				   call_site);
		return;
	}
	mstat_hot_alloc(MSTAT_SRC_KMALLOC, c, bytes_req, bytes_alloc,
			gfp_flags, (unsigned long)ptr, call_site);
}

/*
 * Where kmalloc's caches are exactly mstat's classes below LARGE (the
 * smallest is 8 bytes, the largest 8 KiB), the class of a KFENCE
 * object's ksize(), its requested size, is the class of its
 * kmalloc_size_roundup(); KFENCE objects are at most a page, so in a
 * class whose bytes are derived: the kfree probe needs the class only.
 */
#define MSTAT_KFREE_CLASS_ONLY	(KMALLOC_MIN_SIZE <= 8 && \
				 KMALLOC_MAX_CACHE_SIZE <= 8192)

static void mstat_probe_kfree(void *data, unsigned long call_site,
			      const void *ptr)
{
	size_t size;

	if (MSTAT_KFREE_CLASS_ONLY) {
		if (ZERO_OR_NULL_PTR(ptr))
			return;
		size = ksize(ptr);
	} else {
		size = __mstat_kfree_size(ptr);
	}
	if (size)
		mstat_hot_free(MSTAT_SRC_KMALLOC, mstat_size_class(size), size,
			       (unsigned long)ptr, call_site);
}

static void mstat_probe_cache_alloc(void *data, unsigned long call_site,
				    const void *ptr, struct kmem_cache *s,
				    gfp_t gfp_flags, int node)
{
	size_t size = kmem_cache_size(s);

	if (unlikely(!ptr)) {
		mstat_count_failure(MSTAT_SRC_CACHE, 0);
		return;
	}
	mstat_hot_alloc(MSTAT_SRC_CACHE, mstat_size_class(size), size, size,
			gfp_flags, (unsigned long)ptr, call_site);
}

static void mstat_probe_cache_free(void *data, unsigned long call_site,
				   const void *ptr,
				   const struct kmem_cache *s)
{
	size_t size;

	if (!ptr)
		return;
	size = kmem_cache_size((struct kmem_cache *)s);
	mstat_hot_free(MSTAT_SRC_CACHE, mstat_size_class(size), size,
		       (unsigned long)ptr, call_site);
}

static void mstat_probe_page_alloc(void *data, struct page *page,
				   unsigned int order, gfp_t gfp_flags,
				   int migratetype)
{
	size_t size = PAGE_SIZE << order;

	if (unlikely(!page)) {
		mstat_count_failure(MSTAT_SRC_PAGE, mstat_order_cell(order));
		return;
	}
	mstat_hot_alloc(MSTAT_SRC_PAGE, mstat_order_cell(order), size, size,
			gfp_flags, (unsigned long)page, 0);
}

static void mstat_probe_page_free(void *data, struct page *page,
				  unsigned int order)
{
	mstat_hot_free(MSTAT_SRC_PAGE, mstat_order_cell(order),
		       PAGE_SIZE << order, (unsigned long)page, 0);
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
