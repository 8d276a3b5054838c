// SPDX-License-Identifier: GPL-2.0
/*
 * vm areas and percpu objects (layer 4): the kernel memory that neither
 * the slab nor the page events name as what it is.
 *
 *  - A vm area is counted when __get_vm_area_node() returns it, which
 *    every vmalloc(), vmap(), ioremap() and get_vm_area() goes through,
 *    and freed when remove_vm_area() returns it, which vfree(), vunmap(),
 *    iounmap() and free_vm_area() go through (mstat_kprobes.c's kretprobes):
 *    both ends read the same struct vm_struct, so its kind (its VM_ALLOC,
 *    VM_MAP or VM_IOREMAP flag), its bytes (its size without the guard
 *    page) and its caller are the same at the free as at the allocation.
 *    A vmalloc() area's bytes are its pages once vmalloc() has filled it
 *    (a huge mapping's too: its size is rounded to the huge page, and so
 *    are its pages); a vmalloc() that fails frees its area the same way.
 *  - A percpu object is counted by the percpu_alloc_percpu event (its
 *    bytes on all possible CPUs) and freed by percpu_free_percpu, which
 *    does not say its size.
 *
 * So each source keeps a table of the objects it counted, by address (a
 * vm area's start, a percpu pointer), which is also their key in the
 * heap profile: a
 * free is counted only for an object in it, with the bytes and kind its
 * allocation was counted with, and the live counts are objects counted
 * and not freed, never negative, whatever the kernel allocated before
 * mstat. A free of an object the table does not hold (allocated before
 * the source was on, or while the table was full) is shown beside, as
 * the source's unknown frees. The table is an open-addressed hash, its
 * capacity fixed at load (kmem_objects); a full table's allocations are
 * not counted, and are shown as untracked. Both ends take the table's
 * raw spinlock, with interrupts off, and count inside it, so that a
 * snapshot never sees the free of an object before its allocation. These
 * are slow paths of the kernel (a vmalloc() maps pages; a percpu
 * allocation takes the percpu allocator's own global lock).
 *
 * Switching a source off forgets its table: each object in it counts as
 * freed then, so its live counts read 0 while it is off, and count again
 * from what is allocated once it is back on.
 *
 * Whose the objects are: each table also keeps its owners, a row per
 * (caller, cgroup, kind) of the objects counted since the last reset
 * (struct mstat_owner), updated under the same lock by the same counts,
 * so that a read of the rows, under one hold of the lock, sums to the
 * objects the table holds from since the last reset: exact, where a walk
 * of the objects themselves, a batch of slots per hold, would not be. An
 * object keeps its row, so that its free takes its bytes from the cgroup
 * that allocated it, whichever task frees it. Rows are never taken
 * back before a reset; past MSTAT_OWNER_ROWS - 1 of them, new owners
 * count in the last row, "other".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/kasan.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "mstat_compat.h"
#include "mstat_count.h"
#include "mstat_mutant.h"
#include "mstat_profile.h"
#include "mstat_text.h"
#include "mstat_vmem.h"

/*
 * One counted object: its address, what it is (@owner), caller, bytes
 * and cell, and the reset epoch of the write section that counted it (the
 * low bits of mstat_profile_epoch(): a reset is rare, and an object older
 * than 2^32 resets is as unlikely as its address's reuse).
 *
 * @owner is a vm area's struct vm_struct, or for a percpu object where it
 * lies (%MSTAT_PERCPU_FIRST or 0: mstat_percpu_owner()). A vm area's
 * address can be given again before remove_vm_area()'s return probe saw
 * it go. free_unmap_vmap_area(), inside remove_vm_area(), frees the
 * address; another CPU's __get_vm_area_node() may return it for a new
 * area first, whose allocation counts the old area's free (unseen, its
 * address reused) and takes its slot. The late return probe of the first
 * removal must then not free the new area: its struct vm_struct is still
 * the old one's (freed by remove_vm_area()'s caller only after the
 * probe), never the new one's, so a free whose owner is not the slot's
 * is an unknown free, as the free of any object the table does not hold.
 */
struct mstat_obj {
	unsigned long key;		/* 0: an empty slot */
	unsigned long owner;
	unsigned long site;
	u64 bytes;
	u16 cell;
	u16 row;			/* its row of the owners' table */
	u32 epoch;
};

/* Index slots of the owners' table: twice its rows, a power of two. */
#define MSTAT_OWNER_BITS	(ilog2(MSTAT_OWNER_ROWS) + 1)
#define MSTAT_OWNER_OTHER	(MSTAT_OWNER_ROWS - 1)

/*
 * The owners of a table's objects (the file's comment): @row[0..@nr),
 * and @row[MSTAT_OWNER_OTHER] once an owner found them full; @index, an
 * open-addressed hash of (site, cgroup, kind), holds 1 + a row's number
 * (0: empty), never deleted from but all at once. @epoch is the reset
 * epoch the rows count since (mstat_vmem_epoch()): the first count of a
 * later one clears them, as mstat_vmem_boot() its bytes.
 */
struct mstat_owners {
	struct mstat_owner *row;
	u16 *index;
	unsigned int nr;
	u32 epoch;
};

struct mstat_objtab {
	raw_spinlock_t lock;
	struct mstat_obj *slot;
	unsigned int bits;
	unsigned int nr;		/* slots in use */
	unsigned int max;		/* at most 3/4 of the slots */
	unsigned long untracked;
	unsigned long unknown_frees;
	unsigned long unknown_bytes;
	u64 boot_bytes;			/* mstat_vmem_boot()'s */
	u32 boot_epoch;
	struct mstat_owners own;
};

/* The vmalloc source's table, then the percpu source's. */
static struct mstat_objtab mstat_tabs[2] = {
	{ .lock = __RAW_SPIN_LOCK_UNLOCKED(mstat_tabs[0].lock) },
	{ .lock = __RAW_SPIN_LOCK_UNLOCKED(mstat_tabs[1].lock) },
};

static struct mstat_objtab *mstat_tab(enum mstat_source src)
{
	return &mstat_tabs[src == MSTAT_SRC_PERCPU];
}

static unsigned int mstat_tab_home(const struct mstat_objtab *t,
				   unsigned long key)
{
	return hash_long(key, t->bits);
}

/* The slot holding @key, or -1. */
static int mstat_tab_find(const struct mstat_objtab *t, unsigned long key)
{
	unsigned int mask = (1U << t->bits) - 1;
	unsigned int i = mstat_tab_home(t, key);

	while (t->slot[i].key) {
		if (t->slot[i].key == key)
			return i;
		i = (i + 1) & mask;
	}
	return -1;
}

/*
 * Empty slot @i, moving back each later entry of its run that may go
 * there (linear probing's deletion, no tombstones).
 */
static void mstat_tab_delete(struct mstat_objtab *t, unsigned int i)
{
	unsigned int mask = (1U << t->bits) - 1;
	unsigned int j = i, home;

	for (;;) {
		j = (j + 1) & mask;
		if (!t->slot[j].key)
			break;
		home = mstat_tab_home(t, t->slot[j].key);
		/* Whether @home lies cyclically in (i, j]: then it stays. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		t->slot[i] = t->slot[j];
		i = j;
	}
	t->slot[i].key = 0;
	t->nr--;
}

/* The reset epoch of open section @s, as an object keeps it. */
static u32 mstat_vmem_epoch(const struct mstat_section *s)
{
	return mstat_profile_epoch(mstat_section_slot(&mstat_core, s));
}

/*
 * Whether @o was counted in @s's epoch, since the last reset: if not, its
 * allocation was cleared with the totals, and so must its free be.
 */
static bool mstat_vmem_current(const struct mstat_section *s,
			       const struct mstat_obj *o)
{
	return o->epoch == mstat_vmem_epoch(s) ||
	       mstat_mutant(MSTAT_MUT_RESET_KEEPS_TABLES);
}

/* A percpu object's @owner: in boot's first chunk, or in a later one. */
#define MSTAT_PERCPU_FIRST	1UL

/*
 * Where percpu object @ptr lies: in the first chunk, which boot took
 * from memblock (pcpu_embed_first_chunk(): in the linear map) and which
 * is not in MemTotal, though Percpu counts its pages; or in a chunk made
 * since, of vmalloc'd pages (mm/percpu-vm.c). A first chunk of pages
 * (percpu_alloc=page, or where embedding fails) is vmalloc'd too, and is
 * not told apart: its objects count as a later chunk's.
 */
static unsigned int mstat_percpu_cpu __read_mostly;	/* a possible CPU */

static unsigned long mstat_percpu_owner(const void __percpu *ptr)
{
	void *addr = per_cpu_ptr((void __percpu *)ptr, mstat_percpu_cpu);

	return is_vmalloc_addr(addr) ? 0 : MSTAT_PERCPU_FIRST;
}

/*
 * Add @bytes (negative: take them) to @t's live bytes in the first
 * percpu chunk, which count objects counted since the last reset only:
 * the first change after a reset (@s's epoch newer than theirs) starts
 * them again from zero, as a reset starts the live counts. Context:
 * @t's lock held, inside @s.
 */
static void mstat_vmem_boot(struct mstat_objtab *t,
			    const struct mstat_section *s, s64 bytes)
{
	u32 now = mstat_vmem_epoch(s);

	if (t->boot_epoch != now) {
		t->boot_epoch = now;
		t->boot_bytes = 0;
	}
	t->boot_bytes += bytes;
}

/* Empty @own's rows if they count since an older epoch than @now. */
static void mstat_owners_renew(struct mstat_owners *own, u32 now)
{
	if (own->epoch == now)
		return;
	memset(own->row, 0, array_size(sizeof(*own->row), MSTAT_OWNER_ROWS));
	memset(own->index, 0, sizeof(*own->index) << MSTAT_OWNER_BITS);
	own->nr = 0;
	own->epoch = now;
}

/*
 * The row of (@site, @cgroup, @kind) in @own, made if new: the "other"
 * row if the table is full. Context: the table's lock held.
 */
static unsigned int mstat_owner_row(struct mstat_owners *own,
				    unsigned long site, u64 cgroup, u8 kind)
{
	unsigned int mask = (1U << MSTAT_OWNER_BITS) - 1;
	unsigned int i = hash_long(site ^ hash_64(cgroup ^ kind, 32),
				   MSTAT_OWNER_BITS);
	struct mstat_owner *r;

	for (; own->index[i]; i = (i + 1) & mask) {
		r = &own->row[own->index[i] - 1];
		if (r->site == site && r->cgroup == cgroup && r->kind == kind)
			return own->index[i] - 1;
	}
	if (own->nr >= MSTAT_OWNER_OTHER) {
		own->row[MSTAT_OWNER_OTHER].other = true;
		return MSTAT_OWNER_OTHER;
	}
	r = &own->row[own->nr];
	r->site = site;
	r->cgroup = cgroup;
	r->kind = kind;
	own->index[i] = ++own->nr;
	return own->nr - 1;
}

/*
 * Count @o's allocation in its owner's row, and keep the row with it.
 * Context: @t's lock held, inside the section of epoch @o->epoch.
 */
static void mstat_owner_alloc(struct mstat_objtab *t, enum mstat_source src,
			      struct mstat_obj *o)
{
	struct mstat_owner *r;

	mstat_owners_renew(&t->own, o->epoch);
	o->row = mstat_owner_row(&t->own, o->site, mstat_cgroup_now(),
				 src == MSTAT_SRC_VMALLOC ? o->cell : 0);
	r = &t->own.row[o->row];
	r->allocs++;
	r->bytes += o->bytes;
}

/*
 * Count @o's free in the row of the owner that allocated it, if the rows
 * are those of the epoch it was counted in (else a reset cleared them).
 * Context: @t's lock held, inside a section.
 */
static void mstat_owner_free(struct mstat_objtab *t, enum mstat_source src,
			     const struct mstat_obj *o)
{
	struct mstat_owner *r;
	unsigned int row = o->row;

	if (t->own.epoch != o->epoch)
		return;
	if (mstat_mutant(MSTAT_MUT_OWNER_AT_FREE))
		row = mstat_owner_row(&t->own, o->site, mstat_cgroup_now(),
				      src == MSTAT_SRC_VMALLOC ? o->cell : 0);
	r = &t->own.row[row];
	r->frees++;
	r->bytes -= o->bytes;
}

/*
 * Count the free of @t's object in slot @i (its key is its address, for
 * the heap profile too) if it was counted since the last reset, else an
 * unknown free if @seen (its free event, not its address's reuse), and
 * forget it. Context: @t's lock held.
 */
static void mstat_vmem_drop(struct mstat_objtab *t, enum mstat_source src,
			    unsigned int i, bool seen)
{
	const struct mstat_obj *o = &t->slot[i];
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	if (mstat_vmem_current(&s, o)) {
		if (!seen || !mstat_mutant(MSTAT_MUT_VMEM_FREE_LOST))
			__mstat_count_free_in(&s, src, -1, o->cell,
					      mstat_cell_fixed(src, o->cell),
					      o->bytes, o->key, o->site);
		mstat_owner_free(t, src, o);
		/* Its epoch's own: not one a mutant counts as current. */
		if (src == MSTAT_SRC_PERCPU && o->owner == MSTAT_PERCPU_FIRST &&
		    o->epoch == mstat_vmem_epoch(&s))
			mstat_vmem_boot(t, &s, -(s64)o->bytes);
	} else if (seen) {
		t->unknown_frees++;
		t->unknown_bytes += o->bytes;
	}
	mstat_write_end(&mstat_core, &s);
	mstat_tab_delete(t, i);
}

/*
 * Count the allocation of @o (its key its address) into @src, and keep
 * it with the epoch of the section that counted it. Context: any but NMI.
 */
static void mstat_vmem_alloc(enum mstat_source src, struct mstat_obj *o,
			     gfp_t gfp)
{
	struct mstat_objtab *t = mstat_tab(src);
	struct mstat_section s;
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&t->lock, flags);
	if (unlikely(!t->slot))
		goto out;
	i = mstat_tab_find(t, o->key);
	if (unlikely(i >= 0)) {
		/*
		 * Its address is in use again, so the object kept there was
		 * freed unseen (a probe that missed a call): count that free
		 * now, and keep the new one in its place.
		 */
		mstat_vmem_drop(t, src, i, false);
	}
	if (unlikely(t->nr >= t->max)) {
		t->untracked++;
		goto out;
	}
	mstat_write_begin(&mstat_core, &s);
	o->epoch = mstat_vmem_epoch(&s);
	i = mstat_tab_home(t, o->key);
	while (t->slot[i].key)
		i = (i + 1) & ((1U << t->bits) - 1);
	mstat_owner_alloc(t, src, o);
	t->slot[i] = *o;
	t->nr++;
	__mstat_count_alloc_in(&s, src, -1, o->cell,
			       mstat_cell_fixed(src, o->cell), o->bytes,
			       o->bytes, gfp, o->key, o->site);
	if (src == MSTAT_SRC_PERCPU && o->owner == MSTAT_PERCPU_FIRST)
		mstat_vmem_boot(t, &s, o->bytes);
	mstat_write_end(&mstat_core, &s);
out:
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

/*
 * Count the free of the object at @key made by @owner, if @src's table
 * holds it from since the last reset; else an unknown free of @bytes (0:
 * not known). Context: any but NMI.
 */
static void mstat_vmem_free(enum mstat_source src, unsigned long key,
			    unsigned long owner, u64 bytes)
{
	struct mstat_objtab *t = mstat_tab(src);
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&t->lock, flags);
	if (unlikely(!t->slot))
		goto out;
	i = mstat_tab_find(t, key);
	if (i < 0 || t->slot[i].owner != owner) {
		t->unknown_frees++;
		t->unknown_bytes += bytes;
		goto out;
	}
	mstat_vmem_drop(t, src, i, true);
out:
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

static enum mstat_vm_kind mstat_vm_kind_of(unsigned long flags)
{
	if (flags & VM_ALLOC)
		return MSTAT_VM_ALLOC;
	if (flags & VM_MAP)
		return MSTAT_VM_MAP;
	if (flags & VM_IOREMAP)
		return MSTAT_VM_IOREMAP;
	return MSTAT_VM_OTHER;
}

/**
 * mstat_count_vm_area() - count a vm area made or removed
 * @vm: the area, as __get_vm_area_node() or remove_vm_area() returned
 *	it: whole, and not freed before the caller frees it
 * @alloc: made (true) or removed
 *
 * Context: a kretprobe's handler, while the vmalloc source is on.
 */
void mstat_count_vm_area(const struct vm_struct *vm, bool alloc)
{
	struct mstat_obj o = {};

	/*
	 * Its start without a KASAN tag: vmalloc() tags it (tag-based
	 * KASAN) after __get_vm_area_node() returned it untagged.
	 */
	o.key = (unsigned long)kasan_reset_tag(vm->addr);
	o.owner = (unsigned long)vm;
	if (!alloc) {
		mstat_vmem_free(MSTAT_SRC_VMALLOC, o.key, o.owner,
				get_vm_area_size(vm));
		return;
	}
	o.site = (unsigned long)vm->caller;
	o.bytes = get_vm_area_size(vm);
	o.cell = mstat_vm_kind_of(vm->flags);
	mstat_vmem_alloc(MSTAT_SRC_VMALLOC, &o, GFP_KERNEL);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_count_vm_area);

/**
 * mstat_count_vm_failure() - count a vm area that could not be made
 *
 * Context: a kretprobe's handler, while the vmalloc source is on.
 */
void mstat_count_vm_failure(void)
{
	mstat_count_failure(MSTAT_SRC_VMALLOC, 0);
}

/**
 * mstat_count_percpu_alloc() - count a percpu object allocated
 * @ptr: the object (a percpu pointer, not an address of any one CPU's)
 * @size: its bytes on each CPU
 * @bytes: its bytes on all possible CPUs
 * @gfp: the allocation's flags
 * @site: its caller, 0 if unknown
 *
 * Context: any but NMI; the percpu_alloc_percpu event's probe.
 */
void mstat_count_percpu_alloc(const void __percpu *ptr, size_t size,
			      size_t bytes, gfp_t gfp, unsigned long site)
{
	struct mstat_obj o = {
		.key = (__force unsigned long)ptr,
		.owner = mstat_percpu_owner(ptr),
		.site = site,
		.bytes = bytes,
		.cell = mstat_size_class(size),
	};

	mstat_vmem_alloc(MSTAT_SRC_PERCPU, &o, gfp);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_count_percpu_alloc);

/**
 * mstat_count_percpu_free() - count a percpu object freed
 * @ptr: the object
 *
 * Context: any but NMI; the percpu_free_percpu event's probe.
 */
void mstat_count_percpu_free(const void __percpu *ptr)
{
	unsigned long key = (__force unsigned long)ptr;

	mstat_vmem_free(MSTAT_SRC_PERCPU, key, mstat_percpu_owner(ptr), 0);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_count_percpu_free);

/* Slots a forget or a rebase looks at per hold of a table's lock. */
#define MSTAT_VMEM_BATCH	256

/*
 * Empty @t's slots of objects counted in another epoch than @now (or,
 * @all, of every object, each counted freed as mstat_vmem_drop() says),
 * a batch of slots per hold of its lock (mstat_vmem_forget() says why
 * that walk misses nothing). Context: process; sleeps.
 */
static void mstat_vmem_sweep(struct mstat_objtab *t, enum mstat_source src,
			     u32 now, bool all)
{
	unsigned long flags;
	unsigned int i, end;

	for (i = 0; ; i = end) {
		raw_spin_lock_irqsave(&t->lock, flags);
		if (!t->slot || i >= (1U << t->bits)) {
			raw_spin_unlock_irqrestore(&t->lock, flags);
			break;
		}
		end = min(i + MSTAT_VMEM_BATCH, 1U << t->bits);
		for (; i < end; i++) {
			while (t->slot[i].key && (all || t->slot[i].epoch != now)) {
				if (all)
					mstat_vmem_drop(t, src, i, false);
				else
					mstat_tab_delete(t, i);
			}
		}
		raw_spin_unlock_irqrestore(&t->lock, flags);
		cond_resched();
	}
}

/**
 * mstat_vmem_forget() - forget a source's objects
 * @src: %MSTAT_SRC_VMALLOC or %MSTAT_SRC_PERCPU
 *
 * Each object its table holds counts as freed (if counted since the last
 * reset, mstat_vmem_drop()), and the table is emptied: for a source
 * switched off, once none of its probes runs any more (its frees are not
 * seen while it is off). The lock is held for a batch of slots at a time,
 * as mstat_vmem_rebase() holds it, so that interrupts are never off for a
 * whole table (up to 2^21 slots, 2^20 frees counted): each object is
 * deleted as a free deletes it, so the table stays whole between two
 * batches, for a rebase that runs meanwhile. A delete moves entries of
 * its run back into the slot deleted or a later one of the run, and a run
 * ends at the first empty slot: the walk empties each slot before it
 * leaves it, no run reaches back into the slots it emptied, and it misses
 * no object.
 *
 * Context: process; sleeps.
 */
void mstat_vmem_forget(enum mstat_source src)
{
	mstat_vmem_sweep(mstat_tab(src), src, 0, true);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_vmem_forget);

/**
 * mstat_vmem_rebase() - forget the objects counted before a reset
 *
 * After mstat_reset(), whose reset hook gave both core slots a new epoch
 * (mstat_profile_epoch()): every object kept with an older one had its
 * allocation cleared with the totals, so it is dropped uncounted, as an
 * object allocated before the load is never kept; its free is then an
 * unknown free, and the live counts restart from zero, never below. An
 * object of an older epoch that this walk misses (moved behind it by
 * another CPU's delete between two batches) is dropped the same way at
 * its free (mstat_vmem_drop()). The lock is held for a batch of slots at
 * a time, so that interrupts are never off for a whole table.
 *
 * Context: process; sleeps.
 */
void mstat_vmem_rebase(void)
{
	struct mstat_section s;
	u32 now;

	if (mstat_mutant(MSTAT_MUT_RESET_KEEPS_TABLES))
		return;
	mstat_write_begin(&mstat_core, &s);
	now = mstat_vmem_epoch(&s);
	mstat_write_end(&mstat_core, &s);
	mstat_vmem_sweep(mstat_tab(MSTAT_SRC_VMALLOC), MSTAT_SRC_VMALLOC, now,
			 false);
	mstat_vmem_sweep(mstat_tab(MSTAT_SRC_PERCPU), MSTAT_SRC_PERCPU, now,
			 false);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_vmem_rebase);

/**
 * mstat_vmem_state() - a source's table, for the faces
 * @src: the source
 * @v: set to its figures
 *
 * Context: any.
 * Return: false if @src keeps no table (@v untouched).
 */
bool mstat_vmem_state(enum mstat_source src, struct mstat_vmem_view *v)
{
	struct mstat_section s;
	struct mstat_objtab *t;
	unsigned long flags;

	if (src != MSTAT_SRC_VMALLOC && src != MSTAT_SRC_PERCPU)
		return false;
	t = mstat_tab(src);
	raw_spin_lock_irqsave(&t->lock, flags);
	/* Counted before the last reset: none since (mstat_vmem_boot()). */
	mstat_write_begin(&mstat_core, &s);
	v->boot_bytes = t->boot_epoch == mstat_vmem_epoch(&s) ?
			t->boot_bytes : 0;
	mstat_write_end(&mstat_core, &s);
	v->tracked = t->nr;
	v->capacity = t->max;
	v->untracked = t->untracked;
	v->unknown_frees = t->unknown_frees;
	v->unknown_bytes = t->unknown_bytes;
	raw_spin_unlock_irqrestore(&t->lock, flags);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_vmem_state);

/**
 * mstat_vmem_owners() - who holds a source's objects
 * @src: %MSTAT_SRC_VMALLOC or %MSTAT_SRC_PERCPU
 * @rows: set to its owners' rows (MSTAT_OWNER_ROWS of them at most), as
 *	of one hold of its table's lock: their live bytes sum to those of
 *	the objects the table holds from since the last reset
 *
 * Context: any; the lock is held, interrupts off, for a copy of the rows
 * in use (at most MSTAT_OWNER_ROWS * 48 bytes).
 * Return: the rows set, 0 if none since the last reset, or -EINVAL for a
 * source that keeps no table.
 */
int mstat_vmem_owners(enum mstat_source src, struct mstat_owner *rows)
{
	struct mstat_section s;
	struct mstat_objtab *t;
	unsigned long flags;
	int n = 0;

	if (src != MSTAT_SRC_VMALLOC && src != MSTAT_SRC_PERCPU)
		return -EINVAL;
	t = mstat_tab(src);
	raw_spin_lock_irqsave(&t->lock, flags);
	mstat_write_begin(&mstat_core, &s);
	if (t->own.row && t->own.epoch == mstat_vmem_epoch(&s)) {
		n = t->own.nr;
		memcpy(rows, t->own.row, array_size(sizeof(*rows), n));
		if (t->own.row[MSTAT_OWNER_OTHER].other)
			rows[n++] = t->own.row[MSTAT_OWNER_OTHER];
	}
	mstat_write_end(&mstat_core, &s);
	raw_spin_unlock_irqrestore(&t->lock, flags);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_vmem_owners);

/*
 * Name for good the owners' callers in @mod's text, which goes (its
 * module unloaded): each row's caller there becomes its name's token
 * (mstat_text_keep()), so that /proc/mstat_owners names it, and never
 * after whatever text is at that address later, as the heap profile's
 * frames are (mstat_profile.c's module notifier). The callers are read
 * under a table's lock, named outside it (mstat_text_keep() sleeps), and
 * set under it again, in every row that still has them; the module's
 * code runs no more, so no row of its callers is made meanwhile.
 * Returns how many rows were named.
 */
static unsigned int mstat_owners_keep(struct mstat_objtab *t,
				      const struct module *mod)
{
	unsigned long *site, tok;
	unsigned int i, j, n = 0, named = 0;

	site = kmalloc_array(MSTAT_OWNER_ROWS, sizeof(*site), GFP_KERNEL);
	if (!site)
		return 0;
	raw_spin_lock_irq(&t->lock);
	for (i = 0; t->own.row && i < t->own.nr; i++)
		if (within_module(t->own.row[i].site, mod))
			site[n++] = t->own.row[i].site;
	raw_spin_unlock_irq(&t->lock);
	for (j = 0; j < n; j++) {
		tok = mstat_text_keep(site[j]);
		raw_spin_lock_irq(&t->lock);
		for (i = 0; t->own.row && i < t->own.nr; i++) {
			if (t->own.row[i].site == site[j]) {
				t->own.row[i].site = tok;
				named++;
			}
		}
		raw_spin_unlock_irq(&t->lock);
	}
	kfree(site);
	return named;
}

static int mstat_vmem_module_event(struct notifier_block *nb,
				   unsigned long state, void *data)
{
	unsigned int i, n = 0;

	if (state != MODULE_STATE_GOING ||
	    mstat_mutant(MSTAT_MUT_UNLOADED_NAMES))
		return NOTIFY_DONE;
	for (i = 0; i < ARRAY_SIZE(mstat_tabs); i++)
		n += mstat_owners_keep(&mstat_tabs[i], data);
	if (n)
		pr_info("owners: %u rows of %s's unloaded text named for good\n",
			n, ((struct module *)data)->name);
	return NOTIFY_DONE;
}

static struct notifier_block mstat_vmem_module_nb = {
	.notifier_call = mstat_vmem_module_event,
};

/**
 * mstat_vmem_init() - make the tables
 * @objects: how many objects each may hold (kmem_objects, checked by the
 *	module: 64 to 2^20)
 *
 * Context: process; sleeps. Before any probe of these sources is
 * registered.
 * Return: 0 or -ENOMEM.
 */
int mstat_vmem_init(unsigned int objects)
{
	unsigned int bits = order_base_2(objects + objects / 3);
	unsigned int i;

	/* Possible CPUs are fixed at boot: the first of them, once. */
	/* A row's number, a kind or a class fits an object's u16. */
	BUILD_BUG_ON(!is_power_of_2(MSTAT_OWNER_ROWS));
	BUILD_BUG_ON(ilog2(MSTAT_OWNER_ROWS) >= 16);
	BUILD_BUG_ON(max(MSTAT_NR_VM_KINDS, MSTAT_NR_CLASSES) >= 1U << 16);
	mstat_percpu_cpu = cpumask_first(cpu_possible_mask);
	for (i = 0; i < ARRAY_SIZE(mstat_tabs); i++) {
		struct mstat_objtab *t = &mstat_tabs[i];
		struct mstat_owner *row;
		struct mstat_obj *slot;
		u16 *index;

		slot = vzalloc(array_size(sizeof(*slot), 1U << bits));
		row = vzalloc(array_size(sizeof(*row), MSTAT_OWNER_ROWS));
		index = vzalloc(sizeof(*index) << MSTAT_OWNER_BITS);
		if (!slot || !row || !index) {
			vfree(slot);
			vfree(row);
			vfree(index);
			mstat_vmem_exit();
			return -ENOMEM;
		}
		raw_spin_lock_irq(&t->lock);
		t->own.row = row;
		t->own.index = index;
		t->own.nr = 0;
		/* No epoch is U32_MAX yet: the first count renews them. */
		t->own.epoch = U32_MAX;
		t->bits = bits;
		t->max = objects;
		t->nr = 0;
		t->untracked = 0;
		t->unknown_frees = 0;
		t->unknown_bytes = 0;
		t->boot_bytes = 0;
		t->slot = slot;
		raw_spin_unlock_irq(&t->lock);
	}
	if (register_module_notifier(&mstat_vmem_module_nb))
		pr_warn("owners: no module notifier: an unloaded module's callers lose their names\n");
	return 0;
}

/**
 * mstat_vmem_exit() - free the tables
 *
 * Context: process; no probe of these sources runs any more.
 */
void mstat_vmem_exit(void)
{
	unsigned int i;

	/* Unregistered, and a second time harmless: -ENOENT, ignored. */
	unregister_module_notifier(&mstat_vmem_module_nb);
	for (i = 0; i < ARRAY_SIZE(mstat_tabs); i++) {
		struct mstat_objtab *t = &mstat_tabs[i];
		struct mstat_owner *row;
		struct mstat_obj *slot;
		u16 *index;

		raw_spin_lock_irq(&t->lock);
		slot = t->slot;
		row = t->own.row;
		index = t->own.index;
		t->slot = NULL;
		t->own.row = NULL;
		t->own.index = NULL;
		raw_spin_unlock_irq(&t->lock);
		vfree(slot);
		vfree(row);
		vfree(index);
	}
}
