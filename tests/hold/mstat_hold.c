// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_hold - a known amount of kernel memory, held from load to unload:
 * the truth the whole-memory account (mstat memory) is judged by, step by
 * step (scripts/guest/account.sh). It needs nothing of mstat's, so that
 * it loads before mstat as well as after, and around a reset.
 *
 *	percpu=N percpu_size=S	N __alloc_percpu(S) objects: S times the
 *				possible CPUs each, in the chunks' pages
 *	kmalloc=N kmalloc_size=S	N kmalloc(S) objects
 *	vmalloc=N vmalloc_size=S	N vmalloc(S) areas
 *	pages=N pages_order=O	N __get_free_pages(O) blocks, from
 *				hold_pages(), a function of their own: the
 *				caller a page's stack must name
 *	exact=N exact_size=S	N alloc_pages_exact(S) blocks, from
 *				hold_exact(): S rounded up to pages each,
 *				the rest of their order's block given back
 *	bulk_pages=N		N order-0 pages from alloc_pages_bulk()
 *				into one array, from hold_bulk() (5.13 on:
 *				alloc_pages_bulk_array() to 6.13), most of
 *				them from the per-CPU lists, untraced
 *
 * Each allocation is made at load and freed at unload; a load whose
 * allocations cannot all be made frees what it made and fails with
 * -ENOMEM (bulk_pages where the kernel has no alloc_pages_bulk():
 * -EOPNOTSUPP). What it holds is logged: "mstat_hold: held ...".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "tests/mstat_test_compat.h"

/* At most this many objects of each kind: 4 GiB of 4 MiB areas. */
#define HOLD_MAX_N	BIT(20)

static unsigned int percpu, kmalloc_n, vmalloc_n, pages_n, pages_order = 1;
static unsigned int percpu_size = 4096, kmalloc_size = 8192;
static unsigned int vmalloc_size = 4 << 20;
static unsigned int exact_n, exact_size = 3 << 20;
static unsigned int bulk_n;
module_param(percpu, uint, 0444);
MODULE_PARM_DESC(percpu, "percpu objects to hold");
module_param(percpu_size, uint, 0444);
MODULE_PARM_DESC(percpu_size, "Bytes of each percpu object on each CPU (at most PCPU_MIN_UNIT_SIZE)");
module_param_named(kmalloc, kmalloc_n, uint, 0444);
MODULE_PARM_DESC(kmalloc, "kmalloc() objects to hold");
module_param(kmalloc_size, uint, 0444);
MODULE_PARM_DESC(kmalloc_size, "Bytes of each kmalloc() object");
module_param_named(vmalloc, vmalloc_n, uint, 0444);
MODULE_PARM_DESC(vmalloc, "vmalloc() areas to hold");
module_param(vmalloc_size, uint, 0444);
MODULE_PARM_DESC(vmalloc_size, "Bytes of each vmalloc() area");
module_param_named(pages, pages_n, uint, 0444);
MODULE_PARM_DESC(pages, "__get_free_pages() blocks to hold");
module_param(pages_order, uint, 0444);
MODULE_PARM_DESC(pages_order, "Order of each block (at most 10)");
module_param_named(exact, exact_n, uint, 0444);
MODULE_PARM_DESC(exact, "alloc_pages_exact() blocks to hold");
module_param(exact_size, uint, 0444);
MODULE_PARM_DESC(exact_size, "Bytes of each alloc_pages_exact() block (at most 4 MiB)");
module_param_named(bulk_pages, bulk_n, uint, 0444);
MODULE_PARM_DESC(bulk_pages, "Order-0 pages from alloc_pages_bulk() to hold (5.13 on)");

static void __percpu **hold_pcpu;
static void **hold_kmalloc, **hold_vmalloc;
static unsigned long *hold_page;
static void **hold_exact_p;
static struct page **hold_bulk_p;

static void hold_free(void)
{
	unsigned int i;

	for (i = 0; hold_pcpu && i < percpu; i++)
		free_percpu(hold_pcpu[i]);
	for (i = 0; hold_kmalloc && i < kmalloc_n; i++)
		kfree(hold_kmalloc[i]);
	for (i = 0; hold_vmalloc && i < vmalloc_n; i++)
		vfree(hold_vmalloc[i]);
	for (i = 0; hold_page && i < pages_n; i++)
		free_pages(hold_page[i], pages_order);
	for (i = 0; hold_exact_p && i < exact_n; i++)
		if (hold_exact_p[i])
			free_pages_exact(hold_exact_p[i], exact_size);
	for (i = 0; hold_bulk_p && i < bulk_n; i++)
		if (hold_bulk_p[i])
			__free_page(hold_bulk_p[i]);
	kvfree(hold_bulk_p);
	kvfree(hold_exact_p);
	kvfree(hold_page);
	kvfree(hold_pcpu);
	kvfree(hold_kmalloc);
	kvfree(hold_vmalloc);
}

/* The pages' caller, never inlined: its name is the truth. */
static noinline int hold_pages(void)
{
	unsigned int i;

	for (i = 0; i < pages_n; i++) {
		hold_page[i] = __get_free_pages(GFP_KERNEL, pages_order);
		if (!hold_page[i])
			return -ENOMEM;
	}
	return 0;
}

/* The exact blocks' caller, never inlined either. */
static noinline int hold_exact(void)
{
	unsigned int i;

	for (i = 0; i < exact_n; i++) {
		hold_exact_p[i] = alloc_pages_exact(exact_size, GFP_KERNEL);
		if (!hold_exact_p[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * The bulk pages' caller, never inlined: it calls the bulk allocator
 * itself (the API is a macro or an inline wrapper), until the array is
 * full or a call adds nothing. Its holes are all past the filled run.
 */
static noinline int hold_bulk(void)
{
#ifdef MSTAT_TEST_BULK_ARRAY
	unsigned long got = 0, was;

	while (got < bulk_n) {
		was = got;
		got = MSTAT_TEST_BULK_ARRAY(GFP_KERNEL, bulk_n, hold_bulk_p);
		if (got <= was)
			return -ENOMEM;
	}
	return 0;
#else
	return bulk_n ? -EOPNOTSUPP : 0;
#endif
}

static int hold_make(void)
{
	unsigned int i;

	hold_pcpu = kvcalloc(percpu, sizeof(*hold_pcpu), GFP_KERNEL);
	hold_kmalloc = kvcalloc(kmalloc_n, sizeof(*hold_kmalloc), GFP_KERNEL);
	hold_vmalloc = kvcalloc(vmalloc_n, sizeof(*hold_vmalloc), GFP_KERNEL);
	hold_page = kvcalloc(pages_n, sizeof(*hold_page), GFP_KERNEL);
	hold_exact_p = kvcalloc(exact_n, sizeof(*hold_exact_p), GFP_KERNEL);
	hold_bulk_p = kvcalloc(bulk_n, sizeof(*hold_bulk_p), GFP_KERNEL);
	if ((percpu && !hold_pcpu) || (kmalloc_n && !hold_kmalloc) ||
	    (vmalloc_n && !hold_vmalloc) || (pages_n && !hold_page) ||
	    (exact_n && !hold_exact_p) || (bulk_n && !hold_bulk_p))
		return -ENOMEM;
	for (i = 0; i < percpu; i++) {
		hold_pcpu[i] = __alloc_percpu(percpu_size, 8);
		if (!hold_pcpu[i])
			return -ENOMEM;
	}
	for (i = 0; i < kmalloc_n; i++) {
		hold_kmalloc[i] = kmalloc(kmalloc_size, GFP_KERNEL);
		if (!hold_kmalloc[i])
			return -ENOMEM;
	}
	for (i = 0; i < vmalloc_n; i++) {
		hold_vmalloc[i] = vmalloc(vmalloc_size);
		if (!hold_vmalloc[i])
			return -ENOMEM;
	}
	return hold_pages() ?: hold_exact() ?: hold_bulk();
}

static int __init hold_init(void)
{
	int err;

	if (percpu > HOLD_MAX_N || kmalloc_n > HOLD_MAX_N ||
	    vmalloc_n > HOLD_MAX_N || pages_n > HOLD_MAX_N ||
	    exact_n > HOLD_MAX_N || bulk_n > HOLD_MAX_N || !exact_size ||
	    exact_size > SZ_4M || pages_order > 10 || !percpu_size ||
	    percpu_size > PCPU_MIN_UNIT_SIZE || !kmalloc_size ||
	    !vmalloc_size) {
		pr_err("refused: counts at most %lu, sizes above 0, percpu_size at most %lu, pages_order at most 10, exact_size at most 4 MiB\n",
		       HOLD_MAX_N, (unsigned long)PCPU_MIN_UNIT_SIZE);
		return -EINVAL;
	}
	err = hold_make();
	if (err) {
		hold_free();
		pr_err("could not make what was asked: %d\n", err);
		return err;
	}
	pr_info("held: percpu %u x %u (%llu bytes on %u possible CPUs), kmalloc %u x %u, vmalloc %u x %u, pages %u of order %u, exact %u x %u, bulk pages %u\n",
		percpu, percpu_size,
		(unsigned long long)percpu * percpu_size * num_possible_cpus(),
		num_possible_cpus(), kmalloc_n, kmalloc_size, vmalloc_n,
		vmalloc_size, pages_n, pages_order, exact_n, exact_size,
		bulk_n);
	return 0;
}

static void __exit hold_exit(void)
{
	hold_free();
}

module_init(hold_init);
module_exit(hold_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mstat's test: a known amount of kernel memory, held");
