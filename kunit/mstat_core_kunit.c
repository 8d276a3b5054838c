// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mstat_core: the rotation, the fold, nesting in interrupt
 * context, and conservation under concurrent writers on every CPU.
 *
 * Needs mstat.ko loaded first (it exports the core).
 *
 * busted=1 (or 2) gives every case's core a deliberately broken reader
 * (&enum mstat_broken): the cases that hunt a torn snapshot must then
 * report "not ok", cleanly, with every writer stopped; make check loads
 * it so once, to prove that they can fail.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "mstat_compat.h"
#include "tests/mstat_test_compat.h"
#include "mstat_core/mstat_core.h"

struct test_stats {
	u64 a;		/* += k */
	s64 neg;	/* -= k */
	u64 b;		/* += k, last in the section */
	u64 n;		/* sections */
	u64 irq;	/* sections in hard interrupt context */
};

#define TADD(s, field, v)	mstat_add(s, struct test_stats, field, v)

static void test_write(struct mstat_core *core, u64 k, bool irq)
{
	struct mstat_section s;

	mstat_write_begin(core, &s);
	TADD(&s, a, k);
	TADD(&s, neg, -(s64)k);
	TADD(&s, n, 1);
	if (irq)
		TADD(&s, irq, 1);
	TADD(&s, b, k);
	mstat_write_end(core, &s);
}

static void expect_paired(struct kunit *test, const struct test_stats *st)
{
	KUNIT_EXPECT_EQ(test, st->a, st->b);
	KUNIT_EXPECT_EQ(test, (s64)st->a + st->neg, 0);
}

/* The reader's modes, for the cases that run once per mode. */
static const enum mstat_sync sync_modes[] = {
	MSTAT_SYNC_RCU, MSTAT_SYNC_RCU_EXPEDITED, MSTAT_SYNC_IPI,
};

static void sync_mode_desc(const enum mstat_sync *mode, char *desc)
{
	strscpy(desc, mstat_sync_name[*mode], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sync_mode, sync_modes, sync_mode_desc);

static uint busted;

static int busted_set(const char *val, const struct kernel_param *kp)
{
	uint v;
	int err = kstrtouint(val, 0, &v);

	if (err || v > MSTAT_BROKEN_NOSYNC) {
		pr_err("mstat_core_kunit: busted=%s: must be 0, 1 or 2\n", val);
		return -EINVAL;
	}
	busted = v;
	return 0;
}

static const struct kernel_param_ops busted_ops = {
	.set = busted_set,
	.get = param_get_uint,
};

module_param_cb(busted, &busted_ops, &busted, 0444);
MODULE_PARM_DESC(busted, "Test the tests: 1 a reader that does not wait, 2 IPI mode without IPIs (default 0: a correct reader)");

/* A fresh core, in the case's reader mode (the default for the others). */
static int test_init(struct kunit *test)
{
	const enum mstat_sync *mode = test->param_value;
	struct mstat_core *core;

	core = kunit_kzalloc(test, sizeof(*core), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, core);
	KUNIT_ASSERT_EQ(test, mstat_core_init(core, sizeof(struct test_stats)), 0);
	KUNIT_EXPECT_EQ(test, mstat_get_sync(core), MSTAT_SYNC_RCU);
	if (mode)
		KUNIT_ASSERT_EQ(test, mstat_set_sync(core, *mode), 0);
	if (busted)
		mstat_set_broken(core, busted);
	test->priv = core;
	return 0;
}

static int test_suite_init(struct kunit_suite *suite)
{
	if (busted)
		pr_info("mstat_core_kunit: busted=%u: cases that hunt torn snapshots must fail\n",
			busted);
	return 0;
}

static void test_exit(struct kunit *test)
{
	mstat_core_destroy(test->priv);
}

static void mstat_core_init_bad_size(struct kunit *test)
{
	struct mstat_core *core = kunit_kzalloc(test, sizeof(*core), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, core);
	KUNIT_EXPECT_EQ(test, mstat_core_init(core, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mstat_core_init(core, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, mstat_core_init(core, SZ_1M), -EINVAL);
	/* Two slots of 16 KiB and the sequence words: over a per-CPU piece. */
	KUNIT_EXPECT_EQ(test, mstat_core_init(core, PCPU_MIN_UNIT_SIZE / 2),
			-EINVAL);
}

static void mstat_read_untouched(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct mstat_snapshot snap;
	struct test_stats st, zero = { };
	int cpu;

	memset(&st, 0xa5, sizeof(st));
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, snap.gen, 1ULL);
	KUNIT_EXPECT_EQ(test, snap.waited_cpus, 0U);
	KUNIT_EXPECT_EQ(test, memcmp(&st, &zero, sizeof(st)), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_FALSE(test, mstat_cpu_in_section(core, cpu));
}

static void mstat_write_single_cpu(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct mstat_snapshot snap;
	struct test_stats st;
	int i;

	for (i = 1; i <= 10; i++)
		test_write(core, i, false);
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, 55ULL);
	KUNIT_EXPECT_EQ(test, st.n, 10ULL);
	KUNIT_EXPECT_EQ(test, st.irq, 0ULL);
	expect_paired(test, &st);

	/* Cumulative: a second read without writes sees the same. */
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, snap.gen, 2ULL);
	KUNIT_EXPECT_EQ(test, st.a, 55ULL);
	KUNIT_EXPECT_EQ(test, st.n, 10ULL);
}

static void mstat_read_many_generations(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct mstat_snapshot snap;
	struct test_stats st;
	unsigned int slot, prev_slot = mstat_cur_slot(core);
	struct mstat_history *h;
	int i;

	/* Each read in the default mode takes a grace period: keep it short. */
	for (i = 1; i <= 200; i++) {
		test_write(core, 3, false);
		KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
		KUNIT_ASSERT_EQ(test, snap.gen, (u64)i);
		KUNIT_ASSERT_EQ(test, st.n, (u64)i);
		KUNIT_ASSERT_EQ(test, st.a, 3ULL * i);
		slot = mstat_cur_slot(core);
		KUNIT_ASSERT_NE(test, slot, prev_slot);
		prev_slot = slot;
	}
	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_EQ(test, mstat_history_get(core, h), 0);
	KUNIT_EXPECT_EQ(test, h->nr_reads, 200ULL);
	KUNIT_EXPECT_EQ(test, mstat_generation(core), 200ULL);
}

static void mstat_read_folds_and_clears(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	unsigned int old = mstat_cur_slot(core), w;
	struct mstat_snapshot snap;
	struct test_stats st;
	int cpu;

	test_write(core, 7, false);
	cpu = get_cpu();
	KUNIT_EXPECT_EQ(test, mstat_cpu_slot_word(core, cpu, old, 0), 7ULL);
	put_cpu();

	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, 7ULL);
	/* Only the CPU that ran a section is folded... */
	KUNIT_EXPECT_EQ(test, snap.folded_cpus, 1U);
	for_each_possible_cpu(cpu)
		for (w = 0; w < sizeof(st) / sizeof(u64); w++)
			KUNIT_EXPECT_EQ_MSG(test,
					    mstat_cpu_slot_word(core, cpu, old, w),
					    0ULL, "cpu %d word %u", cpu, w);
	/* ...and, with no section since, none, the totals kept. */
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, snap.folded_cpus, 0U);
	KUNIT_EXPECT_EQ(test, st.a, 7ULL);
	/* Out-of-range raw reads are refused, not overrun. */
	KUNIT_EXPECT_EQ(test, mstat_cpu_slot_word(core, 0, 2, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, mstat_cpu_slot_word(core, 0, 0, 99), 0ULL);
}

static void mstat_reset_clears(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct mstat_snapshot snap;
	struct test_stats st;

	test_write(core, 5, false);
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, 5ULL);
	test_write(core, 6, false);
	KUNIT_ASSERT_EQ(test, mstat_reset(core), 0);
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, 0ULL);
	KUNIT_EXPECT_EQ(test, st.n, 0ULL);
	test_write(core, 2, false);
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, 2ULL);
}

/* A writer nested in hard interrupt context on the CPU of an open section. */
struct nest_ctx {
	struct irq_work work;
	struct mstat_core *core;
	int cpu;
	bool ran;
	bool in_hardirq;
	bool busy_after;	/* outer section still seen as open */
	unsigned long depth_inside;
};

static void nest_irq_work(struct irq_work *work)
{
	struct nest_ctx *ctx = container_of(work, struct nest_ctx, work);
	struct mstat_section s;

	ctx->in_hardirq = in_hardirq();
	mstat_write_begin(ctx->core, &s);
	ctx->depth_inside = mstat_cpu_seq(ctx->core, ctx->cpu) &
			    MSTAT_SEQ_DEPTH_MASK;
	TADD(&s, a, 100);
	TADD(&s, neg, -100);
	TADD(&s, n, 1);
	TADD(&s, irq, 1);
	TADD(&s, b, 100);
	mstat_write_end(ctx->core, &s);
	ctx->busy_after = mstat_cpu_in_section(ctx->core, ctx->cpu);
	WRITE_ONCE(ctx->ran, true);
}

/*
 * A section nested in an interrupt: counted whole in every mode. Its
 * sequence word, kept only in IPI mode (this core's: nothing else in a
 * KUnit run holds the words on), shows the nesting there and is left
 * alone in the RCU modes.
 */
static void mstat_write_nested_in_irq(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct nest_ctx ctx = { .core = core };
	unsigned long seq_before, seq_after, timeout;
	struct mstat_snapshot snap;
	bool queued, kept;
	struct mstat_section s;
	struct test_stats st;

	kept = static_key_enabled(&mstat_seq_key);
	KUNIT_ASSERT_EQ(test, kept, mstat_get_sync(core) == MSTAT_SYNC_IPI);
	init_irq_work(&ctx.work, nest_irq_work);

	preempt_disable();
	ctx.cpu = smp_processor_id();
	seq_before = mstat_cpu_seq(core, ctx.cpu);
	mstat_write_begin(core, &s);
	TADD(&s, a, 1);
	TADD(&s, neg, -1);
	/* Interrupts are on: the irq_work fires on this CPU, mid-section. */
	queued = irq_work_queue(&ctx.work);
	timeout = jiffies + 5 * HZ;
	while (!READ_ONCE(ctx.ran) && time_before(jiffies, timeout))
		cpu_relax();
	TADD(&s, n, 1);
	TADD(&s, b, 1);
	mstat_write_end(core, &s);
	seq_after = mstat_cpu_seq(core, ctx.cpu);
	preempt_enable();
	irq_work_sync(&ctx.work);

	/* No KUnit assertion inside the section: preemption is off there. */
	KUNIT_ASSERT_TRUE(test, queued);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(ctx.ran));
	KUNIT_EXPECT_TRUE(test, ctx.in_hardirq);
	KUNIT_EXPECT_EQ(test, ctx.depth_inside, kept ? 2UL : 0UL);
	/* Go's odd/even counter would show the CPU idle here. */
	KUNIT_EXPECT_EQ(test, ctx.busy_after, kept);
	/* Only the outermost end counts a completed section. */
	KUNIT_EXPECT_EQ(test, seq_after - seq_before,
			kept ? MSTAT_SEQ_COUNT_ONE : 0UL);

	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, 101ULL);
	KUNIT_EXPECT_EQ(test, st.n, 2ULL);
	KUNIT_EXPECT_EQ(test, st.irq, 1ULL);
	expect_paired(test, &st);
}

/*
 * mstat_write_end_cold() ends a section as mstat_write_end() does, from
 * the depth alone: a section nested in the same context, then the outer
 * one, each ended cold; then a pair ended the two ways in turn. In IPI
 * mode, where the sequence words are kept.
 */
static void mstat_write_end_cold_same(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	unsigned long seq0, inner_depth, mid, seq1, seq2;
	bool inner_busy, outer_busy;
	struct mstat_snapshot snap;
	struct mstat_section o, i;
	struct test_stats st;
	int cpu;

	KUNIT_ASSERT_EQ(test, mstat_set_sync(core, MSTAT_SYNC_IPI), 0);
	preempt_disable();
	cpu = smp_processor_id();
	seq0 = mstat_cpu_seq(core, cpu);
	mstat_write_begin(core, &o);
	TADD(&o, a, 1);
	TADD(&o, neg, -1);
	mstat_write_begin(core, &i);
	TADD(&i, a, 2);
	TADD(&i, neg, -2);
	TADD(&i, b, 2);
	mstat_write_end_cold(core);
	inner_depth = mstat_cpu_seq(core, cpu) & MSTAT_SEQ_DEPTH_MASK;
	inner_busy = mstat_cpu_in_section(core, cpu);
	mid = mstat_cpu_seq(core, cpu);
	TADD(&o, b, 1);
	mstat_write_end_cold(core);
	outer_busy = mstat_cpu_in_section(core, cpu);
	seq1 = mstat_cpu_seq(core, cpu);
	/* Begun as usual, nested one ended cold, the outer one not. */
	mstat_write_begin(core, &o);
	mstat_write_begin(core, &i);
	TADD(&i, n, 1);
	mstat_write_end_cold(core);
	TADD(&o, n, 1);
	mstat_write_end(core, &o);
	seq2 = mstat_cpu_seq(core, cpu);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, inner_depth, 1UL);
	KUNIT_EXPECT_TRUE(test, inner_busy);
	/* Only the outermost end counts a completed section. */
	KUNIT_EXPECT_EQ(test, mid - seq0, 1UL);
	KUNIT_EXPECT_FALSE(test, outer_busy);
	KUNIT_EXPECT_EQ(test, seq1 - seq0, MSTAT_SEQ_COUNT_ONE);
	KUNIT_EXPECT_EQ(test, seq2 - seq1, MSTAT_SEQ_COUNT_ONE);

	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, 3ULL);
	KUNIT_EXPECT_EQ(test, st.n, 2ULL);
	expect_paired(test, &st);
}

/* An unknown mode is refused, and the mode in use stays. */
static void mstat_set_sync_bad(struct kunit *test)
{
	struct mstat_core *core = test->priv;

	KUNIT_EXPECT_EQ(test, mstat_set_sync(core, MSTAT_NR_SYNC), -EINVAL);
	KUNIT_EXPECT_EQ(test, mstat_set_sync(core, -1U), -EINVAL);
	KUNIT_EXPECT_EQ(test, mstat_get_sync(core), MSTAT_SYNC_RCU);
	KUNIT_EXPECT_EQ(test, mstat_set_sync(core, MSTAT_SYNC_IPI), 0);
	KUNIT_EXPECT_EQ(test, mstat_get_sync(core), MSTAT_SYNC_IPI);
}

/* One section on this CPU: how much it moved the CPU's sequence word. */
static unsigned long one_section_seq(struct mstat_core *core)
{
	struct mstat_section s;
	unsigned long before, after;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	before = mstat_cpu_seq(core, cpu);
	mstat_write_begin(core, &s);
	TADD(&s, n, 1);
	mstat_write_end(core, &s);
	after = mstat_cpu_seq(core, cpu);
	preempt_enable();
	return after - before;
}

/*
 * The sequence words follow IPI mode: off in the RCU modes (a section
 * leaves its word alone), on in IPI mode, off again after it with every
 * word at depth 0. Nothing else in a KUnit run holds them on.
 */
static void mstat_seq_words_follow_ipi(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct test_stats st;
	struct mstat_snapshot snap;
	int c;

	KUNIT_ASSERT_FALSE(test, static_key_enabled(&mstat_seq_key));
	KUNIT_EXPECT_EQ(test, one_section_seq(core), 0UL);

	KUNIT_ASSERT_EQ(test, mstat_set_sync(core, MSTAT_SYNC_IPI), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&mstat_seq_key));
	KUNIT_EXPECT_EQ(test, one_section_seq(core), MSTAT_SEQ_COUNT_ONE);

	KUNIT_ASSERT_EQ(test, mstat_set_sync(core, MSTAT_SYNC_RCU), 0);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&mstat_seq_key));
	for_each_possible_cpu(c)
		KUNIT_EXPECT_FALSE(test, mstat_cpu_in_section(core, c));
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.n, 2ULL);
}

/* A reader that must wait for a section held open on another CPU. */
struct wait_ctx {
	struct mstat_core *core;
	struct mstat_snapshot snap;
	struct test_stats st;
	int err;
	struct completion done;
};

static int wait_reader(void *arg)
{
	struct wait_ctx *ctx = arg;

	ctx->err = mstat_read(ctx->core, &ctx->snap, &ctx->st);
	complete(&ctx->done);
	return 0;
}

static void mstat_read_waits_for_open_section(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct task_struct *t;
	struct mstat_section s;
	unsigned long timeout;
	struct wait_ctx *ctx;
	unsigned int slot;
	int cpu, other;
	bool early;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two online CPUs");
	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->core = core;
	init_completion(&ctx->done);

	t = kthread_create(wait_reader, ctx, "mstat-kunit-reader");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	/* Stay on this CPU, and put the reader on another. */
	migrate_disable();
	cpu = smp_processor_id();
	other = cpumask_any_but(cpu_online_mask, cpu);
	kthread_bind(t, other);

	slot = mstat_cur_slot(core);
	mstat_write_begin(core, &s);
	TADD(&s, a, 9);
	TADD(&s, neg, -9);
	wake_up_process(t);
	/*
	 * Hold the section open, interrupts on so that IPIs land, until
	 * the reader has flipped the slot (a slow emulated CPU may take a
	 * while to start it), then long enough for its vCPU, which the host
	 * may preempt, to reach its check of this CPU.
	 */
	timeout = jiffies + 10 * HZ;
	while (mstat_cur_slot(core) == slot && time_before(jiffies, timeout))
		cpu_relax();
	timeout = jiffies + HZ;
	while (time_before(jiffies, timeout) && !completion_done(&ctx->done))
		cpu_relax();
	early = completion_done(&ctx->done);
	TADD(&s, n, 1);
	TADD(&s, b, 9);
	mstat_write_end(core, &s);
	migrate_enable();

	KUNIT_EXPECT_FALSE(test, early);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&ctx->done, 10 * HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, ctx->err, 0);
	/* Seen open by the words in IPI mode; the RCU modes keep none. */
	if (mstat_get_sync(core) == MSTAT_SYNC_IPI)
		KUNIT_EXPECT_GE(test, ctx->snap.waited_cpus, 1U);
	else
		KUNIT_EXPECT_EQ(test, ctx->snap.waited_cpus, 0U);
	KUNIT_EXPECT_GT(test, ctx->snap.wait_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, ctx->st.a, 9ULL);
	expect_paired(test, &ctx->st);
}

/* Writers on every CPU, an hrtimer writer, and a reader rotating. */
struct conc_writer {
	struct mstat_core *core;
	struct task_struct *task;
	u64 a;
	u64 n;
	bool stop;
};

struct conc_timer {
	struct hrtimer timer;
	struct mstat_core *core;
	atomic64_t a;
	atomic64_t n;
	bool stop;
};

static int conc_write_fn(void *arg)
{
	struct conc_writer *w = arg;
	u64 k = 1;

	while (!READ_ONCE(w->stop)) {
		test_write(w->core, k, false);
		WRITE_ONCE(w->a, w->a + k);
		WRITE_ONCE(w->n, w->n + 1);
		k = k % 251 + 1;
		cond_resched();
	}
	return 0;
}

static enum hrtimer_restart conc_timer_fn(struct hrtimer *timer)
{
	struct conc_timer *ct = container_of(timer, struct conc_timer, timer);

	test_write(ct->core, 1000, true);
	atomic64_add(1000, &ct->a);
	atomic64_inc(&ct->n);
	if (READ_ONCE(ct->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void mstat_read_concurrent_writers(struct kunit *test)
{
	struct mstat_core *core = test->priv;
	struct test_stats st, prev = { };
	struct mstat_snapshot snap;
	struct conc_writer *w;
	struct conc_timer *ct;
	unsigned long timeout;
	u64 sum_a = 0, sum_n = 0, reads = 0;
	int cpu, nw = 0, i, err;

	w = kunit_kcalloc(test, nr_cpu_ids, sizeof(*w), GFP_KERNEL);
	ct = kunit_kzalloc(test, sizeof(*ct), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, ct);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		w[nw].core = core;
		w[nw].task = kthread_create_on_cpu(conc_write_fn, &w[nw], cpu,
						   "mstat-kunit-w/%u");
		if (!IS_ERR(w[nw].task))
			wake_up_process(w[nw++].task);
	}
	cpus_read_unlock();
	KUNIT_ASSERT_GT(test, nw, 0);

	ct->core = core;
	mstat_hrtimer_setup(&ct->timer, conc_timer_fn, CLOCK_MONOTONIC,
			    HRTIMER_MODE_REL);
	hrtimer_start(&ct->timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL);

	/*
	 * Bounded by time, not by a count: emulated CPUs are slow. EXPECT
	 * and stop, never ASSERT: an ASSERT would leave this case with the
	 * writers and the timer running on its memory.
	 */
	timeout = jiffies + 2 * HZ;
	while (time_before(jiffies, timeout)) {
		bool torn;

		err = mstat_read(core, &snap, &st);
		KUNIT_EXPECT_EQ(test, err, 0);
		if (err)
			break;
		reads++;
		torn = st.a != st.b || (s64)st.a + st.neg != 0 ||
		       st.a < prev.a || st.n < prev.n || st.irq < prev.irq;
		if (torn) {
			expect_paired(test, &st);
			KUNIT_EXPECT_GE(test, st.a, prev.a);
			KUNIT_EXPECT_GE(test, st.n, prev.n);
			KUNIT_EXPECT_GE(test, st.irq, prev.irq);
			break;
		}
		prev = st;
	}

	WRITE_ONCE(ct->stop, true);
	hrtimer_cancel(&ct->timer);
	for (i = 0; i < nw; i++) {
		WRITE_ONCE(w[i].stop, true);
		kthread_stop(w[i].task);
		sum_a += w[i].a;
		sum_n += w[i].n;
	}
	sum_a += atomic64_read(&ct->a);
	sum_n += atomic64_read(&ct->n);

	/* Quiescent: exact conservation. */
	KUNIT_ASSERT_EQ(test, mstat_read(core, &snap, &st), 0);
	KUNIT_EXPECT_EQ(test, st.a, sum_a);
	KUNIT_EXPECT_EQ(test, st.n, sum_n);
	KUNIT_EXPECT_EQ(test, st.irq, (u64)atomic64_read(&ct->n));
	expect_paired(test, &st);
	KUNIT_EXPECT_GT(test, reads, 10ULL);
	kunit_info(test, "%d writers, %llu sections (%llu in hardirq), %llu reads",
		   nw, st.n, st.irq, reads);
}

static struct kunit_case mstat_core_cases[] = {
	KUNIT_CASE(mstat_core_init_bad_size),
	KUNIT_CASE(mstat_read_untouched),
	KUNIT_CASE(mstat_write_single_cpu),
	KUNIT_CASE(mstat_read_many_generations),
	KUNIT_CASE(mstat_reset_clears),
	KUNIT_CASE(mstat_write_end_cold_same),
	KUNIT_CASE(mstat_set_sync_bad),
	KUNIT_CASE(mstat_seq_words_follow_ipi),
	KUNIT_CASE_PARAM(mstat_read_folds_and_clears, sync_mode_gen_params),
	KUNIT_CASE_PARAM(mstat_write_nested_in_irq, sync_mode_gen_params),
	MSTAT_KUNIT_CASE_PARAM_SLOW(mstat_read_waits_for_open_section,
				    sync_mode_gen_params),
	MSTAT_KUNIT_CASE_PARAM_SLOW(mstat_read_concurrent_writers,
				    sync_mode_gen_params),
	{}
};

static struct kunit_suite mstat_core_suite = {
	.name = "mstat_core",
	.suite_init = test_suite_init,
	.init = test_init,
	.exit = test_exit,
	.test_cases = mstat_core_cases,
};

kunit_test_suite(mstat_core_suite);

MODULE_LICENSE("GPL");
MSTAT_IMPORT_INTERNAL_NS();
MODULE_DESCRIPTION("KUnit tests for mstat_core");
