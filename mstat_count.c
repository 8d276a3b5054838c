// SPDX-License-Identifier: GPL-2.0
/*
 * The hot path's out-of-line parts (see mstat_count.h): the recorders'
 * call, failures, and the counting of events whose source is not a
 * constant (the API).
 */
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "mstat_count.h"

/*
 * Where a sample's stack is to be unwound from, where the x86 kernel's
 * ORC unwinder is there to be started at a frame (it exports
 * __unwind_start() on every kernel mstat builds for): the caller of
 * mstat_extras() as the unwinder would find it once mstat_extras()
 * returned, its return address, the stack pointer above that, and the
 * frame pointer register as it was, which mstat_extras() saved first
 * (__builtin_frame_address() gives it a frame pointer of its own). The
 * unwinder then skips the frames mstat_stack() would cut
 * (arch_stack_walk(), stack_trace_save(), mstat_stack(),
 * __mstat_profile_sample(), mstat_extras() itself), about half of a
 * short syscall's stack: 5,731 instructions a sampled pair against
 * 9,441 (docs/RESULTS.md). Elsewhere NULL: stack_trace_save().
 */
#ifdef CONFIG_UNWINDER_ORC
#define mstat_sample_from(regs) ({					\
	unsigned long *__fp = __builtin_frame_address(0);		\
	struct pt_regs *__r = (regs);					\
									\
	memset(__r, 0, sizeof(*__r));					\
	__r->ip = (unsigned long)__builtin_return_address(0);		\
	__r->sp = (unsigned long)(__fp + 2);				\
	__r->bp = __fp[0];						\
	__r;								\
})
#else
#define mstat_sample_from(regs)	({ (void)(regs); (struct pt_regs *)NULL; })
#endif

/**
 * mstat_extras() - what a section may do besides counting, out of line
 * @slot: mstat_section_slot() of the open section
 * @alloc: allocation (true) or free
 * @sample: sample the allocation for the profile
 * @sampled: attribute the free to its sample
 * @stream: stream the event
 * @src: the source
 * @ptr: the object
 * @size: its bytes
 * @site: the call site
 *
 * Called last in the section, so that the inlined probe keeps nothing
 * live across a call but the section's end.
 *
 * Context: inside a write section of mstat_core.
 */
noinline void mstat_extras(unsigned int slot, bool alloc, bool sample,
			   bool sampled, bool stream, enum mstat_source src,
			   unsigned long ptr, size_t size, unsigned long site)
{
	unsigned long rate;

	if (sample) {
		struct pt_regs from;

		rate = READ_ONCE(mstat_profile_rate);
		if (rate)
			__mstat_profile_sample(mstat_sample_from(&from), slot,
					       rate, ptr, size, site, src,
					       src == MSTAT_SRC_API ?
					       MSTAT_SAMPLE_API :
					       mstat_source_slab(src) ?
					       MSTAT_SAMPLE_LINEAR :
					       src == MSTAT_SRC_PAGE ?
					       MSTAT_SAMPLE_PAGE :
					       MSTAT_SAMPLE_KEY);
	}
	if (sampled)
		__mstat_profile_free(slot, ptr);
	if (stream)
		mstat_stream_event(src, alloc, ptr, size, site);
}

/**
 * mstat_count_failure() - count one failed allocation
 * @src: the source
 * @order: for %MSTAT_SRC_PAGE, the order (cell) of the failed request
 *
 * A slab-level source's failures are all in its class 0 cell.
 *
 * Context: any but NMI.
 */
noinline void mstat_count_failure(enum mstat_source src, unsigned int order)
{
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	mstat_cell_add(&s, src, src == MSTAT_SRC_PAGE ? order : 0, failures, 1);
	mstat_write_end(&mstat_core, &s);
}

/**
 * mstat_count_cache_failure() - count one failed allocation from a cache
 * @cache: the cache
 *
 * In the cache's row, or without one in the cache source's class 0 cell.
 *
 * Context: any but NMI.
 */
noinline void mstat_count_cache_failure(const void *cache)
{
	struct mstat_section s;
	int r;

	mstat_write_begin(&mstat_core, &s);
	r = mstat_cache_row_of(cache);
	if (r >= 0)
		mstat_add(&s, struct mstat_slot, row[r].failures, 1);
	else
		mstat_cell_add(&s, MSTAT_SRC_CACHE, 0, failures, 1);
	mstat_write_end(&mstat_core, &s);
}

/**
 * mstat_count_alloc() - count one allocation event
 * @src: the source
 * @req: bytes requested
 * @alloc: bytes the object occupies; 0 for a failed allocation
 * @gfp: the allocation's flags
 * @order: page order, for %MSTAT_SRC_PAGE
 * @site: the call site, for the recorders
 *
 * The probes inline the same for their own source; this is for the API,
 * whose objects have no address to give.
 *
 * Context: any but NMI.
 */
void mstat_count_alloc(enum mstat_source src, size_t req, size_t alloc,
		       gfp_t gfp, unsigned int order, unsigned long site)
{
	if (!alloc)
		mstat_count_failure(src, order);
	else if (src == MSTAT_SRC_PAGE)
		mstat_hot_alloc(MSTAT_SRC_PAGE, mstat_order_cell(order), req,
				alloc, gfp, 0, site);
	else
		mstat_hot_alloc(src, mstat_size_class(alloc), req, alloc, gfp,
				0, site);
}

/**
 * mstat_count_free() - count one free event
 * @src: the source
 * @size: bytes the object occupied (as mstat_count_alloc()'s @alloc)
 * @order: page order, for %MSTAT_SRC_PAGE
 * @site: the call site, for the recorders
 *
 * Context: any but NMI.
 */
void mstat_count_free(enum mstat_source src, size_t size, unsigned int order,
		      unsigned long site)
{
	if (src == MSTAT_SRC_PAGE)
		mstat_hot_free(MSTAT_SRC_PAGE, mstat_order_cell(order), size,
			       0, site);
	else
		mstat_hot_free(src, mstat_size_class(size), size, 0, site);
}

/**
 * mstat_count_cache_alloc_first() - count an allocation from a cache
 *	that had no row when its probe looked
 * @size: its object size
 * @site: the call site
 * @ptr: the object
 * @cache: the cache
 * @gfp: the allocation's flags
 *
 * Out of line, in a section of its own, nested in the probe's (sections
 * nest as an interrupt's do): the row is claimed here
 * (mstat_cache_row_of()), or found if another CPU claimed it meanwhile.
 * The site, the object and the cache come second to fourth, where the
 * kmem_cache events' probes receive them (x86-64's rsi, rdx, rcx): the
 * probe's call moves none of them.
 *
 * Context: inside the probe's write section; any but NMI.
 */
noinline void mstat_count_cache_alloc_first(size_t size, unsigned long site,
					    unsigned long ptr,
					    const void *cache, gfp_t gfp)
{
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	__mstat_count_alloc_in(&s, MSTAT_SRC_CACHE, mstat_cache_row_of(cache),
			       0, false, size, size, gfp, ptr, site);
	mstat_write_end(&mstat_core, &s);
}

/**
 * mstat_count_cache_free_first() - count a free to a cache that had no
 *	row when its probe looked
 * @size: its object size
 * @site: the call site
 * @ptr: the object
 * @cache: the cache
 *
 * As mstat_count_cache_alloc_first().
 *
 * Context: inside the probe's write section; any but NMI.
 */
noinline void mstat_count_cache_free_first(size_t size, unsigned long site,
					   unsigned long ptr,
					   const void *cache)
{
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	__mstat_count_free_in(&s, MSTAT_SRC_CACHE, mstat_cache_row_of(cache),
			      0, false, size, ptr, site);
	mstat_write_end(&mstat_core, &s);
}

/**
 * mstat_count_page_split() - count split_page() of a live block
 * @order: the block's order, above 0
 *
 * The block's pages are freed one by one, at order 0, and since 7.x
 * vmalloc() gets its pages this way. So, in one write section, the
 * block counts as freed at its order and its 1 << @order pages as
 * allocated at order 0: each order's allocations and frees then pair,
 * and the live pages are unchanged. The pages' gfp class is not known
 * here: they count as sleeping allocations in task context, atomic ones
 * in any other: the context of the code probed (mstat_probed_context()),
 * not the breakpoint's, which x86 runs as an NMI.
 *
 * Context: a kprobe's or kretprobe's handler, of code that runs in any
 * context but NMI.
 */
void mstat_count_page_split(unsigned int order)
{
	enum mstat_ctx x = mstat_probed_context();
	unsigned int c = mstat_order_cell(order);
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	mstat_cell_add(&s, MSTAT_SRC_PAGE, c, frees, 1);
	if (!mstat_cell_fixed(MSTAT_SRC_PAGE, c))
		mstat_cell_add(&s, MSTAT_SRC_PAGE, c, bytes_freed,
			       PAGE_SIZE << order);
	if (x != MSTAT_CTX_TASK) {
		mstat_add(&s, struct mstat_cells, ctx_frees[x], 1);
		mstat_add(&s, struct mstat_cells,
			  ctx_gfp_allocs[x][MSTAT_GFP_ATOMIC], 1UL << order);
	}
	mstat_cell_add(&s, MSTAT_SRC_PAGE, 0, allocs, 1UL << order);
	mstat_write_end(&mstat_core, &s);
}

/**
 * mstat_count_page_trim() - a block's sample cut to what its caller holds
 * @page: the block's first page, as mm_page_alloc gave it (a sample's key)
 * @size: the bytes alloc_pages_exact() returned of it (page-rounded here)
 *
 * The counters need nothing: the tail's pages count as they are freed.
 * The heap profile's sample of the block, if it was sampled, is cut to
 * @size (__mstat_profile_trim()).
 *
 * Context: any but NMI.
 */
void mstat_count_page_trim(struct page *page, size_t size)
{
	struct mstat_section s;

	/* No page sampled yet, none to trim (it stays on once on). */
	if (!static_branch_unlikely(&mstat_profile_page_free_key))
		return;
	mstat_write_begin(&mstat_core, &s);
	__mstat_profile_trim(mstat_section_slot(&mstat_core, &s),
			     (unsigned long)page, PAGE_ALIGN(size));
	mstat_write_end(&mstat_core, &s);
}
