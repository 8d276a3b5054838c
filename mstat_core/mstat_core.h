/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat_core - consistent snapshots of per-CPU statistics
 *
 * The guarantee
 * =============
 *
 * A snapshot is a cut across all CPUs: every write section is either
 * entirely in the snapshot or entirely absent from it. Fields that one
 * section updates together therefore agree in every snapshot, and any
 * invariant that each section preserves (allocations - frees == live
 * objects, totals == sum over classes) holds exactly in every snapshot,
 * while writers keep running and never wait. Snapshots are cumulative:
 * snapshot N+1 contains every section of snapshot N, and every section
 * that ended before mstat_read() was called is in the snapshot it returns.
 *
 * The statistics are an opaque block of u64 words whose layout belongs to
 * the user of the core (a plain struct of u64/s64 counters; s64 deltas
 * wrap and sum correctly in u64). The core only adds, folds and clears.
 *
 * The design
 * ==========
 *
 * Each CPU has a sequence word and two slots of deltas. Writers add into
 * the slot that the global pointer ->cur names; the reader flips ->cur,
 * waits until no section that may have loaded the old value is still
 * open, then folds the old slot of every possible CPU into its totals and
 * clears it. The whole cost of ordering is the reader's, which is rare:
 * writers pay no fence. The reader waits by an RCU grace period (the
 * default), an expedited one, or two rounds of IPIs (&enum mstat_sync).
 * Only the IPI rounds look at the sequence words, which writers keep
 * only while some core reads that way (mstat_seq_key): in the RCU modes
 * a section is a preempt-disabled region, its slot and its adds, and
 * nothing more. Why each way gives a cut is argued in mstat_core.c, beside the code it
 * proves, and checked with the Linux-kernel memory model by the litmus
 * tests of mstat_core/litmus/.
 *
 * Usage
 * =====
 *
 *  - Writers may run in task, softirq and hardirq context, with
 *    interrupts on or off, and may nest (an interrupt's section inside a
 *    task's); not from NMI (this_cpu operations are not NMI-safe on
 *    every architecture).
 *  - A section disables preemption from mstat_write_begin() to
 *    mstat_write_end(), whatever the caller holds: keep it short, with no
 *    sleeping and no sleeping lock (spinlock_t sleeps on PREEMPT_RT).
 *  - Inside a section, update counters only with mstat_add(), an
 *    interrupt-safe this_cpu_add(): a plain "+=" would lose the update of
 *    an interrupt that nests between its load and its store.
 *  - Readers (mstat_read()) sleep; they are serialized by a mutex.
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
#include <linux/jump_label.h>
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
 * unordered. %MSTAT_BROKEN_SEQ_NOGP turns the writers' sequence words on
 * for IPI mode without waiting for the sections that began without them
 * (mstat_seq_get()): a torture that switches the mode while writers run
 * must catch it.
 */
enum mstat_broken {
	MSTAT_BROKEN_NONE,
	MSTAT_BROKEN_NOWAIT,
	MSTAT_BROKEN_NOSYNC,
	MSTAT_BROKEN_SEQ_NOGP,
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
 * @seq_held: whether this core holds the writers' sequence words on
 *	(&mstat_seq_key): in %MSTAT_SYNC_IPI mode; under mstat_seq_lock
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
	bool seq_held;
	struct mstat_history hist;
};

/*
 * Whether writers keep their CPU's sequence word: on while some core is
 * in %MSTAT_SYNC_IPI mode, the only reader that looks at the words (the
 * RCU modes wait for a grace period, whatever the words say). Off, a
 * section costs a patched-out jump at each end instead. Two keys, one for
 * the start of a section and one for its end, switched in an order that
 * never lets a section add to its word without its end taking it back
 * (mstat_seq_get() and mstat_seq_put() in mstat_core.c, which
 * mstat_set_sync() calls).
 */
DECLARE_STATIC_KEY_FALSE(mstat_seq_key);
DECLARE_STATIC_KEY_FALSE(mstat_seq_end_key);

/**
 * struct mstat_section - a writer's open section
 * @slot: the per-CPU slot this section adds into
 */
struct mstat_section {
	u64 __percpu *slot;
};

/**
 * struct mstat_snapshot - what a read returns besides the counters
 * @gen: generation of this snapshot; increases by one per snapshot
 * @wait_ns: time from the flip until no section used the old slot any
 *	more (the grace period in the RCU modes)
 * @latency_ns: time from flipping the slot to the end of the fold
 * @waited_cpus: number of CPUs seen in a section when the reader looked:
 *	exact in %MSTAT_SYNC_IPI mode; in the RCU modes 0 (no writer keeps
 *	a sequence word then, &mstat_seq_key) or, while another core is
 *	in IPI mode, a racy sample
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
	preempt_disable_notrace();
	/*
	 * The depth + 1, where the IPI mode reads it; nothing otherwise.
	 * mstat_write_end() finds the depth again rather than keep it: the
	 * keys may switch while the section is open (mstat_seq_get()).
	 */
	if (static_branch_unlikely(&mstat_seq_key))
		this_cpu_add(core->pcpu->seq, 1);
	/*
	 * Keep the load of ->cur after the sequence store in program order;
	 * the rest of the ordering is the reader's ("Waiting for writers",
	 * mstat_core.c).
	 * Pairs with synchronize_rcu() in mstat_wait_rcu() and with smp_mb()
	 * in mstat_ipi_look().
	 */
	barrier();
	s->slot = READ_ONCE(core->cur);
	/*
	 * Mark the slot: the reader folds only marked slots. A store into
	 * the slot through the same address dependency as mstat_add()'s,
	 * ordered for the reader as they are (mstat_fold()).
	 */
	this_cpu_write(*(s->slot - 1), 1);
}

/*
 * The sequence word's end of a section, while the words are kept: the
 * depth byte is the section's own depth + 1 (every section nested in it,
 * an interrupt's, ended before it returned), 1 for the outermost, whose
 * end also counts one section completed; 0 if the section began while
 * the words were not kept, when its end adds nothing (mstat_seq_get()).
 * Found again here, not kept from the start: the start's key may have
 * switched since.
 */
static __always_inline void mstat_seq_end(struct mstat_core *core)
{
	struct mstat_pcpu __percpu *pcpu = core->pcpu;
	unsigned long depth;

#ifdef __LITTLE_ENDIAN
	/* The depth is the word's first byte: load it alone, no masking. */
	depth = this_cpu_read(*(u8 __percpu *)&pcpu->seq);
#else
	depth = this_cpu_read(pcpu->seq) & MSTAT_SEQ_DEPTH_MASK;
#endif
	/* depth == 1 ? MSTAT_SEQ_COUNT_ONE - 1 : -1, for a depth above 0 */
	if (depth)
		this_cpu_add(pcpu->seq,
			     ((long)(1 - depth) >> (BITS_PER_LONG - 1)) |
			     (MSTAT_SEQ_COUNT_ONE - 1));
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
	if (static_branch_unlikely(&mstat_seq_end_key))
		mstat_seq_end(core);
	preempt_enable_notrace();
}

/**
 * mstat_write_end_cold() - close a section whose state was not kept
 * @core: the core
 *
 * mstat_write_end() for a path that made a call inside the section and
 * did not keep its &struct mstat_section live across it (an inlined
 * writer's rare path). The section's end needs nothing of its state: the
 * same as mstat_write_end().
 *
 * Context: as mstat_write_begin(), on the same CPU, inside the section.
 */
static __always_inline void mstat_write_end_cold(struct mstat_core *core)
{
	barrier();	/* as mstat_write_end()'s */
	if (static_branch_unlikely(&mstat_seq_end_key))
		mstat_seq_end(core);
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
