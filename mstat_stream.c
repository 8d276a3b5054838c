// SPDX-License-Identifier: GPL-2.0
/*
 * The alloc/free event stream (Go's allocfreetrace), read from
 * /sys/kernel/debug/mstat/events: bounded per-CPU rings filled by the
 * probes, drained by readers. A full ring drops the new event and counts
 * it. Off (no source selected) by default: then a probe pays a
 * patched-out jump, and the rings' records do not exist. They are
 * allocated when the stream is switched on (events_per_cpu records of
 * every possible CPU) and freed when it is switched off.
 *
 * Probes may nest on one CPU (an interrupt during a probe), so each ring
 * has a raw spinlock taken with interrupts off; the reader takes it for
 * one record at a time, and the switch to attach or detach the records.
 * Readers are woken through an irq_work, since a probe may run under
 * locks that wake_up() itself takes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "mstat_stats.h"
#include "mstat_stream.h"
#include "mstat_text.h"

struct mstat_event_rec {
	u64 ts;
	unsigned long ptr;
	unsigned long site;
	u64 size;
	u8 src;
	bool alloc;
	u16 cpu;
};

struct mstat_ring {
	raw_spinlock_t lock;
	unsigned int head;	/* next record to read */
	unsigned int len;	/* records held */
	u64 dropped;
	struct mstat_event_rec *rec;	/* NULL while the stream is off */
};

/* Static: from the modules' reserved per-CPU area, no page of its own. */
static DEFINE_PER_CPU(struct mstat_ring, mstat_rings);
static unsigned int mstat_ring_size;
static DECLARE_WAIT_QUEUE_HEAD(mstat_events_wait);
static struct irq_work mstat_events_work;
static u64 mstat_events_min_size;

unsigned int mstat_stream_sources;
DEFINE_STATIC_KEY_FALSE(mstat_stream_key);

/*
 * Give every possible CPU's ring its records, or take them away (@on
 * false). Return: 0, or -ENOMEM with no ring changed.
 */
static int mstat_rings_attach(bool on)
{
	struct mstat_event_rec *rec;
	unsigned long flags;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct mstat_ring *r = per_cpu_ptr(&mstat_rings, cpu);

		rec = NULL;
		if (on) {
			rec = kvcalloc(mstat_ring_size, sizeof(*rec),
				       GFP_KERNEL);
			if (!rec) {
				mstat_rings_attach(false);
				return -ENOMEM;
			}
		}
		/* Probes and readers use ->rec only under the lock. */
		raw_spin_lock_irqsave(&r->lock, flags);
		swap(r->rec, rec);
		r->head = 0;
		r->len = 0;
		raw_spin_unlock_irqrestore(&r->lock, flags);
		kvfree(rec);
	}
	return 0;
}

/**
 * mstat_stream_records() - records the rings hold room for now
 *
 * Return: events_per_cpu times the possible CPUs while the stream is on,
 * 0 while it is off (no records allocated).
 */
unsigned long mstat_stream_records(void)
{
	return static_key_enabled(&mstat_stream_key) ?
	       (unsigned long)mstat_ring_size * num_possible_cpus() : 0;
}

/**
 * mstat_stream_set_sources() - choose the sources to stream
 * @sources: a bit per &enum mstat_source; 0 turns the stream off
 *
 * Switching the stream on allocates the rings' records, switching it off
 * frees them, with the records not read yet.
 *
 * Context: process; sleeps (static keys, allocations).
 * Return: 0, or -ENOMEM if the records could not be allocated (then the
 * stream stays off, with a log line).
 */
int mstat_stream_set_sources(unsigned int sources)
{
	static DEFINE_MUTEX(lock);
	int err = 0;

	mutex_lock(&lock);
	if (sources && !static_key_enabled(&mstat_stream_key)) {
		err = mstat_rings_attach(true);
		if (err) {
			pr_warn("events: no memory for %u records of %u CPUs: stream stays off\n",
				mstat_ring_size, num_possible_cpus());
			goto out;
		}
		WRITE_ONCE(mstat_stream_sources, sources);
		static_branch_enable(&mstat_stream_key);
	} else if (!sources && static_key_enabled(&mstat_stream_key)) {
		WRITE_ONCE(mstat_stream_sources, 0);
		static_branch_disable(&mstat_stream_key);
		mstat_rings_attach(false);
	} else {
		WRITE_ONCE(mstat_stream_sources, sources);
	}
out:
	mutex_unlock(&lock);
	return err;
}

/**
 * mstat_stream_min_size() - the smallest event streamed
 *
 * Return: bytes.
 */
u64 mstat_stream_min_size(void)
{
	return READ_ONCE(mstat_events_min_size);
}

/**
 * mstat_stream_set_min_size() - stream only events of @size bytes or more
 * @size: bytes
 */
void mstat_stream_set_min_size(u64 size)
{
	WRITE_ONCE(mstat_events_min_size, size);
}

static void mstat_events_wake(struct irq_work *work)
{
	wake_up_interruptible(&mstat_events_wait);
}

/**
 * mstat_stream_event() - offer one event of a streamed source to the stream
 * @src: its source, one of those in mstat_stream_sources
 * @alloc: allocation (true) or free
 * @ptr: the object (printed hashed)
 * @size: its size
 * @site: the call site
 *
 * Context: any but NMI. This function is preempt and irq safe.
 */
void mstat_stream_event(enum mstat_source src, bool alloc, unsigned long ptr,
			size_t size, unsigned long site)
{
	struct mstat_ring *r;
	struct mstat_event_rec *e;
	unsigned long flags;

	if (size < READ_ONCE(mstat_events_min_size))
		return;

	r = raw_cpu_ptr(&mstat_rings);
	raw_spin_lock_irqsave(&r->lock, flags);
	if (unlikely(!r->rec)) {
		/* The stream was switched off under this probe. */
		raw_spin_unlock_irqrestore(&r->lock, flags);
		return;
	}
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
	struct mstat_ring *r = per_cpu_ptr(&mstat_rings, cpu);
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

/* Whether any ring holds a record: a read would not block. */
static bool mstat_events_pending(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (READ_ONCE(per_cpu_ptr(&mstat_rings, cpu)->len))
			return true;
	return false;
}

/* Take one record, from any CPU. Return false if there was none. */
static bool mstat_events_next(struct mstat_event_rec *out)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (mstat_event_pop(cpu, out))
			return true;
	return false;
}

/**
 * mstat_stream_dropped() - events dropped because a ring was full
 *
 * Return: the sum over CPUs.
 */
u64 mstat_stream_dropped(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(&mstat_rings, cpu)->dropped);
	return sum;
}

/* One line of the stream, and room to name its site. */
struct mstat_events_line {
	char sym[KSYM_SYMBOL_LEN];
	char buf[160 + KSYM_SYMBOL_LEN];
};

/* The stream: one line per event; blocks when empty unless O_NONBLOCK. */
static ssize_t mstat_events_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct mstat_events_line *l;
	struct mstat_event_rec e;
	ssize_t done = 0;
	int len, err;

	if (count < sizeof(l->buf))
		return -EINVAL;
	while (!mstat_events_pending()) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(mstat_events_wait,
					       mstat_events_pending());
		if (err)
			return err;
	}
	l = kmalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	/* Stop while a whole line still fits, so no record is lost. */
	while (count - done >= sizeof(l->buf) && mstat_events_next(&e)) {
		len = scnprintf(l->buf, sizeof(l->buf),
				"%llu cpu=%u %s %s ptr=%p size=%llu site=%s\n",
				e.ts, e.cpu, mstat_source_name[e.src],
				e.alloc ? "alloc" : "free", (void *)e.ptr,
				e.size, e.site ? mstat_site_name(l->sym,
								 sizeof(l->sym),
								 e.site) : "-");
		if (copy_to_user(ubuf + done, l->buf, len)) {
			done = done ?: -EFAULT;
			break;
		}
		done += len;
	}
	kfree(l);
	return done;
}

static __poll_t mstat_events_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &mstat_events_wait, wait);
	return mstat_events_pending() ? EPOLLIN | EPOLLRDNORM : 0;
}

static const struct file_operations mstat_events_fops = {
	.owner	= THIS_MODULE,
	.open	= nonseekable_open,
	.read	= mstat_events_read,
	.poll	= mstat_events_poll,
};

/**
 * mstat_stream_debugfs() - create the stream's file, "events", in @dir
 * @dir: mstat's debugfs directory
 *
 * Removed with @dir.
 *
 * Return: its dentry, or an ERR_PTR() (debugfs_create_file()'s).
 */
struct dentry *mstat_stream_debugfs(struct dentry *dir)
{
	return debugfs_create_file("events", 0400, dir, NULL,
				   &mstat_events_fops);
}

/**
 * mstat_stream_init() - set up the rings, with no records yet
 * @per_cpu: records per CPU once the stream is switched on
 *
 * Return: 0.
 */
int mstat_stream_init(unsigned int per_cpu)
{
	int cpu;

	init_irq_work(&mstat_events_work, mstat_events_wake);
	mstat_ring_size = per_cpu;
	for_each_possible_cpu(cpu)
		raw_spin_lock_init(&per_cpu_ptr(&mstat_rings, cpu)->lock);
	return 0;
}

/**
 * mstat_stream_exit() - switch the stream off and free the records
 *
 * Context: no probe may run any more.
 */
void mstat_stream_exit(void)
{
	mstat_stream_set_sources(0);
	irq_work_sync(&mstat_events_work);
}
