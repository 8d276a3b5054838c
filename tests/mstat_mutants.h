/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mutations of mstat's broken test build (mstat_mutant.h; make check
 * builds it with KCFLAGS=-DMSTAT_BROKEN_COUNTS=1 against 6.12 and the
 * debug kernel): every one is on in that build, and each is a bug that
 * the test named beside it must catch, or that test proves nothing. A
 * product build never includes this file.
 */
#ifndef _MSTAT_MUTANTS_H
#define _MSTAT_MUTANTS_H

#include <linux/types.h>

enum mstat_mutant {
	/*
	 * Both kmalloc events of a large kmalloc the kernel traces twice
	 * counted (6.12): truth kmalloc_large_var, kmemdup_large,
	 * kvmalloc_large (guest-6.12-truth-broken).
	 */
	MSTAT_MUT_TWICE_COUNTED,
	/*
	 * The learning of those kernels takes an interrupt's large kmalloc
	 * for the learning task's: guest-6.12-learn-broken.
	 */
	MSTAT_MUT_LEARN_IRQ,
	/*
	 * The slab layout, found and validated, never used: the kfree() of
	 * a cache's object counts as a kmalloc free, kmem_buckets' objects
	 * as kmalloc's: truth cache_kfree, memdup_user, msg_msg.
	 */
	MSTAT_MUT_NO_LAYOUT,
	/*
	 * The cache names' offset taken a word after the one found: its
	 * validation must refuse it, rows have ids and no names
	 * (guest-6.12-caches-broken).
	 */
	MSTAT_MUT_NAME_OFF,
	/*
	 * kmem_cache_free_bulk() and kfree_bulk() not counted: truth
	 * cache_bulk, cache_free_bulk, kfree_bulk, kfree_rcu (before 7.0).
	 */
	MSTAT_MUT_NO_BULK_FREE,
	/* kfree_rcu()'s sheaf frees not counted (7.0 on): truth kfree_rcu. */
	MSTAT_MUT_NO_SHEAF,
	/*
	 * No page watch for alloc_pages_bulk(): its traced single-page
	 * fallback counts twice (guest-6.12-bulk-fallback's pattern, named
	 * in guest-6.12-truth-broken).
	 */
	MSTAT_MUT_NO_WATCH,
	/*
	 * alloc_pages_exact()'s split not counted: its block stays live at
	 * its order, its pages freed at order 0: truth pages_exact.
	 */
	MSTAT_MUT_NO_EXACT,
	/*
	 * fail_page_alloc's injected failures not counted: the fault test
	 * (scripts/guest/faults.sh, guest-debug-faults-broken).
	 */
	MSTAT_MUT_NO_FAIL_PAGE,
	/* A control whose switch failed says it was made: the fault test. */
	MSTAT_MUT_SWITCH_LIES,
	/*
	 * The heap profile's tables leaked when a load fails after them:
	 * the fault test's kmemleak scan.
	 */
	MSTAT_MUT_LEAK_PROFILE,
	/*
	 * A source switched off or on drops every source's sampled objects
	 * from the heap profile, not only those whose frees its probes may
	 * have missed (mstat_profile_forget_sources() ignores the sources
	 * given): KUnit mstat_profile_forget_sources_keeps_others, in the
	 * broken build (guest-debug-kunit-busted).
	 */
	MSTAT_MUT_FORGET_ALL,
	/*
	 * A page's frames named by printing their symbols as the page is
	 * sampled (in the sampling context, interrupts maybe off), not told
	 * by the allocator's text: KUnit
	 * mstat_profile_page_stack_no_symbols, in the broken build
	 * (guest-debug-kunit-busted).
	 */
	MSTAT_MUT_PAGE_SYMBOLS,
	/*
	 * A vm area's or percpu object's free not counted, though its
	 * table held it: truth vmalloc_areas, vmap_areas, percpu
	 * (guest-6.12-truth-broken).
	 */
	MSTAT_MUT_VMEM_FREE_LOST,
	/*
	 * A percpu object counted as the kernel charges it (6.0 on: its
	 * bytes and the chunk's cgroup pointers for it, which the slab or
	 * vmalloc holds), not as the chunks' pages it takes: truth percpu
	 * and account-percpu (guest-6.12-counts-broken).
	 */
	MSTAT_MUT_PCPU_CHARGED,
	/*
	 * A reset that keeps the vm areas and percpu objects counted
	 * before it: their frees after it count, reading their sources'
	 * live counts below zero, rather than as unknown frees (the
	 * account's account-reset-unknown, guest-6.12-counts-broken).
	 */
	MSTAT_MUT_RESET_KEEPS_TABLES,
	/*
	 * alloc_pages_bulk()'s pages counted but never sampled for the heap
	 * profile, as before issue 62: the bulk pages' guest
	 * (scripts/guest/bulkpages.sh, guest-6.12-counts-broken).
	 */
	MSTAT_MUT_BULK_UNSAMPLED,
	/*
	 * The module notifier names nothing for good: an unloaded module's
	 * sampled sites named after whatever text is at their address
	 * later (mstat's own, or "[unknown]"): exact.sh's exact-named
	 * (guest-6.12-counts-broken).
	 */
	MSTAT_MUT_UNLOADED_NAMES,
	/*
	 * A vm area's or percpu object's free taken from the row of the
	 * task that frees it, not of the cgroup that allocated it
	 * (/proc/mstat_owners): the owners' guest's owners-free-elsewhere
	 * (guest-6.12-owners-broken).
	 */
	MSTAT_MUT_OWNER_AT_FREE,
};

/* Every mutation, in the one broken build; @name must be one of them. */
#define mstat_mutant(name)	((void)(enum mstat_mutant)(name), true)

#endif /* _MSTAT_MUTANTS_H */
