// SPDX-License-Identifier: GPL-2.0
/*
 * The heap profile's address table: the sampled objects live, by address,
 * so that a free finds the bucket of its sampled allocation
 * (mstat_profile.c). Bounded: profile_addrs entries, preallocated, on a
 * free list; twice as many chains, each under one of the hashed raw
 * spinlocks. The hot path reads a chain's head without its lock
 * (mstat_profile_held()): the free of an unsampled object costs one hash
 * and one load of an empty chain head. An entry also keeps when its
 * object was allocated, for its age.
 *
 * Layer 2, beside the profile: which entries to drop, and what an entry
 * counts, are the profile's, which walks the chains under their locks
 * (mstat_addr_lock(), mstat_profile.h); nothing here counts but the
 * entries in use.
 */
#include <linux/atomic.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "mstat_profile.h"

struct mstat_addr **mstat_addr_heads;
unsigned int mstat_addr_bits;
unsigned long mstat_addr_shift;
static struct mstat_addr *mstat_addr_pool, *mstat_addr_free;
raw_spinlock_t mstat_addr_locks[MSTAT_ADDR_LOCKS];
static DEFINE_RAW_SPINLOCK(mstat_addr_free_lock);
atomic_t mstat_addr_live;
unsigned int mstat_nr_addrs;

/**
 * mstat_addr_insert() - remember a sampled object
 * @ptr: the object
 * @b: its bucket
 * @size: its bytes
 * @epoch: mstat_profile_epoch() of the section that counted it
 *
 * Context: any but NMI.
 * Return: false if the table is full.
 */
bool mstat_addr_insert(unsigned long ptr, struct mstat_bucket *b, u64 size,
		       unsigned long epoch)
{
	unsigned int h = mstat_addr_hash(ptr);
	struct mstat_addr *a;
	unsigned long flags;

	raw_spin_lock_irqsave(&mstat_addr_free_lock, flags);
	a = mstat_addr_free;
	if (a)
		mstat_addr_free = a->next;
	raw_spin_unlock_irqrestore(&mstat_addr_free_lock, flags);
	if (!a)
		return false;
	a->ptr = ptr;
	a->b = b;
	a->size = size;
	a->time = ktime_get_boot_fast_ns();
	a->epoch = epoch;
	raw_spin_lock_irqsave(mstat_addr_lock(h), flags);
	a->next = mstat_addr_heads[h];
	WRITE_ONCE(mstat_addr_heads[h], a);
	raw_spin_unlock_irqrestore(mstat_addr_lock(h), flags);
	atomic_inc(&mstat_addr_live);
	return true;
}

/**
 * mstat_addr_remove() - unlink a freed object's entry
 * @ptr: the object
 *
 * The entry stays in use until mstat_addr_release().
 *
 * Context: any but NMI.
 * Return: @ptr's entry, or NULL if @ptr was not sampled.
 */
struct mstat_addr *mstat_addr_remove(unsigned long ptr)
{
	unsigned int h = mstat_addr_hash(ptr);
	struct mstat_addr *a, **pp;
	unsigned long flags;

	/* The common case, an unsampled object: one load, no lock. */
	if (!READ_ONCE(mstat_addr_heads[h]))
		return NULL;
	raw_spin_lock_irqsave(mstat_addr_lock(h), flags);
	for (pp = &mstat_addr_heads[h]; (a = *pp); pp = &a->next) {
		if (a->ptr == ptr) {
			WRITE_ONCE(*pp, a->next);
			break;
		}
	}
	raw_spin_unlock_irqrestore(mstat_addr_lock(h), flags);
	return a;
}

/**
 * mstat_addr_release() - give an unlinked entry back to the free list
 * @a: the entry, unlinked from its chain (mstat_addr_remove(), or by the
 *	profile's walks under the chain's lock)
 *
 * Context: any but NMI.
 */
void mstat_addr_release(struct mstat_addr *a)
{
	unsigned long flags;

	atomic_dec(&mstat_addr_live);
	raw_spin_lock_irqsave(&mstat_addr_free_lock, flags);
	a->next = mstat_addr_free;
	mstat_addr_free = a;
	raw_spin_unlock_irqrestore(&mstat_addr_free_lock, flags);
}

/**
 * mstat_addr_init() - allocate the address table
 * @addrs: its entries (sampled objects live at once)
 *
 * On failure, what it allocated is for mstat_addr_exit() to free.
 *
 * Context: process; sleeps.
 * Return: 0 or -ENOMEM.
 */
int mstat_addr_init(unsigned int addrs)
{
	unsigned int i;

	mstat_addr_bits = ilog2(roundup_pow_of_two(addrs * 2));
	mstat_addr_shift = BITS_PER_LONG - mstat_addr_bits;
	mstat_addr_pool = vzalloc(array_size(addrs, sizeof(*mstat_addr_pool)));
	mstat_addr_heads = vzalloc(array_size(1U << mstat_addr_bits,
					      sizeof(*mstat_addr_heads)));
	if (!mstat_addr_pool || !mstat_addr_heads)
		return -ENOMEM;
	mstat_nr_addrs = addrs;
	for (i = 0; i < addrs; i++) {
		mstat_addr_pool[i].next = mstat_addr_free;
		mstat_addr_free = &mstat_addr_pool[i];
	}
	for (i = 0; i < MSTAT_ADDR_LOCKS; i++)
		raw_spin_lock_init(&mstat_addr_locks[i]);
	return 0;
}

/**
 * mstat_addr_exit() - free the address table
 *
 * Context: process; no probe may run any more.
 */
void mstat_addr_exit(void)
{
	vfree(mstat_addr_heads);
	vfree(mstat_addr_pool);
	mstat_addr_heads = NULL;
	mstat_addr_pool = NULL;
	mstat_addr_free = NULL;
	mstat_nr_addrs = 0;
}
