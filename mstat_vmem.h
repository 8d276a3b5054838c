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

void mstat_count_vm_area(const struct vm_struct *vm, bool alloc);
void mstat_count_vm_failure(void);
void mstat_count_percpu_alloc(const void __percpu *ptr, size_t size,
			      size_t bytes, gfp_t gfp, unsigned long site);
void mstat_count_percpu_free(const void __percpu *ptr);
void mstat_vmem_forget(enum mstat_source src);
void mstat_vmem_rebase(void);
bool mstat_vmem_state(enum mstat_source src, struct mstat_vmem_view *v);
int mstat_vmem_init(unsigned int objects);
void mstat_vmem_exit(void);

#endif /* _MSTAT_VMEM_H */
