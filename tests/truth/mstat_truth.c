// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_truth - a known truth to count against: allocations and frees
 * made through every kernel API that allocates slab objects or pages, a
 * known number of each, in sizes, caches and orders that tell them apart
 * from background traffic. The judge is outside (tests/helpers/truth.c):
 * it reads /proc/mstat around each run, and around an idle window as long
 * as the run, and compares what mstat counted with what this module says
 * it did.
 *
 *	/sys/kernel/debug/mstat_truth/patterns	(read) one pattern a line,
 *		"NAME named" for one to run only when named
 *	/sys/kernel/debug/mstat_truth/run	(write) "PATTERN N": make N
 *		allocations and N frees of that pattern, then return; or
 *		"idle NS": sleep NS nanoseconds, allocating nothing; or,
 *		for a user pattern (msg_msg), "PATTERN N ARG" after the
 *		writer made N of its allocations and frees itself: the
 *		rows they should have moved;
 *						(read) what the last run did:
 *		"pattern NAME n N ns NS slack S" (S: how far its rows
 *		may be off, for the kernel's own work beside the pattern;
 *		0 but for vmalloc), then one line per row it touched,
 *		"row ROW allocs A frees F" (ROW: a source, "class:SIZE",
 *		"order:N" or "cache:NAME", as /proc/mstat names them)
 *
 * The truth is what the kernel's own return values say happened: an
 * allocation that failed is not counted, a kvmalloc() that fell back to
 * vmalloc is not a kmalloc. Objects are made and freed in batches of
 * TRUTH_BATCH, so that the bulk APIs see real batches and the working set
 * stays small. A pattern that frees through RCU waits until those frees
 * are done (kvfree_rcu_barrier() where the kernel has it).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/msg.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "mstat.h"
#include "mstat_compat.h"
#include "tests/mstat_test_compat.h"

#define TRUTH_BATCH	32
#define TRUTH_MAX_N	100000
#define TRUTH_MAX_ROWS	8

/*
 * The sizes: small objects of 700 bytes (the 1024 class; 1000 for the
 * cache's), large ones of 12000 (above KMALLOC_MAX_CACHE_SIZE wherever
 * pages are 4 KiB or 8 KiB: the "large" class, pages of order 2).
 */
#define TRUTH_SMALL	700
#define TRUTH_CACHE_OBJ	1000
#define TRUTH_LARGE	12000

struct truth_row {
	const char *row;
	unsigned long allocs;
	unsigned long frees;
	unsigned long fails;
};

struct truth_result {
	const char *pattern;
	unsigned long n;
	u64 ns;
	unsigned long slack;
	int nr_rows;
	struct truth_row rows[TRUTH_MAX_ROWS];
};

static struct kmem_cache *truth_cache;
static DEFINE_MUTEX(truth_lock);
static struct truth_result truth_last;
static void *truth_objs[TRUTH_BATCH];
/* The run's own write buffer, for memdup_user(): in its writer's memory. */
static const char __user *truth_ubuf;
static size_t truth_ulen;
/* The run's third field, 0 if none: a user pattern's message length. */
static unsigned long long truth_arg;
static char truth_src[TRUTH_LARGE];

/* Record that @row saw @allocs allocations, @frees frees, @fails failures. */
static void truth_add_fails(struct truth_result *r, const char *row,
			    unsigned long allocs, unsigned long frees,
			    unsigned long fails)
{
	int i;

	for (i = 0; i < r->nr_rows; i++) {
		if (!strcmp(r->rows[i].row, row)) {
			r->rows[i].allocs += allocs;
			r->rows[i].frees += frees;
			r->rows[i].fails += fails;
			return;
		}
	}
	if (WARN_ON_ONCE(r->nr_rows == TRUTH_MAX_ROWS))
		return;
	r->rows[r->nr_rows++] = (struct truth_row){ row, allocs, frees, fails };
}

static void truth_add(struct truth_result *r, const char *row,
		      unsigned long allocs, unsigned long frees)
{
	truth_add_fails(r, row, allocs, frees, 0);
}

/* A large kmalloc object: the kmalloc source, its class, its pages. */
static void truth_add_large(struct truth_result *r, unsigned long allocs,
			    unsigned long frees)
{
	truth_add(r, "kmalloc", allocs, frees);
	truth_add(r, "class:large", allocs, frees);
	truth_add(r, "order:2", allocs, frees);
}

static void truth_add_small(struct truth_result *r, const char *src,
			    unsigned long allocs, unsigned long frees)
{
	truth_add(r, src, allocs, frees);
	truth_add(r, "class:1024", allocs, frees);
}

/* A size the compiler cannot see: kmalloc()'s out-of-line path. */
static size_t truth_var(size_t size)
{
	OPTIMIZER_HIDE_VAR(size);
	return size;
}

/*
 * Each pattern makes @n allocations and frees them, batch by batch, and
 * records what succeeded. Returns 0 or -ENOMEM (the rows then say what
 * was done before the failure).
 */
typedef int (*truth_fn)(struct truth_result *r, unsigned long n);

/* Run @alloc into truth_objs[] a batch at a time, then @release them. */
#define TRUTH_LOOP(r, n, alloc, release, row_fn, ...)			\
({									\
	unsigned long __done = 0, __n = (n);				\
	int __i, __k, __err = 0;					\
									\
	while (__done < __n && !__err) {				\
		__k = min_t(unsigned long, TRUTH_BATCH, __n - __done);	\
		for (__i = 0; __i < __k; __i++) {			\
			truth_objs[__i] = (alloc);			\
			if (!truth_objs[__i]) {				\
				__err = -ENOMEM;			\
				break;					\
			}						\
		}							\
		__k = __i;						\
		for (__i = 0; __i < __k; __i++)				\
			release(truth_objs[__i]);			\
		row_fn(r, ##__VA_ARGS__, __k, __k);			\
		__done += __k;						\
		cond_resched();						\
	}								\
	__err;								\
})

static void truth_add_kmalloc_small(struct truth_result *r,
				    unsigned long a, unsigned long f)
{
	truth_add_small(r, "kmalloc", a, f);
}

static void truth_add_cache(struct truth_result *r, unsigned long a,
			    unsigned long f)
{
	truth_add_small(r, "cache", a, f);
}

static int truth_kmalloc_small_const(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, kmalloc(TRUTH_SMALL, GFP_KERNEL), kfree,
			  truth_add_kmalloc_small);
}

static int truth_kmalloc_small_var(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, kmalloc(truth_var(TRUTH_SMALL), GFP_KERNEL),
			  kfree, truth_add_kmalloc_small);
}

static int truth_kmalloc_large_const(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, kmalloc(TRUTH_LARGE, GFP_KERNEL), kfree,
			  truth_add_large);
}

static int truth_kmalloc_large_var(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, kmalloc(truth_var(TRUTH_LARGE), GFP_KERNEL),
			  kfree, truth_add_large);
}

static int truth_kmalloc_node_large(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, kmalloc_node(truth_var(TRUTH_LARGE),
					     GFP_KERNEL, NUMA_NO_NODE),
			  kfree, truth_add_large);
}

static int truth_kmemdup_large(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, kmemdup(truth_src, TRUTH_LARGE, GFP_KERNEL),
			  kfree, truth_add_large);
}

/* kvmalloc: a kmalloc unless it fell back to vmalloc (not counted). */
static int truth_kvmalloc_large(struct truth_result *r, unsigned long n)
{
	unsigned long i, km = 0;
	void *p;

	for (i = 0; i < n; i++) {
		p = kvmalloc(truth_var(TRUTH_LARGE), GFP_KERNEL);
		if (!p)
			break;
		if (!is_vmalloc_addr(p))
			km++;
		kvfree(p);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_add_large(r, km, km);
	return i == n ? 0 : -ENOMEM;
}

/* krealloc() from 700 bytes to 12000: two allocations, two frees. */
static int truth_krealloc_grow(struct truth_result *r, unsigned long n)
{
	unsigned long i;
	void *p, *q;

	for (i = 0; i < n; i++) {
		p = kmalloc(truth_var(TRUTH_SMALL), GFP_KERNEL);
		if (!p)
			break;
		q = krealloc(p, truth_var(TRUTH_LARGE), GFP_KERNEL);
		if (!q) {
			kfree(p);
			truth_add_kmalloc_small(r, 1, 1);
			break;
		}
		kfree(q);
		truth_add_kmalloc_small(r, 1, 1);
		truth_add_large(r, 1, 1);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	return i == n ? 0 : -ENOMEM;
}

static void *truth_cache_alloc(void)
{
	return kmem_cache_alloc(truth_cache, GFP_KERNEL);
}

static void truth_cache_free(void *p)
{
	kmem_cache_free(truth_cache, p);
}

static int truth_cache_single(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, truth_cache_alloc(), truth_cache_free,
			  truth_add_cache);
}

/* kfree() of an object that kmem_cache_alloc() gave: still the cache's. */
static int truth_cache_kfree(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, truth_cache_alloc(), kfree, truth_add_cache);
}

static int truth_cache_bulk(struct truth_result *r, unsigned long n)
{
	unsigned long done = 0;
	int k, got;

	while (done < n) {
		k = min_t(unsigned long, TRUTH_BATCH, n - done);
		/* How many, or (7.2 on) whether all k were allocated. */
		got = kmem_cache_alloc_bulk(truth_cache, GFP_KERNEL, k,
					    truth_objs);
		if (MSTAT_CACHE_ALLOC_BULK_BOOL && got)
			got = k;
		if (!got)
			return -ENOMEM;
		kmem_cache_free_bulk(truth_cache, got, truth_objs);
		truth_add_cache(r, got, got);
		done += got;
		cond_resched();
	}
	return 0;
}

/*
 * Single allocations by @alloc, freed a batch at a time by @free_bulk;
 * @row_fn records them.
 */
static int truth_free_bulk(struct truth_result *r, unsigned long n,
			   void *(*alloc)(void),
			   void (*free_bulk)(size_t nr, void **objs),
			   void (*row_fn)(struct truth_result *r,
					  unsigned long a, unsigned long f))
{
	unsigned long done = 0;
	int i, k;

	while (done < n) {
		k = min_t(unsigned long, TRUTH_BATCH, n - done);
		for (i = 0; i < k; i++) {
			truth_objs[i] = alloc();
			if (!truth_objs[i])
				break;
		}
		free_bulk(i, truth_objs);
		row_fn(r, i, i);
		if (i < k)
			return -ENOMEM;
		done += k;
		cond_resched();
	}
	return 0;
}

static void truth_cache_free_bulk_fn(size_t nr, void **objs)
{
	kmem_cache_free_bulk(truth_cache, nr, objs);
}

static int truth_cache_free_bulk(struct truth_result *r, unsigned long n)
{
	return truth_free_bulk(r, n, truth_cache_alloc,
			       truth_cache_free_bulk_fn, truth_add_cache);
}

static void *truth_kmalloc_small(void)
{
	return kmalloc(truth_var(TRUTH_SMALL), GFP_KERNEL);
}

static void truth_kfree_bulk_fn(size_t nr, void **objs)
{
	kfree_bulk(nr, objs);
}

static int truth_kfree_bulk(struct truth_result *r, unsigned long n)
{
	return truth_free_bulk(r, n, truth_kmalloc_small, truth_kfree_bulk_fn,
			       truth_add_kmalloc_small);
}

/*
 * Wait until every kfree_rcu()/kvfree_rcu() made so far has freed.
 * Without kvfree_rcu_barrier() (before 6.12), wait out the batching:
 * a batch waits at most KFREE_DRAIN_JIFFIES (5 s in 6.1), then a grace
 * period, then the work that frees it.
 */
static void truth_kvfree_rcu_wait(void)
{
#ifdef MSTAT_HAVE_KVFREE_RCU_BARRIER
	kvfree_rcu_barrier();
#else
	msleep(5500);
	rcu_barrier();
	msleep(500);
	rcu_barrier();
#endif
}

struct truth_rcu_obj {
	struct rcu_head rcu;
	char data[TRUTH_SMALL - sizeof(struct rcu_head)];
};

static int truth_kfree_rcu(struct truth_result *r, unsigned long n)
{
	struct truth_rcu_obj *p;
	unsigned long i;

	for (i = 0; i < n; i++) {
		p = kmalloc(sizeof(*p), GFP_KERNEL);
		if (!p)
			break;
		kfree_rcu(p, rcu);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_kvfree_rcu_wait();
	truth_add_kmalloc_small(r, i, i);
#ifdef MSTAT_HAVE_SLAB_SHEAVES
	/*
	 * With sheaves the objects wait for their grace period in sheaves
	 * that the allocator kmallocs and kfrees itself: measured on 7.3.4,
	 * 319 to 342 of them beside 4,000 kfree_rcu() (about one per 12). So
	 * the rows may be off by one eighth of the truth there.
	 */
	r->slack = i / 8;
#endif
	return i == n ? 0 : -ENOMEM;
}

struct truth_rcu_large {
	struct rcu_head rcu;
	char data[TRUTH_LARGE - sizeof(struct rcu_head)];
};

static int truth_kvfree_rcu(struct truth_result *r, unsigned long n)
{
	struct truth_rcu_large *p;
	unsigned long i, km = 0;

	for (i = 0; i < n; i++) {
		p = kvmalloc(sizeof(*p), GFP_KERNEL);
		if (!p)
			break;
		if (!is_vmalloc_addr(p))
			km++;
		kvfree_rcu(p, rcu);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_kvfree_rcu_wait();
	truth_add_large(r, km, km);
	return i == n ? 0 : -ENOMEM;
}

/*
 * A kmalloc mempool of 4 reserved elements: its creation allocates them,
 * its destruction frees them; in between each mempool_alloc() is a
 * kmalloc() (the pool is full, so its reserve is not used) and each
 * mempool_free() a kfree().
 */
static int truth_mempool(struct truth_result *r, unsigned long n)
{
	mempool_t *pool;
	unsigned long i;
	void *p;

	pool = mempool_create_kmalloc_pool(4, TRUTH_SMALL);
	if (!pool)
		return -ENOMEM;
	truth_add_kmalloc_small(r, 4, 0);
	for (i = 0; i < n; i++) {
		p = mempool_alloc(pool, GFP_KERNEL);
		mempool_free(p, pool);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_add_kmalloc_small(r, n, n);
	mempool_destroy(pool);
	truth_add_kmalloc_small(r, 0, 4);
	return 0;
}

static void *truth_page_alloc(unsigned int order)
{
	return alloc_pages(GFP_KERNEL, order);
}

static void truth_page_free0(void *p)
{
	__free_pages(p, 0);
}

static void truth_page_free4(void *p)
{
	__free_pages(p, 4);
}

static void truth_add_pages(struct truth_result *r, const char *order,
			    unsigned long a, unsigned long f)
{
	truth_add(r, "page", a, f);
	truth_add(r, order, a, f);
}

static int truth_pages0(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, truth_page_alloc(0), truth_page_free0,
			  truth_add_pages, "order:0");
}

static int truth_pages4(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, truth_page_alloc(4), truth_page_free4,
			  truth_add_pages, "order:4");
}

static void *truth_gfp1(void)
{
	return (void *)__get_free_pages(GFP_KERNEL, 1);
}

static void truth_free_gfp1(void *p)
{
	free_pages((unsigned long)p, 1);
}

static int truth_get_free_pages(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, truth_gfp1(), truth_free_gfp1,
			  truth_add_pages, "order:1");
}

/*
 * alloc_pages_exact() of five pages: the kernel takes a block of order 3
 * (one mm_page_alloc at order 3), makes its pages order-0 pages and frees
 * the three it does not need at once, at order 0; free_pages_exact()
 * frees the five others, one by one, at order 0. Counted as split_page()
 * is, whether the kernel splits the block through it or inline: the
 * block's free at order 3 and its eight pages' allocations at order 0.
 * So the page source sees nine allocations and nine frees per call, and
 * each order pairs.
 */
#define TRUTH_EXACT	(5 * PAGE_SIZE)

static void *truth_exact_alloc(void)
{
	return alloc_pages_exact(TRUTH_EXACT, GFP_KERNEL);
}

static void truth_exact_free(void *p)
{
	free_pages_exact(p, TRUTH_EXACT);
}

static void truth_add_exact(struct truth_result *r, unsigned long a,
			    unsigned long f)
{
	/* get_order(5 pages) is 3 whatever the page size. */
	truth_add(r, "page", 9 * a, 9 * f);
	truth_add(r, "order:3", a, f);
	truth_add(r, "order:0", 8 * a, 8 * f);
}

static int truth_pages_exact(struct truth_result *r, unsigned long n)
{
	return TRUTH_LOOP(r, n, truth_exact_alloc(), truth_exact_free,
			  truth_add_exact);
}

/*
 * vmalloc() of four pages: order-0 pages from the page allocator (in
 * bulk, through alloc_pages_bulk(), where it can), freed one by one by
 * vfree(). Beside them the kernel allocates and frees pages of its own,
 * also of order 0: page tables for the vmalloc area the first time a
 * range is mapped, and on some kernels (PREEMPT_RT, KASAN's shadow) more
 * when lazily freed areas are purged. Measured, 4,000 calls: up to 91
 * such pages on 6.12 RT, 88 on 6.12, 30 on 6.1. So these rows may be off
 * by 1% of the truth (the slack); missing alloc_pages_bulk() is off by
 * all of it.
 */
static int truth_vmalloc(struct truth_result *r, unsigned long n)
{
	unsigned long i;
	void *p;

	for (i = 0; i < n; i++) {
		p = vmalloc(4 * PAGE_SIZE);
		if (!p)
			break;
		vfree(p);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	/*
	 * Since 7.x vmalloc() takes a block of a higher order and splits it,
	 * which mstat counts as that block's free and its pages' allocations
	 * at order 0: so the page source's totals count the blocks too, and
	 * only order 0 has a truth on every kernel.
	 */
	truth_add(r, "order:0", 4 * i, 4 * i);
	r->slack = 4 * i / 100;
	return i == n ? 0 : -ENOMEM;
}

/*
 * vm areas (format 1.6): vmalloc() areas of 1 to 8 pages, each freed.
 * The vmalloc source counts each area, in its vmalloc kind's row, with
 * its bytes: its pages, without the guard page.
 */
static int truth_vmalloc_areas(struct truth_result *r, unsigned long n)
{
	unsigned long i, bytes = 0;
	size_t size;
	void *p;

	for (i = 0; i < n; i++) {
		size = (1 + i % 8) * PAGE_SIZE;
		p = vmalloc(size);
		if (!p)
			break;
		vfree(p);
		bytes += size;
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_add(r, "vmalloc", i, i);
	truth_add(r, "vm:vmalloc", i, i);
	truth_add(r, "bytes:vmalloc", bytes, bytes);
	truth_add(r, "vmbytes:vmalloc", bytes, bytes);
	return i == n ? 0 : -ENOMEM;
}

/*
 * vmap() of two pages of the module's own, and vunmap(): a vm area of
 * the vmap kind, whose pages are not its own.
 */
static int truth_vmap_areas(struct truth_result *r, unsigned long n)
{
	struct page *pages[2];
	unsigned long i;
	void *p;

	pages[0] = alloc_page(GFP_KERNEL);
	pages[1] = alloc_page(GFP_KERNEL);
	for (i = 0; pages[0] && pages[1] && i < n; i++) {
		p = vmap(pages, 2, VM_MAP, PAGE_KERNEL);
		if (!p)
			break;
		vunmap(p);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	if (pages[1])
		__free_page(pages[1]);
	if (pages[0])
		__free_page(pages[0]);
	truth_add(r, "vmalloc", i, i);
	truth_add(r, "vm:vmap", i, i);
	truth_add(r, "vmbytes:vmap", 2 * PAGE_SIZE * i, 2 * PAGE_SIZE * i);
	return i == n ? 0 : -ENOMEM;
}

/*
 * kvmalloc() past the largest kmalloc: it falls back to vmalloc(), a
 * vmalloc kind area of that size (a whole number of huge pages, so the
 * same whether the kernel maps it with huge pages or not). Its array of
 * page pointers, past a page, is a vmalloc() area of its own, with the
 * same caller. At most TRUTH_KV_MAX of them, whatever the run's n: each
 * maps 2048 pages.
 */
#define TRUTH_KV_SIZE	(2 * KMALLOC_MAX_SIZE)
#define TRUTH_KV_ARRAY	(TRUTH_KV_SIZE / PAGE_SIZE * sizeof(struct page *))
#define TRUTH_KV_NESTED	(PAGE_SIZE < TRUTH_KV_ARRAY)
#define TRUTH_KV_AREAS	(TRUTH_KV_NESTED ? 2 : 1)
#define TRUTH_KV_BYTES	(TRUTH_KV_SIZE + \
			 (TRUTH_KV_NESTED ? PAGE_ALIGN(TRUTH_KV_ARRAY) : 0))
#define TRUTH_KV_MAX	8UL

static int truth_kvmalloc_vmalloc(struct truth_result *r, unsigned long n)
{
	unsigned long i, vm = 0;
	void *p;

	n = min(n, TRUTH_KV_MAX);
	for (i = 0; i < n; i++) {
		p = kvmalloc(TRUTH_KV_SIZE, GFP_KERNEL);
		if (!p)
			break;
		vm += is_vmalloc_addr(p);
		kvfree(p);
		cond_resched();
	}
	truth_add(r, "vmalloc", vm * TRUTH_KV_AREAS, vm * TRUTH_KV_AREAS);
	truth_add(r, "vm:vmalloc", vm * TRUTH_KV_AREAS, vm * TRUTH_KV_AREAS);
	truth_add(r, "bytes:vmalloc", vm * TRUTH_KV_BYTES, vm * TRUTH_KV_BYTES);
	return i == n && vm == n ? 0 : -ENOMEM;
}

/*
 * percpu objects of 8 B to 4 KiB, each freed: the percpu source counts
 * each with its bytes on all possible CPUs, the chunks' pages it takes,
 * on every kernel: not as the kernel charges a memory cgroup from 6.0
 * (pcpu_obj_full_size(): also a pointer per 8 bytes, a share of the
 * chunk's vector of cgroups, which the slab or vmalloc holds). The
 * judge runs it in a memory cgroup (TRUTH_MEMCG), where the charge and
 * the pages differ.
 */
static size_t truth_pcpu_bytes(size_t size)
{
	return size * num_possible_cpus();
}

static int truth_percpu(struct truth_result *r, unsigned long n)
{
	static const size_t size[] = { 8, 64, 256, 1024, 4096 };
	unsigned long i, bytes = 0;
	void __percpu *p;
	size_t sz;

	for (i = 0; i < n; i++) {
		sz = size[i % ARRAY_SIZE(size)];
		p = __alloc_percpu(sz, 8);
		if (!p)
			break;
		free_percpu(p);
		bytes += truth_pcpu_bytes(sz);
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_add(r, "percpu", i, i);
	truth_add(r, "bytes:percpu", bytes, bytes);
	return i == n ? 0 : -ENOMEM;
}

/*
 * memdup_user() of the run's own write buffer (a few bytes: class 16 on
 * x86).
 * From 6.11, with CONFIG_SLAB_BUCKETS, it allocates from the
 * memdup_user-* buckets, caches of their own, through kmalloc's path:
 * the object lives in a cache that is not kmalloc's, so it counts in the
 * cache source, at its allocation as at its kfree(); before, in kmalloc.
 */
#if defined(MSTAT_HAVE_KMEM_BUCKETS) && IS_ENABLED(CONFIG_SLAB_BUCKETS)
#define TRUTH_BUCKET_SRC	"cache"
#define TRUTH_OTHER_SRC		"kmalloc"
#else
#define TRUTH_BUCKET_SRC	"kmalloc"
#define TRUTH_OTHER_SRC		"cache"
#endif

/*
 * With the buckets, the cache row of @bucket's cache for objects of
 * @size bytes, named as kmem_buckets_create() names it: "msg_msg-512".
 * Kept in @row; empty (no row to judge) without them.
 */
static void truth_bucket_row(char *row, size_t len, const char *bucket,
			     size_t size)
{
	size_t cls = kmalloc_size_roundup(size);

	row[0] = '\0';
	if (strcmp(TRUTH_BUCKET_SRC, "cache"))
		return;
	if (cls >= 1024)
		snprintf(row, len, "cache:%s-%zuk", bucket, cls / 1024);
	else
		snprintf(row, len, "cache:%s-%zu", bucket, cls);
}

static void *truth_memdup_user1(void)
{
	void *p = memdup_user(truth_ubuf, truth_ulen);

	return IS_ERR(p) ? NULL : p;
}

/*
 * The class of the write's length (16 on x86, 128 on arm64's 5.10) and,
 * with the buckets, its cache's row.
 */
static char truth_memdup_class[24], truth_memdup_row[48];

static void truth_add_memdup(struct truth_result *r, unsigned long a,
			     unsigned long f)
{
	truth_add(r, TRUTH_BUCKET_SRC, a, f);
	truth_add(r, TRUTH_OTHER_SRC, 0, 0);
	truth_add(r, truth_memdup_class, a, f);
	if (truth_memdup_row[0])
		truth_add(r, truth_memdup_row, a, f);
}

static int truth_memdup_user(struct truth_result *r, unsigned long n)
{
	snprintf(truth_memdup_class, sizeof(truth_memdup_class), "class:%zu",
		 kmalloc_size_roundup(truth_ulen));
	truth_bucket_row(truth_memdup_row, sizeof(truth_memdup_row),
			 "memdup_user", truth_ulen);
	return TRUTH_LOOP(r, n, truth_memdup_user1(), kfree, truth_add_memdup);
}

/*
 * msg_msg: a user pattern. The judge itself makes N msgsnd() and N
 * msgrcv() of a message of truth_arg bytes on a System V queue of its
 * own, between its two reads of /proc/mstat, then writes "msg_msg N LEN"
 * here for the rows that should have moved: each message is one
 * allocation of sizeof(struct msg_msg) + LEN in load_msg() and one kfree()
 * in free_msg(), from the msg_msg-* buckets (SLAB_ACCOUNT) where the
 * kernel has them, from kmalloc's (kmalloc-cg-*) before. A LEN that
 * needs a second segment (struct msg_msgseg) is refused. Listed only
 * where the kernel has System V IPC (not the test kernels).
 */
static int __maybe_unused truth_msg_msg(struct truth_result *r,
					unsigned long n)
{
	static char class[24], row[48];
	size_t size = sizeof(struct msg_msg) + truth_arg;

	if (!truth_arg || truth_arg > PAGE_SIZE - sizeof(struct msg_msg))
		return -EINVAL;
	snprintf(class, sizeof(class), "class:%zu", kmalloc_size_roundup(size));
	truth_add(r, TRUTH_BUCKET_SRC, n, n);
	truth_add(r, TRUTH_OTHER_SRC, 0, 0);
	truth_add(r, class, n, n);
	truth_bucket_row(row, sizeof(row), "msg_msg", size);
	if (row[0])
		truth_add(r, row, n, n);
	return 0;
}

/*
 * alloc_pages_bulk() into arrays of 4 with holes: the pages already there
 * come from alloc_page() (traced), the kernel fills the holes, and every
 * page is then freed. A hole at the start or in the middle is filled from
 * the per-CPU lists without an event; one at the end, the one page
 * missing after the leading run, by the single-page allocator, traced.
 * @holes: a bit per slot that starts empty. 5.10 has no alloc_pages_bulk().
 */
#ifdef MSTAT_TEST_BULK_ARRAY
#define truth_bulk_array(gfp, nr, a)	MSTAT_TEST_BULK_ARRAY(gfp, nr, a)
#endif
#ifdef MSTAT_TEST_BULK_LIST
#define truth_bulk_list(gfp, nr, l)	MSTAT_TEST_BULK_LIST(gfp, nr, l)
#endif

#ifdef truth_bulk_array
static int truth_bulk_holes(struct truth_result *r, unsigned long n,
			    unsigned int holes)
{
	struct page *a[4];
	unsigned long i, pages = 0;
	int j, err = 0;

	for (i = 0; i < n && !err; i++) {
		for (j = 0; j < 4; j++) {
			a[j] = holes & BIT(j) ? NULL : alloc_page(GFP_KERNEL);
			if (!(holes & BIT(j)) && !a[j])
				err = -ENOMEM;
		}
		if (!err && truth_bulk_array(GFP_KERNEL, 4, a) != 4)
			err = -ENOMEM;
		for (j = 0; j < 4; j++) {
			if (a[j]) {
				__free_page(a[j]);
				pages++;
			}
		}
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_add_pages(r, "order:0", pages, pages);
	return err;
}

static int truth_bulk_hole_first(struct truth_result *r, unsigned long n)
{
	return truth_bulk_holes(r, n, BIT(0));
}

static int truth_bulk_hole_middle(struct truth_result *r, unsigned long n)
{
	return truth_bulk_holes(r, n, BIT(1));
}

static int truth_bulk_hole_last(struct truth_result *r, unsigned long n)
{
	return truth_bulk_holes(r, n, BIT(3));
}

static int truth_bulk_full(struct truth_result *r, unsigned long n)
{
	return truth_bulk_holes(r, n, 0);
}

static int truth_bulk_empty(struct truth_result *r, unsigned long n)
{
	return truth_bulk_holes(r, n, 0xf);
}

/*
 * alloc_pages_bulk()'s single-page fallback, which the page allocator
 * traces, among interrupts that allocate pages, with the task moved from
 * CPU to CPU. With __GFP_ACCOUNT and kmem accounting on (the judge in a
 * memory cgroup: TRUTH_MEMCG in scripts/guest/truth.sh), the bulk
 * allocator of 6.x fills an array of four holes with one page from the
 * page allocator; without, with four from the per-CPU lists: either way
 * the truth is the pages the arrays held. Meanwhile an hrtimer on every
 * online CPU allocates and frees an order-0 page every TRUTH_IRQ_US (its
 * pages in the truth too), and a work item moves the task to the next
 * online CPU every jiffy. The log says how many calls took
 * the fallback: "bulk_fallback: F of N calls ...".
 */
#define TRUTH_IRQ_US	5

static DEFINE_PER_CPU(struct hrtimer, truth_irq_timer);
static atomic_long_t truth_irq_pages;
static bool truth_irq_stop;

static enum hrtimer_restart truth_irq_tick(struct hrtimer *timer)
{
	struct page *page = alloc_page(GFP_ATOMIC | __GFP_NOWARN);

	if (page) {
		__free_page(page);
		atomic_long_inc(&truth_irq_pages);
	}
	if (READ_ONCE(truth_irq_stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(TRUTH_IRQ_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* On each CPU, so that its timer is pinned there. */
static void truth_irq_start(void *unused)
{
	hrtimer_start(this_cpu_ptr(&truth_irq_timer),
		      ns_to_ktime(TRUTH_IRQ_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED);
}

static void truth_irq_cancel(void)
{
	int cpu;

	WRITE_ONCE(truth_irq_stop, true);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(per_cpu_ptr(&truth_irq_timer, cpu));
}

/*
 * Moves truth_moved to the next online CPU, and again a jiffy later: a
 * work item, not a kthread of its own, whose stack and task_struct would
 * be allocations of the window that are freed after it.
 */
static struct task_struct *truth_moved;
static int truth_move_cpu;
static bool truth_move_stop;

static void truth_move(struct work_struct *work)
{
	truth_move_cpu = cpumask_next(truth_move_cpu, cpu_online_mask);
	if (truth_move_cpu >= nr_cpu_ids)
		truth_move_cpu = cpumask_first(cpu_online_mask);
	set_cpus_allowed_ptr(truth_moved, cpumask_of(truth_move_cpu));
	if (!READ_ONCE(truth_move_stop))
		schedule_delayed_work(to_delayed_work(work), 1);
}

static DECLARE_DELAYED_WORK(truth_move_work, truth_move);

static int truth_bulk_fallback(struct truth_result *r, unsigned long n)
{
	unsigned long i, pages = 0, fallback = 0, irq;
	struct page *a[4];
	int j, got, cpu, err = 0;

	atomic_long_set(&truth_irq_pages, 0);
	WRITE_ONCE(truth_irq_stop, false);
	for_each_possible_cpu(cpu)
		mstat_hrtimer_setup(per_cpu_ptr(&truth_irq_timer, cpu),
				    truth_irq_tick, CLOCK_MONOTONIC,
				    HRTIMER_MODE_REL_PINNED);
	on_each_cpu(truth_irq_start, NULL, 1);
	truth_moved = current;
	WRITE_ONCE(truth_move_stop, false);
	schedule_delayed_work(&truth_move_work, 0);
	for (i = 0; i < n && !err; i++) {
		memset(a, 0, sizeof(a));
		truth_bulk_array(GFP_KERNEL_ACCOUNT, 4, a);
		for (j = 0, got = 0; j < 4; j++) {
			if (a[j]) {
				__free_page(a[j]);
				got++;
			}
		}
		if (!got)
			err = -ENOMEM;
		pages += got;
		fallback += got == 1;
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	WRITE_ONCE(truth_move_stop, true);
	cancel_delayed_work_sync(&truth_move_work);
	set_cpus_allowed_ptr(current, cpu_possible_mask);
	truth_irq_cancel();
	irq = atomic_long_read(&truth_irq_pages);
	pr_info("bulk_fallback: %lu of %lu calls took the single-page fallback; %lu pages in interrupts\n",
		fallback, i, irq);
	truth_add_pages(r, "order:0", pages + irq, pages + irq);
	return err;
}
#endif

#ifdef truth_bulk_list
/* The list variant (up to 6.13): four pages onto an empty list. */
static int truth_bulk_list4(struct truth_result *r, unsigned long n)
{
	struct page *page, *next;
	unsigned long i, pages = 0;
	LIST_HEAD(list);
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		if (truth_bulk_list(GFP_KERNEL, 4, &list) != 4)
			err = -ENOMEM;
		list_for_each_entry_safe(page, next, &list, lru) {
			list_del(&page->lru);
			__free_page(page);
			pages++;
		}
		if (!(i % TRUTH_BATCH))
			cond_resched();
	}
	truth_add_pages(r, "order:0", pages, pages);
	return err;
}
#endif

/* mstat's own API: 700 bytes requested, 1024 handed out. */
static int truth_api(struct truth_result *r, unsigned long n)
{
	unsigned long i, a = 0, f = 0;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		err = mstat_account_alloc(TRUTH_SMALL, 1024, _THIS_IP_);
		if (err)
			break;
		a++;
		err = mstat_account_free(1024, _THIS_IP_);
		if (!err)
			f++;
	}
	truth_add_small(r, "api", a, f);
	return err;
}

#ifdef CONFIG_FAULT_INJECTION
/*
 * Failures, counted against the truth. Before every TRUTH_FAIL_EVERY-th
 * allocation this task's fail_nth (what /proc/thread-self/fail-nth sets)
 * is set to 1: the next fault-injection point the task passes fails,
 * that allocation's own (failslab's in the slab allocator,
 * fail_page_alloc's in the page allocator). Both must be told to fail
 * sleeping allocations, and fail_page_alloc order 0
 * (scripts/guest/faults.sh sets them up). fail_nth is cleared after each
 * allocation, whether it fired or not, so nothing else this task does is
 * failed. The truth is what returned NULL; a pattern in which nothing
 * failed says so ("fails 0" in every row) and the judge fails it.
 */
#define TRUTH_FAIL_EVERY	4

#define TRUTH_FAIL_LOOP(n, alloc, release, ok, failed)			\
({									\
	unsigned long __i;						\
	void *__p;							\
									\
	for (__i = 0; __i < (n); __i++) {				\
		if (!(__i % TRUTH_FAIL_EVERY))				\
			WRITE_ONCE(current->fail_nth, 1);		\
		__p = (alloc);						\
		WRITE_ONCE(current->fail_nth, 0);			\
		if (__p) {						\
			(ok)++;						\
			release(__p);					\
		} else {						\
			(failed)++;					\
		}							\
		if (!(__i % TRUTH_BATCH))				\
			cond_resched();					\
	}								\
})

static int truth_fail_kmalloc_small(struct truth_result *r, unsigned long n)
{
	unsigned long ok = 0, failed = 0;

	TRUTH_FAIL_LOOP(n, kmalloc(truth_var(TRUTH_SMALL), GFP_KERNEL), kfree,
			ok, failed);
	truth_add_fails(r, "kmalloc", ok, ok, failed);
	truth_add(r, "class:1024", ok, ok);
	return 0;
}

/* Its page allocation fails: a kmalloc failure and one of order 2. */
static int truth_fail_kmalloc_large(struct truth_result *r, unsigned long n)
{
	unsigned long ok = 0, failed = 0;

	TRUTH_FAIL_LOOP(n, kmalloc(truth_var(TRUTH_LARGE), GFP_KERNEL), kfree,
			ok, failed);
	truth_add_fails(r, "kmalloc", ok, ok, failed);
	truth_add(r, "class:large", ok, ok);
	truth_add_fails(r, "order:2", ok, ok, failed);
	return 0;
}

static int truth_fail_cache(struct truth_result *r, unsigned long n)
{
	unsigned long ok = 0, failed = 0;

	TRUTH_FAIL_LOOP(n, kmem_cache_alloc(truth_cache, GFP_KERNEL),
			truth_cache_free, ok, failed);
	truth_add_fails(r, "cache", ok, ok, failed);
	truth_add(r, "class:1024", ok, ok);
	return 0;
}

static void truth_free_page0(struct page *p)
{
	__free_pages(p, 0);
}

static void truth_free_page4(struct page *p)
{
	__free_pages(p, 4);
}

static int truth_fail_pages_order0(struct truth_result *r, unsigned long n)
{
	unsigned long ok = 0, failed = 0;

	TRUTH_FAIL_LOOP(n, alloc_pages(GFP_KERNEL, 0), truth_free_page0, ok,
			failed);
	truth_add_fails(r, "page", ok, ok, failed);
	truth_add_fails(r, "order:0", ok, ok, failed);
	return 0;
}

static int truth_fail_pages_order4(struct truth_result *r, unsigned long n)
{
	unsigned long ok = 0, failed = 0;

	TRUTH_FAIL_LOOP(n, alloc_pages(GFP_KERNEL, 4), truth_free_page4, ok,
			failed);
	truth_add_fails(r, "page", ok, ok, failed);
	truth_add_fails(r, "order:4", ok, ok, failed);
	return 0;
}
#endif /* CONFIG_FAULT_INJECTION */

/*
 * @named: run only when named, not in a judge's default run ("NAME
 * named" in the patterns file): a pattern that needs the guest set up
 * for it (fault injection; a memory cgroup), or whose load would disturb
 * the others' checks.
 */
static const struct {
	const char *name;
	truth_fn fn;
	bool named;
} truth_patterns[] = {
	{ "kmalloc_small_const", truth_kmalloc_small_const },
	{ "kmalloc_small_var", truth_kmalloc_small_var },
	{ "kmalloc_large_const", truth_kmalloc_large_const },
	{ "kmalloc_large_var", truth_kmalloc_large_var },
	{ "kmalloc_node_large", truth_kmalloc_node_large },
	{ "kvmalloc_large", truth_kvmalloc_large },
	{ "kmemdup_large", truth_kmemdup_large },
	{ "krealloc_grow", truth_krealloc_grow },
	{ "cache", truth_cache_single },
	{ "cache_kfree", truth_cache_kfree },
	{ "cache_bulk", truth_cache_bulk },
	{ "cache_free_bulk", truth_cache_free_bulk },
	{ "kfree_bulk", truth_kfree_bulk },
	{ "kfree_rcu", truth_kfree_rcu },
	{ "kvfree_rcu_large", truth_kvfree_rcu },
	{ "mempool", truth_mempool },
	{ "pages_order0", truth_pages0 },
	{ "pages_order4", truth_pages4 },
	{ "get_free_pages_order1", truth_get_free_pages },
	{ "pages_exact", truth_pages_exact },
	{ "vmalloc_pages", truth_vmalloc },
	{ "vmalloc_areas", truth_vmalloc_areas },
	{ "vmap_areas", truth_vmap_areas },
	{ "kvmalloc_vmalloc", truth_kvmalloc_vmalloc },
	{ "percpu", truth_percpu },
	{ "api", truth_api },
	{ "memdup_user", truth_memdup_user },
#ifdef CONFIG_SYSVIPC
	{ "msg_msg", truth_msg_msg },
#endif
#ifdef truth_bulk_array
	{ "bulk_hole_first", truth_bulk_hole_first },
	{ "bulk_hole_middle", truth_bulk_hole_middle },
	{ "bulk_hole_last", truth_bulk_hole_last },
	{ "bulk_full", truth_bulk_full },
	{ "bulk_empty", truth_bulk_empty },
	/*
	 * A memory cgroup (TRUTH_MEMCG); its interrupts allocate a page
	 * every few microseconds on every CPU, that a kretprobe on the page
	 * path (6.1's fail_page_alloc) meets inside its own handler, as
	 * missed calls.
	 */
	{ "bulk_fallback", truth_bulk_fallback, true },
#endif
#ifdef truth_bulk_list
	{ "bulk_list", truth_bulk_list4 },
#endif
#ifdef CONFIG_FAULT_INJECTION
	{ "fail_kmalloc_small", truth_fail_kmalloc_small, true },
	{ "fail_kmalloc_large", truth_fail_kmalloc_large, true },
	{ "fail_cache", truth_fail_cache, true },
	{ "fail_pages_order0", truth_fail_pages_order0, true },
	{ "fail_pages_order4", truth_fail_pages_order4, true },
#endif
};

static int truth_patterns_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(truth_patterns); i++)
		seq_printf(m, "%s%s\n", truth_patterns[i].name,
			   truth_patterns[i].named ? " named" : "");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(truth_patterns);

static int truth_run_show(struct seq_file *m, void *v)
{
	int i;

	mutex_lock(&truth_lock);
	if (truth_last.pattern) {
		seq_printf(m, "pattern %s n %lu ns %llu slack %lu\n",
			   truth_last.pattern, truth_last.n, truth_last.ns,
			   truth_last.slack);
		for (i = 0; i < truth_last.nr_rows; i++)
			seq_printf(m, "row %s allocs %lu frees %lu fails %lu\n",
				   truth_last.rows[i].row,
				   truth_last.rows[i].allocs,
				   truth_last.rows[i].frees,
				   truth_last.rows[i].fails);
	}
	mutex_unlock(&truth_lock);
	return 0;
}

static int truth_run_open(struct inode *inode, struct file *file)
{
	return single_open(file, truth_run_show, NULL);
}

/* "PATTERN N", "PATTERN N ARG" or "idle NS". */
static ssize_t truth_run_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	char buf[64], name[40];
	unsigned long long n, arg = 0;
	struct truth_result *r = &truth_last;
	ktime_t t0;
	int i, err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%39s %llu %llu", name, &n, &arg) < 2)
		return -EINVAL;

	if (!strcmp(name, "idle")) {
		if (n > 60ULL * NSEC_PER_SEC)
			return -EINVAL;
		/* Sleep on the stack's hrtimer: nothing is allocated. */
		usleep_range(n / NSEC_PER_USEC, n / NSEC_PER_USEC + 10);
		return len;
	}
	if (!n || n > TRUTH_MAX_N)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(truth_patterns); i++)
		if (!strcmp(name, truth_patterns[i].name))
			break;
	if (i == ARRAY_SIZE(truth_patterns))
		return -EINVAL;

	mutex_lock(&truth_lock);
	memset(r, 0, sizeof(*r));
	r->pattern = truth_patterns[i].name;
	r->n = n;
	truth_ubuf = ubuf;
	truth_ulen = len;
	truth_arg = arg;
	t0 = ktime_get();
	err = truth_patterns[i].fn(r, n);
	r->ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	mutex_unlock(&truth_lock);
	if (err)
		pr_err("%s: %d after part of %llu\n", name, err, n);
	return err ?: len;
}

static const struct file_operations truth_run_fops = {
	.owner = THIS_MODULE,
	.open = truth_run_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = truth_run_write,
};

static struct dentry *truth_dir;

/* A constructor keeps SLUB from merging the cache with another. */
static void truth_ctor(void *obj)
{
}

/*
 * kasan_probe=1 (make check's KUnit busted-mode guest, on the debug
 * kernel): at load, two accesses one byte past a 7-byte kmalloc()
 * object, inside its 8-byte slot, that KASAN must report: a read by this
 * module's own code (built as mstat.ko is) and a write by vsnprintf()
 * (lib/vsprintf.c, which kunit/.kunitconfig keeps instrumented though
 * the rest of that kernel is not). A kernel without KASAN refuses it.
 */
static bool kasan_probe;
module_param(kasan_probe, bool, 0444);
MODULE_PARM_DESC(kasan_probe, "At load, two out-of-bounds accesses KASAN must report (a KASAN kernel only)");

/* The object's size, out of the compiler's sight. */
static size_t truth_kasan_size = 7;

static noinline void truth_kasan_read(char *p, size_t n)
{
	(void)READ_ONCE(p[n]);
}

static noinline void truth_kasan_vsprintf(char *p, size_t n)
{
	snprintf(p, n + 1, "%0*d", (int)n, 0);
	barrier();	/* a call, not a tail call: this frame in the report */
}

static int truth_kasan_probe(void)
{
	size_t n = READ_ONCE(truth_kasan_size);
	char *p = kmalloc(n, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	pr_info("kasan_probe: byte %zu of a %zu-byte object read, then written by vsnprintf()\n",
		n, n);
	truth_kasan_read(p, n);
	truth_kasan_vsprintf(p, n);
	kfree(p);
	return 0;
}

static int __init truth_init(void)
{
	if (kasan_probe) {
		if (!IS_ENABLED(CONFIG_KASAN)) {
			pr_err("kasan_probe=1 refused: no address sanitizer in this kernel\n");
			return -EINVAL;
		}
		if (truth_kasan_probe())
			return -ENOMEM;
	}
	truth_cache = kmem_cache_create("mstat_truth", TRUTH_CACHE_OBJ, 0, 0,
					truth_ctor);
	if (!truth_cache)
		return -ENOMEM;
	truth_dir = debugfs_create_dir("mstat_truth", NULL);
	debugfs_create_file("patterns", 0444, truth_dir, NULL,
			    &truth_patterns_fops);
	debugfs_create_file("run", 0600, truth_dir, NULL, &truth_run_fops);
	return 0;
}

static void __exit truth_exit(void)
{
	debugfs_remove_recursive(truth_dir);
	kmem_cache_destroy(truth_cache);
}

module_init(truth_init);
module_exit(truth_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mstat's ground truth: known allocations through every kernel API");
