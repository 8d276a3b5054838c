// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_torture - locktorture-style torture of mstat_core in the kernel.
 *
 * Loading it runs one torture of a core of its own (not mstat's counters):
 * writer kthreads (default: twice the online CPUs) and, optionally, an
 * hrtimer writer in hard interrupt context on every CPU, against a reader
 * that rotates as fast as it can; optionally stutter (writers pause) and
 * CPU hotplug churn. Every writer keeps exact private tallies. Checked in
 * every snapshot: paired fields equal, cumulative counters never decrease,
 * the snapshot lies between what had finished before the read began and
 * what had started when it ended; at the end, quiescent, events written
 * equal events read. One line, then the module stays loaded until rmmod:
 *
 *   mstat_torture: SUCCESS|FAILURE writes=.. irq_writes=.. rotations=..
 *	max_wait_ns=.. writer_min=.. writer_max=.. hotplugs=.. holds=.. sync=..
 *	busted=.. violations=..
 *
 * sync= picks the reader's mode (&enum mstat_sync); sync=3 changes it
 * before every read, rcu and ipi in turn, so that the writers' sequence
 * words go on and off while they run (mstat_seq_get()). busted=1 folds
 * without waiting (no grace period in the RCU modes, no wait in IPI
 * mode), busted=2 runs IPI mode without IPIs, busted=3 turns the words on
 * for IPI mode without a grace period: busted=1 must end in FAILURE in
 * every mode, and busted=3 with sync=3, or this test proves nothing.
 *
 * A reader that does not wait loses its race only when it folds a slot
 * under an open section, and a short section is seldom met open (under
 * QEMU's multi-threaded TCG an IPI round takes tens of milliseconds). So
 * once every %TORTURE_HOLD_EVERY writer 0 holds a section open until a
 * read that began after it has ended, or hold_ms at most: a reader that
 * does not wait folds under it, whatever the timing; a correct reader
 * waits out the hold (the bound ends it), as it waits for a vCPU that its
 * host preempted inside a section.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "mstat_compat.h"
#include "tests/mstat_test_compat.h"
#include "mstat_core/mstat_core.h"

static int nwriters = -1;
module_param(nwriters, int, 0444);
MODULE_PARM_DESC(nwriters, "Writer kthreads (default: twice the online CPUs)");

static bool irq_writers = true;
module_param(irq_writers, bool, 0444);
MODULE_PARM_DESC(irq_writers, "An hrtimer writer in hardirq context per CPU (default: on)");

static uint duration = 10;
module_param(duration, uint, 0444);
MODULE_PARM_DESC(duration, "Seconds to run, 1 to 86400 (default 10)");

static uint stutter_ms;
module_param(stutter_ms, uint, 0444);
MODULE_PARM_DESC(stutter_ms, "Writers pause this long every 4 stutters (default 0: no stutter)");

static uint hotplug_ms;
module_param(hotplug_ms, uint, 0444);
MODULE_PARM_DESC(hotplug_ms, "Offline and online a CPU every this many ms (default 0: off)");

static int busted;
module_param(busted, int, 0444);
MODULE_PARM_DESC(busted, "0: correct core, 1: no wait, 2: no IPI barrier, 3: sequence words on without a grace period");

static bool widen = true;
module_param(widen, bool, 0444);
MODULE_PARM_DESC(widen, "Widen one section in 16 with a cpu_relax() loop (default: on; off: the holds alone meet a reader that does not wait)");

static uint hold_ms = 250;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "Writer 0 holds a section open up to this long every 2 s, 0 to 10000 (default 250; 0: off)");

static uint sync;
module_param(sync, uint, 0444);
MODULE_PARM_DESC(sync, "Reader mode: 0 rcu (default), 1 rcu_expedited, 2 ipi, 3 rcu and ipi in turn");

struct torture_stats {
	u64 a;
	s64 neg;
	u64 b;
	u64 n;
	u64 irq;
};

struct torture_tally {
	u64 started_a;
	u64 done_a;
	u64 done_n;
	u64 started_n;
} ____cacheline_aligned;

static struct mstat_core tcore;
static struct torture_tally *tally;	/* writers, then one per CPU for irqs */
static struct task_struct **writers;
static struct hrtimer __percpu *timers;
static bool stop, stutter_pause;
static atomic64_t violations;
static u64 result_rotations, result_writes, result_irq, result_max_wait;
static u64 result_wmin, result_wmax;
static unsigned int result_hotplugs;
static u64 reads_begun, reads_ended;	/* the reader's, before and after a read */
static unsigned long next_hold;		/* writer 0's */
static unsigned int result_holds;

#define TORTURE_HOLD_EVERY	(2 * HZ)

#define TADD(s, f, v)	mstat_add(s, struct torture_stats, f, v)

/*
 * Hold the open section until a read that began after its load of ->cur
 * has ended, or hold_ms. The smp_rmb() orders that load (in
 * mstat_write_begin()) before the load of reads_begun; it pairs with the
 * release of the flip, which the reader's store of reads_begun precedes:
 * a read not yet begun at this load flips after the section chose its
 * slot, so the read waited for folds that slot (torture-hold.litmus).
 */
static void torture_hold(void)
{
	u64 until = ktime_get_ns() + (u64)hold_ms * NSEC_PER_MSEC;
	u64 begun;

	smp_rmb(); /* Pairs with the flip's smp_store_release() of ->cur */
	begun = READ_ONCE(reads_begun);
	while (READ_ONCE(reads_ended) <= begun && !READ_ONCE(stop) &&
	       ktime_get_ns() < until)
		cpu_relax();
	result_holds++;
}

static void torture_section(struct torture_tally *t, u64 k, bool irq)
{
	struct mstat_section s;
	unsigned int spin;

	WRITE_ONCE(t->started_a, t->started_a + k);
	WRITE_ONCE(t->started_n, t->started_n + 1);
	mstat_write_begin(&tcore, &s);
	TADD(&s, a, k);
	TADD(&s, neg, -(s64)k);
	/* Widen the section now and then, so a reader can meet it open. */
	if (!irq && widen && (k & 15) == 0)
		for (spin = 0; spin < 200; spin++)
			cpu_relax();
	if (!irq && hold_ms && t == tally && time_after(jiffies, next_hold)) {
		next_hold = jiffies + TORTURE_HOLD_EVERY;
		torture_hold();
	}
	TADD(&s, n, 1);
	if (irq)
		TADD(&s, irq, 1);
	TADD(&s, b, k);
	mstat_write_end(&tcore, &s);
	smp_wmb(); /* Orders "started" before "done"; pairs with smp_rmb() in torture_sum() */
	WRITE_ONCE(t->done_a, t->done_a + k);
	WRITE_ONCE(t->done_n, t->done_n + 1);
}

static int torture_writer(void *arg)
{
	struct torture_tally *t = arg;
	u32 r;

	/* Never return before kthread_stop(): it would free the task. */
	while (!kthread_should_stop()) {
		r = get_random_u32();
		torture_section(t, 1 + (r & 255), false);
		if ((r >> 8) % 64 == 0)
			cond_resched();
		while (READ_ONCE(stutter_pause) && !kthread_should_stop())
			schedule_timeout_interruptible(1);
	}
	return 0;
}

static enum hrtimer_restart torture_timer(struct hrtimer *timer)
{
	struct torture_tally *t = &tally[nwriters + smp_processor_id()];

	torture_section(t, 1000, true);
	if (READ_ONCE(stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(100 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void torture_timer_start(void *unused)
{
	hrtimer_start(this_cpu_ptr(timers), ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED);
}

/* Sum of all tallies; "done" first, so that started >= done. */
static void torture_sum(u64 *done_a, u64 *done_n, u64 *started_a,
			u64 *started_n)
{
	int i, n = nwriters + nr_cpu_ids;

	*done_a = *done_n = *started_a = *started_n = 0;
	for (i = 0; i < n; i++) {
		*done_a += READ_ONCE(tally[i].done_a);
		*done_n += READ_ONCE(tally[i].done_n);
	}
	smp_rmb(); /* Pairs with smp_wmb() in torture_section() */
	for (i = 0; i < n; i++) {
		*started_a += READ_ONCE(tally[i].started_a);
		*started_n += READ_ONCE(tally[i].started_n);
	}
}

static void torture_violation(const char *what, u64 gen, u64 x, u64 y)
{
	if (atomic64_inc_return(&violations) <= 5)
		pr_err("violation at gen %llu: %s (%llu vs %llu)\n", gen, what,
		       x, y);
}

static void torture_check(const struct torture_stats *st,
			  const struct torture_stats *prev, u64 gen,
			  u64 da, u64 dn, u64 sa, u64 sn)
{
	if (st->a != st->b)
		torture_violation("a != b", gen, st->a, st->b);
	if ((s64)st->a + st->neg)
		torture_violation("a + neg != 0", gen, st->a, -st->neg);
	if (st->a < prev->a || st->n < prev->n || st->irq < prev->irq)
		torture_violation("went backwards", gen, st->a, prev->a);
	if (st->a < da || st->n < dn)
		torture_violation("less than finished before", gen, st->a, da);
	if (st->a > sa || st->n > sn)
		torture_violation("more than started after", gen, st->a, sa);
}

static int torture_hotplug(void *arg)
{
	unsigned int cpu;

	while (!kthread_should_stop()) {
		msleep_interruptible(hotplug_ms);
		cpu = get_random_u32_below(nr_cpu_ids);
		if (!cpu || !cpu_online(cpu) || kthread_should_stop())
			continue;
		if (!remove_cpu(cpu)) {
			result_hotplugs++;
			msleep_interruptible(hotplug_ms / 2);
			WARN_ON_ONCE(add_cpu(cpu));
		}
	}
	return 0;
}

static void torture_run(void)
{
	struct torture_stats st = { }, prev = { };
	struct task_struct *hp = NULL;
	u64 da, dn, sa, sn, unused_a, unused_n, end;
	struct mstat_snapshot snap;
	unsigned long next_stutter = jiffies;
	int i, cpu;

	next_hold = jiffies + HZ / 10;
	for (i = 0; i < nwriters; i++) {
		writers[i] = kthread_run(torture_writer, &tally[i],
					 "mstat_torture_w/%d", i);
		if (IS_ERR(writers[i]))
			writers[i] = NULL;
	}
	if (irq_writers) {
		for_each_online_cpu(cpu) {
			struct hrtimer *t = per_cpu_ptr(timers, cpu);

			mstat_hrtimer_setup(t, torture_timer, CLOCK_MONOTONIC,
					    HRTIMER_MODE_REL_PINNED);
		}
		/* Each timer is started on its own CPU so that it is pinned there. */
		on_each_cpu(torture_timer_start, NULL, 1);
	}
	if (hotplug_ms && IS_ENABLED(CONFIG_HOTPLUG_CPU))
		hp = kthread_run(torture_hotplug, NULL, "mstat_torture_hp");

	end = ktime_get_ns() + (u64)duration * NSEC_PER_SEC;
	while (ktime_get_ns() < end) {
		/* Finished before the read began; started when it ended. */
		/* sync=3: rcu, then ipi, the words off, then on. */
		if (sync == MSTAT_NR_SYNC)
			mstat_set_sync(&tcore, result_rotations % 2 ?
				       MSTAT_SYNC_IPI : MSTAT_SYNC_RCU);
		torture_sum(&da, &dn, &sa, &sn);
		WRITE_ONCE(reads_begun, reads_begun + 1);
		mstat_read(&tcore, &snap, &st);
		WRITE_ONCE(reads_ended, reads_begun);
		torture_sum(&unused_a, &unused_n, &sa, &sn);
		torture_check(&st, &prev, snap.gen, da, dn, sa, sn);
		result_max_wait = max(result_max_wait, snap.wait_ns);
		result_rotations++;
		prev = st;
		if (stutter_ms && time_after(jiffies, next_stutter)) {
			WRITE_ONCE(stutter_pause, !stutter_pause);
			next_stutter = jiffies + msecs_to_jiffies(stutter_ms);
		}
		cond_resched();
	}

	WRITE_ONCE(stop, true);
	if (!IS_ERR_OR_NULL(hp))
		kthread_stop(hp);
	if (irq_writers)
		for_each_possible_cpu(cpu)
			if (per_cpu_ptr(timers, cpu)->function)
				hrtimer_cancel(per_cpu_ptr(timers, cpu));
	for (i = 0; i < nwriters; i++)
		if (writers[i])
			kthread_stop(writers[i]);

	/* Quiescent: what was read must be what was written. */
	torture_sum(&da, &dn, &sa, &sn);
	mstat_read(&tcore, &snap, &st);
	torture_check(&st, &prev, snap.gen, da, dn, sa, sn);
	if (st.a != da)
		torture_violation("final a != written", snap.gen, st.a, da);
	if (st.n != dn)
		torture_violation("final n != written", snap.gen, st.n, dn);
	result_writes = st.n;
	result_irq = st.irq;
	result_wmin = U64_MAX;
	for (i = 0; i < nwriters; i++) {
		result_wmin = min(result_wmin, tally[i].done_n);
		result_wmax = max(result_wmax, tally[i].done_n);
	}
}

static int __init torture_init(void)
{
	int err;

	if (nwriters < 0)
		nwriters = 2 * num_online_cpus();
	if (nwriters > 1024 || !duration || duration > 86400 ||
	    busted < MSTAT_BROKEN_NONE || busted > MSTAT_BROKEN_SEQ_NOGP ||
	    sync > MSTAT_NR_SYNC || hold_ms > 10000) {
		pr_err("nwriters=%d duration=%u busted=%d sync=%u hold_ms=%u: out of range\n",
		       nwriters, duration, busted, sync, hold_ms);
		return -EINVAL;
	}
	err = mstat_core_init(&tcore, sizeof(struct torture_stats));
	if (err)
		return err;
	mstat_set_broken(&tcore, busted);
	err = mstat_set_sync(&tcore, sync < MSTAT_NR_SYNC ? sync : 0);
	if (err)
		goto out;
	tally = kcalloc(nwriters + nr_cpu_ids, sizeof(*tally), GFP_KERNEL);
	writers = kcalloc(nwriters, sizeof(*writers), GFP_KERNEL);
	timers = alloc_percpu(struct hrtimer);
	if (!tally || !writers || !timers) {
		err = -ENOMEM;
		goto out;
	}

	torture_run();
	pr_info("%s writes=%llu irq_writes=%llu rotations=%llu max_wait_ns=%llu writer_min=%llu writer_max=%llu hotplugs=%u holds=%u sync=%s busted=%d violations=%lld\n",
		atomic64_read(&violations) ? "FAILURE" : "SUCCESS",
		result_writes, result_irq, result_rotations, result_max_wait,
		result_wmin, result_wmax, result_hotplugs, result_holds,
		sync < MSTAT_NR_SYNC ? mstat_sync_name[sync] : "switch", busted,
		(s64)atomic64_read(&violations));
	return 0;
out:
	free_percpu(timers);
	kfree(writers);
	kfree(tally);
	mstat_core_destroy(&tcore);
	return err;
}

static void __exit torture_exit(void)
{
	free_percpu(timers);
	kfree(writers);
	kfree(tally);
	mstat_core_destroy(&tcore);
}

module_init(torture_init);
module_exit(torture_exit);

MODULE_LICENSE("GPL");
MSTAT_IMPORT_INTERNAL_NS();
MODULE_DESCRIPTION("Torture test of mstat_core's consistent snapshots");
