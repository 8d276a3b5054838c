// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_probe_bench - the cost of kmalloc/kfree with whatever probes are
 * on the kmem:kmalloc and kmem:kfree tracepoints: whatever is registered
 * (mode=none: nothing, mstat's if mstat.ko is loaded, ftrace's if a
 * trigger is set), an empty probe of our own (mode=empty), or the floor
 * (mode=floor).
 *
 * The floor is the least a size-aware, consistent counter must do per
 * kmalloc/kfree pair: the probes, ksize() on the kfree side (the only way
 * to size a kfree there), and per event a sequence bracket (read the
 * depth, add, add) around two per-CPU adds indexed by size class (a count
 * and bytes). It gives no snapshot and keeps nothing else.
 *
 * Loading it runs the loop once and prints one line:
 *	mstat_probe_bench: mode=M pairs=N ns_per_pair=X
 * Sizes cycle through 8..240 bytes, on one CPU with migration off. With
 * loop=cache the pairs are kmem_cache_alloc() and kmem_cache_free() of a
 * cache of its own instead (mode=none only): the cost of the cache
 * source, and of its per-cache rows, over the same loop; loop=vmalloc,
 * loop=percpu and loop=page (alloc_pages() and __free_pages() of one
 * page: the page source's cost, and the page profile's) likewise. Under
 * qemu -icount shift=0 a guest ns is one instruction: X is then the
 * instructions per pair, loop and interrupts included.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <trace/events/kmem.h>

#include "mstat_compat.h"
#include "tests/mstat_test_compat.h"
#include "mstat_stats.h"

static char *mode = "none";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "none (whatever is registered), empty (add an empty probe) or floor");

static uint pairs = 200000;
module_param(pairs, uint, 0444);
MODULE_PARM_DESC(pairs, "kmalloc/kfree pairs to time (1000 to 10000000)");

static char *loop = "kmalloc";
module_param(loop, charp, 0444);
MODULE_PARM_DESC(loop, "kmalloc (kmalloc/kfree pairs), cache (kmem_cache_alloc/free pairs), vmalloc (vmalloc/vfree of a page), percpu (alloc/free_percpu of 8 bytes) or page (alloc_pages/__free_pages of order 0)");

static void bench_probe_kmalloc(void *data, MSTAT_TP_KMALLOC_PARAMS)
{
}

static void bench_probe_kfree(void *data, unsigned long call_site,
			      const void *ptr)
{
}

/* The floor's counters: by mstat's size classes, for alloc and free. */
#define FLOOR_CLASSES	MSTAT_NR_CLASSES

struct floor_cpu {
	unsigned long seq;
	u64 count[2][FLOOR_CLASSES];
	u64 bytes[2][FLOOR_CLASSES];
};

static DEFINE_PER_CPU(struct floor_cpu, floor_cpu);

static __always_inline void floor_event(int dir, size_t size)
{
	unsigned int c = mstat_size_class(size);
	unsigned long depth = this_cpu_read(floor_cpu.seq) & 0xff;

	this_cpu_add(floor_cpu.seq, 1);
	barrier();
	this_cpu_add(floor_cpu.count[dir][c], 1);
	this_cpu_add(floor_cpu.bytes[dir][c], size);
	barrier();
	this_cpu_add(floor_cpu.seq, depth ? -1UL : 0xff);
}

static void floor_probe_kmalloc(void *data, MSTAT_TP_KMALLOC_PARAMS)
{
	if (ptr)
		floor_event(0, bytes_alloc);
}

static void floor_probe_kfree(void *data, unsigned long call_site,
			      const void *ptr)
{
	if (!ZERO_OR_NULL_PTR(ptr))
		floor_event(1, ksize(ptr));
}

typedef void (*kmalloc_probe_t)(void *data, MSTAT_TP_KMALLOC_PARAMS);
typedef void (*kfree_probe_t)(void *data, unsigned long call_site,
			      const void *ptr);

static u64 bench_loop(struct kmem_cache *cache)
{
	u64 t0, t1;
	uint i;

	migrate_disable();
	t0 = ktime_get_ns();
	if (!strcmp(loop, "vmalloc")) {
		for (i = 0; i < pairs; i++)
			vfree(vmalloc(PAGE_SIZE));
	} else if (!strcmp(loop, "percpu")) {
		for (i = 0; i < pairs; i++)
			free_percpu(__alloc_percpu(8, 8));
	} else if (!strcmp(loop, "page")) {
		for (i = 0; i < pairs; i++) {
			struct page *page = alloc_pages(GFP_KERNEL, 0);

			if (page)
				__free_pages(page, 0);
		}
	} else if (cache) {
		for (i = 0; i < pairs; i++)
			kmem_cache_free(cache, kmem_cache_alloc(cache, GFP_KERNEL));
	} else {
		for (i = 0; i < pairs; i++) {
			void *p = kmalloc(8 + (i % 30) * 8, GFP_KERNEL);

			kfree(p);
		}
	}
	t1 = ktime_get_ns();
	migrate_enable();
	return t1 - t0;
}

static void bench_ctor(void *obj)
{
}

static int __init bench_init(void)
{
	bool floor = !strcmp(mode, "floor");
	bool empty = !strcmp(mode, "empty");
	bool on_cache = !strcmp(loop, "cache");
	bool other = !strcmp(loop, "vmalloc") || !strcmp(loop, "percpu") ||
		     !strcmp(loop, "page");
	struct kmem_cache *cache = NULL;
	kmalloc_probe_t pk = floor ? floor_probe_kmalloc : bench_probe_kmalloc;
	kfree_probe_t pf = floor ? floor_probe_kfree : bench_probe_kfree;
	u64 ns;
	int err;

	if ((!empty && !floor && strcmp(mode, "none")) || pairs < 1000 ||
	    pairs > 10000000) {
		pr_err("mode=%s pairs=%u: want mode none|empty|floor, 1000 to 10000000 pairs\n",
		       mode, pairs);
		return -EINVAL;
	}
	if ((!on_cache && !other && strcmp(loop, "kmalloc")) ||
	    ((on_cache || other) && strcmp(mode, "none"))) {
		pr_err("loop=%s mode=%s: want loop kmalloc, or cache, vmalloc, percpu or page with mode none\n",
		       loop, mode);
		return -EINVAL;
	}
	if (on_cache) {
		/* A constructor: never merged, the cache is ours alone. */
		cache = kmem_cache_create("mstat_bench", 200, 0, 0, bench_ctor);
		if (!cache)
			return -ENOMEM;
	}
	if (empty || floor) {
		err = register_trace_kmalloc(pk, NULL);
		if (err)
			return err;
		err = register_trace_kfree(pf, NULL);
		if (err) {
			unregister_trace_kmalloc(pk, NULL);
			return err;
		}
	}
	ns = bench_loop(cache);
	kmem_cache_destroy(cache);
	if (empty || floor) {
		unregister_trace_kfree(pf, NULL);
		unregister_trace_kmalloc(pk, NULL);
		tracepoint_synchronize_unregister();
	}
	pr_info("mode=%s loop=%s pairs=%u ns_per_pair=%llu\n", mode, loop,
		pairs, div_u64(ns, pairs));
	return 0;
}

static void __exit bench_exit(void)
{
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Time kmalloc/kfree with and without probes on their tracepoints");
