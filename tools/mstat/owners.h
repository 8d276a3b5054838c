/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whose kernel memory it is (owners.c): mstat memory --by caller's
 * percpu objects by caller, from /proc/mstat_owners, and --cgroup's
 * table, each cgroup's kernel memory by kind beside what its memory.stat
 * charges it.
 */
#ifndef MSTAT_OWNERS_H
#define MSTAT_OWNERS_H

#include <stdbool.h>
#include <stdio.h>

#include "callers.h"
#include "parse.h"

/**
 * struct mstat_pcpu_callers - the percpu objects mstat counted since load
 *	(or its last reset) and holds, by caller: exact
 * @path: the owners file they come from
 * @bytes: their bytes on every possible CPU, all callers'
 * @objects: how many
 * @n: callers in @c, the largest first, then, if any was left out, one
 *	"every other caller"
 * @c: the callers: @name, @bytes, and @allocs less @frees the live objects
 */
struct mstat_pcpu_callers {
	const char *path;
	long long bytes, objects;
	int n;
	struct mstat_caller *c;
};

void mstat_pcpu_callers(const struct mstat_owners *ow, int top,
			struct mstat_pcpu_callers *pc);
void mstat_pcpu_callers_text(FILE *f, const struct mstat_pcpu_callers *pc);
void mstat_pcpu_callers_json(FILE *f, const struct mstat_pcpu_callers *pc);
void mstat_pcpu_callers_free(struct mstat_pcpu_callers *pc);

/**
 * struct mstat_slab_callers - the slab objects in use by allocating
 *	caller, estimated from the heap profile's samples
 * @rate: its sampling rate
 * @bytes: all callers' estimate, @var its variance
 * @n: callers in @c, the largest first, then, if any was left out, one
 *	"every other caller"
 * @c: the callers: @name the stack's first frame past the allocator's
 *	wrappers (kvmalloc(), kmemdup(), vmalloc()'s page array), function
 *	and module, @cache (its first row's; "" if none), @bytes, @var,
 *	@count (its samples)
 */
struct mstat_slab_callers {
	long long rate, bytes;
	double var;
	int n;
	struct mstat_caller *c;
};

void mstat_slab_callers(const struct mstat_sites *ss, int top,
			struct mstat_slab_callers *sc);
void mstat_slab_callers_text(FILE *f, const struct mstat_slab_callers *sc);
void mstat_slab_callers_json(FILE *f, const struct mstat_slab_callers *sc);
void mstat_slab_callers_free(struct mstat_slab_callers *sc);

/* The kinds of a cgroup's kernel memory, mstat's and memory.stat's. */
enum mstat_cg_kind { CGK_VMALLOC, CGK_PERCPU, CGK_SLAB, CGK_PAGES, CGK_NR };

extern const char *const mstat_cg_kind_name[CGK_NR];

/**
 * struct mstat_cg_row - one cgroup's kernel memory, as mstat saw it caused
 *	and as the kernel charges it
 * @id: its id, or MSTAT_CGROUP_SOFTIRQ / _HARDIRQ / _UNKNOWN
 * @label: its path from the root ("/system.slice/x.service"), "softirq",
 *	"hardirq", "-" (not known) or "id:N" (gone, or outside the tree)
 * @own: what its own tasks allocated and hold, by kind: vm areas'
 *	(vmalloc) and percpu objects' bytes exact since load, slab's and
 *	raw pages' estimated from the heap profile's samples
 * @own_var: each kind's estimate's variance (0 for the exact ones)
 * @tree: @own with its descendants' added, what memory.stat compares to
 * @tree_var: its variances
 * @charged: its memory.stat's vmalloc, percpu and slab (its subtree's,
 *	as memory.stat counts them); -1 where it has no such line
 * @kernel: memory.stat's "kernel" (every kernel byte charged), or -1
 * @sock: memory.stat's "sock", or -1
 */
struct mstat_cg_row {
	long long id;
	char label[512];
	long long own[CGK_NR], tree[CGK_NR];
	double own_var[CGK_NR], tree_var[CGK_NR];
	long long charged[CGK_NR];
	long long kernel, sock;
};

/**
 * struct mstat_cg_table - the cgroups' kernel memory (mstat_cg_table())
 * @exact: the vm area and percpu columns came from an owners file
 * @sampled: the slab and page columns came from a sites file (2.3)
 * @rate: its sampling rate
 * @root: the cgroup2 tree memory.stat was read from, or NULL
 * @n: rows in @r: every cgroup some of whose memory mstat saw, with its
 *	ancestors, the largest subtree first (at most --top, the rest left
 *	out and said so by @left)
 * @left: rows left out
 * @r: the rows
 * @by_label: while the table is made, each row's index by its label
 */
struct mstat_cg_table {
	bool exact, sampled;
	long long rate;
	const char *root;
	int n, left;
	struct mstat_cg_row *r;
	struct mstat_strmap by_label;
};

/*
 * The cgroups of @ow (exact, NULL: none) and @ss (sampled, NULL: none)
 * into @t, with each memory.stat read from this machine's cgroup2 tree
 * ($MSTAT_CGROUP_ROOT, or the mount) if @charged; @only: that cgroup's
 * subtree alone ("/a/b"), or NULL for all; @top: rows kept. Returns 0, or
 * -1 with a message (@only names no cgroup).
 */
int mstat_cg_table(const struct mstat_owners *ow, const struct mstat_sites *ss,
		   const char *only, int top, bool charged,
		   struct mstat_cg_table *t);
void mstat_cg_table_text(FILE *f, const struct mstat_cg_table *t);
void mstat_cg_table_json(FILE *f, const struct mstat_cg_table *t);
void mstat_cg_table_free(struct mstat_cg_table *t);

/*
 * Whose the memory is as Prometheus series, for mstat prom and serve:
 * the vm areas' and percpu objects' callers (exact, @ow), and each
 * cgroup's kernel memory by kind, its own tasks' (exact from @ow,
 * sampled from @ss), the @max largest of each, the rest as one "other".
 * Nothing without @ow or @ss.
 */
void mstat_owners_prom(FILE *f, const struct mstat_owners *ow,
		       const struct mstat_sites *ss, int max);

#endif /* MSTAT_OWNERS_H */
