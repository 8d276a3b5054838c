/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat memory --by caller: the vmalloc line by caller, from the kernel's
 * own list of vm areas, /proc/vmallocinfo (vmcallers.c).
 */
#ifndef MSTAT_VMCALLERS_H
#define MSTAT_VMCALLERS_H

#include <stdbool.h>
#include <stdio.h>

#include "callers.h"

/**
 * struct mstat_vm_callers - /proc/vmallocinfo's vmalloc'd areas by caller
 * @path: the file read
 * @areas: areas with pages of their own (vmalloc()'s and its users'):
 *	those NR_VMALLOC (VmallocUsed) counts; not ioremap()'s, vmap()'s
 * @bytes: their pages' bytes, summed
 * @others: areas without pages (ioremap, vmap, vm_map_ram), not counted
 * @owners: the /proc/mstat_owners read beside it, or NULL
 * @since_bytes: the bytes of its vmalloc areas, all callers'
 * @n: callers in @c: the largest by bytes, then, if any was left out,
 *	one "every other caller"
 * @c: the callers: @name (as /proc/vmallocinfo names the function,
 *	without its offset, " [module]" after a module's), @kind (what its
 *	areas are, for the callers vmcallers.c knows: "BPF maps", "kernel
 *	stacks"; or NULL), @bytes (its areas' pages' bytes), @count (its
 *	areas), @since_bytes and @since_count (of them, those mstat counted
 *	since load, from /proc/mstat_owners)
 */
struct mstat_vm_callers {
	const char *path;
	const char *owners;
	long long areas, bytes, others, since_bytes;
	int n;
	struct mstat_caller *c;
};

struct mstat_owners;

/*
 * Read @path (/proc/vmallocinfo's format) into @vc, its @top largest
 * callers one by one, each with what @ow (NULL: none) says of its areas
 * since load. Returns 0, or -1 with a message.
 */
int mstat_vm_callers_read(const char *path, int top,
			  const struct mstat_owners *ow,
			  struct mstat_vm_callers *vc);
void mstat_vm_callers_free(struct mstat_vm_callers *vc);

/* @vc as text, under the account, @vmalloc its vmalloc line (-1: none). */
void mstat_vm_callers_text(FILE *f, const struct mstat_vm_callers *vc,
			   long long vmalloc);
/* @vc as the JSON value of "vmalloc_by_caller". */
void mstat_vm_callers_json(FILE *f, const struct mstat_vm_callers *vc);

#endif /* MSTAT_VMCALLERS_H */
