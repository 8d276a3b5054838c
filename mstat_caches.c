// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cache statistics: the table's claims, its gone marks, and its part
 * of the snapshot (layer 1; see mstat_caches.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mstat_caches.h"
#include "mstat_compat.h"
#include "mstat_text.h"

struct mstat_caches mstat_caches __read_mostly = { .name_off = -1 };
EXPORT_SYMBOL_IF_KUNIT(mstat_caches);
u32 mstat_cache_index[MSTAT_CACHE_INDEX];
unsigned long mstat_cache_key[MSTAT_CACHE_ROWS_MAX];
DEFINE_STATIC_KEY_FALSE(mstat_caches_key);
EXPORT_SYMBOL_IF_KUNIT(mstat_caches_key);

static const char *mstat_caches_why = "not looked for";

/**
 * mstat_cache_name() - a cache's name, read through the validated offset
 * @cache: the cache
 * @buf: %MSTAT_CACHE_NAME_LEN bytes, the name (cut to fit) or ""
 *
 * "" also before the offset is known or when it cannot be read.
 */
void mstat_cache_name(const void *cache, char *buf)
{
	int off = READ_ONCE(mstat_caches.name_off);
	const char *name;

	buf[0] = '\0';
	if (off < 0 ||
	    copy_from_kernel_nofault(&name, (const char *)cache + off,
				     sizeof(name)))
		return;
	mstat_string_nofault(buf, name, MSTAT_CACHE_NAME_LEN);
}

/*
 * The first entry of @cache's probe window that a claim may take: empty,
 * or naming a gone row. -1 if there is none, or if the window names
 * @cache already (*@row is then its row).
 */
static int mstat_cache_index_entry(const void *cache, u32 *seen, int *row)
{
	unsigned int h = mstat_cache_hash(cache);
	unsigned int i;
	int at = -1;
	unsigned long key;
	u32 e;

	*row = -1;
	for (i = 0; i < MSTAT_CACHE_PROBES; i++, h = (h + 1) % MSTAT_CACHE_INDEX) {
		e = READ_ONCE(mstat_cache_index[h]);
		key = e ? READ_ONCE(mstat_cache_key[e - 1]) : 0;
		if (e && key == (unsigned long)cache) {
			*row = e - 1;
			return -1;
		}
		if (at < 0 && (!e || (key & MSTAT_CACHE_GONE))) {
			at = h;
			*seen = e;
		}
		/* Past an empty entry no claim has put @cache. */
		if (!e)
			break;
	}
	return at;
}

/**
 * mstat_cache_claim() - give a cache seen for the first time a row
 * @cache: the struct kmem_cache
 *
 * Out of line: once per cache (and on every event of a cache whose probe
 * window is full of live caches' entries). It takes the first entry of
 * the window that is empty or a gone row's. Two CPUs that meet a new
 * cache at once go for the same entry; the one whose cmpxchg() loses
 * finds the winner's row there and leaves its own unused (key 0: the
 * table loses a row). Only a gone mark landing between their two looks
 * could send them to two entries, and the cache's events to two rows.
 *
 * Context: inside a write section of mstat_core; any but NMI.
 * Return: the row's index, or -1 (no row: the overflow row).
 */
noinline int mstat_cache_claim(const void *cache)
{
	struct mstat_cache_row *row;
	int at, r, found;
	u32 seen = 0, e;

	at = mstat_cache_index_entry(cache, &seen, &found);
	if (at < 0)
		return found;
	r = atomic_fetch_add_unless(&mstat_caches.used, 1,
				    mstat_caches.nr_rows);
	if (r == mstat_caches.nr_rows)
		return -1;
	row = &mstat_caches.row[r];
	row->id = r + 1;
	row->size = kmem_cache_size((struct kmem_cache *)cache);
	mstat_cache_name(cache, row->name);
	WRITE_ONCE(mstat_cache_key[r], (unsigned long)cache);

	for (;;) {
		/* Fully ordered: the row's fields and key before the entry. */
		e = cmpxchg(&mstat_cache_index[at], seen, r + 1);
		if (e == seen)
			return r;
		at = mstat_cache_index_entry(cache, &seen, &found);
		if (at < 0)
			break;
	}
	WRITE_ONCE(mstat_cache_key[r], 0);
	return found;
}

/**
 * mstat_cache_gone() - mark the row of a destroyed cache
 * @cache: the struct kmem_cache being freed
 *
 * From the free of the struct itself: every object of the cache is
 * freed, and the address is not yet anyone else's. A cache created later
 * at the same address finds no row with its key and claims its own.
 *
 * Context: any but NMI.
 */
void mstat_cache_gone(const void *cache)
{
	unsigned int h = mstat_cache_hash(cache);
	unsigned int i;
	u32 e;

	for (i = 0; i < MSTAT_CACHE_PROBES; i++, h = (h + 1) % MSTAT_CACHE_INDEX) {
		e = READ_ONCE(mstat_cache_index[h]);
		if (!e)
			return;
		if (READ_ONCE(mstat_cache_key[e - 1]) == (unsigned long)cache) {
			WRITE_ONCE(mstat_cache_key[e - 1],
				   (unsigned long)cache | MSTAT_CACHE_GONE);
			return;
		}
	}
}

/**
 * mstat_caches_init() - allocate the table
 * @rows: its rows, 0 to %MSTAT_CACHE_ROWS_MAX; 0: every cache event
 *	counts in the overflow row
 * @enabled: whether per-cache counting starts on
 *
 * Context: process; sleeps. Before mstat_stats_init(), which sizes the
 * core's slots with mstat_caches_slot_size().
 * Return: 0, -EINVAL for too many @rows, or -ENOMEM.
 */
int mstat_caches_init(unsigned int rows, bool enabled)
{
	if (rows > MSTAT_CACHE_ROWS_MAX)
		return -EINVAL;
	mstat_caches.nr_rows = rows;
	atomic_set(&mstat_caches.used, 0);
	if (!rows)
		return 0;
	mstat_caches.row = kvcalloc(rows, sizeof(*mstat_caches.row),
				    GFP_KERNEL);
	if (!mstat_caches.row) {
		mstat_caches.nr_rows = 0;
		return -ENOMEM;
	}
	if (enabled)
		static_branch_enable(&mstat_caches_key);
	return 0;
}

/**
 * mstat_caches_exit() - free the table
 *
 * Context: no write section may run or start any more.
 */
void mstat_caches_exit(void)
{
	static_branch_disable(&mstat_caches_key);
	kvfree(mstat_caches.row);
	mstat_caches.row = NULL;
	mstat_caches.nr_rows = 0;
}

/**
 * mstat_caches_slot_size() - bytes of one core slot, the table's included
 *
 * Return: sizeof(struct mstat_slot) and one cell per row.
 */
size_t mstat_caches_slot_size(void)
{
	return sizeof(struct mstat_slot) +
	       array_size(mstat_caches.nr_rows, sizeof(struct mstat_cache_cell));
}

/**
 * mstat_caches_set_names() - where a cache's name is, or why unknown
 * @name_off: offset of the name pointer in struct kmem_cache, validated;
 *	-1 if there is none
 * @why: what the validation found, a constant string
 *
 * Rows claimed before this have no name.
 */
void mstat_caches_set_names(int name_off, const char *why)
{
	WRITE_ONCE(mstat_caches.name_off, name_off);
	mstat_caches_why = why;
}

/**
 * mstat_caches_set_kmem_cache() - the cache of struct kmem_cache objects
 * @kmem_cache: that cache, validated; its frees mark rows gone
 *
 * Context: before the cache source's probes are registered.
 */
void mstat_caches_set_kmem_cache(const void *kmem_cache)
{
	mstat_caches.kmem_cache = kmem_cache;
}

/**
 * mstat_caches_names_why() - how the names were found, or why not
 *
 * Return: a constant string.
 */
const char *mstat_caches_names_why(void)
{
	return mstat_caches_why;
}

/**
 * mstat_caches_enable() - switch per-cache counting on or off
 * @on: the new state
 *
 * While off, every cache event counts in the overflow row.
 *
 * Context: process; sleeps.
 * Return: 0, or -ENODEV to switch on a table of no rows.
 */
int mstat_caches_enable(bool on)
{
	if (on && !mstat_caches.nr_rows)
		return -ENODEV;
	if (on)
		static_branch_enable(&mstat_caches_key);
	else
		static_branch_disable(&mstat_caches_key);
	return 0;
}

/**
 * mstat_caches_alloc() - room for a snapshot of the table
 *
 * Return: a zeroed &struct mstat_caches_snap with room for every row
 * (free with kvfree()), or NULL.
 */
struct mstat_caches_snap *mstat_caches_alloc(void)
{
	struct mstat_caches_snap *cs;

	return kvzalloc(struct_size(cs, row, mstat_caches.nr_rows),
			GFP_KERNEL);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_caches_alloc);

/**
 * mstat_caches_add() - the table's part of a snapshot
 * @total: the cut's totals, a slot's layout (struct mstat_slot)
 * @cells: the cut's cells, copied; the rows' events are added into the
 *	cache source's
 * @arg: the &struct mstat_caches_snap that gets the rows
 *
 * The adder that mstat_snapshot_read() calls, for a snapshot with the
 * per-cache rows: a kmem_cache event with a row counts in its row alone,
 * so the cache source's cells hold what had none (the overflow row), and
 * the rows are added in as the hot path would have counted them.
 *
 * Context: under the reader's lock, right after the fold: the totals are
 * a cut.
 */
void mstat_caches_add(const u64 *total, struct mstat_cells *cells, void *arg)
{
	const struct mstat_slot *t = (const struct mstat_slot *)total;
	struct mstat_caches_snap *cs = arg;
	unsigned int r, c, used = atomic_read(&mstat_caches.used);
	struct mstat_cell *cache = cells->cell[MSTAT_SRC_CACHE];
	unsigned long key;

	cs->nr_rows = mstat_caches.nr_rows;
	cs->used = min(used, cs->nr_rows);
	cs->enabled = static_key_enabled(&mstat_caches_key);
	cs->named = READ_ONCE(mstat_caches.name_off) >= 0;
	/* The cache source's cells hold what had no row: the overflow. */
	memset(&cs->over, 0, sizeof(cs->over));
	for (c = 0; c < MSTAT_NR_CLASSES; c++) {
		cs->over.allocs += cache[c].allocs;
		cs->over.frees += cache[c].frees;
		cs->over.failures += cache[c].failures;
		cs->over.bytes_alloc += cache[c].bytes_alloc;
		cs->over.bytes_freed += cache[c].bytes_freed;
	}
	cs->n = 0;
	for (r = 0; r < cs->used; r++) {
		const struct mstat_cache_cell *e = &t->row[r];
		const struct mstat_cache_row *row = &mstat_caches.row[r];
		struct mstat_cache_stat *o = &cs->row[cs->n];

		/*
		 * A row with counts was claimed by a section this cut holds
		 * whole: its fields are written. One without is left out.
		 */
		if (!e->allocs && !e->frees && !e->failures)
			continue;
		key = READ_ONCE(mstat_cache_key[r]);
		o->id = row->id;
		o->size = row->size;
		o->gone = key & MSTAT_CACHE_GONE;
		o->allocs = e->allocs;
		o->frees = e->frees;
		o->failures = e->failures;
		memcpy(o->name, row->name, sizeof(o->name));
		cs->n++;
		/* Its events, into the cells as the hot path would have. */
		c = mstat_size_class(o->size);
		cache[c].allocs += o->allocs;
		cache[c].frees += o->frees;
		cache[c].bytes_alloc += o->allocs * o->size;
		cache[c].bytes_freed += o->frees * o->size;
		cache[0].failures += o->failures;
	}
}
EXPORT_SYMBOL_IF_KUNIT(mstat_caches_add);

