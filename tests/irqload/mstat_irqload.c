// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_irqload - allocations in interrupt context on every CPU (hard
 * interrupts; softirqs on PREEMPT_RT, whose hard ones may not allocate), a
 * load that mstat must count and never mistake for another context's:
 * for the test of how mstat learns, at its load, that a large kmalloc is
 * traced twice (scripts/guest/learn.sh). It uses nothing of mstat's, so
 * that it can run before mstat is loaded.
 *
 * Loading it starts an hrtimer on every online CPU that, every period_us
 * microseconds, makes one kmalloc() of LOAD_LARGE bytes (above
 * KMALLOC_MAX_CACHE_SIZE: pages from the page allocator, the "large"
 * class) with GFP_ATOMIC and kfree()s it at once. Pages freed there are
 * the first the next allocation of that order on that CPU is given: the
 * same address as a task's large kmalloc an instant later.
 *
 *	/sys/module/mstat_irqload/parameters/done	(read) how many pairs
 *		so far
 * Unloading stops the timers and prints "mstat_irqload: pairs=N".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "mstat_compat.h"
#include "tests/mstat_test_compat.h"

#define LOAD_LARGE	(KMALLOC_MAX_CACHE_SIZE + 100)

static uint period_us = 20;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "Microseconds between two pairs on a CPU, 1 to 100000 (default: 20)");

static atomic_long_t load_pairs;
static bool load_stop;
static struct hrtimer __percpu *load_timers;

static int load_done_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&load_pairs));
}

static const struct kernel_param_ops load_done_ops = {
	.get = load_done_get,
};
module_param_cb(done, &load_done_ops, NULL, 0444);
MODULE_PARM_DESC(done, "Large kmalloc/kfree pairs made so far (read-only)");

static enum hrtimer_restart load_tick(struct hrtimer *timer)
{
	void *p = kmalloc(LOAD_LARGE, GFP_ATOMIC | __GFP_NOWARN);

	/* A pair: an allocation that failed is not one. */
	kfree(p);
	if (p)
		atomic_long_inc(&load_pairs);
	if (READ_ONCE(load_stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* On each CPU, so that its timer is pinned there. */
static void load_start_here(void *unused)
{
	hrtimer_start(this_cpu_ptr(load_timers), ns_to_ktime((u64)period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED);
}

static int __init load_init(void)
{
	int cpu;

	if (!period_us || period_us > 100000) {
		pr_err("period_us=%u: must be 1 to 100000\n", period_us);
		return -EINVAL;
	}
	load_timers = alloc_percpu(struct hrtimer);
	if (!load_timers)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		mstat_hrtimer_setup(per_cpu_ptr(load_timers, cpu), load_tick,
				    CLOCK_MONOTONIC,
				    HRTIMER_MODE_REL_PINNED);
	on_each_cpu(load_start_here, NULL, 1);
	return 0;
}

static void __exit load_exit(void)
{
	int cpu;

	WRITE_ONCE(load_stop, true);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(per_cpu_ptr(load_timers, cpu));
	free_percpu(load_timers);
	pr_info("pairs=%ld\n", atomic_long_read(&load_pairs));
}

module_init(load_init);
module_exit(load_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("mstat test: large kmallocs in interrupt context on every CPU");
