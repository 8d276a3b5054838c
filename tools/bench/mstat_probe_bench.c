// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_probe_bench - the cost of kmalloc/kfree with whatever probes are
 * on the kmem:kmalloc and kmem:kfree tracepoints: none, an empty probe of
 * our own (mode=empty), or mstat's (load mstat.ko first, mode=none).
 *
 * Loading it runs the loop once and prints one line:
 *	mstat_probe_bench: mode=M pairs=N ns_per_pair=X
 * Sizes cycle through 8..240 bytes, on one CPU with migration off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

static char *mode = "none";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "none (whatever is registered) or empty (add an empty probe)");

static uint pairs = 200000;
module_param(pairs, uint, 0444);
MODULE_PARM_DESC(pairs, "kmalloc/kfree pairs to time (1000 to 10000000)");

static void bench_probe_kmalloc(void *data, unsigned long call_site,
				const void *ptr, size_t bytes_req,
				size_t bytes_alloc, gfp_t gfp_flags, int node)
{
}

static void bench_probe_kfree(void *data, unsigned long call_site,
			      const void *ptr)
{
}

static u64 bench_loop(void)
{
	u64 t0, t1;
	uint i;

	migrate_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < pairs; i++) {
		void *p = kmalloc(8 + (i % 30) * 8, GFP_KERNEL);

		kfree(p);
	}
	t1 = ktime_get_ns();
	migrate_enable();
	return t1 - t0;
}

static int __init bench_init(void)
{
	bool empty = !strcmp(mode, "empty");
	u64 ns;
	int err;

	if ((!empty && strcmp(mode, "none")) || pairs < 1000 ||
	    pairs > 10000000) {
		pr_err("mode=%s pairs=%u: want mode none|empty, 1000 to 10000000 pairs\n",
		       mode, pairs);
		return -EINVAL;
	}
	if (empty) {
		err = register_trace_kmalloc(bench_probe_kmalloc, NULL);
		if (err)
			return err;
		err = register_trace_kfree(bench_probe_kfree, NULL);
		if (err) {
			unregister_trace_kmalloc(bench_probe_kmalloc, NULL);
			return err;
		}
	}
	ns = bench_loop();
	if (empty) {
		unregister_trace_kfree(bench_probe_kfree, NULL);
		unregister_trace_kmalloc(bench_probe_kmalloc, NULL);
		tracepoint_synchronize_unregister();
	}
	pr_info("mode=%s pairs=%u ns_per_pair=%llu\n", mode, pairs,
		div_u64(ns, pairs));
	return 0;
}

static void __exit bench_exit(void)
{
}

module_init(bench_init);
module_exit(bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Time kmalloc/kfree with and without probes on their tracepoints");
