/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's memory beside slab objects and pages (mstat_vmem.c, layer
 * 4): vm areas (vmalloc(), vmap(), ioremap() and the other users of
 * get_vm_area()) and percpu objects, each counted from the allocation
 * that mstat saw to the free of that same object, so that their live
 * counts are objects allocated since the source was switched on and not
 * freed yet: never negative, whatever was allocated before.
 */
#ifndef _MSTAT_VMEM_H
#define _MSTAT_VMEM_H

#include <linux/types.h>

#include "mstat_stats.h"

struct vm_struct;

/**
 * struct mstat_vmem_view - one table of tracked objects, as the faces
 *	show it
 * @tracked: objects in it now
 * @capacity: how many it may hold
 * @untracked: allocations not counted because it was full
 * @unknown_frees: frees of objects it did not hold: allocated before
 *	the source was on, or not tracked
 * @unknown_bytes: their bytes, where the free says them (vm areas)
 * @boot_bytes: of the objects counted live since the last reset, the
 *	bytes of those in boot's first chunk (percpu only), which is not
 *	in MemTotal
 */
struct mstat_vmem_view {
	unsigned long tracked;
	unsigned long capacity;
	unsigned long untracked;
	unsigned long unknown_frees;
	unsigned long unknown_bytes;
	u64 boot_bytes;
};

/*
 * Rows of a source's owners' table (struct mstat_owner), the last of
 * them the row of every owner past the others ("other").
 */
#define MSTAT_OWNER_ROWS	512

/**
 * struct mstat_owner - who holds a source's counted objects: one caller
 *	in one cgroup, of one kind
 * @site: the caller: a vm area's (its struct vm_struct's), a percpu
 *	object's (its event's call_site, 0 where the kernel's event does
 *	not say it)
 * @cgroup: the cgroup label of the tasks that allocated them, as the
 *	heap profile labels a sample (%MSTAT_CGROUP_NONE...)
 * @allocs: objects allocated since the last reset
 * @frees: of them, those freed
 * @bytes: the bytes of those not freed (live)
 * @kind: a vm area's &enum mstat_vm_kind; 0 for a percpu object
 * @other: the overflow row, whose @site, @cgroup and @kind are 0: every
 *	owner that found the table full
 */
struct mstat_owner {
	unsigned long site;
	u64 cgroup;
	u64 allocs;
	u64 frees;
	u64 bytes;
	u8 kind;
	bool other;
};

void mstat_count_vm_area(const struct vm_struct *vm, bool alloc);
void mstat_count_vm_failure(void);
void mstat_count_percpu_alloc(const void __percpu *ptr, size_t size,
			      size_t bytes, gfp_t gfp, unsigned long site);
void mstat_count_percpu_free(const void __percpu *ptr);
void mstat_vmem_forget(enum mstat_source src);
void mstat_vmem_rebase(void);
bool mstat_vmem_state(enum mstat_source src, struct mstat_vmem_view *v);
int mstat_vmem_owners(enum mstat_source src, struct mstat_owner *rows);
int mstat_vmem_init(unsigned int objects);
void mstat_vmem_exit(void);

#endif /* _MSTAT_VMEM_H */
