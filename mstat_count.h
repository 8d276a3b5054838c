/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot path (layer 3): one event is one mstat_core write section that
 * adds to the fewest cells the snapshot can be derived from (struct
 * mstat_cells), inlined into each probe for its source, and hands the
 * event to the recorders (the heap profile, the event stream) only while
 * one of them is on. What is optional costs a patched-out jump while off,
 * each recorder's own key, and no more than its own test while on: the
 * profile's on every event (a sample due, a freed object maybe sampled),
 * the stream's on none of the profile's (one key over both was one more
 * jump on every event while the profile is on, as it is by default).
 */
#ifndef _MSTAT_COUNT_H
#define _MSTAT_COUNT_H

#include <linux/gfp.h>
#include <linux/hardirq.h>
#include <linux/jump_label.h>
#include <linux/minmax.h>
#include <linux/preempt.h>
#include <linux/types.h>

#include "mstat_caches.h"
#include "mstat_core/mstat_core.h"
#include "mstat_profile.h"
#include "mstat_stats.h"
#include "mstat_stream.h"

void mstat_extras(unsigned int slot, bool alloc, bool sample, bool sampled,
		  bool stream, enum mstat_source src, unsigned long ptr,
		  size_t size, unsigned long site);
void mstat_count_failure(enum mstat_source src, unsigned int order);
void mstat_count_page_split(unsigned int order);
void mstat_count_page_trim(struct page *page, size_t size);
void mstat_count_cache_failure(const void *cache);
void mstat_count_alloc(enum mstat_source src, size_t req, size_t alloc,
		       gfp_t gfp, unsigned int order, unsigned long site);
void mstat_count_free(enum mstat_source src, size_t size, unsigned int order,
		      unsigned long site);
void mstat_count_cache_alloc_first(size_t size, unsigned long site,
				   unsigned long ptr, const void *cache,
				   gfp_t gfp);
void mstat_count_cache_free_first(size_t size, unsigned long site,
				  unsigned long ptr, const void *cache);

/* The context a preempt count @pc says: an NMI counts as a hard irq. */
static __always_inline enum mstat_ctx mstat_context_of(unsigned long pc)
{
	if (pc & (HARDIRQ_MASK | NMI_MASK))
		return MSTAT_CTX_HARDIRQ;
	if (in_serving_softirq())
		return MSTAT_CTX_SOFTIRQ;
	return MSTAT_CTX_TASK;
}

static __always_inline enum mstat_ctx mstat_context(void)
{
	return mstat_context_of(preempt_count());
}

/*
 * mstat_context() of the code a kprobe probes, asked from the probe's
 * handler: a kprobe hit through x86's int3 runs as an NMI on top of the
 * probed context (__nmi_enter(): NMI_OFFSET and HARDIRQ_OFFSET), so that
 * in_task() is false there whatever the probed context; one through
 * arm64's BRK, or on an ftrace site, runs at the probed context's own
 * level. The functions mstat probes never run in an NMI, so an NMI level
 * here is the breakpoint's (kunit: mstat_probed_context_breakpoint).
 */
static __always_inline enum mstat_ctx mstat_probed_context(void)
{
	unsigned long pc = preempt_count();

	if (pc & NMI_MASK)
		pc -= NMI_OFFSET + HARDIRQ_OFFSET;
	return mstat_context_of(pc);
}

/* The cell of page order @order: higher orders count in the last. */
static __always_inline unsigned int mstat_order_cell(unsigned int order)
{
	return min_t(unsigned int, order, MSTAT_NR_ORDERS - 1);
}

#define mstat_cell_add(s, src, c, field, val) \
	mstat_add(s, struct mstat_cells, cell[src][c].field, val)

/*
 * The context and GFP split of an event, in an open section @s. Only the
 * uncommon kinds are counted: an allocation that may sleep, in a task,
 * and a free in a task, nearly every event, add nothing here, and
 * mstat_stats_derive() takes them as the rest of the sources' totals,
 * from the same cut (a test and a jump each, where their counter cost a
 * context's index and an add).
 */
static __always_inline void mstat_count_ctx_alloc(struct mstat_section *s,
						  gfp_t gfp)
{
	/* An enum mstat_gfp, as a long: no zero extension for the index. */
	unsigned long g;

	/* in_task(): one test of the preempt count (but on PREEMPT_RT). */
	if (likely(in_task() && gfpflags_allow_blocking(gfp)))
		return;
	g = gfpflags_allow_blocking(gfp);
	mstat_add(s, struct mstat_cells, ctx_gfp_allocs[mstat_context()][g], 1);
}

static __always_inline void mstat_count_ctx_free(struct mstat_section *s)
{
	if (unlikely(!in_task()))
		mstat_add(s, struct mstat_cells, ctx_frees[mstat_context()], 1);
}

/* What an event asks of the recorders: mstat_extras()'s flags. */
#define MSTAT_X_SAMPLE	BIT(0)	/* sample it; for a free: its sample's */
#define MSTAT_X_STREAM	BIT(1)

/*
 * The recorders' tests of an allocation: a page only while page sampling
 * is on, and never unknown. Each outcome returns its own constant: no
 * flag is made of a test.
 */
static __always_inline unsigned int mstat_alloc_extras(enum mstat_source src,
						       size_t alloc,
						       unsigned long ptr)
{
	bool sample = src != MSTAT_SRC_PAGE ||
		      (ptr && static_branch_unlikely(&mstat_profile_pages_key));

	if (sample && mstat_profile_due(alloc))
		return MSTAT_X_SAMPLE |
		       (mstat_streamed(src) ? MSTAT_X_STREAM : 0);
	if (mstat_streamed(src))
		return MSTAT_X_STREAM;
	return 0;
}

static __always_inline unsigned int mstat_free_extras(enum mstat_source src,
						      unsigned long ptr)
{
	bool sampled = (src != MSTAT_SRC_PAGE ||
			static_branch_unlikely(&mstat_profile_page_free_key)) &&
		       ptr;

	if (sampled && mstat_profile_held(ptr))
		return MSTAT_X_SAMPLE |
		       (mstat_streamed(src) ? MSTAT_X_STREAM : 0);
	if (mstat_streamed(src))
		return MSTAT_X_STREAM;
	return 0;
}

/*
 * The counts of one allocation in an open write section @s (arguments as
 * __mstat_count_alloc_in()'s); returns what it asks of the recorders.
 */
static __always_inline unsigned int
__mstat_count_alloc_cells(struct mstat_section *s, enum mstat_source src,
			  long r, unsigned int c, bool fixed, size_t req,
			  size_t alloc, gfp_t gfp, unsigned long ptr)
{
	if (src == MSTAT_SRC_CACHE && r >= 0) {
		mstat_add(s, struct mstat_slot, row[r].allocs, 1);
	} else {
		/* A cache's class only without a row: not on its way. */
		if (src == MSTAT_SRC_CACHE)
			c = mstat_size_class(alloc);
		mstat_cell_add(s, src, c, allocs, 1);
		if (src == MSTAT_SRC_KMALLOC || src == MSTAT_SRC_API)
			mstat_cell_add(s, src, c, bytes_req, req);
		if (!fixed)
			mstat_cell_add(s, src, c, bytes_alloc, alloc);
	}
	mstat_count_ctx_alloc(s, gfp);
	return mstat_alloc_extras(src, alloc, ptr);
}

/**
 * __mstat_count_alloc_in() - count one allocation in an open write section
 * @s: the section, which the caller opened and will close
 * @src: the source; a constant, so that only the adds it needs are left
 * @r: for %MSTAT_SRC_CACHE, the row of its cache (mstat_caches.h), which
 *	counts it instead of a cell, or -1 for none
 * @c: its cell: the size class, or for %MSTAT_SRC_PAGE the order; for
 *	%MSTAT_SRC_CACHE found here, from @alloc, if it has no row
 * @fixed: mstat_cell_fixed() of @src and @c, which a caller may know
 * @req: bytes requested
 * @alloc: bytes allocated
 * @gfp: the allocation's flags
 * @ptr: the object, for the recorders
 * @site: the call site, for the recorders
 *
 * For a caller that keeps state of its own beside the count, by the
 * section's slot (mstat_section_slot()): mstat_vmem.c's tables.
 *
 * Context: inside @s; any but NMI.
 */
static __always_inline void __mstat_count_alloc_in(struct mstat_section *s,
						   enum mstat_source src,
						   long r, unsigned int c,
						   bool fixed,
						   size_t req, size_t alloc,
						   gfp_t gfp, unsigned long ptr,
						   unsigned long site)
{
	unsigned int x = __mstat_count_alloc_cells(s, src, r, c, fixed, req,
						   alloc, gfp, ptr);

	if (unlikely(x))
		mstat_extras(mstat_section_slot(&mstat_core, s), true,
			     x & MSTAT_X_SAMPLE, false, x & MSTAT_X_STREAM, src,
			     ptr, alloc, site);
}

/*
 * __mstat_count_alloc_in() as one write section of its own. For
 * %MSTAT_SRC_CACHE, @cache is the cache, whose row counts the event if it
 * has one; an event of a cache not in the table yet is counted out of
 * line, whole, in a section nested in this one, which claims the row
 * (mstat_count_cache_alloc_first()). A path that calls out (that, and
 * the recorders') ends the section by mstat_write_end_cold(), which keeps
 * nothing of it across the call: the common path then holds the section
 * in registers a call may clobber, and saves none.
 */
static __always_inline void __mstat_hot_alloc(enum mstat_source src,
					      const void *cache,
					      unsigned int c, bool fixed,
					      size_t req,
					      size_t alloc, gfp_t gfp,
					      unsigned long ptr,
					      unsigned long site)
{
	struct mstat_section s;
	unsigned int x;
	long r = -1;

	mstat_write_begin(&mstat_core, &s);
	if (src == MSTAT_SRC_CACHE) {
		r = mstat_cache_find_of(cache);
		if (unlikely(r == MSTAT_CACHE_MISS)) {
			mstat_count_cache_alloc_first(alloc, site, ptr, cache,
						      gfp);
			mstat_write_end_cold(&mstat_core);
			return;
		}
	}
	x = __mstat_count_alloc_cells(&s, src, r, c, fixed, req, alloc, gfp,
				      ptr);
	if (unlikely(x)) {
		mstat_extras(mstat_section_slot(&mstat_core, &s), true,
			     x & MSTAT_X_SAMPLE, false, x & MSTAT_X_STREAM, src,
			     ptr, alloc, site);
		mstat_write_end_cold(&mstat_core);
		return;
	}
	mstat_write_end(&mstat_core, &s);
}

/*
 * The counts of one free in an open write section @s (arguments as
 * __mstat_count_free_in()'s); returns what it asks of the recorders.
 */
static __always_inline unsigned int
__mstat_count_free_cells(struct mstat_section *s, enum mstat_source src,
			 long r, unsigned int c, bool fixed, size_t size,
			 unsigned long ptr)
{
	if (src == MSTAT_SRC_CACHE && r >= 0) {
		mstat_add(s, struct mstat_slot, row[r].frees, 1);
	} else {
		if (src == MSTAT_SRC_CACHE)
			c = mstat_size_class(size);
		mstat_cell_add(s, src, c, frees, 1);
		if (!fixed)
			mstat_cell_add(s, src, c, bytes_freed, size);
	}
	mstat_count_ctx_free(s);
	return mstat_free_extras(src, ptr);
}

/**
 * __mstat_count_free_in() - count one free in an open write section
 * @s: the section, which the caller opened and will close
 * @src: the source, a constant
 * @r: for %MSTAT_SRC_CACHE, the row of its cache, or -1
 * @c: its cell (for %MSTAT_SRC_CACHE found here, as for an allocation)
 * @fixed: mstat_cell_fixed() of @src and @c, which a caller may know
 * @size: bytes the object occupied
 * @ptr: the object, for the recorders
 * @site: the call site, for the recorders
 *
 * Context: inside @s; any but NMI.
 */
static __always_inline void __mstat_count_free_in(struct mstat_section *s,
						  enum mstat_source src,
						  long r, unsigned int c,
						  bool fixed,
						  size_t size, unsigned long ptr,
						  unsigned long site)
{
	unsigned int x = __mstat_count_free_cells(s, src, r, c, fixed, size,
						  ptr);

	if (unlikely(x))
		mstat_extras(mstat_section_slot(&mstat_core, s), false, false,
			     x & MSTAT_X_SAMPLE, x & MSTAT_X_STREAM, src, ptr,
			     fixed ? mstat_cell_size(src, c) : size, site);
}

/* __mstat_count_free_in() as one write section of its own, as above. */
static __always_inline void __mstat_hot_free(enum mstat_source src,
					     const void *cache,
					     unsigned int c, bool fixed,
					     size_t size,
					     unsigned long ptr,
					     unsigned long site)
{
	struct mstat_section s;
	unsigned int x;
	long r = -1;

	mstat_write_begin(&mstat_core, &s);
	if (src == MSTAT_SRC_CACHE) {
		r = mstat_cache_find_of(cache);
		if (unlikely(r == MSTAT_CACHE_MISS)) {
			mstat_count_cache_free_first(size, site, ptr, cache);
			mstat_write_end_cold(&mstat_core);
			return;
		}
	}
	x = __mstat_count_free_cells(&s, src, r, c, fixed, size, ptr);
	if (unlikely(x)) {
		mstat_extras(mstat_section_slot(&mstat_core, &s), false, false,
			     x & MSTAT_X_SAMPLE, x & MSTAT_X_STREAM, src, ptr,
			     fixed ? mstat_cell_size(src, c) : size, site);
		mstat_write_end_cold(&mstat_core);
		return;
	}
	mstat_write_end(&mstat_core, &s);
}

/* The sources without a cache. */
static __always_inline void mstat_hot_alloc(enum mstat_source src,
					    unsigned int c, size_t req,
					    size_t alloc, gfp_t gfp,
					    unsigned long ptr,
					    unsigned long site)
{
	__mstat_hot_alloc(src, NULL, c, mstat_cell_fixed(src, c), req, alloc,
			  gfp, ptr, site);
}

static __always_inline void mstat_hot_free(enum mstat_source src,
					   unsigned int c, size_t size,
					   unsigned long ptr,
					   unsigned long site)
{
	__mstat_hot_free(src, NULL, c, mstat_cell_fixed(src, c), size, ptr,
			 site);
}

/*
 * kmalloc's class @c, which the caller knows is below %MSTAT_CLASS_LARGE
 * (the compiler cannot): a fixed-size cell, events only.
 */
static __always_inline void mstat_hot_class_alloc(unsigned int c, size_t req,
						  size_t alloc, gfp_t gfp,
						  unsigned long ptr,
						  unsigned long site)
{
	__mstat_hot_alloc(MSTAT_SRC_KMALLOC, NULL, c, true, req, alloc, gfp,
			  ptr, site);
}

static __always_inline void mstat_hot_class_free(unsigned int c,
						 unsigned long ptr,
						 unsigned long site)
{
	__mstat_hot_free(MSTAT_SRC_KMALLOC, NULL, c, true, mstat_class_size[c],
			 ptr, site);
}

/* The cache source: the cache's row counts the event, if it has one. */
static __always_inline void mstat_hot_cache_alloc(const void *cache,
						  size_t size, gfp_t gfp,
						  unsigned long ptr,
						  unsigned long site)
{
	__mstat_hot_alloc(MSTAT_SRC_CACHE, cache, 0, false,
			  size, size, gfp, ptr, site);
}

static __always_inline void mstat_hot_cache_free(const void *cache,
						 size_t size,
						 unsigned long ptr,
						 unsigned long site)
{
	__mstat_hot_free(MSTAT_SRC_CACHE, cache, 0, false,
			 size, ptr, site);
}

#endif /* _MSTAT_COUNT_H */
