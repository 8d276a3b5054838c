// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cache statistics: the table's claims, its gone marks, and its part
 * of the snapshot (layer 1; see mstat_caches.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bsearch.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uio.h>

#include "mstat_caches.h"
#include "mstat_compat.h"
#include "mstat_text.h"

struct mstat_caches mstat_caches __read_mostly = { .name_off = -1 };
EXPORT_SYMBOL_IF_KUNIT(mstat_caches);
u16 mstat_cache_index[MSTAT_CACHE_INDEX];
unsigned long mstat_cache_key[MSTAT_CACHE_ROWS_MAX + 1];
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
		key = READ_ONCE(mstat_cache_key[e]);
		if (key == (unsigned long)cache) {
			*row = e;
			return -1;
		}
		if (at < 0 && (e == MSTAT_CACHE_EMPTY ||
			       (key & MSTAT_CACHE_GONE))) {
			at = h;
			*seen = e;
		}
		/* Past an empty entry no claim has put @cache. */
		if (e == MSTAT_CACHE_EMPTY)
			break;
	}
	return at;
}

/**
 * mstat_cache_claim() - give a cache seen for the first time a row
 * @cache: the struct kmem_cache
 *
 * Out of line: once per cache (and on every event of a cache whose probe
 * window is full of live caches' entries, or whose row sits past the two
 * entries the probes look at: found here, nothing written). It takes the first entry of
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
		e = cmpxchg(&mstat_cache_index[at], (u16)seen, (u16)r);
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
		if (e == MSTAT_CACHE_EMPTY)
			return;
		if (READ_ONCE(mstat_cache_key[e]) == (unsigned long)cache) {
			WRITE_ONCE(mstat_cache_key[e],
				   (unsigned long)cache | MSTAT_CACHE_GONE);
			return;
		}
	}
}

/*
 * The objects the caches held when counting began (format 1.8).
 *
 * A row counts its cache's events since then, so an object allocated
 * before and freed after would take its live count below zero. The only
 * interface that counts a cache's objects, on every kernel mstat loads
 * into, is /proc/slabinfo: mstat reads it right after the sources went
 * on at load and again after each reset (mstat_caches_mark()), through
 * the file's own seq_file (its proc_ops give no read_iter, so
 * kernel_read() refuses it), and a row's live objects are that count of
 * its cache plus its allocations minus its frees since; kmalloc's caches
 * are counted per size class, as the kmalloc_class rows.
 *
 * What slabinfo calls active includes the free objects on the per-CPU
 * slabs (and per-CPU partial slabs): the figure is at least the truth,
 * and above it by at most those, until the cache is shrunk. The
 * allocations and frees between the sources' switch and the read (a
 * walk of every cache's node lists: 5 to 47 ms for 178 caches in
 * 2-vCPU guests under TCG, and the log says how long) may fall on both
 * sides or on neither.
 *
 * A row takes the count of the cache with its name: the first row
 * claimed with that name, and never one that two caches share (which of
 * them held what is not known), nor a kmalloc cache's. A cache made
 * since counting began has none, so a cache destroyed and made again
 * under its old name before any event of its own is the one case that
 * would take the old one's.
 */

/* Of /proc/slabinfo; enough for thousands of caches, and a bound. */
#define MSTAT_SLABINFO_MAX	SZ_4M
#define MSTAT_BASE_NONE		U64_MAX	/* a row's count not looked up yet */

struct mstat_cache_base_ent {
	char name[MSTAT_CACHE_NAME_LEN];
	u64 objs;
	bool dup;
	bool kmalloc;
	bool taken;
};

/**
 * struct mstat_cache_base - the caches' objects when counting began
 * @why: where they came from (or, if @n is 0, why not known)
 * @ok: known
 * @kcls: per size class, the objects of kmalloc's caches
 * @row: per row of the table, its count, or %MSTAT_BASE_NONE while
 *	not yet looked up (by the reader, under mstat_cache_base_lock)
 * @n: entries in @ent
 * @ent: one per cache /proc/slabinfo named, sorted by name
 */
struct mstat_cache_base {
	char why[MSTAT_CACHE_BASE_WHY];
	bool ok;
	u64 kcls[MSTAT_NR_CLASSES];
	u64 *row;
	unsigned int n;
	struct mstat_cache_base_ent ent[];
};

static DEFINE_MUTEX(mstat_cache_base_lock);
static struct mstat_cache_base *mstat_cache_base;

/* /proc/slabinfo whole, NUL-terminated, or an ERR_PTR(). */
static char *mstat_slabinfo_read(size_t *len)
{
	size_t cap = SZ_64K, n = 0;
	struct file *f;
	char *buf = NULL, *p;
	ssize_t r = 0;
	loff_t pos = 0;

	f = filp_open("/proc/slabinfo", O_RDONLY, 0);
	if (IS_ERR(f))
		return ERR_CAST(f);
	for (;;) {
		struct kvec kv;
		struct iov_iter it;
		struct kiocb kio;

		if (!buf || n + 1 == cap) {
			if (buf && cap == MSTAT_SLABINFO_MAX) {
				r = -EFBIG;
				break;
			}
			if (buf)
				cap *= 2;
			p = kvmalloc(cap, GFP_KERNEL);
			if (!p) {
				r = -ENOMEM;
				break;
			}
			if (buf)
				memcpy(p, buf, n);
			kvfree(buf);
			buf = p;
		}
		kv.iov_base = buf + n;
		kv.iov_len = cap - n - 1;
		iov_iter_kvec(&it, READ, &kv, 1, kv.iov_len);
		init_sync_kiocb(&kio, f);
		kio.ki_pos = pos;
		/* The file is a seq_file of its own (slabinfo_open()). */
		r = seq_read_iter(&kio, &it);
		if (r <= 0)
			break;
		n += r;
		pos = kio.ki_pos;
	}
	filp_close(f, NULL);
	if (r < 0) {
		kvfree(buf);
		return ERR_PTR(r);
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int mstat_base_cmp(const void *a, const void *b)
{
	const struct mstat_cache_base_ent *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static struct mstat_cache_base_ent *
mstat_base_find(struct mstat_cache_base *b, const char *name)
{
	struct mstat_cache_base_ent key;

	strscpy(key.name, name, sizeof(key.name));
	return bsearch(&key, b->ent, b->n, sizeof(key), mstat_base_cmp);
}

/*
 * Into @b, the caches /proc/slabinfo's lines in @text name ("name
 * active_objs num_objs ..." after its two header lines): -EINVAL if its
 * header is not version 2.x's, or a line is malformed.
 */
static int mstat_base_parse(struct mstat_cache_base *b, char *text,
			    unsigned int max)
{
	char *line, *name, *objs;
	unsigned long long v;
	unsigned int i;

	line = strsep(&text, "\n");
	if (!line || !str_has_prefix(line, "slabinfo - version: 2."))
		return -EINVAL;
	while ((line = strsep(&text, "\n"))) {
		if (!*line || *line == '#')
			continue;
		name = strsep(&line, " ");
		if (!line)
			return -EINVAL;
		line = skip_spaces(line);
		objs = strsep(&line, " ");
		if (!*name || kstrtoull(objs, 10, &v) || b->n == max)
			return -EINVAL;
		strscpy(b->ent[b->n].name, name, MSTAT_CACHE_NAME_LEN);
		b->ent[b->n].objs = v;
		b->n++;
	}
	sort(b->ent, b->n, sizeof(b->ent[0]), mstat_base_cmp, NULL);
	/* Two caches of one name (or of one cut name): neither is known. */
	for (i = 1; i < b->n; i++)
		if (!strcmp(b->ent[i].name, b->ent[i - 1].name)) {
			b->ent[i].dup = true;
			b->ent[i - 1].dup = true;
		}
	return 0;
}

/* Adds a kmalloc cache's objects to its class; marks its entry. */
static void mstat_base_kmalloc(struct mstat_cache_base *b,
			       struct kmem_cache *s)
{
	struct mstat_cache_base_ent *e;
	char name[MSTAT_CACHE_NAME_LEN];

	mstat_cache_name(s, name);
	e = name[0] ? mstat_base_find(b, name) : NULL;
	if (!e || e->kmalloc)	/* not found, or seen: an alias */
		return;
	e->kmalloc = true;
	if (!e->dup)
		b->kcls[mstat_size_class(kmem_cache_size(s))] += e->objs;
}

/**
 * mstat_caches_mark() - read what the caches hold, as counting begins
 *
 * Right after the sources went on at load, and after each reset (as
 * mstat_kernel_mark()). The rows look their count up at the next
 * snapshot. If /proc/slabinfo cannot be read (a kernel without
 * CONFIG_SLUB_DEBUG, an LSM's refusal, no /proc in the loading task's
 * namespace), the counts are not known and rows count from zero, as
 * before 1.8: the log and the "# caches at load:" line say why.
 *
 * Context: process; sleeps.
 */
void mstat_caches_mark(void)
{
	struct mstat_cache_base *b, *old;
	unsigned int t, i, lines;
	size_t len;
	char *text;
	int err;
	u64 t0 = ktime_get_ns();

	text = mstat_slabinfo_read(&len);
	if (IS_ERR(text)) {
		err = PTR_ERR(text);
		text = NULL;
		lines = 0;
	} else {
		lines = 0;
		for (i = 0; i < len; i++)
			lines += text[i] == '\n';
		err = 0;
	}
	b = kvzalloc(struct_size(b, ent, lines), GFP_KERNEL);
	if (!b) {
		kvfree(text);
		pr_warn("caches at load: not known: %pe\n", ERR_PTR(-ENOMEM));
		b = NULL;
		goto swap;
	}
	if (!err)
		err = mstat_base_parse(b, text, lines);
	kvfree(text);
	if (!err && mstat_caches.nr_rows) {
		b->row = kvmalloc_array(mstat_caches.nr_rows, sizeof(*b->row),
					GFP_KERNEL);
		if (!b->row)
			err = -ENOMEM;
		else
			for (i = 0; i < mstat_caches.nr_rows; i++)
				b->row[i] = MSTAT_BASE_NONE;
	}
	if (err) {
		b->n = 0;
		snprintf(b->why, sizeof(b->why), "not known: /proc/slabinfo: %pe",
			 ERR_PTR(err));
		pr_warn("caches at load: %s\n", b->why);
		goto swap;
	}
	if (READ_ONCE(mstat_caches.name_off) < 0) {
		/* No names: nothing to look a count up by. */
		b->n = 0;
		strscpy(b->why, "not known: the caches' names are not known",
			sizeof(b->why));
		pr_warn("caches at load: %s\n", b->why);
		goto swap;
	}
	for (t = 0; t < NR_KMALLOC_TYPES; t++)
		for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++)
			if (kmalloc_caches[t][i])
				mstat_base_kmalloc(b, kmalloc_caches[t][i]);
	b->ok = true;
	snprintf(b->why, sizeof(b->why),
		 "/proc/slabinfo's active objects, %u caches, read in %llu us",
		 b->n, div_u64(ktime_get_ns() - t0, NSEC_PER_USEC));
	pr_info("caches at load: %s\n", b->why);
swap:
	mutex_lock(&mstat_cache_base_lock);
	old = mstat_cache_base;
	mstat_cache_base = b;
	mutex_unlock(&mstat_cache_base_lock);
	if (old)
		kvfree(old->row);
	kvfree(old);
}

/* A row's objects at load: looked up once, by its name. */
static u64 mstat_base_row(struct mstat_cache_base *b, unsigned int r,
			  const char *name)
{
	struct mstat_cache_base_ent *e;

	if (b->row[r] != MSTAT_BASE_NONE)
		return b->row[r];
	e = name[0] ? mstat_base_find(b, name) : NULL;
	b->row[r] = 0;
	if (e && !e->dup && !e->kmalloc && !e->taken) {
		e->taken = true;
		b->row[r] = e->objs;
	}
	return b->row[r];
}

/* Into @cs: the classes' counts, and whether they are known. */
static void mstat_base_snap(struct mstat_caches_snap *cs)
{
	struct mstat_cache_base *b = mstat_cache_base;
	unsigned int i;

	cs->at_load = b && b->ok;
	strscpy(cs->at_load_why, b ? b->why : "not read yet",
		sizeof(cs->at_load_why));
	if (!cs->at_load)
		return;
	for (i = 0; i < MSTAT_NR_CLASSES; i++)
		cs->kcls_at_load[i] = b->kcls[i];
}

/* Frees the counts at unload. */
static void mstat_base_free(void)
{
	mutex_lock(&mstat_cache_base_lock);
	if (mstat_cache_base)
		kvfree(mstat_cache_base->row);
	kvfree(mstat_cache_base);
	mstat_cache_base = NULL;
	mutex_unlock(&mstat_cache_base_lock);
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
	unsigned int i;

	/* An index entry, a row or %MSTAT_CACHE_EMPTY, is 16 bits. */
	BUILD_BUG_ON(MSTAT_CACHE_EMPTY > U16_MAX);
	if (rows > MSTAT_CACHE_ROWS_MAX)
		return -EINVAL;
	for (i = 0; i < MSTAT_CACHE_INDEX; i++)
		mstat_cache_index[i] = MSTAT_CACHE_EMPTY;
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
	mstat_base_free();
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
	struct mstat_cache_base *b;
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
	mutex_lock(&mstat_cache_base_lock);
	b = mstat_cache_base;
	mstat_base_snap(cs);
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
		o->at_load = cs->at_load ? mstat_base_row(b, r, o->name) : 0;
		cs->n++;
		/* Its events, into the cells as the hot path would have. */
		c = mstat_size_class(o->size);
		cache[c].allocs += o->allocs;
		cache[c].frees += o->frees;
		cache[c].bytes_alloc += o->allocs * o->size;
		cache[c].bytes_freed += o->frees * o->size;
		cache[0].failures += o->failures;
	}
	mutex_unlock(&mstat_cache_base_lock);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_caches_add);
