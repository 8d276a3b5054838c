/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-cache statistics (layer 1, see docs/ARCHITECTURE.md): a bounded
 * table of the slab caches the cache source has seen, in the same
 * snapshot as every other counter.
 *
 * Each cache that kmem_cache_alloc() or kmem_cache_free() names gets a
 * row the first time an event names it: an id (the order rows were
 * claimed in, from 1, never reused while the module is loaded), its
 * object size and its name, read once, at the claim. The table is
 * preallocated at load (the cache_rows parameter) and never grows.
 *
 * An event of a cache with a row adds to its row only: one counter. The
 * snapshot derives the cache source's size-class cells from the rows
 * (each row's class is that of its object size, its bytes its events
 * times that size) and adds them to the cells' own counts, which are
 * then those of the events without a row, because the table is full or
 * per-cache counting is off: the overflow row. So, in every snapshot,
 * exactly:
 *
 *	sum over rows + overflow = the cache source, for allocations,
 *				   frees, failures, live objects and bytes;
 *	live bytes of a row	 = its live objects * its object size.
 *
 * and the event with a row costs the lookup and one add, where the
 * class's size, two adds and its bytes were.
 *
 * The rows are the allocator's real caches: a cache that SLUB merged
 * into another (kmem_cache_create() handing back an existing cache) is
 * that cache, named as /proc/slabinfo names it. A cache that is
 * destroyed keeps its row, marked gone, with its final counts; the
 * moment is the free of its struct kmem_cache, which the cache source
 * sees too, after the last object of the cache and before the address
 * can be handed to a new cache, which then claims a row of its own.
 *
 * Lookup is by the cache's address: an index of MSTAT_CACHE_INDEX
 * entries (more than seven times the largest table), open addressing
 * with a bounded linear probe (a cache's entry is one of the
 * MSTAT_CACHE_PROBES after its hash, its probe window), that a lookup
 * reads without a lock. A claim fills the row first and publishes
 * it with a cmpxchg() of the index entry (fully ordered); a lookup reads
 * the entry and then, through it, the row (an address dependency), so it
 * never sees a row before its fields
 * (mstat_core/litmus/caches-publish.litmus). A reader prints a row only
 * if the cut holds counts of it, which a section added after it found
 * the row, so its name is the claim's even if the claim's own section is
 * still open (mstat_core/litmus/caches-reader.litmus; both "Never", and
 * "Sometimes" with the entry published by WRITE_ONCE()). The entry of a
 * gone row matches no cache any more, and a claim may take it over: SLUB
 * hands a destroyed cache's address to the next cache it creates, and a
 * module that is loaded and unloaded in a loop would otherwise fill that
 * address's probe window with gone rows.
 */
#ifndef _MSTAT_CACHES_H
#define _MSTAT_CACHES_H

#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "mstat_core/mstat_core.h"
#include "mstat_stats.h"

/* A name as the table keeps it, NUL included; longer names are cut. */
#define MSTAT_CACHE_NAME_LEN	64
/* Index entries a lookup tries before it gives up on a row. */
#define MSTAT_CACHE_PROBES	8
/* Set in a row's key once its cache's struct kmem_cache was freed. */
#define MSTAT_CACHE_GONE	1UL
/*
 * The index: a fixed size, for constant maths; 4096 entries, more than
 * seven times the largest table (MSTAT_CACHE_ROWS_MAX: 511 rows), so
 * that a cache's probe window is seldom full.
 */
#define MSTAT_CACHE_INDEX_BITS	12
#define MSTAT_CACHE_INDEX	BIT(MSTAT_CACHE_INDEX_BITS)

/**
 * struct mstat_cache_cell - what a section adds to for one row
 * @allocs: allocations
 * @frees: frees
 * @failures: failed allocations
 */
struct mstat_cache_cell {
	u64 allocs;
	u64 frees;
	u64 failures;
};

/**
 * struct mstat_slot - the whole of one core slot: the cells, then one
 *	cell per table row
 * @cells: the cells of struct mstat_cells, first, so that sections can
 *	add to them as a struct mstat_cells; the cache source's hold the
 *	events without a row
 * @row: the table's rows, mstat_caches.nr_rows of them
 */
struct mstat_slot {
	struct mstat_cells cells;
	struct mstat_cache_cell row[];
};

/*
 * The most rows a table may have (the largest the cache_rows parameter
 * may ask for): the core allocates each CPU's state,
 * two slots (each after its mark word) and the sequence words, in one
 * piece of per-CPU memory, and the per-CPU allocator refuses, with a
 * WARN, a piece larger than PCPU_MIN_UNIT_SIZE (32 KiB: 511 rows).
 */
#define MSTAT_CACHE_ROWS_MAX						\
	(((PCPU_MIN_UNIT_SIZE - sizeof(struct mstat_pcpu)) / 2 -	\
	  sizeof(u64) - sizeof(struct mstat_cells)) /			\
	 sizeof(struct mstat_cache_cell))

/**
 * struct mstat_cache_row - a row's identity, written once by its claim
 *	(its key is mstat_cache_key[] of its index)
 * @id: the row's id, its index + 1
 * @size: the cache's object size, kmem_cache_size()
 * @name: its name, or "" if it could not be read
 */
struct mstat_cache_row {
	u32 id;
	u32 size;
	char name[MSTAT_CACHE_NAME_LEN];
};

/**
 * struct mstat_caches - the table
 * @nr_rows: rows; 0 when there is no table
 * @used: rows claimed so far (at most @nr_rows)
 * @row: the rows' identities
 * @name_off: offset of the name pointer in struct kmem_cache, or -1
 *	while names are unknown
 * @kmem_cache: the cache that struct kmem_cache objects come from, or
 *	NULL while unknown (then no row is marked gone)
 */
struct mstat_caches {
	unsigned int nr_rows;
	atomic_t used;
	struct mstat_cache_row *row;
	int name_off;
	const void *kmem_cache;
};

extern struct mstat_caches mstat_caches;
DECLARE_STATIC_KEY_FALSE(mstat_caches_key);

/*
 * The index and the keys, arrays of fixed size (not behind a pointer) so
 * that a lookup finds them at constant addresses: mstat_cache_index[]
 * holds a row's index, or %MSTAT_CACHE_EMPTY, in 16 bits, so that the
 * row a lookup finds is known to be no index below 0; mstat_cache_key[row]
 * is its cache's address, | %MSTAT_CACHE_GONE once the cache was
 * destroyed, 0 for a row whose claim lost a race (it never counts
 * anything). An empty entry names the key past the last row's, always 0,
 * which no cache matches: a lookup compares the key its entry names with
 * no test of the entry first (caches-publish.litmus: the empty entry's
 * key is its z).
 */
#define MSTAT_CACHE_EMPTY	MSTAT_CACHE_ROWS_MAX
extern u16 mstat_cache_index[MSTAT_CACHE_INDEX];
extern unsigned long mstat_cache_key[MSTAT_CACHE_ROWS_MAX + 1];

static __always_inline unsigned int mstat_cache_hash(const void *cache)
{
	return hash_ptr(cache, MSTAT_CACHE_INDEX_BITS);
}

int mstat_cache_claim(const void *cache);
void mstat_cache_gone(const void *cache);

/* What mstat_cache_find_of() returns for a cache it found no row of. */
#define MSTAT_CACHE_MISS	(-2)

/*
 * One entry of @cache's probe window, @h: its row, or %MSTAT_CACHE_MISS
 * for an entry that is not its, empty or another's. @cache is not NULL.
 */
static __always_inline long mstat_cache_probe(const void *cache,
					      unsigned long h)
{
	/* A long, 0 to U16_MAX: the row, whose offset then needs no test. */
	long e = READ_ONCE(mstat_cache_index[h % MSTAT_CACHE_INDEX]);

	/*
	 * The key through the entry: an address dependency orders it, as
	 * a plain load after rcu_dereference() (caches-publish.litmus). A
	 * plain load, which the compare takes as its operand where
	 * READ_ONCE() took a register the section then had to save; racy
	 * only with a gone mark (data_race()), after which either value
	 * read names no cache that can still have events.
	 */
	if (data_race(mstat_cache_key[e]) == (unsigned long)cache)
		return e;
	return MSTAT_CACHE_MISS;
}

/**
 * mstat_cache_find_of() - the row an event of @cache counts in, if known
 * @cache: the cache, or NULL
 *
 * The probes' lookup: the first two entries of the cache's probe window,
 * unrolled, without the loop's counter, whose register the inlined
 * section would have to save (a cache further on in its window, where a
 * claim put it when both were taken, is found by mstat_cache_row_of(),
 * out of line, as a cache without a row is).
 *
 * Context: inside a write section of mstat_core.
 * Return: the row's index; -1: the event counts in the cache source's
 * size-class cells, as without the table; or %MSTAT_CACHE_MISS: no row
 * found here, mstat_cache_row_of() finds or claims it.
 */
static __always_inline long mstat_cache_find_of(const void *cache)
{
	unsigned long h;
	long r;

	BUILD_BUG_ON(MSTAT_CACHE_PROBES < 2);
	if (!static_branch_likely(&mstat_caches_key) || !cache)
		return -1;
	h = mstat_cache_hash(cache);
	r = mstat_cache_probe(cache, h);
	if (likely(r != MSTAT_CACHE_MISS))
		return r;
	return mstat_cache_probe(cache, h + 1);
}

/**
 * mstat_cache_row_of() - the row an event of @cache counts in, if any
 * @cache: the cache, or NULL
 *
 * mstat_cache_find_of(), and where it found none, mstat_cache_claim(),
 * which finds the cache's row further on in its window or claims one.
 *
 * Context: inside a write section of mstat_core (a claim must be over
 * before any reader can see the row's counts); any but NMI.
 * Return: the row's index, or -1: the event counts in the cache source's
 * size-class cells (no table, or it is full).
 */
static __always_inline int mstat_cache_row_of(const void *cache)
{
	long r = mstat_cache_find_of(cache);

	/* The claim walks the whole window first: a row further on is found. */
	return r == MSTAT_CACHE_MISS ? mstat_cache_claim(cache) : r;
}

/**
 * struct mstat_cache_stat - one row of a snapshot
 * @id: the row's id
 * @size: object size
 * @gone: the cache was destroyed
 * @allocs: allocations
 * @frees: frees
 * @failures: failed allocations
 * @at_load: the objects its cache held when counting began, as
 *	/proc/slabinfo counted them (mstat_caches_mark()); 0 for a cache
 *	made since, or none known
 * @name: the name, "" if unknown
 */
struct mstat_cache_stat {
	u32 id;
	u32 size;
	bool gone;
	u64 allocs;
	u64 frees;
	u64 failures;
	u64 at_load;
	char name[MSTAT_CACHE_NAME_LEN];
};

/* A line that says where the objects at load came from, or why none. */
#define MSTAT_CACHE_BASE_WHY	96

/**
 * struct mstat_caches_snap - the table as of one snapshot
 * @nr_rows: the table's size
 * @used: rows claimed
 * @enabled: per-cache counting was on at the read
 * @named: names could be read
 * @over: the overflow row (allocs, frees, failures, bytes_alloc and
 *	bytes_freed)
 * @cells: room for mstat_snapshot_read()'s cells, the rows added in
 * @at_load: the objects the caches held when counting began are known
 *	(then in each row's @at_load, and per class in @kcls_at_load)
 * @at_load_why: where they came from, or why they are not known
 * @kcls_at_load: per size class, the objects kmalloc's caches held when
 *	counting began
 * @n: rows with any count (rows without are left out)
 * @row: those rows, by id
 */
struct mstat_caches_snap {
	unsigned int nr_rows;
	unsigned int used;
	bool enabled;
	bool named;
	struct mstat_cell over;
	bool at_load;
	char at_load_why[MSTAT_CACHE_BASE_WHY];
	u64 kcls_at_load[MSTAT_NR_CLASSES];
	struct mstat_cells cells;
	unsigned int n;
	struct mstat_cache_stat row[];
};

int mstat_caches_init(unsigned int rows, bool enabled);
void mstat_caches_exit(void);
size_t mstat_caches_slot_size(void);
void mstat_caches_set_names(int name_off, const char *why);
void mstat_cache_name(const void *cache, char *buf);
void mstat_caches_set_kmem_cache(const void *kmem_cache);
const char *mstat_caches_names_why(void);
int mstat_caches_enable(bool on);
struct mstat_caches_snap *mstat_caches_alloc(void);
void mstat_caches_mark(void);
void mstat_caches_add(const u64 *total, struct mstat_cells *cells, void *arg);

#endif /* _MSTAT_CACHES_H */
