/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The differences between the kernels mstat builds for (Debian's 5.10 to
 * 7.3, the 6.12 test kernels, and vendor kernels between) that a helper,
 * a macro or a type can hide: compat/ finds which, by compiling against
 * the kernel (MSTAT_HAVE_*, below), and this file gives the rest of mstat
 * one spelling of each.
 *
 * The others are the shape of a probe or of a table row, and stay beside
 * it, where a helper would only part a handler from its own prototype:
 *  - mstat_sources.c: each kmem tracepoint probe's prototype, as the
 *    event has it (kmalloc_node and kmem_cache_alloc_node before 6.0, the
 *    cache in kmem_cache_free from 6.0, percpu_alloc_percpu's call site),
 *    and whether kmalloc has kmem_buckets (6.11 on);
 *  - mstat_learn.c: its learning probe's, the same kmalloc prototypes;
 *  - mstat_kprobes.c: each probed function's name and its arguments'
 *    places (the *_noprof() names of 6.10, alloc_pages_bulk()'s list
 *    gone in 6.14, kmem_cache_alloc_bulk()'s bool of 7.2), and which
 *    functions this kernel has to probe at all;
 *  - mstat_stats.c: which of /proc/meminfo's counters this kernel has,
 *    one row of the account each.
 * The test modules' own differences are in tests/mstat_test_compat.h.
 * A leaf: it includes no mstat header, and any file may include it.
 */
#ifndef _MSTAT_COMPAT_H
#define _MSTAT_COMPAT_H

#include <linux/export.h>
#include <linux/kconfig.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/slab.h>

/*
 * MSTAT_HAVE_*: what compat/conftest.sh found by compiling against the
 * target kernel's headers (one test a file in compat/). Prefer these to
 * LINUX_VERSION_CODE: vendor kernels backport under an old version.
 */
#include "mstat_conftest.h"

/*
 * Internals the KUnit suites call: exported only on kernels with KUnit,
 * in the EXPORTED_FOR_KUNIT_TESTING namespace. kunit/visibility.h came
 * in 6.2; before it, the same export by hand.
 */
#ifdef MSTAT_HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#elif IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_IF_KUNIT(symbol) \
	EXPORT_SYMBOL_NS(symbol, EXPORTED_FOR_KUNIT_TESTING)
#else
/* Nothing exported: a reference in a section the link discards. */
#define EXPORT_SYMBOL_IF_KUNIT(symbol) __ADDRESSABLE(symbol)
#endif

/*
 * MSTAT_INTERNAL: the namespace of mstat_core's exports, which only
 * mstat's own test modules import (tests/torture, kunit/); mstat.h's API
 * for other modules stays outside any namespace.
 * EXPORT_SYMBOL_MSTAT_INTERNAL() is the core's export: the core does not
 * include this header, Kbuild compiles it with this header included first
 * (-include); without it (tests/userspace) the core falls back to a plain
 * EXPORT_SYMBOL_GPL().
 *
 * The namespace argument of EXPORT_SYMBOL_NS_GPL() and MODULE_IMPORT_NS()
 * is a bare word before 6.13, a string from then on
 * (compat/export_ns_bare.conftest and compat/import_ns_bare.conftest:
 * only the old macros take a bare word).
 */
#ifdef MSTAT_HAVE_EXPORT_NS_BARE
#define EXPORT_SYMBOL_MSTAT_INTERNAL(sym)	EXPORT_SYMBOL_NS_GPL(sym, MSTAT_INTERNAL)
#else
#define EXPORT_SYMBOL_MSTAT_INTERNAL(sym)	EXPORT_SYMBOL_NS_GPL(sym, "MSTAT_INTERNAL")
#endif

/*
 * What a module writes to use the core's exports, and what a KUnit suite
 * writes to use the internals above.
 */
#ifdef MSTAT_HAVE_IMPORT_NS_BARE
#define MSTAT_IMPORT_INTERNAL_NS() MODULE_IMPORT_NS(MSTAT_INTERNAL)
#define MSTAT_IMPORT_KUNIT_NS() MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING)
#else
#define MSTAT_IMPORT_INTERNAL_NS() MODULE_IMPORT_NS("MSTAT_INTERNAL")
#define MSTAT_IMPORT_KUNIT_NS() MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING")
#endif

/*
 * KUnit cases marked slow (skipped by "kunit.py run --filter speed>slow"):
 * case attributes came in 6.6; before, such a case is a plain one.
 */
#ifdef MSTAT_HAVE_KUNIT_ATTRIBUTES
#define MSTAT_KUNIT_CASE_SLOW(fn)	KUNIT_CASE_SLOW(fn)
#define MSTAT_KUNIT_CASE_PARAM_SLOW(fn, gen) \
	KUNIT_CASE_PARAM_ATTR(fn, gen, { .speed = KUNIT_SPEED_SLOW })
#else
#define MSTAT_KUNIT_CASE_SLOW(fn)	KUNIT_CASE(fn)
#define MSTAT_KUNIT_CASE_PARAM_SLOW(fn, gen)	KUNIT_CASE_PARAM(fn, gen)
#endif

/* KFENCE came in 5.12: before, no object is KFENCE's. */
#ifdef MSTAT_HAVE_KFENCE
#include <linux/kfence.h>
#else
static inline bool is_kfence_address(const void *addr)
{
	return false;
}
#endif

/* A kretprobe instance's return address: an accessor from 5.11. */
#ifdef MSTAT_HAVE_KRETPROBE_RETADDR
#define mstat_kretprobe_retaddr(ri)	get_kretprobe_retaddr(ri)
#else
#define mstat_kretprobe_retaddr(ri)	((unsigned long)(ri)->ret_addr)
#endif

/*
 * A slab object's head: its folio from 5.16, its head page before. Used
 * as "struct mstat_head *".
 */
#ifdef MSTAT_HAVE_FOLIO
#define mstat_head			folio
#define mstat_virt_to_head(obj)		virt_to_folio(obj)
#define mstat_head_test_slab(head)	folio_test_slab(head)
#define mstat_head_size(head)		folio_size(head)
#else
#define mstat_head			page
#define mstat_virt_to_head(obj)		virt_to_head_page(obj)
#define mstat_head_test_slab(head)	PageSlab(head)
#define mstat_head_size(head)		page_size(head)
#endif

/*
 * The head of an object of the linear map (slab objects, KFENCE's pool
 * and large kmallocs all are), for the hot paths: on x86-64,
 * virt_to_page() without __pa()'s case of the kernel image, which such
 * an object never is in; elsewhere virt_to_page() itself.
 */
#ifdef CONFIG_X86_64
#define mstat_lm_page(obj)	\
	pfn_to_page(((unsigned long)(obj) - PAGE_OFFSET) >> PAGE_SHIFT)
#else
#define mstat_lm_page(obj)	virt_to_page(obj)
#endif
#if defined(MSTAT_HAVE_FOLIO) && defined(MSTAT_HAVE_PAGE_COMPOUND_HEAD)
/*
 * page_folio() without its check for a hugetlb folio's fake head
 * (HugeTLB Vmemmap Optimization): a slab's or a large kmalloc's folio is
 * never hugetlb's.
 */
static __always_inline struct folio *mstat_lm_head(const void *obj)
{
	const struct page *page = mstat_lm_page(obj);
	unsigned long head = READ_ONCE(page->compound_head);

	return (struct folio *)(head & 1 ? head - 1 : (unsigned long)page);
}
#elif defined(MSTAT_HAVE_FOLIO)
#define mstat_lm_head(obj)	page_folio(mstat_lm_page(obj))
#else
#define mstat_lm_head(obj)	compound_head(mstat_lm_page(obj))
#endif

/*
 * kmalloc_size_roundup() came in 6.1. Before, the same from kmalloc's
 * index: its caches are the powers of two from KMALLOC_MIN_SIZE and the
 * 96 and 192 byte ones (indices 1 and 2); above them, whole pages.
 */
#ifndef MSTAT_HAVE_KMALLOC_SIZE_ROUNDUP
static inline size_t kmalloc_size_roundup(size_t size)
{
	unsigned int i;

	if (!size)
		return 0;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return PAGE_SIZE << get_order(size);
	i = kmalloc_index(size);
	return i == 1 ? 96 : i == 2 ? 192 : 1UL << i;
}
#endif

/*
 * Whether kmem_cache_alloc_bulk() returns a bool, all objects or none
 * (7.2 on), rather than how many it allocated.
 */
#ifdef MSTAT_HAVE_CACHE_ALLOC_BULK_BOOL
#define MSTAT_CACHE_ALLOC_BULK_BOOL	true
#else
#define MSTAT_CACHE_ALLOC_BULK_BOOL	false
#endif

/*
 * Pages of page tables, as /proc/meminfo's PageTables: a node counter
 * from 5.11 (compat/pagetable_node.conftest), a zone counter before.
 */
static inline unsigned long mstat_page_tables(void)
{
#ifdef MSTAT_HAVE_PAGETABLE_NODE
	return global_node_page_state(NR_PAGETABLE);
#else
	return global_zone_page_state(NR_PAGETABLE);
#endif
}

/*
 * Free pages on the zones' per-CPU lists, which NR_FREE_PAGES (MemFree)
 * does not count: each list's count, read without its lock (a figure
 * of the moment, as /proc/zoneinfo's "count:"). The zones are found
 * through NODE_DATA(), as for_each_populated_zone()'s helpers are not
 * exported to modules.
 */
static inline unsigned long mstat_pcp_free_pages(void)
{
	unsigned long n = 0;
	int nid, z, cpu;

	for_each_online_node(nid) {
		pg_data_t *pgdat = NODE_DATA(nid);

		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct zone *zone = &pgdat->node_zones[z];

			if (!populated_zone(zone))
				continue;
			for_each_online_cpu(cpu)
#ifdef MSTAT_HAVE_ZONE_PER_CPU_PAGESET
				n += max(READ_ONCE(per_cpu_ptr(zone->per_cpu_pageset,
							       cpu)->count), 0);
#else
				n += max(READ_ONCE(per_cpu_ptr(zone->pageset,
							       cpu)->pcp.count), 0);
#endif
		}
	}
	return n;
}

/*
 * A CPU's fold threshold for a zone's vmstat counters, /proc/zoneinfo's
 * "vm stats threshold": the kernel folds that CPU's difference of a
 * counter into the global sum once it would pass it, so the difference
 * never does. In zone->per_cpu_zonestats from 5.14
 * (compat/zone_per_cpu_zonestats.conftest), zone->pageset before; 0
 * without SMP, where every change goes to the sums at once. Written
 * without a lock this reader takes (refresh_zone_stat_thresholds(), and
 * kswapd's under memory pressure): read once.
 */
static inline int mstat_zone_stat_threshold(struct zone *zone, int cpu)
{
#if !defined(CONFIG_SMP)
	return 0;
#elif defined(MSTAT_HAVE_ZONE_PER_CPU_ZONESTATS)
	return READ_ONCE(per_cpu_ptr(zone->per_cpu_zonestats, cpu)->stat_threshold);
#else
	return READ_ONCE(per_cpu_ptr(zone->pageset, cpu)->stat_threshold);
#endif
}

/*
 * The same for a node's counters (the largest of its populated zones'
 * normal thresholds, as the kernel last set them).
 */
static inline int mstat_node_stat_threshold(pg_data_t *pgdat, int cpu)
{
#ifdef CONFIG_SMP
	return READ_ONCE(per_cpu_ptr(pgdat->per_cpu_nodestats, cpu)->stat_threshold);
#else
	return 0;
#endif
}

/*
 * The bytes of each process's page directory (PGD) that NR_PAGETABLE
 * does not count: before its constructor (6.14,
 * compat/pagetable_pgd_ctor.conftest), x86_64 takes it as plain pages,
 * two with page table isolation built in (PGD_ALLOCATION_ORDER), and
 * arm64 as a page when it fills one (else from its own slab cache,
 * counted as slab); 0 where none is left out.
 */
#if defined(MSTAT_HAVE_PAGETABLE_PGD_CTOR)
#define MSTAT_PGD_UNCOUNTED	0UL
#elif defined(CONFIG_X86_64)
#include <asm/pgalloc.h>
#define MSTAT_PGD_UNCOUNTED	(PAGE_SIZE << PGD_ALLOCATION_ORDER)
#elif defined(CONFIG_ARM64)
#include <asm/pgalloc.h>
#define MSTAT_PGD_UNCOUNTED	(sizeof(pgd_t) * PTRS_PER_PGD == PAGE_SIZE ? PAGE_SIZE : 0UL)
#else
#define MSTAT_PGD_UNCOUNTED	0UL
#endif

/*
 * Page tables NR_PAGETABLE leaves out besides the PGD (1 where it does):
 * a process's PUD pages before their constructor
 * (compat/pagetable_pud_ctor.conftest: 6.1 and before take a plain
 * zeroed page), and the kernel's own PTE pages, init_mm's (vmalloc's
 * mappings among them), before 6.16, whose PTE constructor counts them
 * (compat/pagetable_pte_ctor_mm.conftest). Sampled pages whose stack
 * says they became one of these are named so by mstat memory.
 */
#ifdef MSTAT_HAVE_PAGETABLE_PUD_CTOR
#define MSTAT_PUD_UNCOUNTED	0
#else
#define MSTAT_PUD_UNCOUNTED	1
#endif
#ifdef MSTAT_HAVE_PAGETABLE_PTE_CTOR_MM
#define MSTAT_PTE_KERNEL_UNCOUNTED	0
#else
#define MSTAT_PTE_KERNEL_UNCOUNTED	1
#endif

#endif /* _MSTAT_COMPAT_H */
