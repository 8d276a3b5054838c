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
 * Every section that ended before mstat_read() was called is in the
 * snapshot it returns.
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
 * 2) A section makes itself safe: mstat_write_begin() disables
 *    preemption until mstat_write_end(), whatever the caller holds. This
 *    is what keeps sections on one CPU properly nested (on PREEMPT_RT,
 *    and on kernels whose tracepoint probes run with only migration
 *    disabled, a preemptible section could interleave with another
 *    task's on the same CPU, which the sequence word cannot tell from
 *    nesting), and what makes every section an RCU read-side critical
 *    section (see "Waiting for writers"). Keep sections short: no
 *    sleeping, no sleeping locks (spinlock_t sleeps on PREEMPT_RT).
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
 * to the count, in one interrupt-safe this_cpu_add(). Sections on a CPU
 * are properly nested (interrupts return before the code they
 * interrupted resumes, and preemption is off), so every section open at
 * some point of a CPU's execution is inside the outermost one open then;
 * once the word shows depth 0 or a different count, that outermost
 * section and all it contained are over. The count also keeps a waiter
 * from starving on a CPU that is rarely at depth 0.
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
 * Offline CPUs have no open section (sections run with preemption off,
 * which holds off stop_machine()) but keep their slots: the fold covers
 * every possible CPU. The arguments above are checked with the
 * Linux-kernel memory model by the litmus tests of mstat_core/litmus/:
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
 *
 * What a fold reads
 * =================
 *
 * A slot starts with a mark word, which mstat_write_begin() sets to 1
 * through the pointer it loaded from ->cur, before any mstat_add(). The
 * fold reads a CPU's mark first and skips the slot if it is 0, and
 * clears the mark with the counters. This is sound for the reason the
 * fold is: the mark is one more store of the section into its slot, and
 * every mode's wait makes all the stores of a section that loaded the
 * old ->cur visible to the fold (the litmus tests' "both adds or
 * neither, never lost"); so a mark read as 0 means no section added to
 * that slot since its last fold, which left it clear.
 * rotation-rcu-mark.litmus and rotation-ipi-mark.litmus check it as the
 * reader does it, the mark read first and the counters only if it is
 * set; broken-rcu-mark-nogp.litmus without the grace period. A read then
 * costs the same few instructions for every possible CPU that ran no
 * section since the last one (a machine's hotplug slots that never
 * came online, idle CPUs), and the full fold only for the others.
 *
 * Writers pay preempt_disable(), a this_cpu_read(), two this_cpu_add()s,
 * a load of ->cur, the mark's store and preempt_enable() per section, in
 * every mode. The
 * alternative, a full barrier in every writer, costs a fence per
 * allocation event, a multiple of the whole section.
 *
 * NOTE: a reader never returns a torn snapshot: once it has flipped
 * ->cur it waits as long as it takes, and a section held open (a vCPU
 * preempted by its host) delays every mode. In %MSTAT_SYNC_IPI mode the
 * wait spins briefly, then sleeps between checks. The wait's duration
 * and the CPUs seen in a section at the flip are recorded.
 *
 * Exports
 * =======
 *
 * In mstat.ko the functions below are exported for mstat's own test
 * modules only, in the MSTAT_INTERNAL symbol namespace (see mstat_core.c):
 * such a module writes MSTAT_IMPORT_INTERNAL_NS() (mstat_compat.h), or
 * modpost refuses to build it and the kernel to load it. Other modules
 * use the API of mstat.h.
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

/**
 * enum mstat_sync - how the reader waits for writers (see "Waiting for
 * writers" above)
 * @MSTAT_SYNC_RCU: synchronize_rcu(); interrupts no CPU (the default)
 * @MSTAT_SYNC_RCU_EXPEDITED: synchronize_rcu_expedited(); interrupts the
 *	CPUs that are not idle
 * @MSTAT_SYNC_IPI: two rounds of IPIs and the sequence words; interrupts
 *	every online CPU
 * @MSTAT_NR_SYNC: number of modes
 */
enum mstat_sync {
	MSTAT_SYNC_RCU,
	MSTAT_SYNC_RCU_EXPEDITED,
	MSTAT_SYNC_IPI,
	MSTAT_NR_SYNC,
};

/*
 * Deliberately broken readers, for torture tests only: a test that cannot
 * fail with one of these is not testing the protocol.
 *
 * %MSTAT_BROKEN_NOWAIT folds without waiting: no grace period in the RCU
 * modes, no wait for open sections in IPI mode. %MSTAT_BROKEN_NOSYNC is
 * IPI mode without IPIs: the reader reads the sequence words itself,
 * unordered.
 */
enum mstat_broken {
	MSTAT_BROKEN_NONE,
	MSTAT_BROKEN_NOWAIT,
	MSTAT_BROKEN_NOSYNC,
};

/* Length of the reader's history of snapshot latencies (Go's PauseNs). */
#define MSTAT_HISTORY		256

/**
 * struct mstat_history - what the reader keeps of its past snapshots;
 *	no part of the protocol, read with mstat_history_get()
 * @nr_reads: snapshots taken
 * @wait_total_ns: time spent waiting for writers, summed over snapshots
 * @wait_max_ns: longest wait for writers in one snapshot
 * @waited_cpus_total: CPUs waited on, summed over snapshots
 * @lat_ns: latency of the last %MSTAT_HISTORY snapshots, a ring indexed
 *	by snapshot number modulo %MSTAT_HISTORY
 * @end_ns: end time (ktime_get_ns()) of those snapshots
 */
struct mstat_history {
	u64 nr_reads;
	u64 wait_total_ns;
	u64 wait_max_ns;
	u64 waited_cpus_total;
	u64 lat_ns[MSTAT_HISTORY];
	u64 end_ns[MSTAT_HISTORY];
};

/**
 * struct mstat_pcpu - one CPU's share of the core
 * @seq: outermost sections completed << 8 | nesting depth
 * @ipi_seq: @seq as this CPU's own first IPI handler saw it
 *	(%MSTAT_SYNC_IPI only); written by the handler, read by the reader
 *	after the cross call completed
 * @slot: two slots, back to back, each a mark word and @nwords u64
 *	counters
 */
struct mstat_pcpu {
	unsigned long seq;
	unsigned long ipi_seq;
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
 * @fold_hook: if set, called by the reader right after it folded slot
 *	@old, with @lock held and no section using @old any more: the place
 *	to fold state that sections keep outside the per-CPU slots, indexed
 *	by mstat_section_slot(), so that it is published with the snapshot;
 *	set with mstat_set_fold_hook()
 * @reset_hook: if set, called by mstat_reset() twice, with @lock held,
 *	each time with the slot @idle that no section uses until the next
 *	flip, which comes after a grace period: first after a rotation
 *	(@last false), then after a second rotation and the clearing of the
 *	totals (@last true). State that a section reads through
 *	mstat_section_slot() and that the hook writes for @idle is thus seen
 *	by every section that adds into @idle after the hook (see
 *	mstat_reset()); set with mstat_set_reset_hook()
 * @sync: an &enum mstat_sync; set with mstat_set_sync()
 * @broken: an &enum mstat_broken; set with mstat_set_broken(), by
 *	torture tests only
 * @hist: the reader's history, under @lock; read with mstat_history_get()
 *
 * Users go through the functions below; only the inline writer functions
 * touch the fields.
 */
struct mstat_core {
	u64 __percpu *cur;
	struct mstat_pcpu __percpu *pcpu;
	unsigned int nwords;

	struct mutex lock;	/* serializes readers */
	u64 gen;
	u64 *total;
	void (*fold_hook)(struct mstat_core *core, unsigned int old);
	void (*reset_hook)(struct mstat_core *core, unsigned int idle,
			   bool last);
	int sync;
	int broken;
	struct mstat_history hist;
};

/**
 * struct mstat_section - a writer's open section
 * @slot: the per-CPU slot this section adds into
 * @pcpu: &mstat_core.pcpu, loaded once
 * @end: what mstat_write_end() adds to the sequence word
 */
struct mstat_section {
	u64 __percpu *slot;
	struct mstat_pcpu __percpu *pcpu;
	unsigned long end;
};

/**
 * struct mstat_snapshot - what a read returns besides the counters
 * @gen: generation of this snapshot; increases by one per snapshot
 * @wait_ns: time from the flip until no section used the old slot any
 *	more (the grace period in the RCU modes)
 * @latency_ns: time from flipping the slot to the end of the fold
 * @waited_cpus: number of CPUs seen in a section when the reader looked:
 *	exact in %MSTAT_SYNC_IPI mode, a racy sample in the RCU modes
 * @folded_cpus: number of CPUs whose slot was folded: the ones that ran
 *	a section since the last read
 */
struct mstat_snapshot {
	u64 gen;
	u64 wait_ns;
	u64 latency_ns;
	unsigned int waited_cpus;
	unsigned int folded_cpus;
};

/**
 * mstat_write_begin() - open a write section on this CPU
 * @core: the core
 * @s: section state, on the caller's stack
 *
 * Disables preemption until mstat_write_end(), whatever the caller holds:
 * the section is then an RCU read-side critical section and cannot
 * interleave with another task's section on this CPU (on PREEMPT_RT too).
 *
 * Context: any but NMI. This function is preempt and irq safe; it nests
 * in interrupts.
 */
static __always_inline void mstat_write_begin(struct mstat_core *core,
					      struct mstat_section *s)
{
	unsigned long depth;

	preempt_disable_notrace();
	/*
	 * Read, then increment: an interrupt in between runs whole sections
	 * and returns the depth to what was read, so the depth read is ours.
	 */
	/* A local copy, which the barrier()s below need not reload. */
	s->pcpu = core->pcpu;
#ifdef __LITTLE_ENDIAN
	/* The depth is the word's first byte: load it alone, no masking. */
	depth = this_cpu_read(*(u8 __percpu *)&s->pcpu->seq);
#else
	depth = this_cpu_read(s->pcpu->seq) & MSTAT_SEQ_DEPTH_MASK;
#endif
	this_cpu_add(s->pcpu->seq, 1);
	/* depth ? -1 : MSTAT_SEQ_COUNT_ONE - 1, without a branch or a setcc */
	s->end = ((long)-depth >> (BITS_PER_LONG - 1)) |
		 (MSTAT_SEQ_COUNT_ONE - 1);
	/*
	 * Keep the load of ->cur after the sequence store in program order;
	 * the rest of the ordering is the reader's, see "Waiting for writers".
	 * Pairs with synchronize_rcu() in mstat_wait_rcu() and with smp_mb()
	 * in mstat_ipi_look().
	 */
	barrier();
	s->slot = READ_ONCE(core->cur);
	/*
	 * Mark the slot: the reader folds only marked slots. A store into
	 * the slot through the same address dependency as mstat_add()'s,
	 * ordered for the reader as they are ("What a fold reads").
	 */
	this_cpu_write(*(s->slot - 1), 1);
}

/**
 * mstat_write_end() - close a section opened by mstat_write_begin()
 * @core: the core
 * @s: the section
 *
 * Context: as mstat_write_begin(), on the same CPU.
 */
static __always_inline void mstat_write_end(struct mstat_core *core,
					    struct mstat_section *s)
{
	/*
	 * Slot stores before the sequence store in program order; their
	 * visibility to the reader is its business. Pairs with
	 * synchronize_rcu() in mstat_wait_rcu() and with smp_mb() in
	 * mstat_ipi_publish().
	 */
	barrier();
	this_cpu_add(s->pcpu->seq, s->end);
	preempt_enable_notrace();
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
		    void (*fn)(const u64 *total, void *arg), void *arg);
int mstat_reset(struct mstat_core *core);
int mstat_set_sync(struct mstat_core *core, unsigned int sync);
unsigned int mstat_get_sync(struct mstat_core *core);
extern const char *const mstat_sync_name[MSTAT_NR_SYNC];
void mstat_set_reset_hook(struct mstat_core *core,
			  void (*hook)(struct mstat_core *core,
				       unsigned int idle, bool last));
void mstat_set_fold_hook(struct mstat_core *core,
			 void (*hook)(struct mstat_core *core,
				      unsigned int old));
void mstat_set_broken(struct mstat_core *core, enum mstat_broken how);
int mstat_history_get(struct mstat_core *core, struct mstat_history *h);
u64 mstat_generation(struct mstat_core *core);
unsigned int mstat_nr_words(struct mstat_core *core);
bool mstat_cpu_in_section(struct mstat_core *core, int cpu);
unsigned long mstat_cpu_seq(struct mstat_core *core, int cpu);
u64 mstat_cpu_slot_word(struct mstat_core *core, int cpu, unsigned int slot,
			unsigned int word);
unsigned int mstat_cur_slot(struct mstat_core *core);

/**
 * mstat_section_slot() - which slot an open section adds into
 * @core: the core
 * @s: the open section
 *
 * For state kept outside the per-CPU slots (see &mstat_core.fold_hook):
 * index it by this, and fold index @old in the hook. Inline, so that a
 * section can stay in registers.
 *
 * Return: 0 or 1.
 */
static __always_inline unsigned int
mstat_section_slot(const struct mstat_core *core, const struct mstat_section *s)
{
	return s->slot != &core->pcpu->slot[1];
}

#endif /* _MSTAT_CORE_H */
