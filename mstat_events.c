// SPDX-License-Identifier: GPL-2.0
/*
 * The alloc/free event stream (Go's allocfreetrace), read from
 * /sys/kernel/debug/mstat/events: bounded per-CPU rings filled by the
 * probes, drained by readers. A full ring drops the new event and counts
 * it. Off (no source selected) by default: then a probe pays one load.
 *
 * Probes may nest on one CPU (an interrupt during a probe), so each ring
 * has a raw spinlock taken with interrupts off; the reader takes it for
 * one record at a time. Readers are woken through an irq_work, since a
 * probe may run under locks that wake_up() itself takes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "mstat_events.h"
#include "mstat_internal.h"

struct mstat_ring {
	raw_spinlock_t lock;
	unsigned int head;	/* next record to read */
	unsigned int len;	/* records held */
	u64 dropped;
	struct mstat_event_rec *rec;
};

static struct mstat_ring __percpu *mstat_rings;
static unsigned int mstat_ring_size;
static DECLARE_WAIT_QUEUE_HEAD(mstat_events_wait);
static struct irq_work mstat_events_work;

unsigned int mstat_events_sources;
u64 mstat_events_min_size;
DEFINE_STATIC_KEY_FALSE(mstat_events_key);

/**
 * mstat_events_set_sources() - choose the sources to stream
 * @sources: a bit per &enum mstat_source; 0 turns the stream off
 *
 * Context: process; sleeps (static key).
 */
void mstat_events_set_sources(unsigned int sources)
{
	WRITE_ONCE(mstat_events_sources, sources);
	if (sources)
		static_branch_enable(&mstat_events_key);
	else
		static_branch_disable(&mstat_events_key);
	mstat_extras_update();
}

static void mstat_events_wake(struct irq_work *work)
{
	wake_up_interruptible(&mstat_events_wait);
}

/**
 * mstat_event() - offer one event of a streamed source to the stream
 * @src: its source, one of those in mstat_events_sources
 * @alloc: allocation (true) or free
 * @ptr: the object (printed hashed)
 * @size: its size
 * @site: the call site
 *
 * Context: any but NMI. This function is preempt and irq safe.
 */
void mstat_event(enum mstat_source src, bool alloc, unsigned long ptr,
		 size_t size, unsigned long site)
{
	struct mstat_ring *r;
	struct mstat_event_rec *e;
	unsigned long flags;

	if (size < READ_ONCE(mstat_events_min_size))
		return;

	r = raw_cpu_ptr(mstat_rings);
	raw_spin_lock_irqsave(&r->lock, flags);
	if (r->len == mstat_ring_size) {
		r->dropped++;
		raw_spin_unlock_irqrestore(&r->lock, flags);
		return;
	}
	e = &r->rec[(r->head + r->len) % mstat_ring_size];
	e->ts = local_clock();
	e->ptr = ptr;
	e->site = site;
	e->size = size;
	e->src = src;
	e->alloc = alloc;
	e->cpu = raw_smp_processor_id();
	r->len++;
	raw_spin_unlock_irqrestore(&r->lock, flags);
	irq_work_queue(&mstat_events_work);
}

/* Take the oldest record of @cpu's ring. Return false if it is empty. */
static bool mstat_event_pop(int cpu, struct mstat_event_rec *out)
{
	struct mstat_ring *r = per_cpu_ptr(mstat_rings, cpu);
	unsigned long flags;
	bool ok = false;

	raw_spin_lock_irqsave(&r->lock, flags);
	if (r->len) {
		*out = r->rec[r->head];
		r->head = (r->head + 1) % mstat_ring_size;
		r->len--;
		ok = true;
	}
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return ok;
}

/**
 * mstat_events_pending() - whether any ring holds a record
 *
 * Return: true if a read would not block.
 */
bool mstat_events_pending(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (READ_ONCE(per_cpu_ptr(mstat_rings, cpu)->len))
			return true;
	return false;
}

/**
 * mstat_events_next() - take one record, from any CPU
 * @out: the record
 *
 * Return: true if there was one.
 */
bool mstat_events_next(struct mstat_event_rec *out)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (mstat_event_pop(cpu, out))
			return true;
	return false;
}

/**
 * mstat_events_dropped() - events dropped because a ring was full
 *
 * Return: the sum over CPUs.
 */
u64 mstat_events_dropped(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(mstat_rings, cpu)->dropped);
	return sum;
}

/**
 * mstat_events_waitq() - where readers of the stream sleep
 *
 * Return: the wait queue head.
 */
wait_queue_head_t *mstat_events_waitq(void)
{
	return &mstat_events_wait;
}

/**
 * mstat_events_init() - allocate the rings
 * @per_cpu: records per CPU
 *
 * Return: 0 or -ENOMEM.
 */
int mstat_events_init(unsigned int per_cpu)
{
	int cpu;

	init_irq_work(&mstat_events_work, mstat_events_wake);
	mstat_ring_size = per_cpu;
	mstat_rings = alloc_percpu(struct mstat_ring);
	if (!mstat_rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct mstat_ring *r = per_cpu_ptr(mstat_rings, cpu);

		raw_spin_lock_init(&r->lock);
		r->rec = kvcalloc(per_cpu, sizeof(*r->rec), GFP_KERNEL);
		if (!r->rec) {
			mstat_events_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * mstat_events_exit() - free the rings
 *
 * Context: no probe may run any more.
 */
void mstat_events_exit(void)
{
	int cpu;

	mstat_events_set_sources(0);
	if (!mstat_rings)
		return;
	irq_work_sync(&mstat_events_work);
	for_each_possible_cpu(cpu)
		kvfree(per_cpu_ptr(mstat_rings, cpu)->rec);
	free_percpu(mstat_rings);
	mstat_rings = NULL;
}
