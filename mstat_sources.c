// SPDX-License-Identifier: GPL-2.0
/*
 * mstat's event sources (layer 4): the probes on the kmem tracepoints and
 * the switching of each source on and off (the API's source has no
 * tracepoint: mstat_api.c). Each event is one mstat_core write section of
 * the hot path (mstat_count.h).
 *
 * Probes never sleep and never allocate. They run in any context the
 * allocator runs in (task, softirq, hardirq): with preemption disabled
 * on 5.10 to 6.12, but 7.2's and 7.3's tracepoints protect their probes
 * by SRCU-fast and leave preemption on, so the write section disables it
 * itself (mstat_write_begin()). The probes are notrace, as the kernel's
 * own tracepoint probes are (kernel/trace/trace_sched_wakeup.c): the
 * function tracer does not run inside an allocation's event, and the
 * event does not execute the __fentry__ call's nop. Sizes are counted as
 * the size class the object occupies, computed the same way at
 * allocation and at free, so that live bytes come back to zero when
 * every object is freed:
 *
 *  - kmalloc: the tracepoint's bytes_alloc, the slab's object size, when
 *    it is the size of the class of the bytes requested (always, but with
 *    KASAN or slab debugging, whose metadata it includes; then
 *    kmalloc_size_roundup() of the bytes requested); kfree: the object
 *    size of the cache the object lives in (mstat_slab.h; the object is
 *    still allocated when the tracepoint fires), which for kmalloc's
 *    caches is the class's size, KFENCE objects and KASAN included; a
 *    large kmalloc's folio size; and where the slab layout is unknown,
 *    ksize() rounded up the same way;
 *  - kmem_cache_alloc/free: the object size of the cache passed;
 *  - pages: PAGE_SIZE << order.
 *
 * An object counts in the source of the cache it lives in: a kfree() of
 * a kmem_cache object is a free of the cache source, a kmem_cache_alloc()
 * from one of kmalloc's caches an allocation of the kmalloc source.
 *
 * Each probe inlines the hot path for its source, with no call on the
 * common path (ksize() on kfree where the slab layout is unknown).
 *
 * Page events have no call site: inside a probe, _RET_IP_ names the
 * tracepoint's dispatcher, and the page allocator's caller is not passed.
 * The event stream prints their site as "-".
 *
 * Counted once: some kernels (6.12) trace one kmalloc above
 * KMALLOC_MAX_CACHE_SIZE whose size is not a compile-time constant twice,
 * once in __kmalloc_large_node() with a call site inside the slab
 * allocator, once more with the real caller; the kfree is traced once.
 * Which kernels do is learnt at load from what the running kernel does
 * (mstat_twice_learn(), mstat_learn.c), not from its version: the inner
 * events' call sites are then skipped. The bulk APIs, which trace nothing
 * per object, are counted by mstat_kprobes.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "mstat_compat.h"
#include "mstat_count.h"
#include "mstat_learn.h"
#include "mstat_mutant.h"
#include "mstat_profile.h"
#include "mstat_slab.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_trace.h"
#include "mstat_vmem.h"
#include "mstat_watch.h"

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

/*
 * The call sites of the kernel's inner, second kmalloc event of one large
 * kmalloc, learnt at load (mstat_learn.c); set before any probe is
 * registered, read only after. Here, beside the probe that reads them.
 */
static unsigned long mstat_twice_site[MSTAT_TWICE_MAX];
static unsigned int mstat_twice_nr;

/* Whether a large kmalloc event is the kernel's inner one. */
static __always_inline bool mstat_kmalloc_inner(unsigned long call_site)
{
	unsigned int i;

	if (mstat_mutant(MSTAT_MUT_TWICE_COUNTED))
		return false;
	for (i = 0; i < mstat_twice_nr; i++)
		if (call_site == mstat_twice_site[i])
			return true;
	return false;
}

/* Tracepoint probes. */

/* kmalloc whose bytes_alloc is not what kfree will see: see below. */
static noinline void mstat_kmalloc_slow(size_t req, gfp_t gfp,
					unsigned long ptr, unsigned long site)
{
	size_t size = kmalloc_size_roundup(req);

	mstat_hot_alloc(MSTAT_SRC_KMALLOC, mstat_size_class(size), req, size,
			gfp, ptr, site);
}

/*
 * kmem_buckets (6.11 on): memdup_user(), msg_msg and other users allocate
 * from caches of their own through kmalloc's path, so the kmalloc event
 * reports them; kfree() then finds them in a cache that is not one of
 * kmalloc's. An object counts in the source of the cache it lives in,
 * both ways: such an allocation is the cache source's, in its cache's
 * row. Only where the kernel has buckets, and the slab layout is known.
 */
#ifdef MSTAT_HAVE_KMEM_BUCKETS
static noinline void mstat_kmalloc_bucket(const void *cache, const void *ptr,
					  gfp_t gfp, unsigned long site)
{
	mstat_count_cache_alloc((struct kmem_cache *)cache, ptr, gfp, site);
}
#endif

static __always_inline bool mstat_kmalloc_in_bucket(const void *ptr, gfp_t gfp,
						    unsigned long site)
{
#ifdef MSTAT_HAVE_KMEM_BUCKETS
	struct mstat_head *head;
	const void *cache;

	if (!static_branch_likely(&mstat_slab_known) ||
	    mstat_mutant(MSTAT_MUT_NO_LAYOUT))
		return false;
	/*
	 * Below KMALLOC_MAX_CACHE_SIZE a kmalloc is a slab's object; a page
	 * of its own (an exported kmalloc_large() called below it) is
	 * tested all the same, never read as a slab.
	 */
	head = mstat_lm_head(ptr);
	if (unlikely(!mstat_head_test_slab(head)))
		return false;
	cache = mstat_slab_cache(head);
	if (likely(mstat_slab_is_kmalloc(cache)))
		return false;
	mstat_kmalloc_bucket(cache, ptr, gfp, site);
	return true;
#else
	return false;
#endif
}

static __always_inline void __mstat_probe_kmalloc(unsigned long call_site,
						  const void *ptr,
						  size_t bytes_req,
						  size_t bytes_alloc,
						  gfp_t gfp_flags)
{
	unsigned int c = mstat_size_class(bytes_req);
	/*
	 * Its class is %MSTAT_CLASS_LARGE, tested on the bytes: the
	 * compiler then folds the test into mstat_size_class()'s own, where
	 * a test of @c, a load from its tables, stays a compare and a jump.
	 */
	bool large = bytes_req > MSTAT_CLASS_MAX_SIZE;

	if (unlikely(ZERO_OR_NULL_PTR(ptr))) {
		/* A failed large kmalloc is traced twice too (6.12). */
		if (!ptr && !(large && mstat_kmalloc_inner(call_site)))
			mstat_count_failure(MSTAT_SRC_KMALLOC, 0);
		return;		/* kmalloc(0): nothing allocated */
	}
	/*
	 * bytes_alloc is the slab's object size, the size ksize() gives at
	 * kfree: the size of the class of bytes_req, unless KASAN or slab
	 * debugging added metadata to it (or kmalloc's smallest caches are
	 * not mstat's classes). For a large kmalloc it is its pages, which
	 * ksize() gives too; such an event may be the kernel's inner one.
	 */
	if (unlikely(large)) {
		if (!mstat_kmalloc_inner(call_site))
			mstat_hot_alloc(MSTAT_SRC_KMALLOC, MSTAT_CLASS_LARGE,
					bytes_req, bytes_alloc, gfp_flags,
					(unsigned long)ptr, call_site);
		return;
	}
	if (mstat_kmalloc_in_bucket(ptr, gfp_flags, call_site))
		return;
	if (unlikely(bytes_alloc != mstat_class_size[c])) {
		mstat_kmalloc_slow(bytes_req, gfp_flags, (unsigned long)ptr,
				   call_site);
		return;
	}
	mstat_hot_class_alloc(c, bytes_req, bytes_alloc, gfp_flags,
			      (unsigned long)ptr, call_site);
}

/*
 * The kmalloc event's prototype (compat/tp_kmalloc_node.conftest): with
 * the node from 6.0; before, without, and kmalloc_node apart.
 */
#ifdef MSTAT_HAVE_TP_KMALLOC_NODE
static void notrace
mstat_probe_kmalloc(void *data, unsigned long call_site,
		    const void *ptr, size_t bytes_req,
		    size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	if (mstat_probe_empty())
		return;
	__mstat_probe_kmalloc(call_site, ptr, bytes_req, bytes_alloc,
			      gfp_flags);
}

#define mstat_probe_kmalloc_node	NULL
#else
static void notrace
mstat_probe_kmalloc(void *data, unsigned long call_site,
		    const void *ptr, size_t bytes_req,
		    size_t bytes_alloc, gfp_t gfp_flags)
{
	if (mstat_probe_empty())
		return;
	__mstat_probe_kmalloc(call_site, ptr, bytes_req, bytes_alloc,
			      gfp_flags);
}

static void notrace
mstat_probe_kmalloc_node(void *data, unsigned long call_site,
			 const void *ptr, size_t bytes_req,
			 size_t bytes_alloc, gfp_t gfp_flags,
			 int node)
{
	if (mstat_probe_empty())
		return;
	__mstat_probe_kmalloc(call_site, ptr, bytes_req, bytes_alloc,
			      gfp_flags);
}
#endif

/*
 * Where kmalloc's caches are exactly mstat's classes below LARGE (the
 * smallest is 8 bytes, the largest 8 KiB), the class of a KFENCE
 * object's ksize(), its requested size, is the class of its
 * kmalloc_size_roundup(); KFENCE objects are at most a page, so in a
 * class whose bytes are derived: the kfree probe needs the class only.
 */
#define MSTAT_KFREE_CLASS_ONLY	(KMALLOC_MIN_SIZE <= 8 && \
				 KMALLOC_MAX_CACHE_SIZE <= 8192)

/*
 * Where one kfree() of a live object counts, decided over the slab
 * layout (mstat_slab.h), in one place: the object's head says whether it
 * is a slab's or a large kmalloc's (its folio, which counts at its size
 * in the kmalloc source); a slab's cache says its size (a kmalloc
 * cache's object size is its class's, a KFENCE object's too) and its
 * source: kmalloc for one of kmalloc's caches, else the cache source,
 * in that cache's row, where kmem_cache_alloc() or a bucket's kmalloc
 * counted it. Return: the size; @cache the cache to count in, or NULL
 * for the kmalloc source, whose cell is the size's class.
 */
static __always_inline size_t mstat_kfree_where(const void *ptr,
						const void **cache)
{
	struct mstat_head *head = mstat_lm_head(ptr);
	const void *s;

	*cache = NULL;
	if (unlikely(!mstat_head_test_slab(head)))
		return mstat_head_size(head);
	s = mstat_slab_cache(head);
	if (unlikely(!mstat_slab_is_kmalloc(s)))
		*cache = s;
	return mstat_slab_size(s);
}

/* A cache's object freed with kfree(): counted where it was allocated. */
static noinline void mstat_kfree_cross(const void *cache, const void *ptr,
				       size_t size, unsigned long site)
{
	mstat_hot_cache_free(cache, size, (unsigned long)ptr, site);
}

/*
 * A large kmalloc's kfree, or a kmalloc cache's object above 8 KiB. The
 * site second, where the probe has it: the compiler then keeps it there.
 */
static noinline void mstat_kfree_large(const void *ptr, unsigned long site,
				       size_t size)
{
	mstat_hot_free(MSTAT_SRC_KMALLOC, mstat_size_class(size), size,
		       (unsigned long)ptr, site);
}

/* A kfree() while the slab layout is unknown: ksize() sizes it. */
static noinline void mstat_kfree_unknown(const void *ptr, unsigned long site)
{
	size_t size = MSTAT_KFREE_CLASS_ONLY ? ksize(ptr) :
			__mstat_kfree_size(ptr);

	if (size)
		mstat_hot_free(MSTAT_SRC_KMALLOC, mstat_size_class(size), size,
			       (unsigned long)ptr, site);
}

/* One kfree() of a live object: mstat_kfree_where() decides. */
static __always_inline void __mstat_count_kfree(const void *ptr,
						unsigned long site)
{
	const void *cache;
	size_t size;

	if (ZERO_OR_NULL_PTR(ptr))
		return;
	if (!static_branch_likely(&mstat_slab_known)) {
		mstat_kfree_unknown(ptr, site);
		return;
	}
	size = mstat_kfree_where(ptr, &cache);
	if (unlikely(cache)) {
		mstat_kfree_cross(cache, ptr, size, site);
		return;
	}
	if (unlikely(size > MSTAT_CLASS_MAX_SIZE)) {
		mstat_kfree_large(ptr, site, size);
		return;
	}
	mstat_hot_class_free(mstat_size_class(size), (unsigned long)ptr, site);
}

/**
 * mstat_count_kfree() - count one kfree() of a live object
 * @ptr: the object (NULL and ZERO_SIZE_PTR count nothing)
 * @site: its call site, for the recorders
 *
 * As the kfree probe counts it; for kfree_bulk().
 *
 * Context: any but NMI.
 */
void mstat_count_kfree(const void *ptr, unsigned long site)
{
	__mstat_count_kfree(ptr, site);
}

static void notrace
mstat_probe_kfree(void *data, unsigned long call_site,
		  const void *ptr)
{
	if (mstat_probe_empty())
		return;
	__mstat_count_kfree(ptr, call_site);
}

/*
 * A kmem_cache event of one of kmalloc's caches, whose object size is
 * @size: counted in the kmalloc source (a cache merged into one is, where
 * the kernel merges caches into kmalloc's: without hardened usercopy).
 */
static __always_inline void mstat_kmalloc_cache_alloc(size_t size,
						      const void *ptr,
						      gfp_t gfp,
						      unsigned long site)
{
	mstat_hot_alloc(MSTAT_SRC_KMALLOC, mstat_size_class(size), size, size,
			gfp, (unsigned long)ptr, site);
}

static __always_inline void mstat_kmalloc_cache_free(size_t size,
						     const void *ptr,
						     unsigned long site)
{
	mstat_hot_free(MSTAT_SRC_KMALLOC, mstat_size_class(size), size,
		       (unsigned long)ptr, site);
}

/* The cache's object size; its source: kmalloc for kmalloc's caches. */
static __always_inline size_t mstat_cache_size(struct kmem_cache *s,
					       bool *kmalloc)
{
	if (static_branch_likely(&mstat_slab_known)) {
		*kmalloc = mstat_slab_is_kmalloc(s);
		return mstat_slab_size(s);
	}
	*kmalloc = false;
	return kmem_cache_size(s);
}

/**
 * mstat_count_cache_free() - count one kmem_cache_free() of a live object
 * @s: its cache
 * @ptr: the object
 * @site: its call site, for the recorders
 *
 * As the kmem_cache_free probe counts it; for kmem_cache_free_bulk().
 *
 * Context: any but NMI.
 */
void mstat_count_cache_free(struct kmem_cache *s, const void *ptr,
			    unsigned long site)
{
	bool km;
	size_t size = mstat_cache_size(s, &km);

	if (unlikely(km))
		mstat_kmalloc_cache_free(size, ptr, site);
	else
		mstat_hot_cache_free(s, size, (unsigned long)ptr, site);
}

/**
 * mstat_count_cache_alloc() - count one allocation from a cache
 * @s: the cache
 * @ptr: the object
 * @gfp: the allocation's flags
 * @site: its call site, for the recorders
 *
 * As the kmem_cache_alloc probe counts it; for kmem_cache_alloc_bulk().
 *
 * Context: any but NMI.
 */
void mstat_count_cache_alloc(struct kmem_cache *s, const void *ptr,
			     gfp_t gfp, unsigned long site)
{
	bool km;
	size_t size = mstat_cache_size(s, &km);

	if (unlikely(km))
		mstat_kmalloc_cache_alloc(size, ptr, gfp, site);
	else
		mstat_hot_cache_alloc(s, size, gfp, (unsigned long)ptr, site);
}

/*
 * Before 6.0 the cache events do not pass the cache: the object's slab
 * names it, where the slab layout is known; else NULL, and the event
 * counts in the cache source without a row, sized by the event (an
 * allocation) or ksize() (a free).
 */
static __always_inline struct kmem_cache *mstat_cache_of_obj(const void *ptr)
{
	struct mstat_head *head;

	if (!ptr || !static_branch_likely(&mstat_slab_known))
		return NULL;
	return (struct kmem_cache *)mstat_slab_cache_of(ptr, &head);
}

/*
 * The cache events while the slab layout is unknown: out of line, so that
 * kmem_cache_size()'s call keeps no register of the inlined section.
 */
static noinline void mstat_cache_alloc_unknown(struct kmem_cache *s,
					       const void *ptr, gfp_t gfp,
					       unsigned long site)
{
	mstat_hot_cache_alloc(s, kmem_cache_size(s), gfp, (unsigned long)ptr,
			      site);
}

static noinline void mstat_cache_free_unknown(struct kmem_cache *s,
					      const void *ptr,
					      unsigned long site)
{
	mstat_hot_cache_free(s, kmem_cache_size(s), (unsigned long)ptr, site);
}

/*
 * A struct kmem_cache freed: its cache is gone (mstat_caches.h). Out of
 * line too, and counted as any free.
 */
static noinline void mstat_cache_free_kmem_cache(struct kmem_cache *s,
						 const void *ptr,
						 unsigned long site)
{
	mstat_cache_gone(ptr);
	mstat_count_cache_free(s, ptr, site);
}

/*
 * The design floor's cache event (mstat_probe_bare(), mstat_mutant.h): a
 * write section and the cache's row, nothing else. A cache without a row
 * yet claims it out of line, in a section nested in this one, as the
 * product's does.
 */
static noinline void mstat_bare_first(const void *cache, bool alloc)
{
	struct mstat_section sec;
	int r;

	mstat_write_begin(&mstat_core, &sec);
	r = mstat_cache_row_of(cache);
	if (r >= 0 && alloc)
		mstat_add(&sec, struct mstat_slot, row[r].allocs, 1);
	else if (r >= 0)
		mstat_add(&sec, struct mstat_slot, row[r].frees, 1);
	mstat_write_end(&mstat_core, &sec);
}

static __always_inline void mstat_bare_cache(const void *cache, bool alloc)
{
	struct mstat_section sec;
	long r;

	mstat_write_begin(&mstat_core, &sec);
	r = mstat_cache_find_of(cache);
	if (unlikely(r == MSTAT_CACHE_MISS)) {
		mstat_bare_first(cache, alloc);
		mstat_write_end_cold(&mstat_core);
		return;
	}
	if (r >= 0 && alloc)
		mstat_add(&sec, struct mstat_slot, row[r].allocs, 1);
	else if (r >= 0)
		mstat_add(&sec, struct mstat_slot, row[r].frees, 1);
	mstat_write_end(&mstat_core, &sec);
}

/*
 * Every kmem_cache_alloc event but the common one (an object of a cache
 * the slab layout says is not kmalloc's): out of line, with the probe's
 * own arguments in the registers they came in (x86-64's first five;
 * __noclone: no clone without the unused @data, whose arguments would
 * each move down a register), so that the probe moves none of them and
 * saves no register for these paths' calls.
 */
static noinline __noclone void mstat_cache_alloc_rare(void *data,
						      unsigned long call_site,
						      const void *ptr,
						      struct kmem_cache *s,
						      gfp_t gfp_flags,
						      size_t bytes_alloc)
{
	if (!ptr)
		mstat_count_cache_failure(s);
	else if (!s)
		mstat_hot_cache_alloc(NULL, bytes_alloc, gfp_flags,
				      (unsigned long)ptr, call_site);
	else if (!static_branch_likely(&mstat_slab_known))
		mstat_cache_alloc_unknown(s, ptr, gfp_flags, call_site);
	else	/* one of kmalloc's caches, which the probe tested */
		mstat_kmalloc_cache_alloc(mstat_slab_size(s), ptr, gfp_flags,
					  call_site);
}

static __always_inline void __mstat_probe_cache_alloc(void *data,
						      unsigned long call_site,
						      const void *ptr,
						      struct kmem_cache *s,
						      size_t bytes_alloc,
						      gfp_t gfp_flags)
{
	if (mstat_probe_bare()) {
		if (ptr)
			mstat_bare_cache(s, true);
		return;
	}
	if (unlikely(!ptr || !s) || !static_branch_likely(&mstat_slab_known) ||
	    unlikely(mstat_slab_is_kmalloc(s))) {
		mstat_cache_alloc_rare(data, call_site, ptr, s, gfp_flags,
				       bytes_alloc);
		return;
	}
	mstat_hot_cache_alloc(s, mstat_slab_size(s), gfp_flags,
			      (unsigned long)ptr, call_site);
}

/*
 * The size of a kmem_cache_free()d object whose cache the event did not
 * name and its slab no longer does. 5.10 traces kmem_cache_free after
 * the free, when the slab may have gone back to the page allocator:
 * ksize() then WARNs, so it is asked only of a page that is still a
 * slab's; else the free counts with no bytes.
 */
static noinline size_t mstat_cache_free_size(const void *ptr)
{
	return mstat_head_test_slab(mstat_virt_to_head(ptr)) ? ksize(ptr) : 0;
}

/*
 * Every kmem_cache_free event of an object but the common one, as
 * mstat_cache_alloc_rare() for the allocations.
 */
static noinline __noclone void mstat_cache_free_rare(void *data,
						     unsigned long call_site,
						     const void *ptr,
						     struct kmem_cache *s)
{
	if (!s)
		mstat_hot_cache_free(NULL, mstat_cache_free_size(ptr),
				     (unsigned long)ptr, call_site);
	else if (s == mstat_caches.kmem_cache)
		mstat_cache_free_kmem_cache(s, ptr, call_site);
	else if (!static_branch_likely(&mstat_slab_known))
		mstat_cache_free_unknown(s, ptr, call_site);
	else	/* one of kmalloc's caches, which the probe tested */
		mstat_kmalloc_cache_free(mstat_slab_size(s), ptr, call_site);
}

static __always_inline void __mstat_probe_cache_free(void *data,
						     unsigned long call_site,
						     const void *ptr,
						     const struct kmem_cache *s)
{
	struct kmem_cache *c = (struct kmem_cache *)s;

	if (mstat_probe_bare()) {
		if (ptr)
			mstat_bare_cache(s, false);
		return;
	}
	if (!ptr)
		return;
	if (unlikely(!s || s == mstat_caches.kmem_cache) ||
	    !static_branch_likely(&mstat_slab_known) ||
	    unlikely(mstat_slab_is_kmalloc(c))) {
		mstat_cache_free_rare(data, call_site, ptr, c);
		return;
	}
	mstat_hot_cache_free(c, mstat_slab_size(c), (unsigned long)ptr,
			     call_site);
}

/*
 * The cache events' prototypes (compat/tp_cache_*.conftest): from 6.0
 * with the cache (and the node); before, kmem_cache_alloc without them
 * and kmem_cache_alloc_node apart, and kmem_cache_free with the cache's
 * name (5.12 to 5.19) or nothing of it (5.10).
 */
#ifdef MSTAT_HAVE_TP_CACHE_ALLOC_CACHE
static void notrace
mstat_probe_cache_alloc(void *data, unsigned long call_site,
			const void *ptr, struct kmem_cache *s,
			gfp_t gfp_flags, int node)
{
	if (mstat_probe_empty())
		return;
	__mstat_probe_cache_alloc(data, call_site, ptr, s, 0, gfp_flags);
}

#define mstat_probe_cache_alloc_node	NULL
#else
static void notrace
mstat_probe_cache_alloc(void *data, unsigned long call_site,
			const void *ptr, size_t bytes_req,
			size_t bytes_alloc, gfp_t gfp_flags)
{
	if (mstat_probe_empty())
		return;
	__mstat_probe_cache_alloc(data, call_site, ptr, mstat_cache_of_obj(ptr),
				  bytes_alloc, gfp_flags);
}

static void notrace
mstat_probe_cache_alloc_node(void *data, unsigned long call_site,
			     const void *ptr, size_t bytes_req,
			     size_t bytes_alloc, gfp_t gfp_flags,
			     int node)
{
	if (mstat_probe_empty())
		return;
	__mstat_probe_cache_alloc(data, call_site, ptr, mstat_cache_of_obj(ptr),
				  bytes_alloc, gfp_flags);
}
#endif

#if defined(MSTAT_HAVE_TP_CACHE_FREE_CACHE)
static void notrace
mstat_probe_cache_free(void *data, unsigned long call_site,
		       const void *ptr,
		       const struct kmem_cache *s)
{
	if (mstat_probe_empty())
		return;
	__mstat_probe_cache_free(data, call_site, ptr, s);
}
#else
/*
 * Set while the kprobe at kmem_cache_free()'s entry counts its frees
 * (mstat_kprobes.c): then the event, which comes after the free, does not.
 */
bool mstat_cache_free_at_entry;

/**
 * mstat_count_cache_free_entry() - count a kmem_cache_free() at its entry
 * @s: the cache it names
 * @ptr: the object, still allocated
 *
 * Context: any but NMI; the kprobe at kmem_cache_free()'s entry.
 */
void mstat_count_cache_free_entry(struct kmem_cache *s, const void *ptr)
{
	__mstat_probe_cache_free(NULL, 0, ptr, s);
}

#if defined(MSTAT_HAVE_TP_CACHE_FREE_NAME)
static void notrace
mstat_probe_cache_free(void *data, unsigned long call_site,
		       const void *ptr, const char *name)
{
	if (mstat_probe_empty())
		return;
	if (!READ_ONCE(mstat_cache_free_at_entry))
		__mstat_probe_cache_free(data, call_site, ptr,
					 mstat_cache_of_obj(ptr));
}
#else
static void notrace
mstat_probe_cache_free(void *data, unsigned long call_site,
		       const void *ptr)
{
	if (mstat_probe_empty())
		return;
	if (!READ_ONCE(mstat_cache_free_at_entry))
		__mstat_probe_cache_free(data, call_site, ptr,
					 mstat_cache_of_obj(ptr));
}
#endif
#endif

static void notrace
mstat_probe_page_alloc(void *data, struct page *page,
		       unsigned int order, gfp_t gfp_flags,
		       int migratetype)
{
	size_t size = PAGE_SIZE << order;

	if (mstat_probe_empty())
		return;

	if (unlikely(!page)) {
		mstat_count_failure(MSTAT_SRC_PAGE, mstat_order_cell(order));
		return;
	}
	if (!order)
		mstat_page_watch_note(page);
	mstat_hot_alloc(MSTAT_SRC_PAGE, mstat_order_cell(order), size, size,
			gfp_flags, (unsigned long)page, 0);
}

/**
 * mstat_count_page_alloc() - count one order-0 page the kernel did not trace
 * @gfp: the allocation's flags
 * @page: the page, or NULL if not known (then never sampled)
 * @site: the return address of the call that gave it
 *
 * For alloc_pages_bulk(): each page as the mm_page_alloc probe counts
 * one, sampled for the heap profile at the same rate, its free found by
 * the mm_page_free probe; its stack starts at @site (mstat_page_stack()),
 * which the event stream names too.
 *
 * Context: any but NMI.
 */
void mstat_count_page_alloc(gfp_t gfp, struct page *page, unsigned long site)
{
	mstat_hot_alloc(MSTAT_SRC_PAGE, 0, PAGE_SIZE, PAGE_SIZE, gfp,
			(unsigned long)page, site);
}

static void notrace
mstat_probe_page_free(void *data, struct page *page,
		      unsigned int order)
{
	if (mstat_probe_empty())
		return;
	mstat_hot_free(MSTAT_SRC_PAGE, mstat_order_cell(order),
		       PAGE_SIZE << order, (unsigned long)page, 0);
}

/*
 * percpu: the allocation event comes once the object is whole, with its
 * size on each CPU (and from 6.0 its caller and flags; before, its flags
 * atomic or not); the free event, with the percpu allocator's lock held,
 * comes without a size: mstat_vmem.c keeps the objects it counted. An
 * object's bytes are its size times the possible CPUs, what it takes of
 * the chunks' pages (meminfo's Percpu). The event's bytes_alloc (from
 * 6.0, pcpu_obj_full_size()) is what the kernel charges a memory cgroup:
 * those bytes and, with kmem accounting on, a pointer per 8 bytes of the
 * object for the chunk's vector of cgroups, which lives in slab or
 * vmalloc, allocated with the chunk and counted there. Counting it here
 * would count those bytes twice.
 */
#if defined(MSTAT_HAVE_TP_PERCPU_ALLOC_SITE)
static void notrace
mstat_probe_percpu_alloc(void *data, unsigned long call_site,
			 bool reserved, bool is_atomic,
			 size_t size, size_t align,
			 void *base_addr, int off,
			 void __percpu *ptr, size_t bytes_alloc,
			 gfp_t gfp_flags)
{
	size_t bytes = size * num_possible_cpus();

	if (mstat_probe_empty())
		return;

	if (mstat_mutant(MSTAT_MUT_PCPU_CHARGED))
		bytes = bytes_alloc;
	mstat_count_percpu_alloc(ptr, size, bytes, gfp_flags, call_site);
}
#elif defined(MSTAT_HAVE_TP_PERCPU_ALLOC)
static void notrace
mstat_probe_percpu_alloc(void *data, bool reserved,
			 bool is_atomic, size_t size,
			 size_t align, void *base_addr, int off,
			 void __percpu *ptr)
{
	if (mstat_probe_empty())
		return;
	mstat_count_percpu_alloc(ptr, size, size * num_possible_cpus(),
				 is_atomic ? GFP_ATOMIC : GFP_KERNEL, 0);
}
#else
#define mstat_probe_percpu_alloc	NULL
#endif

static void notrace
mstat_probe_percpu_free(void *data, void *base_addr, int off,
			void __percpu *ptr)
{
	if (mstat_probe_empty())
		return;
	mstat_count_percpu_free(ptr);
}

static void notrace
mstat_probe_percpu_fail(void *data, bool reserved,
			bool is_atomic, size_t size, size_t align)
{
	if (mstat_probe_empty())
		return;
	mstat_count_failure(MSTAT_SRC_PERCPU, 0);
}

/* Switching sources on and off. */

struct mstat_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

/*
 * Per source, its tracepoints (none for the API): allocation, free, and
 * before 6.0 the *_node allocation events apart. A NULL probe: no such
 * event on this kernel.
 */
#define MSTAT_TPS	3
static struct mstat_tp mstat_tps[MSTAT_NR_SOURCES][MSTAT_TPS] = {
	[MSTAT_SRC_KMALLOC] = {
		{ "kmalloc", mstat_probe_kmalloc },
		{ "kfree", mstat_probe_kfree },
		{ "kmalloc_node", mstat_probe_kmalloc_node },
	},
	[MSTAT_SRC_CACHE] = {
		{ "kmem_cache_alloc", mstat_probe_cache_alloc },
		{ "kmem_cache_free", mstat_probe_cache_free },
		{ "kmem_cache_alloc_node", mstat_probe_cache_alloc_node },
	},
	[MSTAT_SRC_PAGE] = {
		{ "mm_page_alloc", mstat_probe_page_alloc },
		{ "mm_page_free", mstat_probe_page_free },
	},
	[MSTAT_SRC_PERCPU] = {
		{ "percpu_alloc_percpu", mstat_probe_percpu_alloc },
		{ "percpu_free_percpu", mstat_probe_percpu_free },
		{ "percpu_alloc_percpu_fail", mstat_probe_percpu_fail },
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
	return t->tp && t->probe ?
	       tracepoint_probe_register(t->tp, t->probe, NULL) : 0;
}

static void mstat_tp_unregister(struct mstat_tp *t)
{
	if (t->tp && t->probe)
		WARN_ON_ONCE(tracepoint_probe_unregister(t->tp, t->probe, NULL));
}

/*
 * Register or unregister @src's probes, under mstat_sources_lock; on an
 * error the source stays off. Return: 0, or the registration's error.
 */
static int mstat_source_switch(enum mstat_source src, bool on)
{
	struct mstat_tp *t = mstat_tps[src];
	int err = 0, i;

	lockdep_assert_held(&mstat_sources_lock);
	if (on) {
		for (i = 0; i < MSTAT_TPS && !err; i++)
			err = mstat_tp_register(&t[i]);
		if (err) {
			for (i -= 2; i >= 0; i--)
				mstat_tp_unregister(&t[i]);
			pr_err("cannot switch on source %s: %d\n",
			       mstat_source_name[src], err);
			return err;
		}
	} else {
		for (i = MSTAT_TPS - 1; i >= 0; i--)
			mstat_tp_unregister(&t[i]);
	}
	WRITE_ONCE(mstat_sources_on[src], on);
	trace_mstat_source(mstat_source_name[src], on);
	return 0;
}

/**
 * mstat_source_present() - whether this kernel gives a source's events
 * @src: the source
 *
 * The percpu source needs a prototype of percpu_alloc_percpu that mstat
 * was built to read; the vmalloc source, its two probes (mstat_kprobes.c:
 * the faces ask them). Every other source is always there.
 *
 * Return: false if the source can count nothing here.
 */
bool mstat_source_present(enum mstat_source src)
{
	if (src == MSTAT_SRC_PERCPU)
		return mstat_tps[src][0].probe && mstat_tps[src][0].tp;
	return true;
}

/**
 * mstat_source_frees() - the sources whose objects a source's probes free
 * @src: the source
 *
 * An object counts in the source of the cache it lives in, whichever
 * probe sees it, and the heap profile finds a sampled object's entry by
 * its address alone, whichever probe sees its free. The slab sources'
 * probes free each other's objects: kfree() (the kmalloc source's
 * event; kfree_bulk(), kfree_rcu()'s sheaves) frees kmem_cache objects,
 * which count in the cache source, and kmem_cache_free() (the cache
 * source's event; kmem_cache_free_bulk(), and before 6.0 the kprobe at
 * kmem_cache_free()'s entry) frees any slab's object, one of kmalloc's
 * caches' counting in the kmalloc source. Every other source's objects
 * are freed through its own probes alone: a page (sampled by its struct
 * page) by mm_page_free, whole or split into order-0 pages; a vm area
 * by remove_vm_area()'s return probe; a percpu object by
 * percpu_free_percpu; the api source samples no address.
 *
 * So while either slab source is off, the frees of both sources' objects
 * may go unseen; while any other is off, its own objects' only.
 *
 * Return: a mask of BIT(enum mstat_source), @src's among them.
 */
unsigned long mstat_source_frees(enum mstat_source src)
{
	if (src == MSTAT_SRC_KMALLOC || src == MSTAT_SRC_CACHE)
		return BIT(MSTAT_SRC_KMALLOC) | BIT(MSTAT_SRC_CACHE);
	return BIT(src);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_source_frees);

/* Drop the sampled objects whose frees @src's probes may have missed. */
static void mstat_source_forget(enum mstat_source src, bool on)
{
	char why[32];

	snprintf(why, sizeof(why), "source %s switched %s",
		 mstat_source_name[src], on ? "on" : "off");
	mstat_profile_forget_sources(mstat_source_frees(src), why);
}

/**
 * mstat_source_set() - switch a source on or off
 * @src: the source
 * @on: the new state
 *
 * Objects allocated while a source was off and freed while it is on make
 * live counts negative; see the README. Either way, the heap profile's
 * sampled objects whose frees the source's probes may have missed, those
 * of mstat_source_frees(), are dropped (mstat_profile_forget_sources()):
 * the other sources' are kept, and their frees counted.
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a bad @src, or a tracepoint registration error
 * (the source stays off then).
 */
int mstat_source_set(enum mstat_source src, bool on)
{
	int err = 0;

	if (src >= MSTAT_NR_SOURCES)
		return -EINVAL;

	mutex_lock(&mstat_sources_lock);
	if (mstat_sources_on[src] == on)
		goto out;
	err = mstat_source_switch(src, on);
	if (!err) {
		/*
		 * Frees missed while it is off would leave sampled objects
		 * in the profile for good. Switched off: once no probe of it
		 * runs any more; on: the frees missed meanwhile.
		 */
		if (!on) {
			tracepoint_synchronize_unregister();
			if (src == MSTAT_SRC_VMALLOC || src == MSTAT_SRC_PERCPU)
				mstat_vmem_forget(src);
		}
		mstat_source_forget(src, on);
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
		for (i = 0; i < MSTAT_TPS; i++)
			if (mstat_tps[src][i].name && mstat_tps[src][i].probe &&
			    !strcmp(tp->name, mstat_tps[src][i].name))
				mstat_tps[src][i].tp = tp;
}

/**
 * mstat_twice_sites() - how many inner large-kmalloc events are skipped
 *
 * Return: the number of call sites whose kmalloc events are the kernel's
 * second of one allocation (0 where every kmalloc is traced once).
 */
unsigned int mstat_twice_sites(void)
{
	return mstat_twice_nr;
}

/**
 * mstat_sources_init() - find the kmem tracepoints, learn the kmalloc one
 *
 * The page allocator's are not exported, so all six are looked up by
 * name among the kernel's tracepoints. Then which kmalloc events are the
 * kernel's inner ones is learnt (mstat_twice_learn()), for the kmalloc
 * probe to skip.
 *
 * Return: 0, -ENOENT if one is missing, or the learner's -errno.
 */
int mstat_sources_init(void)
{
	struct mstat_twice learnt;
	unsigned int k;
	int src, i, err;

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
#ifndef MSTAT_HAVE_TP_KMALLOC_NODE
	BUILD_BUG_ON(!sizeof(register_trace_kmalloc_node(mstat_probe_kmalloc_node,
							 NULL)));
#endif
#ifndef MSTAT_HAVE_TP_CACHE_ALLOC_CACHE
	BUILD_BUG_ON(!sizeof(register_trace_kmem_cache_alloc_node(mstat_probe_cache_alloc_node,
								  NULL)));
#endif

	/*
	 * Without its allocation event's prototype, the percpu source
	 * counts nothing: not its frees either (mstat_source_present()).
	 */
	if (!mstat_tps[MSTAT_SRC_PERCPU][0].probe) {
		for (i = 1; i < MSTAT_TPS; i++)
			mstat_tps[MSTAT_SRC_PERCPU][i].probe = NULL;
		pr_warn("percpu objects not counted: no prototype of percpu_alloc_percpu mstat knows matched this kernel's when it was built\n");
	}
	for_each_kernel_tracepoint(mstat_tp_lookup, NULL);
	for (src = 0; src < MSTAT_NR_SOURCES; src++) {
		for (i = 0; i < MSTAT_TPS; i++) {
			if (mstat_tps[src][i].name && mstat_tps[src][i].probe &&
			    !mstat_tps[src][i].tp) {
				pr_err("tracepoint %s not found\n",
				       mstat_tps[src][i].name);
				return -ENOENT;
			}
		}
	}
	err = mstat_twice_learn(mstat_tps[MSTAT_SRC_KMALLOC][0].tp,
				mstat_tps[MSTAT_SRC_KMALLOC][2].tp, &learnt);
	if (err)
		return err;
	for (k = 0; k < learnt.nr; k++)
		mstat_twice_site[k] = learnt.site[k];
	mstat_twice_nr = learnt.nr;
	return 0;
}

/**
 * mstat_sources_exit() - switch every source off and wait for probes
 *
 * After this no probe runs or will run: the core can be freed.
 */
void mstat_sources_exit(void)
{
	int src;

	/*
	 * Not mstat_source_set(): the profile's table goes with the module,
	 * with nothing to drop or log, and one wait serves every source.
	 */
	mutex_lock(&mstat_sources_lock);
	for (src = 0; src < MSTAT_NR_SOURCES; src++)
		if (mstat_sources_on[src])
			mstat_source_switch(src, false);
	mutex_unlock(&mstat_sources_lock);
	tracepoint_synchronize_unregister();
	mstat_profile_set_cache_of(NULL);
}
