// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_core - consistent snapshots of per-CPU statistics
 *
 * The guarantee and the usage are in mstat_core.h, with the writers'
 * inline side (mstat_write_begin(), mstat_add(), mstat_write_end()). This
 * file is the reader side, the rotation, the wait for open sections and
 * the fold, and the argument that they give a cut: the overview here,
 * each step's at its function (mstat_wait_rcu(), mstat_wait_ipi() and
 * the sequence word at mstat_seq_done(), mstat_fold(), __mstat_rotate()).
 *
 * It uses only a small kernel API (per-CPU memory, RCU, cross calls, a
 * mutex, the hotplug lock) so that the same file compiles in userspace behind
 * the shim headers of tests/userspace/shim.
 *
 * The rotation
 * ============
 *
 * Each CPU has a sequence word and two slots of deltas. Writers add into
 * the slot that the global pointer ->cur names; the reader flips ->cur,
 * waits until no section that may have loaded the old value is still
 * open, then folds the old slot of every possible CPU into the
 * reader-private totals and clears it::
 *
 *	          writers add here          reader folds, clears
 *	               |                            |
 *	gen N:   [ slot 0 ] [ slot 1 ]  ->   [ slot 0 ] [ slot 1 ]  gen N+1
 *	          ^cur                                  ^cur
 *
 * Go's runtime (consistentHeapStats) needs three slots because the ring
 * itself holds the cumulative values: one slot is written, one holds the
 * latest totals, one is kept clear for the next rotation. Here the totals
 * live outside the ring, and the reader folds and clears the old slot
 * before it drops the mutex, so the next rotation always finds it clear:
 * two slots suffice, which halves the per-CPU footprint and the fold.
 *
 * Waiting for writers
 * ===================
 *
 * The writer does "store seq; load ->cur; store slot; store seq", the
 * reader "store ->cur; ...; load slot". Per-CPU operations are not
 * barriers, so the reader cannot simply look at the sequence words: the
 * first pair is the store-buffering pattern (a writer can load the old
 * ->cur while the reader still reads its sequence word from before the
 * section), the second is message passing with nothing on the writer
 * side (the slot stores may become visible after the closing sequence
 * store). mstat puts the whole cost of ordering on the reader, which is
 * rare, and keeps writers at compiler barriers. The reader has three
 * ways (&enum mstat_sync, chosen per core and switchable between reads):
 * an RCU grace period, an expedited one (mstat_wait_rcu()), or two rounds
 * of IPIs (mstat_wait_ipi()).
 *
 * Writers pay preempt_disable(), a this_cpu_read(), two this_cpu_add()s,
 * a load of ->cur, the mark's store and preempt_enable() per section, in
 * every mode. The alternative, a full barrier in every writer, costs a
 * fence per allocation event, a multiple of the whole section.
 *
 * Offline CPUs have no open section (sections run with preemption off,
 * which holds off stop_machine()) but keep their slots: the fold covers
 * every possible CPU. The arguments here and at the functions below are
 * checked with the Linux-kernel memory model by the litmus tests of mstat_core/litmus/:
 * rotation-*.litmus to read, and the exhaustive families that its gen.py
 * writes into build/litmus/ when the tests run, rcu+irq-at-*.litmus (a
 * nested interrupt section at every point of a section) and
 * ipi+ipi-at-*.litmus (the first IPI at every point of a section, with
 * and without a nested section), each with two counters per section and
 * all "Never"; and the broken variants broken-*.litmus, among them the
 * earlier IPI design, all "Sometimes". The slot the flip hands to
 * writers was cleared by the fold that last used it; the flip is a
 * release, so a section that loads the new ->cur adds to the cleared
 * counters (address dependency; reuse.litmus, and broken-reuse-once.litmus
 * without the release).
 */
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "mstat_core.h"

/*
 * How the core exports its functions. The core does not know it is in a
 * module: mstat's Kbuild compiles this file with mstat_compat.h included
 * first, whose EXPORT_SYMBOL_MSTAT_INTERNAL() puts them in the
 * MSTAT_INTERNAL namespace, in the form the target kernel takes.
 * Elsewhere (the shim of tests/userspace), a plain export.
 */
#ifndef EXPORT_SYMBOL_MSTAT_INTERNAL
#define EXPORT_SYMBOL_MSTAT_INTERNAL(sym)	EXPORT_SYMBOL_GPL(sym)
#endif

/*
 * The writers' sequence words, kept only while some core reads them: in
 * %MSTAT_SYNC_IPI mode. mstat_seq_lock serializes the keys' switches and
 * guards mstat_seq_users (the cores holding them on,
 * &mstat_core.seq_held).
 */
DEFINE_STATIC_KEY_FALSE(mstat_seq_key);
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_seq_key);
DEFINE_STATIC_KEY_FALSE(mstat_seq_end_key);
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_seq_end_key);
static DEFINE_MUTEX(mstat_seq_lock);
static unsigned int mstat_seq_users;

/* Polls of a CPU's sequence word before the reader starts to sleep. */
#define MSTAT_WAIT_SPINS	256
/* Sleep between polls once spinning has not helped, in microseconds. */
#define MSTAT_WAIT_SLEEP_MIN_US	20
#define MSTAT_WAIT_SLEEP_MAX_US	100

const char *const mstat_sync_name[MSTAT_NR_SYNC] = {
	[MSTAT_SYNC_RCU]		= "rcu",
	[MSTAT_SYNC_RCU_EXPEDITED]	= "rcu_expedited",
	[MSTAT_SYNC_IPI]		= "ipi",
};
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_sync_name);

/*
 * Slot @i of every CPU: its counters, after its mark (see mstat_fold()).
 */
static u64 __percpu *mstat_slot_ptr(struct mstat_core *core, unsigned int i)
{
	return &core->pcpu->slot[i * (core->nwords + 1) + 1];
}

/* Number of possible CPUs whose sequence word shows an open section. */
static unsigned int mstat_count_busy(struct mstat_core *core)
{
	unsigned int busy = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		busy += mstat_cpu_in_section(core, cpu);
	return busy;
}

/*
 * The RCU modes: flip, then wait for a grace period. Every section is a
 * preempt-disabled region, so one that may have loaded the old ->cur has
 * ended, its stores visible here, when synchronize_rcu() returns.
 *
 * %MSTAT_SYNC_RCU (the default): flip ->cur, then synchronize_rcu().
 *   Every section is a preempt-disabled region, which since the RCU
 *   flavour consolidation (v4.20) is an RCU read-side critical section
 *   for synchronize_rcu(), on PREEMPT_RCU and PREEMPT_RT kernels too
 *   (Documentation/RCU/Design/Requirements/Requirements.rst, "Consolidated
 *   RCU"). RCU's grace-period guarantee: a section that is not entirely
 *   after the start of the grace period (so it may have loaded the old
 *   ->cur) ends before synchronize_rcu() returns, with all its stores
 *   visible to the reader; a section that is not entirely before its end
 *   begins after the store of ->cur and loads the new value. That is
 *   the cut, for any number of counters per section and any nesting: the
 *   sequence words are not read at all. No CPU is interrupted: idle and
 *   nohz_full CPUs are quiescent for RCU as they are. A read takes a
 *   grace period, milliseconds.
 *
 * %MSTAT_SYNC_RCU_EXPEDITED: the same with synchronize_rcu_expedited(),
 *   the same guarantee (the memory model does not tell them apart). RCU
 *   interrupts the CPUs that are not idle or in nohz_full user mode,
 *   then waits for the sections it found. Tens to hundreds of
 *   microseconds.
 *
 * Litmus: mstat_core/litmus/rotation-rcu*.litmus, and gen.py's
 * rcu+irq-at-*.litmus for every point of a section.
 * Context: process, core->lock held. Return: CPUs seen in a section at
 * the flip (a racy sample, for the statistics only).
 */
static unsigned int mstat_wait_rcu(struct mstat_core *core, unsigned int new)
{
	unsigned int busy;

	/*
	 * 1. Writers that begin from here on see the other slot... Release:
	 * they also see it cleared by the fold that last used it. Pairs with
	 * the address dependency of mstat_add() on the READ_ONCE() of ->cur
	 * in mstat_write_begin() (reuse.litmus).
	 */
	smp_store_release(&core->cur, mstat_slot_ptr(core, new));
	busy = mstat_count_busy(core);
	if (core->broken == MSTAT_BROKEN_NOWAIT)
		return busy;

	/*
	 * 2. ...and those that may not have are over once a grace period
	 * has elapsed. Pairs with the preempt_disable_notrace() and
	 * barrier()s in mstat_write_begin() and mstat_write_end().
	 */
	if (core->sync == MSTAT_SYNC_RCU_EXPEDITED)
		synchronize_rcu_expedited();
	else
		synchronize_rcu();
	return busy;
}

/*
 * First IPI round: run on every online CPU, between two instructions of
 * whatever it was doing. Record the CPU's sequence word as it is at that
 * point, for the reader.
 */
static void mstat_ipi_look(void *arg)
{
	struct mstat_core *core = arg;

	/*
	 * Loads of ->cur after this see the new slot, and the slot stores
	 * of sections that ended before this point are visible to the
	 * reader once it sees this handler complete. Pairs with smp_mb() in
	 * mstat_wait_ipi() and with the barrier()s in mstat_write_begin()
	 * and mstat_write_end().
	 */
	smp_mb();
	this_cpu_write(core->pcpu->ipi_seq, this_cpu_read(core->pcpu->seq));
}

/*
 * Second IPI round: the sections the reader waited for have ended on
 * this CPU; publish the slot stores they made after mstat_ipi_look().
 */
static void mstat_ipi_publish(void *unused)
{
	/*
	 * Orders the slot stores of this CPU's ended sections before the
	 * completion of the cross call, which the reader acquires. Pairs
	 * with the barrier() in mstat_write_end().
	 */
	smp_mb();
}

/*
 * The sequence word and nesting: whether the outermost section open when
 * a CPU's word read @first is over, the word reading @now.
 *
 * Go's per-P counter is odd while a writer is inside. An interrupt that
 * nests into an open section would flip it back to even, and a reader
 * would take a CPU with an open section for idle. So the word is split::
 *
 *	 BITS_PER_LONG-1             8 7        0
 *	+-------------------------------+----------+
 *	| outermost sections completed  |  depth   |
 *	+-------------------------------+----------+
 *
 * mstat_write_begin() adds 1 to the depth; mstat_write_end() reads it
 * (an interrupt that landed in between ran whole sections and left the
 * depth as it found it, so the depth read is the section's own + 1: 1
 * for the outermost), then subtracts 1 from it and, for the outermost
 * section only, adds 1 to the count, in one interrupt-safe
 * this_cpu_add(). Two this_cpu operations, cheaper than one
 * this_cpu_add_return(), an xadd on x86. The words are kept only while
 * the IPI mode may read them (mstat_seq_get() below). Sections on a CPU
 * are properly nested (interrupts return before the code they
 * interrupted resumes, and preemption is off: on PREEMPT_RT, and on
 * kernels whose tracepoint probes run with only migration disabled, a
 * preemptible section could interleave with another task's on the same
 * CPU, which the word cannot tell from nesting), so every section open at
 * some point of a CPU's execution is inside the outermost one open then;
 * once the word shows depth 0 or a different count, that outermost
 * section and all it contained are over. The count also keeps a waiter
 * from starving on a CPU that is rarely at depth 0.
 */
static bool mstat_seq_done(unsigned long first, unsigned long now)
{
	return !(now & MSTAT_SEQ_DEPTH_MASK) ||
	       (now >> MSTAT_SEQ_DEPTH_BITS) != (first >> MSTAT_SEQ_DEPTH_BITS);
}

/*
 * Wait until the outermost section open on @cpu when its sequence word
 * read @first, and so every section nested in it, is over. Return true if
 * there was one to wait for.
 */
static bool mstat_wait_cpu(struct mstat_core *core, int cpu,
			   unsigned long first)
{
	unsigned long *seqp = &per_cpu_ptr(core->pcpu, cpu)->seq;
	unsigned int polls = 0;

	if (!(first & MSTAT_SEQ_DEPTH_MASK))
		return false;

	while (!mstat_seq_done(first, READ_ONCE(*seqp))) {
		if (++polls < MSTAT_WAIT_SPINS)
			cpu_relax();
		else
			usleep_range(MSTAT_WAIT_SLEEP_MIN_US,
				     MSTAT_WAIT_SLEEP_MAX_US);
	}
	return true;
}

/*
 * The IPI mode: flip, an IPI round that records where every CPU is, a
 * wait for the sections open then, and a second round if there were any.
 *
 * %MSTAT_SYNC_IPI: flip ->cur; smp_mb() (pairs with the handler's);
 *   an IPI to every online CPU whose handler does smp_mb() and records
 *   the CPU's own sequence word as it is at the interrupted instruction.
 *   Everything the CPU does after the handler, including any load of
 *   ->cur, sees the new slot (the reader's smp_mb() before sending pairs
 *   with the handler's).
 *   Everything it did before is published to the reader by the
 *   handler's smp_mb() and the cross call's completion (release in the
 *   handler's return, acquire in the waiting reader). A CPU whose
 *   recorded word showed an open section may have loaded the old ->cur
 *   and not added yet: the reader waits until its word shows that
 *   section over, then runs a second IPI round, whose smp_mb(), which
 *   pairs with the barrier() in mstat_write_end(), after the section's
 *   end on that CPU, publishes the slot stores the section made after
 *   the first handler. The handler, not the reader, reads the
 *   word: a section open at the first IPI that closes before the reader
 *   could look must still get the second round (the earlier design read
 *   the words from the reader and missed it on weakly ordered CPUs). The
 *   CPU hotplug lock is held across the rotation, so that no CPU comes
 *   online between the flip and the IPIs unordered. Lowest latency, but
 *   interrupts every online CPU, idle and isolated ones included, on
 *   every read.
 *
 * Litmus: mstat_core/litmus/rotation-ipi*.litmus, and gen.py's
 * ipi+ipi-at-*.litmus for every point of a section.
 * Context: process, core->lock held. Return: the CPUs waited for.
 */
static unsigned int mstat_wait_ipi(struct mstat_core *core, unsigned int new)
{
	unsigned int waited = 0;
	struct mstat_pcpu *p;
	int cpu;

	/* No CPU comes online between the flip and the IPIs. */
	cpus_read_lock();

	/*
	 * 1. Writers that begin after the IPI see the other slot, cleared:
	 * release, as in mstat_wait_rcu(). Pairs with the address dependency
	 * on the READ_ONCE() of ->cur in mstat_write_begin().
	 */
	smp_store_release(&core->cur, mstat_slot_ptr(core, new));
	if (core->broken == MSTAT_BROKEN_NOSYNC) {
		for_each_online_cpu(cpu) {
			p = per_cpu_ptr(core->pcpu, cpu);
			WRITE_ONCE(p->ipi_seq, READ_ONCE(p->seq));
		}
	} else {
		/*
		 * Order the store of ->cur before every CPU takes the IPI.
		 * Pairs with smp_mb() in mstat_ipi_look().
		 */
		smp_mb();
		on_each_cpu(mstat_ipi_look, core, 1);
	}

	/* 2. Wait out the sections that were open at the IPI. */
	if (core->broken != MSTAT_BROKEN_NOWAIT) {
		for_each_online_cpu(cpu) {
			p = per_cpu_ptr(core->pcpu, cpu);
			waited += mstat_wait_cpu(core, cpu, READ_ONCE(p->ipi_seq));
		}
	}

	/* 3. Publish the slot stores of the sections waited for. */
	if (waited && core->broken != MSTAT_BROKEN_NOSYNC)
		on_each_cpu(mstat_ipi_publish, NULL, 1);
	cpus_read_unlock();
	return waited;
}

/*
 * Fold the slot @old of every possible CPU that marked it into the
 * totals, and clear it, mark and counters. A slot with no mark had no
 * section since its last fold, and is clear: skipped. Return: the slots
 * folded.
 *
 * What a fold reads: a slot starts with a mark word, which
 * mstat_write_begin() sets to 1 through the pointer it loaded from ->cur,
 * before any mstat_add(). The fold reads a CPU's mark first and skips the
 * slot if it is 0, and clears the mark with the counters. This is sound
 * for the reason the fold is: the mark is one more store of the section
 * into its slot, and every mode's wait makes all the stores of a section
 * that loaded the old ->cur visible to the fold (the litmus tests' "both
 * adds or neither, never lost"); so a mark read as 0 means no section
 * added to that slot since its last fold, which left it clear.
 * rotation-rcu-mark.litmus and rotation-ipi-mark.litmus check it as the
 * reader does it, the mark read first and the counters only if it is set;
 * broken-rcu-mark-nogp.litmus without the grace period. A read then costs
 * the same few instructions for every possible CPU that ran no section
 * since the last one (a machine's hotplug slots that never came online,
 * idle CPUs), and the full fold only for the others.
 */
static unsigned int mstat_fold(struct mstat_core *core, unsigned int old)
{
	unsigned int i, n = core->nwords, folded = 0;
	u64 *total = core->total;
	int cpu;

	for_each_possible_cpu(cpu) {
		u64 *slot = per_cpu_ptr(mstat_slot_ptr(core, old), cpu);

		/*
		 * Every section that added to @old stored its mark there
		 * first, and the wait made all its stores visible here.
		 * Litmus: mstat_core/litmus/rotation-*-mark.litmus.
		 */
		if (!READ_ONCE(slot[-1]))
			continue;
		WRITE_ONCE(slot[-1], 0);
		for (i = 0; i < n; i++) {
			total[i] += READ_ONCE(slot[i]);
			WRITE_ONCE(slot[i], 0);
		}
		folded++;
	}
	return folded;
}

/**
 * mstat_cur_slot() - which slot writers add into now
 * @core: the core
 *
 * Return: 0 or 1.
 */
unsigned int mstat_cur_slot(struct mstat_core *core)
{
	return READ_ONCE(core->cur) != mstat_slot_ptr(core, 0);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_cur_slot);

/*
 * Flip the slot, wait for the sections that may still use the old one,
 * fold it. Context: process, core->lock held.
 *
 * NOTE: a reader never returns a torn snapshot: once it has flipped
 * ->cur it waits as long as it takes, and a section held open (a vCPU
 * preempted by its host) delays every mode. In %MSTAT_SYNC_IPI mode the
 * wait spins briefly, then sleeps between checks. The wait's duration
 * and the CPUs seen in a section at the flip are recorded.
 */
static void __mstat_rotate(struct mstat_core *core, struct mstat_snapshot *snap)
{
	unsigned int old = mstat_cur_slot(core);
	unsigned int waited;
	u64 start, end;

	start = ktime_get_ns();
	if (core->sync == MSTAT_SYNC_IPI)
		waited = mstat_wait_ipi(core, !old);
	else
		waited = mstat_wait_rcu(core, !old);
	end = ktime_get_ns();

	/* Nobody adds to the old slot now: fold and clear it. */
	snap->folded_cpus = mstat_fold(core, old);
	if (core->fold_hook)
		core->fold_hook(core, old);

	WRITE_ONCE(core->gen, core->gen + 1);
	snap->gen = core->gen;
	snap->wait_ns = end - start;
	snap->waited_cpus = waited;
	snap->latency_ns = ktime_get_ns() - start;
}

static void mstat_account_read(struct mstat_core *core,
			       const struct mstat_snapshot *snap)
{
	struct mstat_history *h = &core->hist;
	unsigned int i = h->nr_reads % MSTAT_HISTORY;

	h->nr_reads++;
	h->wait_total_ns += snap->wait_ns;
	h->waited_cpus_total += snap->waited_cpus;
	if (snap->wait_ns > h->wait_max_ns)
		h->wait_max_ns = snap->wait_ns;
	h->lat_ns[i] = snap->latency_ns;
	h->end_ns[i] = ktime_get_ns();
}

/**
 * mstat_read_with() - take a snapshot, and hand it to @fn
 * @core: the core
 * @snap: generation and wait figures of this snapshot
 * @fn: called under the reader's lock right after the rotation and
 *	&mstat_core.fold_hook, with the folded counters (the size given to
 *	mstat_core_init()), to copy or derive from them and from what the
 *	hook published
 * @arg: for @fn
 *
 * Every write section that ended before this call began is in the
 * counters @fn sees; every section is in them entirely or not at all.
 * Writers are never blocked: the reader waits for them, politely.
 *
 * Context: process; sleeps. Readers are serialized.
 * Return: 0, or -EINTR if a signal arrived while waiting for another
 * reader (no rotation was done then).
 */
int mstat_read_with(struct mstat_core *core, struct mstat_snapshot *snap,
		    void (*fn)(const u64 *total, void *arg), void *arg)
{
	if (mutex_lock_interruptible(&core->lock))
		return -EINTR;
	__mstat_rotate(core, snap);
	mstat_account_read(core, snap);
	fn(core->total, arg);
	mutex_unlock(&core->lock);
	return 0;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_read_with);

struct mstat_copy {
	struct mstat_core *core;
	void *out;
};

static void mstat_copy_fn(const u64 *total, void *arg)
{
	struct mstat_copy *c = arg;

	memcpy(c->out, total, c->core->nwords * sizeof(u64));
}

/**
 * mstat_read() - take a consistent snapshot of all CPUs' counters
 * @core: the core
 * @snap: generation and wait figures of this snapshot
 * @out: where to copy the counters, the size given to mstat_core_init()
 *
 * As mstat_read_with() without a callback.
 *
 * Context: process; sleeps. Readers are serialized.
 * Return: 0, or -EINTR if a signal arrived while waiting for another
 * reader.
 */
int mstat_read(struct mstat_core *core, struct mstat_snapshot *snap, void *out)
{
	struct mstat_copy c = { .core = core, .out = out };

	return mstat_read_with(core, snap, mstat_copy_fn, &c);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_read);

/**
 * mstat_reset() - restart every counter from zero
 * @core: the core
 *
 * Rotates once, so that every section that began before the reset is
 * folded, then clears the totals. A section that straddles the reset is
 * counted after it or not at all, never in part.
 *
 * With a &mstat_core.reset_hook, the reset rotates twice and waits for a
 * grace period after each call of the hook: the first call writes state
 * for the slot that the first rotation left idle, and the second rotation
 * flips writers into that slot only after every section that began
 * before the write has ended, so that each section that adds into it
 * reads what the hook wrote (an RCU guarantee; sections are RCU readers,
 * see "Waiting for writers" above; litmus:
 * mstat_core/litmus/reset-hook.litmus). The second call, after the
 * totals are cleared, does the same for the other slot, which no section
 * uses before the flip of the next read, after the second grace period.
 * A state per slot thus tells a section that counts after the reset from
 * one that counted before it, whatever slot it found.
 *
 * Context: process; sleeps.
 * Return: 0, or -EINTR as mstat_read().
 */
int mstat_reset(struct mstat_core *core)
{
	struct mstat_snapshot snap;

	if (mutex_lock_interruptible(&core->lock))
		return -EINTR;
	__mstat_rotate(core, &snap);
	if (core->reset_hook) {
		core->reset_hook(core, !mstat_cur_slot(core), false);
		synchronize_rcu();
		__mstat_rotate(core, &snap);
	}
	memset(core->total, 0, core->nwords * sizeof(u64));
	if (core->reset_hook) {
		core->reset_hook(core, !mstat_cur_slot(core), true);
		synchronize_rcu();
	}
	mutex_unlock(&core->lock);
	return 0;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_reset);

/*
 * The sequence words on and off. Only the IPI mode reads them; the RCU
 * modes wait for a grace period whatever they say, so writers keep them
 * only while some core is in IPI mode, and a section otherwise skips
 * both of its adds to the word.
 *
 * A static key's switch patches its sites one by one, so two sections
 * of one switch may see it differently, and the start and the end of one
 * section too. So the start and the end have a key each, and the end's
 * is on whenever the start's is: a section that added to its word always
 * takes it back. Its end finds the depth in the word (mstat_seq_end()):
 * 0 for a section that began without the word, which then adds nothing;
 * in a nest of sections that began some with the word, some without
 * (only while the start's key is being switched), an inner one may take
 * back an outer one's add, and the outer one then finds 0. Every nest
 * leaves the word at depth 0; only its count may move early, which is
 * what the IPI reader must not meet, and does not, after the grace
 * period below.
 *
 * On: the end's key, then the start's; once static_branch_enable() has
 * returned, every section that begins adds to its word; a grace period
 * later, every section that began without (a preempt-disabled region, so
 * an RCU read-side critical section) has ended. Only then may the core
 * read in IPI mode: the words then show every open section
 * (rotation-ipi-seqon.litmus; without the grace period, "Sometimes":
 * broken-ipi-seqon-nogp.litmus).
 *
 * Off: the start's key, a grace period (every section that added to its
 * word has ended, its end taking it back), then the end's.
 *
 * Context: process, mstat_seq_lock held; sleeps.
 */
static void mstat_seq_get(struct mstat_core *core)
{
	if (core->seq_held)
		return;
	core->seq_held = true;
	if (mstat_seq_users++)
		return;
	static_branch_enable(&mstat_seq_end_key);
	static_branch_enable(&mstat_seq_key);
	if (core->broken != MSTAT_BROKEN_SEQ_NOGP)
		synchronize_rcu();
}

static void mstat_seq_put(struct mstat_core *core)
{
	if (!core->seq_held)
		return;
	core->seq_held = false;
	if (--mstat_seq_users)
		return;
	static_branch_disable(&mstat_seq_key);
	synchronize_rcu();
	static_branch_disable(&mstat_seq_end_key);
}

/**
 * mstat_set_sync() - choose how the reader waits for writers
 * @core: the core
 * @sync: an &enum mstat_sync
 *
 * Takes effect from the next read, at any time between reads. Switching
 * into or out of %MSTAT_SYNC_IPI mode turns the writers' sequence words
 * on or off for every core (mstat_seq_get()), and waits for a grace
 * period when it does.
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for an unknown @sync, or -EINTR if a signal arrived
 * while waiting for a reader.
 */
int mstat_set_sync(struct mstat_core *core, unsigned int sync)
{
	if (sync >= MSTAT_NR_SYNC) {
		pr_warn_ratelimited("%s: no mode %u (0 to %d)\n", __func__,
				    sync, MSTAT_NR_SYNC - 1);
		return -EINVAL;
	}
	if (mutex_lock_interruptible(&mstat_seq_lock))
		return -EINTR;
	/* The words on before a read may look at them... */
	if (sync == MSTAT_SYNC_IPI)
		mstat_seq_get(core);
	if (mutex_lock_interruptible(&core->lock)) {
		if (core->sync != MSTAT_SYNC_IPI)
			mstat_seq_put(core);
		mutex_unlock(&mstat_seq_lock);
		return -EINTR;
	}
	core->sync = sync;
	mutex_unlock(&core->lock);
	/* ...and off once no read will. */
	if (sync != MSTAT_SYNC_IPI)
		mstat_seq_put(core);
	mutex_unlock(&mstat_seq_lock);
	return 0;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_set_sync);

/**
 * mstat_get_sync() - how the reader waits for writers now
 * @core: the core
 *
 * Return: an &enum mstat_sync.
 */
unsigned int mstat_get_sync(struct mstat_core *core)
{
	return READ_ONCE(core->sync);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_get_sync);

/**
 * mstat_set_reset_hook() - set or clear &mstat_core.reset_hook
 * @core: the core
 * @hook: the hook, or NULL
 *
 * Context: process; sleeps (waits for a read or reset in progress).
 */
void mstat_set_reset_hook(struct mstat_core *core,
			  void (*hook)(struct mstat_core *core,
				       unsigned int idle, bool last))
{
	mutex_lock(&core->lock);
	core->reset_hook = hook;
	mutex_unlock(&core->lock);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_set_reset_hook);

/**
 * mstat_set_fold_hook() - set or clear &mstat_core.fold_hook
 * @core: the core
 * @hook: the hook, or NULL
 *
 * Context: process; sleeps (waits for a read in progress).
 */
void mstat_set_fold_hook(struct mstat_core *core,
			 void (*hook)(struct mstat_core *core,
				      unsigned int old))
{
	mutex_lock(&core->lock);
	core->fold_hook = hook;
	mutex_unlock(&core->lock);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_set_fold_hook);

/**
 * mstat_set_broken() - make the reader deliberately wrong, for tortures
 * @core: the core, before its first read
 * @how: an &enum mstat_broken
 *
 * A torture test must fail with each broken reader: that proves it can
 * see the bug it hunts. Never for a core that counts anything real.
 */
void mstat_set_broken(struct mstat_core *core, enum mstat_broken how)
{
	mutex_lock(&core->lock);
	core->broken = how;
	mutex_unlock(&core->lock);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_set_broken);

/**
 * mstat_history_get() - a copy of the reader's history
 * @core: the core
 * @h: the copy
 *
 * Context: process; sleeps.
 * Return: 0, or -EINTR if a signal arrived while waiting for a reader.
 */
int mstat_history_get(struct mstat_core *core, struct mstat_history *h)
{
	if (mutex_lock_interruptible(&core->lock))
		return -EINTR;
	*h = core->hist;
	mutex_unlock(&core->lock);
	return 0;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_history_get);

/**
 * mstat_generation() - the number of snapshots taken (and resets)
 * @core: the core
 *
 * Return: the generation of the last snapshot.
 */
u64 mstat_generation(struct mstat_core *core)
{
	return READ_ONCE(core->gen);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_generation);

/**
 * mstat_nr_words() - u64 counters per slot
 * @core: the core
 *
 * Return: the size given to mstat_core_init(), in u64 words.
 */
unsigned int mstat_nr_words(struct mstat_core *core)
{
	return core->nwords;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_nr_words);

/**
 * mstat_cpu_seq() - a CPU's raw sequence word, for debugging
 * @core: the core
 * @cpu: any possible CPU
 *
 * Return: completed outermost sections << 8 | current nesting depth.
 */
unsigned long mstat_cpu_seq(struct mstat_core *core, int cpu)
{
	return READ_ONCE(per_cpu_ptr(core->pcpu, cpu)->seq);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_cpu_seq);

/**
 * mstat_cpu_in_section() - whether a CPU has an open write section
 * @core: the core
 * @cpu: any possible CPU
 *
 * Only while the words are kept (&mstat_seq_key: some core is in
 * %MSTAT_SYNC_IPI mode); false otherwise.
 *
 * Return: true if the reader in IPI mode would have to wait for @cpu now.
 */
bool mstat_cpu_in_section(struct mstat_core *core, int cpu)
{
	return mstat_cpu_seq(core, cpu) & MSTAT_SEQ_DEPTH_MASK;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_cpu_in_section);

/**
 * mstat_cpu_slot_word() - one raw, unfolded counter of one CPU
 * @core: the core
 * @cpu: any possible CPU
 * @slot: 0 or 1
 * @word: index of the u64 counter in the slot
 *
 * The value may be in the middle of being written; for debugging only.
 * Return: the counter, or 0 for an out-of-range @slot or @word.
 */
u64 mstat_cpu_slot_word(struct mstat_core *core, int cpu, unsigned int slot,
			unsigned int word)
{
	if (slot > 1 || word >= core->nwords)
		return 0;
	return READ_ONCE(per_cpu_ptr(mstat_slot_ptr(core, slot), cpu)[word]);
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_cpu_slot_word);

/**
 * mstat_core_init() - set up a core for counters of @size bytes
 * @core: the core, zeroed or not
 * @size: size of the statistics struct, a non-zero multiple of 8
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a bad @size (also one whose per-CPU state, two
 * marked slots and the sequence words, is more than the per-CPU allocator hands
 * out in one piece: PCPU_MIN_UNIT_SIZE, which it refuses with a WARN), or
 * -ENOMEM.
 */
int mstat_core_init(struct mstat_core *core, size_t size)
{
	size_t pcpu_size = sizeof(struct mstat_pcpu) + 2 * (size + sizeof(u64));

	if (!size || size % sizeof(u64) || pcpu_size > PCPU_MIN_UNIT_SIZE)
		return -EINVAL;

	memset(core, 0, sizeof(*core));
	core->nwords = size / sizeof(u64);

	core->total = kzalloc(size, GFP_KERNEL);
	if (!core->total)
		return -ENOMEM;
	/*
	 * Page-aligned when over a page: the per-CPU allocator backs each
	 * CPU's unit with whole pages, and an unaligned piece can straddle
	 * one more page than its size needs (16,304 bytes at the default
	 * cache_rows: 4 pages aligned, 5 if not).
	 */
	core->pcpu = __alloc_percpu(pcpu_size, pcpu_size > PAGE_SIZE ?
				    PAGE_SIZE : __alignof__(u64));
	if (!core->pcpu) {
		kfree(core->total);
		return -ENOMEM;
	}
	core->cur = mstat_slot_ptr(core, 0);
	mutex_init(&core->lock);
	return 0;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_core_init);

/**
 * mstat_core_destroy() - free what mstat_core_init() allocated
 * @core: the core
 *
 * Context: process. No writer may run or start on @core any more (e.g.
 * after tracepoint_synchronize_unregister()).
 */
void mstat_core_destroy(struct mstat_core *core)
{
	mutex_lock(&mstat_seq_lock);
	mstat_seq_put(core);
	mutex_unlock(&mstat_seq_lock);
	free_percpu(core->pcpu);
	kfree(core->total);
	mutex_destroy(&core->lock);
	core->pcpu = NULL;
	core->total = NULL;
}
EXPORT_SYMBOL_MSTAT_INTERNAL(mstat_core_destroy);
