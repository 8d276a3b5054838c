/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slab allocator's layout, as far as mstat reads it (mstat_slab.c,
 * layer 4): which cache an object belongs to, whether that cache is one
 * of kmalloc's, and its object size. struct slab and struct kmem_cache
 * are private to mm/, so the three offsets are found at load and
 * validated there against caches whose pointers, flags and sizes are
 * known; until they are (and if they never are), mstat_slab_known is
 * off and callers size objects with ksize() as before.
 *
 * With the layout known, a kfree() of an object that kmem_cache_alloc()
 * gave is counted against the cache source, where its allocation was, and
 * a kmem_cache_alloc() from one of kmalloc's caches against the kmalloc
 * source: an object is counted in the source of the cache it lives in.
 */
#ifndef _MSTAT_SLAB_H
#define _MSTAT_SLAB_H

#include <linux/hash.h>
#include <linux/jump_label.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/types.h>

#include "mstat_compat.h"

/**
 * struct mstat_slab_layout - offsets found and validated at load
 * @cache: of the slab's struct kmem_cache pointer, in its head page
 * @flags: of the cache's slab_flags_t flags, in struct kmem_cache
 * @size: of the cache's object size (an unsigned int, what
 *	kmem_cache_size() returns), in struct kmem_cache
 */
struct mstat_slab_layout {
	unsigned int cache;
	unsigned int flags;
	unsigned int size;
};

extern struct mstat_slab_layout mstat_slab;
DECLARE_STATIC_KEY_FALSE(mstat_slab_known);

/* The cache of a slab's object, @head its slab's head. */
static __always_inline const void *mstat_slab_cache(const struct mstat_head *head)
{
	return *(const void *const *)((const char *)head + mstat_slab.cache);
}

/*
 * The cache of a slab object, or NULL for a large kmalloc (a compound
 * page of its own). The object must be allocated (a free's probe runs
 * before the free).
 */
static __always_inline const void *
mstat_slab_cache_of(const void *obj, struct mstat_head **head)
{
	*head = mstat_lm_head(obj);
	if (unlikely(!mstat_head_test_slab(*head)))
		return NULL;
	return mstat_slab_cache(*head);
}

#ifdef SLAB_KMALLOC
/* Whether @cache is one of kmalloc's (SLAB_KMALLOC). */
static __always_inline bool mstat_slab_is_kmalloc(const void *cache)
{
	u32 flags = *(const u32 *)((const char *)cache + mstat_slab.flags);

	return flags & (__force u32)SLAB_KMALLOC;
}
#else
/*
 * Before 5.19 no flag marks kmalloc's caches: the set of them (exported
 * kmalloc_caches[][], all made at boot), hashed, is looked up instead.
 */
#define MSTAT_SLAB_KMALLOC_BITS	7
extern const void *mstat_slab_kmalloc_set[1 << MSTAT_SLAB_KMALLOC_BITS];

static __always_inline bool mstat_slab_is_kmalloc(const void *cache)
{
	unsigned int i = hash_ptr((void *)cache, MSTAT_SLAB_KMALLOC_BITS);
	const void *e;

	for (;; i = (i + 1) & ((1 << MSTAT_SLAB_KMALLOC_BITS) - 1)) {
		e = mstat_slab_kmalloc_set[i];
		if (e == cache)
			return true;
		if (!e)
			return false;
	}
}
#endif

/* kmem_cache_size(), without the call. */
static __always_inline unsigned int mstat_slab_size(const void *cache)
{
	return *(const unsigned int *)((const char *)cache + mstat_slab.size);
}

int mstat_slab_init(void);
const char *mstat_slab_state(void);

#endif /* _MSTAT_SLAB_H */
