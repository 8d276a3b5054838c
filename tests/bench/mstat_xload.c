// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_xload - kmalloc/kfree load whose objects cross CPUs, for the
 * torn-read test of make bench (scripts/guest/torn.sh): a reader that
 * copies CPU 0's counters, then CPU 1's, can see a free on CPU 1 of an
 * object whose allocation on CPU 0 came after its copy of CPU 0.
 *
 * Loading it starts two kthreads: one bound to CPU 0 allocates objects
 * of 8..240 bytes and passes them, through a ring of XLOAD_RING, to the
 * other, bound to CPU 1, which frees them. At most XLOAD_RING objects
 * are in flight. Unloading stops them, frees what is left and prints
 *	mstat_xload: pairs=N
 * (objects allocated on CPU 0 and freed on CPU 1).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>

#define XLOAD_RING	16

/*
 * A single-producer, single-consumer ring: the producer writes head and
 * the slot at head, the consumer tail and nothing else.
 */
static void *ring[XLOAD_RING];
static unsigned long head, tail;
static struct task_struct *producer, *consumer;
static atomic_long_t pairs;

static int xload_produce(void *arg)
{
	unsigned long h = 0;
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		/* Pairs with smp_store_release() in xload_consume(). */
		if (h - smp_load_acquire(&tail) == XLOAD_RING) {
			cond_resched();
			continue;
		}
		ring[h % XLOAD_RING] = kmalloc(8 + (i++ % 30) * 8, GFP_KERNEL);
		/* Pairs with smp_load_acquire() in xload_consume(). */
		smp_store_release(&head, ++h);
		if (!(i % 64))
			cond_resched();
	}
	return 0;
}

static int xload_consume(void *arg)
{
	unsigned long t = 0;

	while (!kthread_should_stop()) {
		/* Pairs with smp_store_release() in xload_produce(). */
		if (smp_load_acquire(&head) == t) {
			cond_resched();
			continue;
		}
		kfree(ring[t % XLOAD_RING]);
		atomic_long_inc(&pairs);
		/* Pairs with smp_load_acquire() in xload_produce(). */
		smp_store_release(&tail, ++t);
		if (!(t % 64))
			cond_resched();
	}
	return 0;
}

static int __init xload_init(void)
{
	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1)) {
		pr_err("needs CPUs 0 and 1 online\n");
		return -ENODEV;
	}
	producer = kthread_create(xload_produce, NULL, "mstat_xload/0");
	if (IS_ERR(producer))
		return PTR_ERR(producer);
	consumer = kthread_create(xload_consume, NULL, "mstat_xload/1");
	if (IS_ERR(consumer)) {
		kthread_stop(producer);
		return PTR_ERR(consumer);
	}
	kthread_bind(producer, 0);
	kthread_bind(consumer, 1);
	wake_up_process(producer);
	wake_up_process(consumer);
	return 0;
}

static void __exit xload_exit(void)
{
	unsigned long t;

	kthread_stop(producer);
	kthread_stop(consumer);
	for (t = tail; t != head; t++)
		kfree(ring[t % XLOAD_RING]);
	pr_info("pairs=%ld\n", atomic_long_read(&pairs));
}

module_init(xload_init);
module_exit(xload_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kmalloc on CPU 0, kfree of the same objects on CPU 1");
