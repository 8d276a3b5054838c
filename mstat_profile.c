// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled per-call-site heap profile, in the manner of Go's mprof:
 *
 *  - Sampling by bytes: each CPU counts down a random number of bytes,
 *    exponentially distributed with mean mstat_profile_rate, so that on
 *    average one allocation per rate bytes is sampled, whatever the sizes.
 *    Rate 1 samples every allocation; rate 0 turns sampling off (an
 *    allocation then pays a patched-out jump; a free, once the profile
 *    has been on, still the look-up below, for objects sampled before).
 *
 *  - A bucket per stack, as mprof's stkbucket: the allocation's kernel
 *    stack as the kernel's unwinder gives it (from the probe on x86,
 *    stack_trace_save() elsewhere: mstat_stack()), from the call site
 *    out, at most profile_depth frames. The buckets are
 *    preallocated (profile_buckets of them), an open-addressing table
 *    filled lock-free with cmpxchg() on a 64-bit hash of the stack; a
 *    sample that finds no free bucket is counted as a drop. mstat keeps
 *    its own table rather than the kernel's stackdepot: the depot is not
 *    set up on every kernel mstat loads into (5.10 to 7.3; stack_depot_init()
 *    is not exported everywhere), its records are never freed before
 *    6.8, and it allocates from the allocation path it would be sampling.
 *  - The stack is unwound only for a sampled allocation (one per
 *    profile_rate bytes on average), into a buffer on the kernel stack
 *    of MSTAT_STACK_CAPTURE entries, as KASAN's kasan_save_stack() does
 *    for every allocation. mstat's own frames and the allocator's are
 *    above the call site and are cut: the stack starts at the entry that
 *    is the call site. When the unwound stack does not hold the call site
 *    (an unwinder that cannot cross a probe's trampoline), the bucket's
 *    stack is the call site alone, counted in "leafless" (see
 *    mstat_stack() for the API's reports).
 *
 *  - Labels: a bucket is a stack with the cgroup of the task that
 *    allocated (or hard irq, or softirq), the NUMA node of the memory and
 *    the slab cache of the object, taken when an allocation is sampled:
 *    the same stack in two cgroups is two buckets, so that both the
 *    cumulative and the in-use figures split by them, published as every
 *    bucket is. The cache is found through the slab layout of the
 *    sources (mstat_profile_set_cache_of()), its name kept in the bucket:
 *    a cache destroyed, and another made at its address, would share its
 *    buckets.
 *
 *  - Frees find the bucket of their sampled allocation in a bounded
 *    address table (mstat_addrs.c), which also keeps when each object was
 *    allocated, for its age. The table never lies: an entry whose free
 *    the profile may have missed (a probe that can see it switched off or
 *    on, or missing a call) is dropped and counted as freed, the other
 *    sources' entries kept (mstat_profile_forget_sources()); a reset
 *    drops every entry counted before it (see mstat_profile_reset()); a
 *    sample that finds the table full is counted as allocated and freed
 *    at once. A dropped entry is counted in addr_phantoms, a sample
 *    without an entry in addr_drops.
 *
 *  - Publication in cycles, tied to the core's rotation (Go's active +
 *    future[] scheme): a bucket's counters are written inside the event's
 *    mstat_core write section, into the half indexed by the section's
 *    slot, and the core's fold hook folds the old half into the published
 *    totals at the moment it folds the counters. A profile read is thus
 *    "as of snapshot N" and agrees with the counters of snapshot N.
 *
 * Layer 2, a recorder: the hot path calls it; mstat_sites_copy() gives
 * the published buckets to /proc/mstat_sites' reader (mstat_sites.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/stacktrace.h>
#include <linux/vmalloc.h>

#include "mstat_caches.h"
#include "mstat_compat.h"
#include "mstat_mutant.h"
#include "mstat_profile.h"
#include "mstat_stacks.h"
#include "mstat_stats.h"
#include "mstat_text.h"

/*
 * A bucket: mstat_bucket_size bytes, its stack last. @key is claimed
 * first (cmpxchg from 0), then the stack written, then @nr published
 * (release): a reader that sees @nr 0 skips the bucket until then.
 */
struct mstat_bucket {
	u64 key;				/* hash of stack and labels; 0: unused */
	unsigned int nr;			/* frames in stack[] */
	int node;				/* NUMA node, or NUMA_NO_NODE */
	u8 src;					/* enum mstat_source */
	u64 cgroup;				/* MSTAT_CGROUP_* or a cgroup id */
	const void *cache;			/* slab cache, or NULL */
	char cache_name[MSTAT_CACHE_NAME_LEN];	/* its name, or "" */
	atomic64_t pend[2][MSTAT_B_NR];		/* by core slot */
	u64 total[MSTAT_B_NR];			/* under mstat_core.lock */
	unsigned long stack[];			/* call site first */
};

static void *mstat_buckets;
static unsigned int mstat_nr_buckets, mstat_depth;
static size_t mstat_bucket_size;
static atomic64_t mstat_bucket_drops, mstat_addr_drops, mstat_leafless;
static atomic64_t mstat_addr_phantoms;

/*
 * When the profile's history began, ktime_get_boot_fast_ns(): the last
 * change of its rate (its start among them), the last reset, or the last
 * entry dropped without its free (addr_phantoms). The live entries then
 * hold every object sampled since, at one rate, that is still live, and
 * the ages of those not among them are gone: /proc/mstat_sites'
 * history_ms, from which mstat leaks judges a stack in one read.
 */
static u64 mstat_history_start;
/* When the buckets' counts began: the profile's start or the last reset. */
static u64 mstat_counts_start;

static void mstat_history_restart(void)
{
	WRITE_ONCE(mstat_history_start, ktime_get_boot_fast_ns());
}

/*
 * The epoch of each core slot: bumped by a reset, for each slot while no
 * section uses it (mstat_profile_reset()). A section reads its own slot's
 * with mstat_section_slot() (litmus: mstat_core/litmus/reset-hook.litmus).
 */
static unsigned long mstat_slot_epoch[2];

/**
 * mstat_profile_epoch() - the reset epoch of a core slot
 * @slot: mstat_section_slot() of an open write section
 *
 * A reset gives each slot a new epoch while no section uses it
 * (mstat_profile_reset()), so that state kept beside a count with its
 * section's epoch tells a count made before the last reset, cleared with
 * the totals, from one made after it: the address table's entries
 * (mstat_addrs.c), mstat_vmem.c's objects.
 *
 * Context: inside the write section whose slot @slot is.
 * Return: the epoch.
 */
unsigned long mstat_profile_epoch(unsigned int slot)
{
	return READ_ONCE(mstat_slot_epoch[slot]);
}

/* The slab cache of an allocated object, or NULL: the sources' layout. */
static const void *(*mstat_cache_of)(const void *obj);
/* Minus the bytes left until this CPU's next sample (mstat_profile_due()). */
DEFINE_PER_CPU(s64, mstat_sample_left);
DEFINE_STATIC_KEY_FALSE(mstat_profile_alloc_key);
DEFINE_STATIC_KEY_FALSE(mstat_profile_free_key);
DEFINE_STATIC_KEY_FALSE(mstat_profile_pages_key);
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_pages_key);
DEFINE_STATIC_KEY_FALSE(mstat_profile_page_free_key);
static DEFINE_MUTEX(mstat_profile_lock);	/* serializes rate changes */

unsigned long mstat_profile_rate;
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_rate);

/* log2(1 + i/64) and 2^(-i/64), in units of 2^-16. */
static const u16 mstat_log2_tab[65] = {
	0, 1466, 2909, 4331, 5732, 7112, 8473, 9814, 11136, 12440, 13727,
	14996, 16248, 17484, 18704, 19909, 21098, 22272, 23433, 24579, 25711,
	26830, 27936, 29029, 30109, 31178, 32234, 33279, 34312, 35334, 36346,
	37346, 38336, 39316, 40286, 41246, 42196, 43137, 44068, 44990, 45904,
	46809, 47705, 48593, 49472, 50344, 51207, 52063, 52911, 53751, 54584,
	55410, 56229, 57040, 57845, 58643, 59434, 60219, 60997, 61769, 62534,
	63294, 64047, 64794, 65535,
};

static const u32 mstat_exp2_tab[65] = {
	65536, 64830, 64132, 63441, 62757, 62081, 61413, 60751, 60097, 59449,
	58809, 58176, 57549, 56929, 56316, 55709, 55109, 54515, 53928, 53347,
	52773, 52204, 51642, 51085, 50535, 49991, 49452, 48920, 48393, 47871,
	47356, 46846, 46341, 45842, 45348, 44859, 44376, 43898, 43425, 42958,
	42495, 42037, 41584, 41136, 40693, 40255, 39821, 39392, 38968, 38548,
	38133, 37722, 37316, 36914, 36516, 36123, 35734, 35349, 34968, 34591,
	34219, 33850, 33486, 33125, 32768,
};

/* log2(r) for r >= 1, in units of 2^-16, by table and interpolation. */
static u32 mstat_log2_q16(u64 r)
{
	unsigned int e = ilog2(r);
	u64 m = e >= 16 ? r >> (e - 16) : r << (16 - e);	/* 1.16 */
	u32 f = m & 0xffff, i = f >> 10, w = f & 0x3ff;
	u32 lo = mstat_log2_tab[i], hi = mstat_log2_tab[i + 1];

	return (e << 16) + lo + (((hi - lo) * w) >> 10);
}

/* 2^-y for y in units of 2^-16, result in units of 2^-16. */
static u32 mstat_exp2_neg_q16(u64 y)
{
	u32 f = y & 0xffff, i = f >> 10, w = f & 0x3ff;
	u32 lo = mstat_exp2_tab[i], hi = mstat_exp2_tab[i + 1];

	if (y >> 16 >= 32)
		return 0;
	return (lo - (((lo - hi) * w) >> 10)) >> (y >> 16);
}

/*
 * A per-CPU xorshift64* generator, seeded from get_random_u64() at init:
 * samples are drawn inside write sections, with preemption off, where
 * get_random_u32() may not be called on PREEMPT_RT (its per-CPU batch is
 * under a local_lock, a sleeping lock there). An interrupt that nests
 * between the load and the store of the state draws the same number
 * twice, which only correlates two samples.
 */
static DEFINE_PER_CPU(u64, mstat_rng);

static u32 mstat_random_u32(void)
{
	u64 x = this_cpu_read(mstat_rng);

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	this_cpu_write(mstat_rng, x);
	return (x * 0x2545f4914f6cdd1dULL) >> 32;
}

/**
 * mstat_sample_interval() - bytes until the next sample
 * @rate: the mean
 *
 * Exponentially distributed: rate * -ln(U) = rate * ln2 * (32 - log2(R))
 * for R uniform in [1, 2^32].
 *
 * Return: the interval in bytes, at least 1.
 */
u64 mstat_sample_interval(unsigned long rate)
{
	u64 r = (u64)mstat_random_u32() + 1;
	u64 nl = (32ULL << 16) - mstat_log2_q16(r);	/* -log2(U), Q16 */

	/* ln 2 = 45426 / 65536 */
	return max_t(u64, 1, mul_u64_u64_div_u64(rate, nl * 45426, 1ULL << 32));
}
EXPORT_SYMBOL_IF_KUNIT(mstat_sample_interval);

/**
 * mstat_sample_prob_q32() - chance that an object of @size is sampled
 * @size: its bytes
 * @rate: the sampling rate
 *
 * From size / rate = 23 on, the table's 2^-y is 0 (y >= 32) and the
 * result 2^32 (exp(-23) * 2^32 < 1/2 too): it is returned at once from
 * 32 on. That keeps mul_u64_u64_div_u64()'s quotients within 64 bits
 * whatever @size (an API report may give any), as it needs (on x86_64 its
 * divq raises #DE, an oops, otherwise), and x * 94548 below 2^64.
 *
 * Return: 1 - exp(-size / rate), in units of 2^-32.
 */
u64 mstat_sample_prob_q32(u64 size, unsigned long rate)
{
	u64 x, y;

	if (rate <= 1 || div64_u64(size, rate) >= 32)
		return 1ULL << 32;
	x = mul_u64_u64_div_u64(size, 1ULL << 16, rate);	/* Q16 */
	if (x < 1024) {
		/* 1 - e^-x = x - x^2/2 for small x: keeps the precision. */
		u64 x32 = mul_u64_u64_div_u64(size, 1ULL << 32, rate);

		return x32 - ((x32 * x32) >> 33);
	}
	y = x * 94548 >> 16;			/* x * log2(e), Q16 */
	return (1ULL << 32) - ((u64)mstat_exp2_neg_q16(y) << 16);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_sample_prob_q32);

static struct mstat_bucket *mstat_bucket_at(unsigned int i)
{
	return mstat_buckets + (size_t)i * mstat_bucket_size;
}

static u64 mstat_key_mix(u64 h, u64 v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 31;
}

/* A sample's labels: what its bucket is keyed by beside the stack. */
struct mstat_labels {
	u64 cgroup;
	int node;
	const void *cache;
	u8 src;
};

/* A 64-bit hash of the stack and labels, never 0 (an unused bucket's key). */
static u64 mstat_stack_key(const unsigned long *stack, unsigned int nr,
			   const struct mstat_labels *l)
{
	u64 h = nr;
	unsigned int i;

	for (i = 0; i < nr; i++)
		h = mstat_key_mix(h, stack[i]);
	h = mstat_key_mix(mstat_key_mix(h, l->cgroup), (u32)l->node);
	h = mstat_key_mix(mstat_key_mix(h, (unsigned long)l->cache), l->src);
	return h ?: 1;
}

/*
 * The bucket of @stack with its labels, claimed if new. Two of one key
 * share a bucket (the first's frames and labels): at 64 bits, not before
 * about 2^32 of them.
 */
static struct mstat_bucket *mstat_bucket_get(const unsigned long *stack,
					     unsigned int nr,
					     const struct mstat_labels *l)
{
	u64 key = mstat_stack_key(stack, nr, l), old;
	unsigned int n = mstat_nr_buckets, i, h = hash_64(key, 32) % n;
	struct mstat_bucket *b;

	for (i = 0; i < n; i++) {
		b = mstat_bucket_at((h + i) % n);
		old = READ_ONCE(b->key);
		if (old == key)
			return b;
		if (old)
			continue;
		old = cmpxchg(&b->key, 0, key);
		if (!old) {
			memcpy(b->stack, stack, nr * sizeof(*stack));
			b->cgroup = l->cgroup;
			b->node = l->node;
			b->src = l->src;
			b->cache = l->cache;
			if (l->cache)
				mstat_cache_name(l->cache, b->cache_name);
			/*
			 * The frames and labels before @nr. Pairs with the
			 * smp_load_acquire() in mstat_sites_copy()
			 * (litmus/profile-bucket-publish.litmus).
			 */
			smp_store_release(&b->nr, nr);
			return b;
		}
		if (old == key)
			return b;
	}
	atomic64_inc(&mstat_bucket_drops);
	return NULL;
}

/**
 * mstat_cgroup_now() - the cgroup label of an allocation made now
 *
 * Hard irq, softirq, or the cgroup (v2) id of current: a sample's label,
 * and a vm area's or percpu object's owner (mstat_vmem.c).
 *
 * Context: preemption off (inside a section, or a raw spinlock held),
 * which is what task_css_set() asks of its caller (RCU-sched).
 * Return: %MSTAT_CGROUP_HARDIRQ, %MSTAT_CGROUP_SOFTIRQ, a cgroup id, or
 * %MSTAT_CGROUP_NONE without cgroups.
 */
u64 mstat_cgroup_now(void)
{
	if (preempt_count() & (HARDIRQ_MASK | NMI_MASK))
		return MSTAT_CGROUP_HARDIRQ;
	if (in_serving_softirq())
		return MSTAT_CGROUP_SOFTIRQ;
#ifdef CONFIG_CGROUPS
	return cgroup_id(task_dfl_cgroup(current));
#else
	return MSTAT_CGROUP_NONE;
#endif
}
EXPORT_SYMBOL_IF_KUNIT(mstat_cgroup_now);

/*
 * The labels of an allocation sampled now, at @ptr: its cgroup, and for
 * an address of the linear map the NUMA node of its memory and its slab
 * cache (an API report may give any address, or none).
 */
static void mstat_labels_now(struct mstat_labels *l, unsigned long ptr,
			     enum mstat_sample_kind kind)
{
	const void *(*cache_of)(const void *obj) = READ_ONCE(mstat_cache_of);

	l->cgroup = mstat_cgroup_now();
	l->node = NUMA_NO_NODE;
	l->cache = NULL;
	if (kind == MSTAT_SAMPLE_PAGE) {
		l->node = page_to_nid((struct page *)ptr);
		return;
	}
	if (kind != MSTAT_SAMPLE_LINEAR || !ptr ||
	    !virt_addr_valid((void *)ptr))
		return;
	l->node = page_to_nid(virt_to_page((void *)ptr));
	if (cache_of)
		l->cache = cache_of((const void *)ptr);
}

/**
 * mstat_profile_set_cache_of() - how to find a sampled object's cache
 * @cache_of: returns the slab cache of an allocated object of the linear
 *	map, or NULL (not a slab object); NULL: caches are not labelled
 *
 * Set by the sources once the slab layout is validated (mstat_slab.c),
 * cleared before they go.
 */
void mstat_profile_set_cache_of(const void *(*cache_of)(const void *obj))
{
	WRITE_ONCE(mstat_cache_of, cache_of);
}

/* Count a sampled object as freed, in the section of @slot. */
static void mstat_bucket_free(unsigned int slot, struct mstat_bucket *b,
			      u64 size)
{
	atomic64_inc(&b->pend[slot][MSTAT_B_FREES]);
	atomic64_add(size, &b->pend[slot][MSTAT_B_FBYTES]);
}

/**
 * __mstat_profile_sample() - sample one allocation
 * @from: where its stack is to be unwound from (mstat_stack()), or NULL:
 *	from here
 * @slot: mstat_section_slot() of the event's open write section
 * @rate: mstat_profile_rate as the caller read it, not 0
 * @ptr: the object
 * @size: its bytes
 * @site: its call site; for a page, 0, or the return address of the
 *	bulk allocator's call that gave it (mstat_page_stack())
 * @src: its source, a label of its bucket
 * @kind: what @ptr is: a linear map object, whose labels it gives; a
 *	report through mstat's API (mstat_account_alloc()), whose stack may
 *	not hold its call site; a key only (a vm area, a percpu pointer:
 *	no page of its own to read a node or a cache from; a percpu pointer
 *	may even look like an address of the kernel's image); or a struct
 *	page, whose node it gives and whose stack is found past the page
 *	allocator's frames (mstat_page_stack())
 *
 * Called by the hot path (mstat_extras()) when mstat_profile_due() said
 * this CPU's interval has run out.
 *
 * Context: inside a write section of mstat_core; any but NMI.
 */
void __mstat_profile_sample(struct pt_regs *from, unsigned int slot,
			    unsigned long rate,
			    unsigned long ptr, u64 size, unsigned long site,
			    enum mstat_source src, enum mstat_sample_kind kind)
{
	unsigned long entries[MSTAT_STACK_CAPTURE];
	bool leafless = false;
	struct mstat_labels l;
	struct mstat_bucket *b;
	unsigned int n;

	this_cpu_write(mstat_sample_left, -(s64)mstat_sample_interval(rate));
	if (kind == MSTAT_SAMPLE_PAGE)
		n = mstat_page_stack(entries, site, mstat_depth, &leafless);
	else
		n = mstat_stack(from, entries, site, kind == MSTAT_SAMPLE_API,
				mstat_depth, &leafless);
	if (leafless)
		atomic64_inc(&mstat_leafless);
	if (!n) {
		atomic64_inc(&mstat_bucket_drops);
		return;
	}
	mstat_labels_now(&l, ptr, kind);
	l.src = src;
	b = mstat_bucket_get(entries, n, &l);
	if (!b)
		return;
	atomic64_inc(&b->pend[slot][MSTAT_B_ALLOCS]);
	atomic64_add(size, &b->pend[slot][MSTAT_B_ABYTES]);
	/* Without an entry, its free could never be counted: counted now. */
	if (ptr && !mstat_addr_insert(ptr, b, size, mstat_profile_epoch(slot))) {
		atomic64_inc(&mstat_addr_drops);
		mstat_bucket_free(slot, b, size);
	}
}
EXPORT_SYMBOL_IF_KUNIT(__mstat_profile_sample);

/*
 * Count @a's object freed, and give the entry back. An entry of an epoch
 * other than its section's was counted before a reset, which cleared its
 * allocation: its free is not counted either (see mstat_profile_reset()).
 * @phantom: dropped because its free may have been missed.
 *
 * Return: whether the entry was dropped without its free: the caller
 * restarts the history (mstat_history_restart()), once for all it drops.
 */
static bool mstat_addr_drop(unsigned int slot, struct mstat_addr *a,
			    bool phantom)
{
	if (a->epoch == READ_ONCE(mstat_slot_epoch[slot])) {
		mstat_bucket_free(slot, a->b, a->size);
		/* The row's frees that were none: its stack's churn less. */
		if (phantom)
			atomic64_inc(&a->b->pend[slot][MSTAT_B_DROPS]);
	} else {
		phantom = true;
	}
	if (phantom)
		atomic64_inc(&mstat_addr_phantoms);
	mstat_addr_release(a);
	return phantom;
}

/**
 * __mstat_profile_free() - attribute a free to its sampled allocation
 * @slot: mstat_section_slot() of the event's open write section
 * @ptr: the object
 *
 * Called by the hot path (mstat_extras()) when mstat_profile_held() found
 * an entry in the chain of @ptr's hash: whether one is @ptr's is decided
 * here.
 *
 * Context: inside a write section of mstat_core; any but NMI.
 */
void __mstat_profile_free(unsigned int slot, unsigned long ptr)
{
	struct mstat_addr *a;

	a = mstat_addr_remove(ptr);
	if (a && mstat_addr_drop(slot, a, false))
		mstat_history_restart();
}
EXPORT_SYMBOL_IF_KUNIT(__mstat_profile_free);

/**
 * __mstat_profile_trim() - a sampled object cut down by its allocator
 * @slot: mstat_section_slot() of the caller's open write section
 * @ptr: the object
 * @size: its bytes as the allocator returned it, fewer than sampled
 *
 * alloc_pages_exact() takes a block of the order its size rounds up to,
 * traced and sampled at that order, and frees the block's tail before it
 * returns: the object its caller holds is @size. The bytes cut off count
 * as freed in its bucket, now (every figure of a bucket only grows), and
 * its free then frees @size. Nothing if @ptr was not sampled.
 *
 * Context: inside a write section of mstat_core; any but NMI.
 */
void __mstat_profile_trim(unsigned int slot, unsigned long ptr, u64 size)
{
	unsigned int h = mstat_addr_hash(ptr);
	struct mstat_addr *a;
	unsigned long flags;

	if (!READ_ONCE(mstat_addr_heads[h]))
		return;
	raw_spin_lock_irqsave(mstat_addr_lock(h), flags);
	for (a = mstat_addr_heads[h]; a && a->ptr != ptr; a = a->next)
		;
	if (a && size < a->size) {
		/* Counted before a reset: neither its bytes nor its free count. */
		if (a->epoch == READ_ONCE(mstat_slot_epoch[slot]))
			atomic64_add(a->size - size,
				     &a->b->pend[slot][MSTAT_B_FBYTES]);
		a->size = size;
	}
	raw_spin_unlock_irqrestore(mstat_addr_lock(h), flags);
}

/*
 * Whether @a's object counts in one of the sources of @srcs: the source
 * its bucket was labelled with (a bucket's key hashes its source, so a
 * bucket holds the samples of one source). A bucket is claimed (its key)
 * before its labels are written, then published (@nr): a sample may find
 * the key claimed and insert its entry before the labels are there
 * (mstat_bucket_get()). Such an entry's source is not known: it is taken
 * to be one of @srcs, dropped rather than kept, as the table never
 * keeps an entry it cannot vouch for. Under the entry's chain lock.
 */
static bool mstat_addr_of(const struct mstat_addr *a, unsigned long srcs)
{
	if (mstat_mutant(MSTAT_MUT_FORGET_ALL))
		return true;
	/*
	 * Pairs with the smp_store_release() in mstat_bucket_get(): the
	 * labels before @nr (litmus/profile-bucket-publish.litmus).
	 */
	if (!smp_load_acquire(&a->b->nr))
		return true;
	return srcs & BIT(a->b->src);
}

/**
 * mstat_profile_forget_sources() - drop the entries of some sources
 * @srcs: the sources whose entries to drop, a mask of BIT(enum
 *	mstat_source)
 * @why: what made the table unable to vouch for them, for the log
 *
 * Called when the profile may have missed frees of those sources'
 * objects: a source switched off or on, a free probe that missed calls.
 * Each entry of an object counted in one of @srcs is counted as freed
 * now and in addr_phantoms, so that no object whose free was missed
 * stays in use for good: an object still live is then out of the in-use
 * figures, never in them twice. Its later free finds no entry. The
 * entries of every other source are kept, and their frees counted when
 * they come, whatever probe sees them: a free finds its entry by address
 * alone.
 *
 * An entry's source is the source its object counts in, which is not
 * always that of the probe that sees its free: kfree() (the kmalloc
 * source's event) frees a kmem_cache object, which counts in the cache
 * source, and kmem_cache_free() (the cache source's) may free an object
 * of one of kmalloc's caches, which counts in the kmalloc source. Which
 * sources' frees a probe can miss is the caller's to say: the sources'
 * layer, which knows its probes (mstat_source_frees()).
 *
 * Context: process; sleeps.
 */
void mstat_profile_forget_sources(unsigned long srcs, const char *why)
{
	unsigned int h, n = 0;

	for (h = 0; mstat_addr_heads && h < BIT(mstat_addr_bits); h++) {
		struct mstat_addr *a, **pp, *gone = NULL;
		struct mstat_section s;
		unsigned long flags;

		if (!READ_ONCE(mstat_addr_heads[h]))
			continue;
		mstat_write_begin(&mstat_core, &s);
		raw_spin_lock_irqsave(mstat_addr_lock(h), flags);
		for (pp = &mstat_addr_heads[h]; (a = *pp);) {
			if (!mstat_addr_of(a, srcs)) {
				pp = &a->next;
				continue;
			}
			WRITE_ONCE(*pp, a->next);
			a->next = gone;
			gone = a;
		}
		raw_spin_unlock_irqrestore(mstat_addr_lock(h), flags);
		for (; gone; gone = a, n++) {
			a = gone->next;
			mstat_addr_drop(mstat_section_slot(&mstat_core, &s),
					gone, true);
		}
		mstat_write_end(&mstat_core, &s);
		cond_resched();
	}
	if (n) {
		/* After the last drop: the history holds none of them. */
		mstat_history_restart();
		pr_info_ratelimited("heap profile: %u sampled objects dropped (%s)\n",
				    n, why);
	}
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_forget_sources);

/**
 * mstat_profile_forget() - drop every entry of the address table
 * @why: what made the table unable to vouch for its entries, for the log
 *
 * mstat_profile_forget_sources() for every source.
 *
 * Context: process; sleeps.
 */
void mstat_profile_forget(const char *why)
{
	mstat_profile_forget_sources(~0UL, why);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_forget);

/*
 * A module's text goes: its functions' frames in the buckets' stacks
 * would then be named after whatever text the address holds later
 * ("mstat_init+0x107/0xff0 [mstat]" for an unloaded module's site on
 * 7.3, another module loaded there, or "[unknown]"). A module notifier
 * (the kernel's usual answer: kprobes, ftrace, livepatch, BPF) names them
 * for good while the text is still there: each such frame gets the token
 * of its name (mstat_text_keep()), which mstat_site_name() prints as the
 * site was named before, "hold_exact+0x2c/0x90 [mstat_hold]". A module's
 * core text goes when it is unloaded (MODULE_STATE_GOING, after its exit
 * function, before its memory is freed; also when its init failed), its
 * init text once its init is done (MODULE_STATE_LIVE, before the init
 * text is freed).
 *
 * Each bucket so changed takes the key of its new stack: a later sample
 * at the same addresses (a module loaded where the old one was) makes a
 * bucket of its own rather than adding to one named after the module
 * gone. No sample can be in flight with the gone text on its stack:
 * the module's exit (or init) has returned. The bucket stays in its
 * place of the open-addressed table (never empty: no chain of others'
 * looks is cut). Readers print a frame as they find it, the address
 * while the text is there or the token after: both name the same site.
 *
 * One walk of the buckets per module loaded or unloaded, in process
 * context (the notifier's), the names looked up and allocated there,
 * none with interrupts off; the hot path is untouched.
 */
static DEFINE_MUTEX(mstat_profile_keep_lock);
static bool mstat_profile_notifier_on;

/* Whether a frame's call instruction at @call is in the text @arg says. */
typedef bool (*mstat_text_in_t)(unsigned long call, const void *arg);

static unsigned int mstat_profile_keep(mstat_text_in_t in, const void *arg)
{
	unsigned int i, k, nr, kept = 0;
	struct mstat_labels l;

	mutex_lock(&mstat_profile_keep_lock);
	for (i = 0; i < mstat_nr_buckets; i++) {
		struct mstat_bucket *b = mstat_bucket_at(i);
		bool hit = false;

		/*
		 * Pairs with the smp_store_release() in mstat_bucket_get():
		 * whole frames and labels.
		 */
		nr = smp_load_acquire(&b->nr);
		for (k = 0; k < nr; k++) {
			unsigned long ip = READ_ONCE(b->stack[k]);

			/* A return address: its call's last byte is before it. */
			if (mstat_text_kept_token(ip) || !in(ip - 1, arg))
				continue;
			WRITE_ONCE(b->stack[k], mstat_text_keep(ip));
			hit = true;
			kept++;
		}
		if (hit) {
			l.cgroup = b->cgroup;
			l.node = b->node;
			l.cache = b->cache;
			l.src = b->src;
			WRITE_ONCE(b->key, mstat_stack_key(b->stack, nr, &l));
		}
		if (!(i % 1024))
			cond_resched();
	}
	mutex_unlock(&mstat_profile_keep_lock);
	return kept;
}

static bool mstat_text_in_range(unsigned long call, const void *arg)
{
	const struct mstat_text_range *r = arg;

	return call - r->start < r->size;
}

/**
 * mstat_profile_keep_names() - name a text's frames for good
 * @start: the text's first byte
 * @size: its bytes
 *
 * What the module notifier does for a module's text, for any text: each
 * frame of a stack whose call is in [@start, @start + @size) is named
 * as it is now, for good, and its bucket takes its new stack's key.
 *
 * Context: process; sleeps. While the text is there.
 * Return: the frames named.
 */
unsigned int mstat_profile_keep_names(unsigned long start, unsigned long size)
{
	struct mstat_text_range r = { .start = start, .size = size };

	return mstat_profile_keep(mstat_text_in_range, &r);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_keep_names);

static bool mstat_text_in_module(unsigned long call, const void *arg)
{
	return within_module(call, arg);
}

static bool mstat_text_in_module_init(unsigned long call, const void *arg)
{
	return within_module_init(call, arg);
}

static int mstat_profile_module_event(struct notifier_block *nb,
				      unsigned long state, void *data)
{
	struct module *mod = data;
	unsigned int n;

	if (mstat_mutant(MSTAT_MUT_UNLOADED_NAMES))
		return NOTIFY_DONE;
	if (state == MODULE_STATE_GOING)
		n = mstat_profile_keep(mstat_text_in_module, mod);
	else if (state == MODULE_STATE_LIVE)
		n = mstat_profile_keep(mstat_text_in_module_init, mod);
	else
		return NOTIFY_DONE;
	if (n)
		pr_info("heap profile: %u frames in %s's %s text named for good\n",
			n, mod->name, state == MODULE_STATE_GOING ? "unloaded" :
			"init");
	return NOTIFY_DONE;
}

static struct notifier_block mstat_profile_module_nb = {
	.notifier_call = mstat_profile_module_event,
};

/*
 * The core's reset hook (mstat_reset()): a reset clears the profile as it
 * clears the counters, at the same cut. The first call gives the idle
 * slot a new epoch; sections that add into it after the reset's second
 * flip read it (the grace period between, reset-hook.litmus), and those
 * that counted before the reset read the old one. After the second
 * rotation, every bucket's totals are cleared, as the counters were, the
 * other slot gets the new epoch too, and the entries of the old epoch are
 * dropped: their allocations were cleared. A free that finds such an
 * entry first is not counted either (mstat_addr_drop()): it ran in a
 * section of the new epoch after the cut, or of the old one before it,
 * cleared with the rest.
 */
static void mstat_profile_reset(struct mstat_core *core, unsigned int idle,
				bool last)
{
	unsigned long epoch = mstat_slot_epoch[!idle];
	unsigned int i, h;

	if (!last) {
		WRITE_ONCE(mstat_slot_epoch[idle], epoch + 1);
		return;
	}
	WRITE_ONCE(mstat_slot_epoch[idle], epoch);
	for (i = 0; i < mstat_nr_buckets; i++)
		memset(mstat_bucket_at(i)->total, 0,
		       sizeof(mstat_bucket_at(i)->total));
	for (h = 0; h < BIT(mstat_addr_bits); h++) {
		struct mstat_addr *a, **pp, *gone = NULL;
		unsigned long flags;

		if (!READ_ONCE(mstat_addr_heads[h]))
			continue;
		raw_spin_lock_irqsave(mstat_addr_lock(h), flags);
		for (pp = &mstat_addr_heads[h]; (a = *pp);) {
			if (a->epoch == epoch) {
				pp = &a->next;
				continue;
			}
			WRITE_ONCE(*pp, a->next);
			a->next = gone;
			gone = a;
		}
		raw_spin_unlock_irqrestore(mstat_addr_lock(h), flags);
		for (a = gone; a; a = gone) {
			gone = a->next;
			atomic64_inc(&mstat_addr_phantoms);
			mstat_addr_release(a);
		}
	}
	mstat_history_restart();
	WRITE_ONCE(mstat_counts_start, READ_ONCE(mstat_history_start));
}

/* The core's fold hook: publish the old half with the snapshot. */
static void mstat_profile_fold(struct mstat_core *core, unsigned int old)
{
	unsigned int i, k;

	for (i = 0; i < mstat_nr_buckets; i++) {
		struct mstat_bucket *b = mstat_bucket_at(i);

		if (!READ_ONCE(b->key))
			continue;
		for (k = 0; k < MSTAT_B_NR; k++) {
			b->total[k] += atomic64_read(&b->pend[old][k]);
			atomic64_set(&b->pend[old][k], 0);
		}
	}
}

/* The address table's entries, into @ss->live (at most the table's size). */
static void mstat_live_copy(struct mstat_sites *ss)
{
	unsigned int h;
	u64 start;

	ss->now = ktime_get_boot_fast_ns();
	/* A restart after @now was read: a history of nothing yet. */
	start = READ_ONCE(mstat_history_start);
	ss->history = ss->now > start ? ss->now - start : 0;
	start = READ_ONCE(mstat_counts_start);
	ss->counts = ss->now > start ? ss->now - start : 0;
	for (h = 0; h < BIT(mstat_addr_bits); h++) {
		const struct mstat_addr *a;
		unsigned long flags;

		if (!READ_ONCE(mstat_addr_heads[h]))
			continue;
		raw_spin_lock_irqsave(mstat_addr_lock(h), flags);
		for (a = mstat_addr_heads[h]; a && ss->nlive < mstat_nr_addrs;
		     a = a->next) {
			ss->live[ss->nlive].b = a->b;
			ss->live[ss->nlive].time = a->time;
			ss->live[ss->nlive].size = a->size;
			ss->nlive++;
		}
		raw_spin_unlock_irqrestore(mstat_addr_lock(h), flags);
	}
}

/**
 * mstat_sites_copy() - the published profile, into a reader's rows
 * @total: the snapshot's counters (unused: the profile's figures are
 *	its buckets' totals, folded with them)
 * @arg: the struct mstat_sites to fill, with row[] for
 *	mstat_profile_sizes()'s buckets and live[] for its entries
 *
 * mstat_read_with()'s copy for /proc/mstat_sites' reader (mstat_sites.c):
 * the buckets' totals and the address table's entries, the one part of
 * a read that walks the tables, so that their layout stays in this file.
 *
 * Context: under mstat_core.lock, right after the rotation.
 */
void mstat_sites_copy(const u64 *total, void *arg)
{
	struct mstat_sites *ss = arg;
	unsigned int i;

	mstat_live_copy(ss);

	for (i = 0; i < mstat_nr_buckets; i++) {
		struct mstat_bucket *b = mstat_bucket_at(i);
		struct mstat_site_row *r = &ss->row[ss->n];
		/*
		 * Pairs with the smp_store_release() in mstat_bucket_get():
		 * whole frames (litmus/profile-bucket-publish.litmus).
		 */
		unsigned int nr = smp_load_acquire(&b->nr);

		if (!nr || !b->total[MSTAT_B_ALLOCS])
			continue;
		r->site = b->stack[0];
		r->stack = b->stack;
		r->nr = nr;
		r->cgroup = b->cgroup;
		r->node = b->node;
		r->src = b->src;
		r->cache = b->cache_name;
		r->b = b;
		memcpy(r->v, b->total, sizeof(b->total));
		ss->n++;
	}
}

/**
 * mstat_profile_sizes() - the profile's tables' sizes, for a reader's rows
 * @buckets: set to the buckets (rows at most)
 * @addrs: set to the address table's entries (live objects at most)
 *
 * Fixed while the module is loaded.
 */
void mstat_profile_sizes(unsigned int *buckets, unsigned int *addrs)
{
	*buckets = mstat_nr_buckets;
	*addrs = mstat_nr_addrs;
}

/**
 * mstat_profile_counts() - the profile's drops and depth, into a read
 * @ss: the read: its site_drops, leafless, depth, addr_drops, addr_live
 *	and addr_phantoms set
 */
void mstat_profile_counts(struct mstat_sites *ss)
{
	ss->site_drops = atomic64_read(&mstat_bucket_drops);
	ss->leafless = atomic64_read(&mstat_leafless);
	ss->depth = mstat_depth;
	ss->addr_drops = atomic64_read(&mstat_addr_drops);
	ss->addr_live = atomic_read(&mstat_addr_live);
	ss->addr_phantoms = atomic64_read(&mstat_addr_phantoms);
}

/**
 * mstat_profile_drops() - samples not recorded in full, entries dropped
 * @site_drops: samples whose stack found no free bucket
 * @addr_drops: samples whose address found no free entry
 * @phantoms: entries dropped for want of a vouched free (addr_phantoms)
 */
void mstat_profile_drops(u64 *site_drops, u64 *addr_drops, u64 *phantoms)
{
	*site_drops = atomic64_read(&mstat_bucket_drops);
	*addr_drops = atomic64_read(&mstat_addr_drops);
	*phantoms = atomic64_read(&mstat_addr_phantoms);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_drops);

/**
 * mstat_profile_set_rate() - change the sampling rate
 * @rate: mean bytes between samples; 1 samples all, 0 turns sampling off
 *
 * Every CPU starts a new interval, drawn at random as every later one is:
 * a countdown set to 0 would sample each CPU's next allocation for
 * certain, then weigh it as one picked at random (about @rate bytes too
 * many a CPU, at every change).
 *
 * Context: process; sleeps (static keys).
 */
void mstat_profile_set_rate(unsigned long rate)
{
	int cpu;

	mutex_lock(&mstat_profile_lock);
	if (rate != mstat_profile_rate)
		mstat_history_restart();
	WRITE_ONCE(mstat_profile_rate, rate);
	for_each_possible_cpu(cpu) {
		s64 next = 0;

		if (rate) {
			preempt_disable();	/* this CPU's generator */
			next = -(s64)mstat_sample_interval(rate);
			preempt_enable();
		}
		WRITE_ONCE(*per_cpu_ptr(&mstat_sample_left, cpu), next);
	}
	/*
	 * The free side stays on once the profile was: objects sampled
	 * before the rate went to 0 are still freed.
	 */
	if (rate && !static_key_enabled(&mstat_profile_free_key))
		static_branch_enable(&mstat_profile_free_key);
	if (rate)
		static_branch_enable(&mstat_profile_alloc_key);
	else
		static_branch_disable(&mstat_profile_alloc_key);
	mutex_unlock(&mstat_profile_lock);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_set_rate);

/**
 * mstat_profile_set_pages() - sample the page source's allocations or not
 * @on: whether to
 *
 * Off by default: the pages of the page cache and of anonymous memory
 * come and go by the million. Switched on the first time, it finds the
 * page allocator's functions by name (mstat_page_text_resolve()), so
 * that a page's stack starts past them (mstat_page_stack()). As the
 * free side of the profile, the page frees' look-up stays on once it
 * was: pages sampled before are still freed.
 *
 * Context: process; sleeps.
 */
void mstat_profile_set_pages(bool on)
{
	mutex_lock(&mstat_profile_lock);
	if (on)
		mstat_page_text_resolve();
	if (on && !static_key_enabled(&mstat_profile_page_free_key))
		static_branch_enable(&mstat_profile_page_free_key);
	if (on)
		static_branch_enable(&mstat_profile_pages_key);
	else
		static_branch_disable(&mstat_profile_pages_key);
	mutex_unlock(&mstat_profile_lock);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_set_pages);

/**
 * mstat_profile_init() - allocate the profile's tables
 * @rate: sampling rate (0: off)
 * @buckets: stack buckets
 * @addrs: entries of the address table (sampled objects live at once)
 * @depth: frames a stack keeps, 1 to MSTAT_STACK_CAPTURE (1: the call
 *	site alone, nothing unwound)
 *
 * Return: 0, -EINVAL for a bad @depth, or -ENOMEM.
 */
int mstat_profile_init(unsigned long rate, unsigned int buckets,
		       unsigned int addrs, unsigned int depth)
{
	unsigned int i;

	if (!depth || depth > MSTAT_STACK_CAPTURE)
		return -EINVAL;
	mstat_depth = depth;
	mstat_bucket_size = struct_size((struct mstat_bucket *)NULL, stack,
					depth);
	mstat_buckets = vzalloc(array_size(buckets, mstat_bucket_size));
	if (mstat_addr_init(addrs) || !mstat_buckets) {
		mstat_profile_exit();
		return -ENOMEM;
	}
	mstat_nr_buckets = buckets;
	for_each_possible_cpu(i)
		per_cpu(mstat_rng, i) = get_random_u64() | 1;
	mstat_set_fold_hook(&mstat_core, mstat_profile_fold);
	mstat_set_reset_hook(&mstat_core, mstat_profile_reset);
	mstat_counts_start = ktime_get_boot_fast_ns();
	mstat_history_start = mstat_counts_start;
	mstat_profile_set_rate(rate);
	/* It cannot fail but by a bug (registered twice): said, not fatal. */
	mstat_profile_notifier_on =
		!WARN_ON_ONCE(register_module_notifier(&mstat_profile_module_nb));
	return 0;
}

/**
 * mstat_profile_unhook() - take the profile's module notifier off the
 *	kernel's chain
 *
 * Waits for a notifier call in progress: none walks the buckets after.
 * mstat_profile_exit() does it first; an init that fails after
 * mstat_profile_init() must have it done even where it leaks the tables
 * (the broken build's MSTAT_MUT_LEAK_PROFILE), or the chain keeps a
 * callback in the module's freed text.
 *
 * Context: process; sleeps.
 */
void mstat_profile_unhook(void)
{
	if (mstat_profile_notifier_on)
		unregister_module_notifier(&mstat_profile_module_nb);
	mstat_profile_notifier_on = false;
}

/**
 * mstat_profile_exit() - free the tables
 *
 * Context: no probe may run any more.
 */
void mstat_profile_exit(void)
{
	mstat_profile_unhook();
	mstat_set_reset_hook(&mstat_core, NULL);
	mstat_set_fold_hook(&mstat_core, NULL);
	mutex_lock(&mstat_profile_lock);
	WRITE_ONCE(mstat_profile_rate, 0);
	static_branch_disable(&mstat_profile_alloc_key);
	static_branch_disable(&mstat_profile_free_key);
	mutex_unlock(&mstat_profile_lock);
	mstat_addr_exit();
	vfree(mstat_buckets);
	mstat_buckets = NULL;
	mstat_nr_buckets = 0;
	mstat_text_kept_free();
}
