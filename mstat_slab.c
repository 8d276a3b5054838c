// SPDX-License-Identifier: GPL-2.0
/*
 * The slab allocator's layout, found and validated at load (layer 4; see
 * mstat_slab.h for what it is for).
 *
 * Three offsets, each searched for among the first words of the struct,
 * and taken only if exactly one offset fits every known case. The known
 * cases are mstat's three caches, made for the search (odd object sizes,
 * a constructor so that none is merged, flags of which each pair
 * differs in known bits, the third with 256-byte alignment and objects
 * a page each, in the tail pages of its slab too), and every one of
 * kmalloc's caches (kmalloc_caches[][], exported; 13 normal ones on
 * x86-64, and their reclaimable, DMA and cgroup kin: the log says how
 * many):
 *
 *  - the cache pointer in a slab's head page: the word that equals the
 *    cache's pointer for 4 objects of each of mstat's caches (6.1: 24,
 *    after the slab list; 6.12: 8);
 *  - the flags in struct kmem_cache: the u32 that holds the flags mstat
 *    created each cache with and not SLAB_KMALLOC, whose value differs
 *    between any two of mstat's caches, among the bits mstat gives, in
 *    exactly the bits their flags differ in, and that holds SLAB_KMALLOC
 *    in every kmalloc cache. Before 5.19 no flag marks kmalloc's caches:
 *    the set of kmalloc_caches[][] is kept instead, and no flags are
 *    read;
 *  - the object size in struct kmem_cache: the u32 that equals
 *    kmem_cache_size() for mstat's caches (odd sizes, so that the
 *    struct's word-rounded sizes, size and inuse, differ from it, with or
 *    without slub_debug's red zones and tracking) and for every kmalloc
 *    cache.
 *
 * Then the three together, through the very accessors of the hot path
 * (mstat_slab.h): a kmalloc object of every class there is a cache for
 * (its object size, and one byte less) must be in a cache that is, by
 * address, one of kmalloc_caches[][], marked kmalloc, of the object size
 * that kmem_cache_size() and kmalloc_size_roundup() give; each object of
 * mstat's caches in its own cache, of its size, not marked kmalloc.
 *
 * What this proves. A false fit of the cache offset would be another
 * word in the slab's head page that holds the cache's address for 12
 * objects of three caches, and, for two objects of each kmalloc class, a
 * kmalloc cache of the right class: it would have to be a second copy of
 * the pointer, and would then be as right as the first. A false fit of
 * the object size would be a u32 that equals, in each of those caches,
 * what kmem_cache_size() returns, over sizes from 8 to 8192 and three
 * odd ones: another field holding the object size. A false fit of the flags
 * would be a u32 with SLAB_KMALLOC set in every kmalloc cache and in none
 * of mstat's, and whose bits, among the two mstat gives, change between
 * mstat's caches exactly as their flags do: both from the first to the
 * second, one from either to the third. The upper half of a pointer (the false fit of 7.3.4) is
 * the same in mstat's caches, and a size or count changes by other
 * values. None of this depends on the boot options (slub_debug changes
 * the room an object takes, red zones, flags; KFENCE and init_on_free the objects'
 * places and contents; slab_nomerge the merging): each is tested in make
 * check, and under each the search fits exactly once or refuses. What is
 * not proved is what no known value tells: a kernel whose struct keeps
 * these fields beyond the spans searched, or in other types, is refused.
 *
 * Every read of the search goes through copy_from_kernel_nofault(): a
 * wrong guess reads a wrong value, never faults. If any step fails, the
 * layout stays unknown, the log says why ("slab layout unknown (...)"),
 * and so does debugfs' internals, and objects are counted as without
 * it (ksize()).
 *
 * For the per-cache table (mstat_caches.h), two more, each on its own:
 *
 *  - the name in struct kmem_cache: the one word, within the struct,
 *    that points at "mstat_layout_a" in mstat's first cache, at
 *    "mstat_layout_b" in its second, "mstat_layout_c" in its third, and
 *    at "kmalloc-" and its object size ("kmalloc-96", "kmalloc-1k") in
 *    every one of kmalloc's normal caches (or the first of
 *    two, where the second is three words on: the name of the cache's
 *    kobject, after the list of caches, holds the same); found, it is
 *    checked once more on all of them, and the cache of struct kmem_cache
 *    objects must be named "kmem_cache" through it. Strings are read
 *    with mstat_string_nofault();
 *  - the cache that struct kmem_cache objects come from (whose frees mark
 *    a row gone): the cache of all of mstat's caches' structs, and of
 *    a kmalloc cache's, through the slab's cache offset.
 *
 * Without the name, rows have ids and no names; without the cache of
 * caches, no row is marked gone. Both are logged; the names' state is
 * said in /proc/mstat ("# caches:"), the gone marks' in debugfs'
 * internals (cache_gone_marks).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "mstat_caches.h"
#include "mstat_compat.h"
#include "mstat_mutant.h"
#include "mstat_profile.h"
#include "mstat_slab.h"
#include "mstat_stats.h"
#include "mstat_text.h"

struct mstat_slab_layout mstat_slab __read_mostly;
EXPORT_SYMBOL_IF_KUNIT(mstat_slab);
DEFINE_STATIC_KEY_FALSE(mstat_slab_known);
EXPORT_SYMBOL_IF_KUNIT(mstat_slab_known);

static const char *mstat_slab_why = "not looked for";

/* How far into each struct the search goes, in bytes. */
#define MSTAT_SLAB_SPAN_PAGE	64
#define MSTAT_SLAB_SPAN_CACHE	96
#define MSTAT_SLAB_SPAN_NAME	512
#define MSTAT_SLAB_OBJS		4

/*
 * mstat's own caches: odd sizes, never merged (ctor), and flags of which
 * each pair differs in a known set of bits. The third's objects, one to
 * a page of a higher-order slab, are in its tail pages too.
 */
#define MSTAT_SLAB_PROBES	3
static const struct {
	const char *name;
	unsigned int size;
	unsigned int align;
	slab_flags_t flags;
} mstat_slab_probe[MSTAT_SLAB_PROBES] = {
	{ "mstat_layout_a", 1001, 0, SLAB_HWCACHE_ALIGN },
	{ "mstat_layout_b", 203, 0, SLAB_RECLAIM_ACCOUNT },
	{ "mstat_layout_c", 4093, 256, SLAB_HWCACHE_ALIGN | SLAB_RECLAIM_ACCOUNT },
};

static void mstat_slab_ctor(void *obj)
{
}

static bool mstat_read_ulong(const void *base, unsigned int off,
			     unsigned long *val)
{
	return !copy_from_kernel_nofault(val, (const char *)base + off,
					 sizeof(*val));
}

static bool mstat_read_u32(const void *base, unsigned int off, u32 *val)
{
	return !copy_from_kernel_nofault(val, (const char *)base + off,
					 sizeof(*val));
}

struct mstat_slab_known_set {
	struct kmem_cache *cache[MSTAT_SLAB_PROBES];
	void *obj[MSTAT_SLAB_PROBES][MSTAT_SLAB_OBJS];
};

/* The one offset in a head page that holds every object's cache. */
static int mstat_slab_find_cache(struct mstat_slab_known_set *k)
{
	unsigned int off, i, j, found = 0, at = 0;
	unsigned long w;
	struct mstat_head *head;

	for (off = 0; off + sizeof(w) <= MSTAT_SLAB_SPAN_PAGE; off += sizeof(w)) {
		bool fits = true;

		for (i = 0; i < MSTAT_SLAB_PROBES && fits; i++) {
			for (j = 0; j < MSTAT_SLAB_OBJS && fits; j++) {
				head = mstat_virt_to_head(k->obj[i][j]);
				fits = mstat_head_test_slab(head) &&
				       mstat_read_ulong(head, off, &w) &&
				       w == (unsigned long)k->cache[i];
			}
		}
		if (fits) {
			found++;
			at = off;
		}
	}
	if (found != 1)
		return -ENOENT;
	mstat_slab.cache = at;
	return 0;
}

/* How many kmalloc caches the last mstat_slab_each_kmalloc() saw. */
static unsigned int mstat_slab_nkmalloc;

/* Every kmalloc cache there is, for @fn(cache, arg); false stops. */
static bool mstat_slab_each_kmalloc(bool (*fn)(struct kmem_cache *, unsigned int),
				    unsigned int off)
{
	unsigned int t, i;
	struct kmem_cache *s;
	int n = 0;

	for (t = 0; t < NR_KMALLOC_TYPES; t++) {
		for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
			s = kmalloc_caches[t][i];
			if (!s)
				continue;
			if (!fn(s, off))
				return false;
			n++;
		}
	}
	mstat_slab_nkmalloc = n;
	return n > 0;
}

static bool mstat_slab_size_fits(struct kmem_cache *s, unsigned int off)
{
	u32 w;

	return mstat_read_u32(s, off, &w) && w == kmem_cache_size(s);
}

#ifdef SLAB_KMALLOC
static bool mstat_slab_flags_kmalloc(struct kmem_cache *s, unsigned int off)
{
	u32 w;

	return mstat_read_u32(s, off, &w) && (w & (__force u32)SLAB_KMALLOC);
}

/*
 * The flags' offset: 0 if found, into mstat_slab.flags. The word must
 * hold the flags mstat gave each of its caches and not SLAB_KMALLOC, and
 * SLAB_KMALLOC in every kmalloc cache; and, between any two of mstat's
 * caches, differ in exactly the bits mstat gave them differently, among
 * the bits mstat gives any of them. Only those: the kernel
 * adds flags of its own, most to every cache alike (debug flags,
 * __CMPXCHG_DOUBLE, SLAB_KASAN), but some by the object's size (7.x sets
 * SLAB_OBJ_EXT_IN_OBJ where the alignment's slack holds the object's
 * slabobj_ext: in mstat_layout_a and _c, not in _b). A weaker test (the
 * words of two caches differ) let the upper half of the name pointer fit
 * on 7.3.4 in 2 boots of 10 (its bits depend on where KASLR put the
 * direct map: the same in all of mstat's caches, all ones in kmalloc's,
 * whose names are static); this one it cannot pass, nor can any word
 * that is the same in mstat's three caches.
 */
static int mstat_slab_find_flags(struct mstat_slab_known_set *k)
{
	unsigned int off, i, j, nflags = 0, fo = 0;
	u32 w[MSTAT_SLAB_PROBES], want, mask = 0;
	bool fits;

	for (i = 0; i < MSTAT_SLAB_PROBES; i++)
		mask |= (__force u32)mstat_slab_probe[i].flags;
	for (off = 0; off + sizeof(u32) <= MSTAT_SLAB_SPAN_CACHE;
	     off += sizeof(u32)) {
		fits = true;
		for (i = 0; i < MSTAT_SLAB_PROBES && fits; i++) {
			want = (__force u32)mstat_slab_probe[i].flags;
			fits = mstat_read_u32(k->cache[i], off, &w[i]) &&
			       (w[i] & want) == want &&
			       !(w[i] & (__force u32)SLAB_KMALLOC);
		}
		for (i = 0; i < MSTAT_SLAB_PROBES && fits; i++)
			for (j = i + 1; j < MSTAT_SLAB_PROBES && fits; j++)
				fits = ((w[i] ^ w[j]) & mask) ==
				       (__force u32)(mstat_slab_probe[i].flags ^
						     mstat_slab_probe[j].flags);
		if (fits &&
		    mstat_slab_each_kmalloc(mstat_slab_flags_kmalloc, off)) {
			if (nflags++)
				pr_info("slab layout: cache flags fit at %u and %u\n",
					fo, off);
			fo = off;
		}
	}
	if (nflags != 1) {
		mstat_slab_why = nflags ? "cache flags: more than one offset fits" :
					  "cache flags: no offset fits";
		return -ENOENT;
	}
	mstat_slab.flags = fo;
	return 0;
}
#else
const void *mstat_slab_kmalloc_set[1 << MSTAT_SLAB_KMALLOC_BITS];
static unsigned int mstat_slab_kmalloc_nr;

static bool mstat_slab_kmalloc_add(struct kmem_cache *s, unsigned int off)
{
	unsigned int i = hash_ptr(s, MSTAT_SLAB_KMALLOC_BITS);

	/* At most half full: a lookup always meets an empty entry. */
	if (mstat_slab_kmalloc_nr >= 1 << (MSTAT_SLAB_KMALLOC_BITS - 1))
		return false;
	while (mstat_slab_kmalloc_set[i] && mstat_slab_kmalloc_set[i] != s)
		i = (i + 1) & ((1 << MSTAT_SLAB_KMALLOC_BITS) - 1);
	if (!mstat_slab_kmalloc_set[i])
		mstat_slab_kmalloc_nr++;
	mstat_slab_kmalloc_set[i] = s;
	return true;
}

/*
 * No SLAB_KMALLOC (before 5.19): kmalloc's caches are the set of
 * kmalloc_caches[][], and the flags are not read.
 */
static int mstat_slab_find_flags(struct mstat_slab_known_set *k)
{
	if (!mstat_slab_each_kmalloc(mstat_slab_kmalloc_add, 0)) {
		mstat_slab_why = "kmalloc's caches: more than the set holds";
		return -ENOENT;
	}
	mstat_slab.flags = 0;
	return 0;
}
#endif

static int mstat_slab_find_fields(struct mstat_slab_known_set *k)
{
	unsigned int off, i, nsize = 0, so = 0;
	bool fits;
	u32 w;

	if (mstat_slab_find_flags(k))
		return -ENOENT;
	for (off = 0; off + sizeof(u32) <= MSTAT_SLAB_SPAN_CACHE;
	     off += sizeof(u32)) {
		fits = true;
		for (i = 0; i < MSTAT_SLAB_PROBES && fits; i++)
			fits = mstat_read_u32(k->cache[i], off, &w) &&
			       w == mstat_slab_probe[i].size &&
			       w == kmem_cache_size(k->cache[i]);
		if (fits && mstat_slab_each_kmalloc(mstat_slab_size_fits, off)) {
			nsize++;
			so = off;
		}
	}
	if (nsize != 1) {
		mstat_slab_why = nsize ? "object size: more than one offset fits" :
					 "object size: no offset fits";
		return -ENOENT;
	}
	mstat_slab.size = so;
	return 0;
}

/* Whether @s is one of kmalloc_caches[][], of any type. */
static bool mstat_slab_in_kmalloc_caches(const void *s)
{
	unsigned int t, i;

	for (t = 0; t < NR_KMALLOC_TYPES; t++)
		for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++)
			if (kmalloc_caches[t][i] == s)
				return true;
	return false;
}

/*
 * The three together, through the hot path's own accessors: a kmalloc
 * object of every class kmalloc has a cache for (the object size of each
 * of kmalloc's normal caches, and one byte less) must be in a cache that
 * is one of kmalloc_caches[][] (by address: with random kmalloc caches,
 * any of the class's), of the object size kmem_cache_size() says and
 * kmalloc_size_roundup() expects, marked kmalloc; and each object of
 * mstat's caches in its cache, of its size, not marked kmalloc.
 */
static int mstat_slab_check(struct mstat_slab_known_set *k)
{
	struct kmem_cache *kc;
	struct mstat_head *head;
	unsigned int i, j;
	const void *s;
	size_t size;
	void *obj;
	bool fits;

	for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		kc = kmalloc_caches[KMALLOC_NORMAL][i];
		if (!kc)
			continue;
		for (j = 0; j < 2; j++) {
			size = kmem_cache_size(kc) - j;
			OPTIMIZER_HIDE_VAR(size);
			obj = kmalloc(size, GFP_KERNEL);
			if (!obj)
				return -ENOMEM;
			s = mstat_slab_cache_of(obj, &head);
			kfree(obj);
			/* kmalloc's caches are never destroyed: s stays. */
			fits = s && mstat_slab_in_kmalloc_caches(s) &&
			       mstat_slab_is_kmalloc(s) &&
			       mstat_slab_size(s) == kmem_cache_size((struct kmem_cache *)s) &&
			       mstat_slab_size(s) == kmalloc_size_roundup(size);
			if (!fits)
				goto not_kmalloc;
		}
	}
	for (i = 0; i < MSTAT_SLAB_PROBES; i++) {
		for (j = 0; j < MSTAT_SLAB_OBJS; j++) {
			s = mstat_slab_cache_of(k->obj[i][j], &head);
			if (s != k->cache[i] || mstat_slab_is_kmalloc(s) ||
			    mstat_slab_size(s) != mstat_slab_probe[i].size) {
				mstat_slab_why = "mstat's objects not found in its caches";
				return -EINVAL;
			}
		}
	}
	return 0;

not_kmalloc:
	mstat_slab_why = "kmalloc objects not found in kmalloc caches of their size";
	return -EINVAL;
}

/* The string a name pointer at @off of @cache points at, or "". */
static void mstat_slab_name_at(const void *cache, unsigned int off,
			       char *buf, size_t size)
{
	unsigned long p;

	buf[0] = '\0';
	if (mstat_read_ulong(cache, off, &p))
		mstat_string_nofault(buf, (const char *)p, size);
}

/*
 * Whether the name at @off of one of kmalloc's normal caches is its name
 * by its object size, as kmalloc_info[] has it: "kmalloc-96",
 * "kmalloc-1k".
 */
static bool mstat_slab_name_kmalloc(struct kmem_cache *s, unsigned int off)
{
	unsigned int size = kmem_cache_size(s);
	char buf[24], want[24];

	if (size >= 1024 && !(size % 1024))
		snprintf(want, sizeof(want), "kmalloc-%uk", size / 1024);
	else
		snprintf(want, sizeof(want), "kmalloc-%u", size);
	mstat_slab_name_at(s, off, buf, sizeof(buf));
	return !strcmp(buf, want);
}

/* Whether the name at @off fits mstat's caches and kmalloc's. */
static bool mstat_slab_name_fits(struct mstat_slab_known_set *k,
				 unsigned int off)
{
	char buf[MSTAT_CACHE_NAME_LEN];
	unsigned int i;

	for (i = 0; i < MSTAT_SLAB_PROBES; i++) {
		mstat_slab_name_at(k->cache[i], off, buf, sizeof(buf));
		if (strcmp(buf, mstat_slab_probe[i].name))
			return false;
	}
	for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++)
		if (kmalloc_caches[KMALLOC_NORMAL][i] &&
		    !mstat_slab_name_kmalloc(kmalloc_caches[KMALLOC_NORMAL][i],
					     off))
			return false;
	return true;
}

/*
 * The name's offset, for the per-cache table; -1 and why if none.
 */
static int mstat_slab_find_name(struct mstat_slab_known_set *k,
				const char **why)
{
	unsigned int off, span, found = 0, at = 0, second = 0;

	span = min_t(size_t, ksize(k->cache[0]), MSTAT_SLAB_SPAN_NAME);
	for (off = 0; off + sizeof(long) <= span; off += sizeof(long)) {
		if (!mstat_slab_name_fits(k, off))
			continue;
		if (!found++)
			at = off;
		else
			second = off;
	}
	/*
	 * With sysfs, the cache's kobject follows its name and its list
	 * node, and the kobject's name, its first word, is the same string
	 * for caches that are never merged (mstat's, and kmalloc's where
	 * they are not): the one other offset that may fit, three words on.
	 */
	if (found == 2 && second == at + 3 * sizeof(long))
		found = 1;
	if (found != 1) {
		*why = found ? "names: more than one offset fits" :
			       "names: no offset fits";
		return -1;
	}
	if (mstat_mutant(MSTAT_MUT_NAME_OFF))
		at += sizeof(long);
	/* Found on all of them: now validated on all of them again. */
	if (!mstat_slab_name_fits(k, at)) {
		*why = "names: the offset found does not validate";
		return -1;
	}
	*why = "names: validated on mstat's three caches and kmalloc's";
	return at;
}

/* The cache of a slab object, through the cache offset found, or NULL. */
static const void *mstat_slab_read_cache_of(const void *obj)
{
	struct mstat_head *head = mstat_virt_to_head(obj);
	unsigned long w;

	if (!mstat_head_test_slab(head) ||
	    !mstat_read_ulong(head, mstat_slab.cache, &w))
		return NULL;
	return (const void *)w;
}

/*
 * The cache that struct kmem_cache objects come from: the one cache that
 * holds mstat's caches' structs and kmalloc's first's, named
 * "kmem_cache" (if the name is known). NULL if not found.
 */
static const void *mstat_slab_find_kmem_cache(struct mstat_slab_known_set *k,
					      int name_off)
{
	const void *kc = mstat_slab_read_cache_of(k->cache[0]);
	char buf[16];
	unsigned int i;

	if (!kc)
		return NULL;
	for (i = 1; i < MSTAT_SLAB_PROBES; i++)
		if (mstat_slab_read_cache_of(k->cache[i]) != kc)
			return NULL;
	for (i = 0; i <= KMALLOC_SHIFT_HIGH; i++) {
		if (!kmalloc_caches[KMALLOC_NORMAL][i])
			continue;
		if (mstat_slab_read_cache_of(kmalloc_caches[KMALLOC_NORMAL][i]) != kc)
			return NULL;
		break;
	}
	if (name_off >= 0) {
		mstat_slab_name_at(kc, name_off, buf, sizeof(buf));
		if (strcmp(buf, "kmem_cache"))
			return NULL;
	}
	return kc;
}

/* What the per-cache table can have: names, and gone marks. */
static void mstat_slab_for_caches(struct mstat_slab_known_set *k,
				  bool cache_found)
{
	const char *why;
	int name_off = mstat_slab_find_name(k, &why);
	const void *kc = NULL;

	mstat_caches_set_names(name_off, why);
	if (name_off < 0)
		pr_warn("per-cache rows have no names (%s)\n", why);
	else
		pr_info("cache names at %d in struct kmem_cache (%s)\n",
			name_off, why);
	if (cache_found)
		kc = mstat_slab_find_kmem_cache(k, name_off);
	if (kc)
		mstat_caches_set_kmem_cache(kc);
	else
		pr_warn("cache of struct kmem_cache not found: a destroyed cache's row is not marked gone\n");
}

static int mstat_slab_discover(void)
{
	struct mstat_slab_known_set k = {};
	unsigned int i, j;
	int err = 0;

	for (i = 0; i < MSTAT_SLAB_PROBES; i++) {
		k.cache[i] = kmem_cache_create(mstat_slab_probe[i].name,
					       mstat_slab_probe[i].size,
					       mstat_slab_probe[i].align,
					       mstat_slab_probe[i].flags,
					       mstat_slab_ctor);
		if (!k.cache[i]) {
			err = -ENOMEM;
			goto out;
		}
		for (j = 0; j < MSTAT_SLAB_OBJS; j++) {
			k.obj[i][j] = kmem_cache_alloc(k.cache[i], GFP_KERNEL);
			if (!k.obj[i][j]) {
				err = -ENOMEM;
				goto out;
			}
		}
	}
	err = mstat_slab_find_cache(&k);
	mstat_slab_for_caches(&k, !err);
	if (err) {
		mstat_slab_why = "no single offset of the cache in a slab's page";
		goto out;
	}
	err = mstat_slab_find_fields(&k);
	if (!err)
		err = mstat_slab_check(&k);
out:
	for (i = 0; i < MSTAT_SLAB_PROBES; i++) {
		for (j = 0; j < MSTAT_SLAB_OBJS; j++)
			if (k.obj[i][j])
				kmem_cache_free(k.cache[i], k.obj[i][j]);
		kmem_cache_destroy(k.cache[i]);
	}
	if (err == -ENOMEM)
		mstat_slab_why = "out of memory while looking";
	return err;
}

/* The heap profile's cache label: the cache of an allocated object. */
static const void *mstat_slab_cache_label(const void *obj)
{
	struct mstat_head *head;

	return mstat_slab_cache_of(obj, &head);
}

/**
 * mstat_slab_init() - find and validate the slab layout
 *
 * Turns mstat_slab_known on if every check passed.
 *
 * Context: process; sleeps. Before any probe that reads the layout.
 * Return: 0, or -ENOMEM (nothing else is fatal: an unknown layout is
 * logged, and mstat counts on without it).
 */
int mstat_slab_init(void)
{
	int err = mstat_slab_discover();

	if (!err && mstat_mutant(MSTAT_MUT_NO_LAYOUT)) {
		mstat_slab_why = "not used (a test build)";
		err = -EPERM;
	}
	if (err) {
		pr_warn("slab layout unknown (%s): a kfree() of a cache's object counts as a kmalloc free\n",
			mstat_slab_why);
		return err == -ENOMEM ? err : 0;
	}
	mstat_slab_why = "validated";
	static_branch_enable(&mstat_slab_known);
	mstat_profile_set_cache_of(mstat_slab_cache_label);
	pr_info("slab layout validated on %u entries of kmalloc_caches[][] and %u caches of mstat's (cache at %u in the page, flags at %u, object size at %u)\n",
		mstat_slab_nkmalloc, MSTAT_SLAB_PROBES, mstat_slab.cache,
		mstat_slab.flags, mstat_slab.size);
	return 0;
}

/**
 * mstat_slab_state() - "validated", or why the layout is unknown
 *
 * Return: a constant string.
 */
const char *mstat_slab_state(void)
{
	return mstat_slab_why;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_slab_state);
