/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat_core - consistent snapshots of per-CPU statistics
 *
 * The guarantee
 * =============
 *
 * A snapshot is a cut across all CPUs: every write section (see below)
 * is either entirely in the snapshot or entirely absent from it. Fields
 * that one section updates together therefore agree in every snapshot,
 * and any invariant that each section preserves (allocations - frees ==
 * live objects, totals == sum over classes) holds exactly in every
 * snapshot, while writers keep running and never wait.
 *
 * Snapshots are cumulative: counters only move by the deltas that
 * sections add, and snapshot N+1 contains every section of snapshot N.
 *
 * The statistics are an opaque block of u64 words whose layout belongs to
 * the user of the core (a plain struct of u64/s64 counters; s64 deltas
 * wrap and sum correctly in u64). The core only adds, folds and clears.
 *
 * Usage constraints
 * =================
 *
 * 1) Writers may run in task, softirq and hardirq context, with
 *    interrupts on or off, and may nest: an interrupt may open a section
 *    on a CPU whose task is in the middle of one. Not from NMI: this_cpu
 *    operations are not NMI-safe on every architecture.
 *
 * 2) A section stays on one CPU: mstat_write_begin() disables preemption
 *    until mstat_write_end(). __mstat_write_begin() leaves that to the
 *    caller (tracepoint probes already run with preemption off).
 *
 * 3) Inside a section, update counters only with mstat_add(), which is an
 *    interrupt-safe this_cpu_add(). A plain "+=" would lose the update of
 *    an interrupt that nests between its load and its store.
 *
 * 4) Readers (mstat_read()) sleep. They are serialized by a mutex.
 *
 * Writer template::
 *
 *	struct mstat_section s;
 *
 *	mstat_write_begin(core, &s);
 *	mstat_add(&s, struct my_stats, allocs, 1);
 *	mstat_add(&s, struct my_stats, bytes, size);
 *	mstat_write_end(core, &s);
 *
 * Reader template::
 *
 *	struct mstat_snapshot snap;
 *	struct my_stats st;
 *	int err;
 *
 *	err = mstat_read(core, &snap, &st);
 *	if (err)
 *		return err;		// -EINTR: signal while waiting for a turn
 *
 * The rotation
 * ============
 *
 * Each CPU has a sequence word and two slots of deltas. Writers add into
 * the slot that the global pointer ->cur names; the reader flips ->cur,
 * waits until no section that may have seen the old value is still open,
 * then folds the old slot of every possible CPU into the reader-private
 * totals and clears it::
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
 * The sequence word and nesting
 * =============================
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
 * mstat_write_begin() reads the depth, then adds 1 to it (two this_cpu
 * operations: an interrupt that lands in between runs whole sections and
 * leaves the depth as it found it, so the depth read is still the
 * section's own); depth 0 makes it the outermost section. This is cheaper
 * than one this_cpu_add_return(), an xadd on x86. mstat_write_end()
 * subtracts 1 from the depth and, for the outermost section only, adds 1
 * to the count, in one interrupt-safe this_cpu_add().
 * Sections on a CPU are properly nested (an interrupt returns before the
 * code it interrupted resumes), so every section open when the reader
 * first looks is inside the outermost one open then. The reader waits
 * for that CPU until it sees depth 0 or a different count: either way
 * that outermost section, and all it contained, is over. The count also
 * keeps the reader from starving on a CPU that is rarely at depth 0.
 *
 * Memory ordering
 * ===============
 *
 * The writer does "store seq; load cur", the reader "store cur; load
 * seq": the store-buffering pattern. Without a full barrier between the
 * store and the load on both sides, a writer can load the old ->cur while
 * the reader reads its sequence word from before the section began, and
 * the reader folds a slot that the writer is still adding to.
 *
 * mstat puts the cost on the reader, which is rare, and keeps writers at
 * compiler barriers (the trade membarrier(2) and RCU make):
 *
 *  - After storing ->cur, the reader runs mstat_cpu_sync(): an IPI to
 *    every online CPU whose handler executes smp_mb(), which pairs with
 *    the writer's barrier() at the interrupted point. An interrupt
 *    arrives between two instructions of the writer. Everything the
 *    writer did before that point, including its sequence store, is
 *    visible to the reader once the handler has run (the handler's
 *    smp_mb() and the release/acquire of the cross-call completion).
 *    Everything after that point, including a load of ->cur, follows the
 *    handler's smp_mb() and so sees the new ->cur (the reader's smp_mb()
 *    before sending the IPIs orders its store before them). So a section
 *    either shows up in the sequence word or uses the new slot.
 *
 *  - A section that was open when the reader looked ends with a plain
 *    per-CPU store: on a weakly ordered CPU its slot stores may become
 *    visible after its sequence store. When the reader had to wait for
 *    any CPU, it runs mstat_cpu_sync() once more before folding: the
 *    handler's smp_mb() on that CPU, paired with the completion of the
 *    cross call, publishes the slot stores that preceded the section's
 *    end.
 *
 *  - The CPU hotplug lock is held across the rotation, so no CPU comes
 *    online between the store of ->cur and the IPIs without a barrier;
 *    a CPU that comes online later passes through the hotplug lock's own
 *    release/acquire after our store. Offline CPUs have no open section
 *    (sections run with preemption off, which holds off stop_machine())
 *    but keep their slots: the fold covers every possible CPU.
 *
 * Writers thus pay a this_cpu_read(), two this_cpu_add()s and a load of
 * ->cur per section; the reader pays one IPI round (two when it
 * had to wait). The alternative, a full barrier in every writer, costs
 * a fence per allocation event, a multiple of the whole section.
 *
 * NOTE: a reader never returns a torn snapshot: once it has flipped
 * ->cur it waits as long as it takes. The wait spins briefly, then sleeps
 * between checks, since the writer it waits for may be a preempted vCPU;
 * its duration and the number of CPUs waited on are recorded.
 */
#ifndef _MSTAT_CORE_H
#define _MSTAT_CORE_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/types.h>

#define MSTAT_SEQ_DEPTH_BITS	8
#define MSTAT_SEQ_COUNT_ONE	BIT(MSTAT_SEQ_DEPTH_BITS)
#define MSTAT_SEQ_DEPTH_MASK	(MSTAT_SEQ_COUNT_ONE - 1)

/*
 * Deliberately broken readers, for torture tests only: a test that cannot
 * fail with one of these is not testing the protocol.
 */
enum mstat_broken {
	MSTAT_BROKEN_NONE,
	MSTAT_BROKEN_NOWAIT,	/* fold without waiting for open sections */
	MSTAT_BROKEN_NOSYNC,	/* no IPI barrier: store-buffering race */
};

/* Length of the reader's history of snapshot latencies (Go's PauseNs). */
#define MSTAT_HISTORY		256

/**
 * struct mstat_pcpu - one CPU's share of the core
 * @seq: outermost sections completed << 8 | nesting depth
 * @slot: two slots of @nwords u64 counters each, back to back
 */
struct mstat_pcpu {
	unsigned long seq;
	u64 slot[];
};

/**
 * struct mstat_core - the shared state of writers and the reader
 * @cur: per-CPU pointer to the slot writers add into; written by the
 *	reader under @lock, read locklessly by writers
 * @pcpu: per-CPU sequence words and slots
 * @nwords: number of u64 counters in one slot
 * @lock: serializes readers
 * @gen: number of completed rotations (the snapshot generation)
 * @total: folded counters, @nwords words, under @lock
 * @nr_reads: snapshots taken
 * @wait_total_ns: time spent waiting for writers, summed over snapshots
 * @wait_max_ns: longest wait for writers in one snapshot
 * @waited_cpus_total: CPUs waited on, summed over snapshots
 * @hist_lat_ns: latency of the last %MSTAT_HISTORY snapshots, a ring
 * @hist_end_ns: end time (ktime_get_ns()) of those snapshots
 * @fold_hook: if set, called by the reader right after it folded slot
 *	@old, with @lock held and no section using @old any more: the place
 *	to fold state that sections keep outside the per-CPU slots, indexed
 *	by mstat_section_slot(), so that it is published with the snapshot
 * @broken: an &enum mstat_broken; set only by torture tests
 */
struct mstat_core {
	u64 __percpu *cur;
	struct mstat_pcpu __percpu *pcpu;
	unsigned int nwords;

	struct mutex lock;	/* serializes readers */
	u64 gen;
	u64 *total;
	u64 nr_reads;
	u64 wait_total_ns;
	u64 wait_max_ns;
	u64 waited_cpus_total;
	u64 hist_lat_ns[MSTAT_HISTORY];
	u64 hist_end_ns[MSTAT_HISTORY];
	void (*fold_hook)(struct mstat_core *core, unsigned int old);
	int broken;
};

/**
 * struct mstat_section - a writer's open section
 * @slot: the per-CPU slot this section adds into
 * @end: what mstat_write_end() adds to the sequence word
 */
struct mstat_section {
	u64 __percpu *slot;
	unsigned long end;
};

/**
 * struct mstat_snapshot - what a read returns besides the counters
 * @gen: generation of this snapshot; increases by one per snapshot
 * @wait_ns: time spent waiting for open sections
 * @latency_ns: time from flipping the slot to the end of the fold
 * @waited_cpus: number of CPUs that had an open section to wait for
 */
struct mstat_snapshot {
	u64 gen;
	u64 wait_ns;
	u64 latency_ns;
	unsigned int waited_cpus;
};

/**
 * __mstat_write_begin() - open a write section on this CPU
 * @core: the core
 * @s: section state, on the caller's stack
 *
 * Context: any but NMI, with preemption disabled by the caller until
 * __mstat_write_end(). May nest in an interrupt.
 */
static __always_inline void __mstat_write_begin(struct mstat_core *core,
						struct mstat_section *s)
{
	unsigned long depth;

	/*
	 * Read, then increment: an interrupt in between runs whole sections
	 * and returns the depth to what was read, so the depth read is ours.
	 */
	depth = this_cpu_read(core->pcpu->seq) & MSTAT_SEQ_DEPTH_MASK;
	this_cpu_add(core->pcpu->seq, 1);
	s->end = depth ? -1UL : MSTAT_SEQ_COUNT_ONE - 1;
	/*
	 * Keep the load of ->cur after the sequence store in program order:
	 * the rest of the ordering is done by the reader's IPI, see
	 * "Memory ordering" above. Pairs with smp_mb() in mstat_cpu_sync_ipi().
	 */
	barrier();
	s->slot = READ_ONCE(core->cur);
}

/**
 * __mstat_write_end() - close a write section opened on this CPU
 * @core: the core
 * @s: the section from __mstat_write_begin()
 *
 * Context: as __mstat_write_begin(), on the same CPU.
 */
static __always_inline void __mstat_write_end(struct mstat_core *core,
					      struct mstat_section *s)
{
	/*
	 * Slot stores before the sequence store in program order; their
	 * visibility on other CPUs is forced by the reader's second IPI.
	 * Pairs with smp_mb() in mstat_cpu_sync_ipi().
	 */
	barrier();
	this_cpu_add(core->pcpu->seq, s->end);
}

/**
 * mstat_write_begin() - open a write section, disabling preemption
 * @core: the core
 * @s: section state, on the caller's stack
 *
 * Context: any but NMI. This function is preempt and irq safe.
 */
static __always_inline void mstat_write_begin(struct mstat_core *core,
					      struct mstat_section *s)
{
	preempt_disable();
	__mstat_write_begin(core, s);
}

/**
 * mstat_write_end() - close a section opened by mstat_write_begin()
 * @core: the core
 * @s: the section
 */
static __always_inline void mstat_write_end(struct mstat_core *core,
					    struct mstat_section *s)
{
	__mstat_write_end(core, s);
	preempt_enable();
}

/**
 * mstat_add() - add to one counter inside an open section
 * @s: the open section
 * @type: the struct type that lays out the slot
 * @field: the counter, a u64 or s64 member of @type (may be indexed)
 * @val: the delta
 *
 * One interrupt-safe this_cpu_add(): an interrupt that nests here and
 * adds to the same counter is not lost.
 */
#define mstat_add(s, type, field, val)					\
	this_cpu_add(((type __percpu *)(s)->slot)->field, (val))

int mstat_core_init(struct mstat_core *core, size_t size);
void mstat_core_destroy(struct mstat_core *core);
int mstat_read(struct mstat_core *core, struct mstat_snapshot *snap,
	       void *out);
int mstat_read_with(struct mstat_core *core, struct mstat_snapshot *snap,
		    void *out, void (*fn)(void *arg), void *arg);
int mstat_reset(struct mstat_core *core);
bool mstat_cpu_in_section(struct mstat_core *core, int cpu);
unsigned long mstat_cpu_seq(struct mstat_core *core, int cpu);
u64 mstat_cpu_slot_word(struct mstat_core *core, int cpu, unsigned int slot,
			unsigned int word);
unsigned int mstat_cur_slot(struct mstat_core *core);
unsigned int mstat_section_slot(struct mstat_core *core,
				const struct mstat_section *s);

#endif /* _MSTAT_CORE_H */
