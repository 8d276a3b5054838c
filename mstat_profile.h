/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampled per-call-site heap profile (mstat_profile.c) and its address
 * table (mstat_addrs.c). Layer 2, a recorder: the hot path calls
 * mstat_profile_due() and mstat_profile_held() inside its write sections.
 */
#ifndef _MSTAT_PROFILE_H
#define _MSTAT_PROFILE_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>

#include "mstat_core/mstat_core.h"
#include "mstat_stats.h"

/* Mean bytes between samples; 0: off. */
extern unsigned long mstat_profile_rate;
#define MSTAT_PROFILE_RATE_MAX	BIT_ULL(40)

/* The probes' fast paths: mstat_profile_due() and mstat_profile_held(). */
struct mstat_addr;
DECLARE_STATIC_KEY_FALSE(mstat_profile_alloc_key);
DECLARE_STATIC_KEY_FALSE(mstat_profile_free_key);
DECLARE_STATIC_KEY_FALSE(mstat_profile_pages_key);
DECLARE_STATIC_KEY_FALSE(mstat_profile_page_free_key);
DECLARE_PER_CPU(s64, mstat_sample_left);
extern struct mstat_addr **mstat_addr_heads;
extern unsigned int mstat_addr_bits;
extern unsigned long mstat_addr_shift;

/*
 * An address's chain in the address table: hash_long(@ptr,
 * mstat_addr_bits), with its shift ready (BITS_PER_LONG - the bits) and a
 * long result, which indexes with no zero extension.
 */
static __always_inline unsigned long mstat_addr_hash(unsigned long ptr)
{
#if BITS_PER_LONG == 64
	return (ptr * GOLDEN_RATIO_64) >> mstat_addr_shift;
#else
	return hash_long(ptr, mstat_addr_bits);
#endif
}

/*
 * How a sampled allocation's address may be read (__mstat_profile_sample()):
 * an object of the linear map, whose page gives the node and the slab
 * cache; an address an API report gave (which may be anything); or an
 * object of another space (a vm area, a percpu pointer), which is only a
 * key.
 */
enum mstat_sample_kind {
	MSTAT_SAMPLE_LINEAR,
	MSTAT_SAMPLE_API,
	MSTAT_SAMPLE_KEY,
	MSTAT_SAMPLE_PAGE,	/* a struct page: its node; a site if bulk */
};

struct pt_regs;
void __mstat_profile_sample(struct pt_regs *from, unsigned int slot,
			    unsigned long rate,
			    unsigned long ptr, u64 size, unsigned long site,
			    enum mstat_source src, enum mstat_sample_kind kind);
void __mstat_profile_free(unsigned int slot, unsigned long ptr);
void __mstat_profile_trim(unsigned int slot, unsigned long ptr, u64 size);

/**
 * mstat_profile_due() - whether an allocation is to be sampled
 * @size: its bytes
 *
 * A patched-out jump while the profile is off; else the size added to
 * this CPU's count toward its next sample, which starts at minus the
 * interval (mstat_sample_interval()), then a load of it: on x86 an add to
 * memory, a load and a test, where this_cpu_sub_return() takes an xadd, a
 * negation before it and a subtraction after. An interrupt in between
 * that samples has started a new interval, which the load reads: one
 * sample, as if the interrupt came first; one that does not sample only
 * moves the next sample nearer.
 *
 * Context: inside a write section of mstat_core; any but NMI.
 * Return: true if the caller is to call __mstat_profile_sample(), inside
 * the event's write section.
 */
static __always_inline bool mstat_profile_due(u64 size)
{
	if (!static_branch_unlikely(&mstat_profile_alloc_key))
		return false;
	this_cpu_add(mstat_sample_left, size);
	return this_cpu_read(mstat_sample_left) >= 0;
}

/**
 * mstat_profile_held() - whether a freed object may have been sampled
 * @ptr: the object
 *
 * A patched-out jump until the profile is first switched on; then a hash
 * and the load of its chain head. (No test of mstat_addr_live first: at
 * any rate that samples, some sampled object is nearly always live, and
 * the test cost every free 2 instructions.) The head is a hint, which
 * __mstat_profile_free() reads again under its chain's lock: a plain
 * load (data_race(): other objects' samples come and go in the chain),
 * which the test takes whole where READ_ONCE() cost a lea more. The
 * object's own sample was put in before the object was handed on, so
 * every free of it comes after (as for READ_ONCE(), by its handing on).
 *
 * Context: inside a write section of mstat_core; any but NMI.
 * Return: true if the caller is to call __mstat_profile_free(), inside
 * the event's write section.
 */
static __always_inline bool mstat_profile_held(unsigned long ptr)
{
	if (!static_branch_unlikely(&mstat_profile_free_key))
		return false;
	/* A hint: racy with the chain's other samples (see above). */
	return data_race(mstat_addr_heads[mstat_addr_hash(ptr)]);
}

/*
 * The address table (mstat_addrs.c): the sampled objects live, by
 * address, in the chains of mstat_addr_heads[], each under
 * mstat_addr_lock() of its hash. The profile (mstat_profile.c) inserts,
 * removes and releases entries, and walks the chains under their locks.
 */
struct mstat_bucket;

/*
 * An entry of the address table: 64 bytes. @epoch is the profile's
 * epoch of the section that counted the allocation
 * (mstat_profile_epoch()): an entry of an older epoch was counted before
 * a reset.
 */
struct mstat_addr {
	unsigned long ptr;
	struct mstat_bucket *b;
	u64 size;
	struct mstat_addr *next;
	u64 time;				/* ktime_get_boot_fast_ns() */
	unsigned long epoch;
};

/* The table's entries (profile_addrs): fixed while the module is loaded. */
extern unsigned int mstat_nr_addrs;
/* Entries in use: the sampled objects live. */
extern atomic_t mstat_addr_live;

#define MSTAT_ADDR_LOCKS	64
extern raw_spinlock_t mstat_addr_locks[MSTAT_ADDR_LOCKS];

/**
 * mstat_addr_lock() - the lock of a chain of the address table
 * @h: the chain, mstat_addr_hash() of its addresses
 *
 * Held (irqsave) to change the chain, or to read its entries.
 *
 * Context: any.
 * Return: the lock.
 */
static inline raw_spinlock_t *mstat_addr_lock(unsigned int h)
{
	return &mstat_addr_locks[h % MSTAT_ADDR_LOCKS];
}

bool mstat_addr_insert(unsigned long ptr, struct mstat_bucket *b, u64 size,
		       unsigned long epoch);
struct mstat_addr *mstat_addr_remove(unsigned long ptr);
void mstat_addr_release(struct mstat_addr *a);
int mstat_addr_init(unsigned int addrs);
void mstat_addr_exit(void);

/*
 * A bucket's counts: sampled allocations and their bytes, frees and their
 * bytes, and of those frees the entries dropped without one (a source
 * switched, a free probe that missed calls: mstat_profile_forget_sources()),
 * which are counted freed so that none stays in use for good.
 */
enum {
	MSTAT_B_ALLOCS, MSTAT_B_ABYTES, MSTAT_B_FREES, MSTAT_B_FBYTES,
	MSTAT_B_DROPS, MSTAT_B_NR
};

/*
 * A sampled allocation's cgroup label: the cgroup (v2) id of the task
 * that allocated it (ids start at 1), or what ran instead of a task.
 */
#define MSTAT_CGROUP_NONE	0ULL		/* not known */
#define MSTAT_CGROUP_HARDIRQ	U64_MAX		/* hard interrupt */
#define MSTAT_CGROUP_SOFTIRQ	(U64_MAX - 1)	/* softirq */

/**
 * struct mstat_live - a sampled object remembered by the address table
 * @b: its bucket (the row it belongs to)
 * @time: when it was allocated, ktime_get_boot_fast_ns()
 * @size: its bytes
 */
struct mstat_live {
	const void *b;
	u64 time;
	u64 size;
};

/**
 * struct mstat_site_row - one stack's published figures, for one cgroup
 *	and one node
 * @site: the call site, the stack's first frame
 * @stack: the stack, call site first (the bucket's: never freed or
 *	changed while the module is loaded)
 * @nr: frames in @stack, at least 1
 * @v: sampled allocations, bytes allocated, frees, bytes freed, and
 *	frees that were entries dropped without their free (indexed by
 *	%MSTAT_B_ALLOCS...)
 * @est_bytes: bytes in use, scaled up from the samples: the sort key
 * @est_calls: objects in use, scaled up
 * @cgroup: the cgroup label of its samples (%MSTAT_CGROUP_NONE...)
 * @node: the NUMA node of their memory, or %NUMA_NO_NODE
 * @src: the source of its samples (enum mstat_source)
 * @cache: the slab cache's name, "" if none (a large kmalloc, an API
 *	report of memory that is no slab object) or not known
 * @b: its bucket
 * @live: its sampled objects remembered at the read, oldest first
 *	(in &mstat_sites.live)
 * @nlive: how many
 */
struct mstat_site_row {
	unsigned long site;
	const unsigned long *stack;
	unsigned int nr;
	u64 v[MSTAT_B_NR];
	s64 est_bytes;
	s64 est_calls;
	u64 cgroup;
	int node;
	u8 src;
	const char *cache;
	const void *b;
	const struct mstat_live *live;
	unsigned int nlive;
};

/**
 * struct mstat_sites - the profile as of one snapshot (mstat_profile_read(),
 *	mstat_sites.c)
 * @gen: the snapshot's generation
 * @rate: the sampling rate when it was read
 * @site_drops: samples whose stack found no free bucket
 * @addr_drops: samples whose address found no free entry
 * @addr_live: sampled objects live
 * @addr_phantoms: entries dropped because the profile could not vouch
 *	for their free (mstat_profile_forget_sources(), a reset)
 * @now: the time the ages are taken at, ktime_get_boot_fast_ns()
 * @history: ns since the profile's history began at @now (its rate last
 *	changed, a reset, an entry dropped without its free): the live
 *	entries hold every sampled object since that is live
 * @counts: ns since the rows' counts began at @now (the profile's start,
 *	a reset)
 * @live: the sampled objects remembered at the read, by bucket, then
 *	oldest first (vfree() it)
 * @nlive: how many
 * @leafless: samples whose unwound stack did not hold their call site
 *	(kept as the call site alone)
 * @depth: the most frames a stack keeps
 * @n: rows
 * @row: the stacks, by @est_bytes descending
 */
struct mstat_sites {
	u64 gen;
	unsigned long rate;
	u64 site_drops;
	u64 addr_drops;
	int addr_live;
	u64 addr_phantoms;
	u64 now;
	u64 history;
	u64 counts;
	struct mstat_live *live;
	unsigned int nlive;
	u64 leafless;
	unsigned int depth;
	unsigned int n;
	struct mstat_site_row row[];
};

u64 mstat_cgroup_now(void);
void mstat_sites_copy(const u64 *total, void *arg);
void mstat_profile_sizes(unsigned int *buckets, unsigned int *addrs);
void mstat_profile_counts(struct mstat_sites *ss);
void mstat_profile_forget(const char *why);
void mstat_profile_forget_sources(unsigned long srcs, const char *why);
unsigned long mstat_profile_epoch(unsigned int slot);
void mstat_profile_set_cache_of(const void *(*cache_of)(const void *obj));
int mstat_profile_init(unsigned long rate, unsigned int buckets,
		       unsigned int addrs, unsigned int depth);
void mstat_profile_unhook(void);
void mstat_profile_exit(void);
void mstat_profile_set_rate(unsigned long rate);
void mstat_profile_set_pages(bool on);
void mstat_profile_drops(u64 *site_drops, u64 *addr_drops, u64 *phantoms);
unsigned int mstat_profile_keep_names(unsigned long start, unsigned long size);
u64 mstat_sample_interval(unsigned long rate);
u64 mstat_sample_prob_q32(u64 size, unsigned long rate);

#endif /* _MSTAT_PROFILE_H */
