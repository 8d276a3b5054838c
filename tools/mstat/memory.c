// SPDX-License-Identifier: GPL-2.0
/*
 * mstat memory: where the machine's memory is, as one account whose
 * lines add up to MemTotal, in the manner of Go's MemStats (Sys, the sum
 * of its named parts). Every figure but two comes from one /proc/mstat
 * snapshot (format 1.6): mstat's own counts and the kernel's counters
 * that the module read within the same snapshot. /proc/meminfo, read
 * right after, gives what the module cannot read (VmallocUsed, Percpu,
 * Hugetlb) and is set beside the module's kernel lines as a check.
 *
 *	MemTotal = free + free on per-CPU lists (1.7)
 *		 + user (anon, file, hugetlb pool)
 *		 + kernel (slab, vmalloc, percpu, kernel stacks outside
 *		   vmalloc, page tables)
 *		 + unexplained
 *
 * Where mstat counts a kind itself (vm areas, percpu objects, slab
 * objects) its count is a line of its own under the kind, and what the
 * kernel holds beyond it (allocated before mstat counted, or the kind's
 * free space) is the line beside it. What no line explains is printed as
 * a line of its own: pages the page allocator gave to callers that no
 * other counter names (drivers' raw pages, network buffers), and the
 * pages on the per-CPU free lists, which MemFree does not count; under
 * it, the raw pages the heap profile sampled, by caller (pages.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "memory.h"
#include "memory_out.h"
#include "owners.h"
#include "pages.h"
#include "parse_snap.h"
#include "util.h"
#include "vmcallers.h"

/* /proc/meminfo's names of memory_out.h's MI_ lines. */
static const char *const mi_name[MI_NR] = {
	"MemTotal", "MemFree", "VmallocUsed", "Percpu", "Hugetlb",
	"KernelStack", "Slab",
};

static struct line *add(struct account *a, int depth, const char *name,
			const char *key, enum line_from kind, long long bytes,
			const char *fmt, ...)
	MSTAT_PRINTF(7, 8);

static struct line *add(struct account *a, int depth, const char *name,
			const char *key, enum line_from kind, long long bytes,
			const char *fmt, ...)
{
	struct line *l = &a->l[a->n++];
	va_list ap;

	l->depth = depth;
	l->name = name;
	l->key = key;
	l->kind = kind;
	l->bytes = bytes;
	va_start(ap, fmt);
	vsnprintf(l->from, sizeof(l->from), fmt, ap);
	va_end(ap);
	return l;
}

/* /proc/meminfo's "Name:  N kB" lines into @v (bytes); 0 or -1. */
static int read_meminfo(const char *path, long long v[MI_NR])
{
	enum mstat_read_fail how;
	char *buf, *p, *nl;
	size_t len;
	int i;

	for (i = 0; i < MI_NR; i++)
		v[i] = -1;
	buf = mstat_slurp(path, 1 << 20, NULL, &len, &how);
	if (!buf) {
		mstat_err("%s: %s", path, strerror(errno));
		return -1;
	}
	for (p = buf; *p; p = nl + 1) {
		char name[64];
		long long kb;

		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (sscanf(p, "%63[^:]: %lld kB", name, &kb) != 2)
			continue;
		for (i = 0; i < MI_NR; i++)
			if (!strcmp(name, mi_name[i]))
				v[i] = kb * 1024;
	}
	free(buf);
	return 0;
}

/*
 * A part of a kind that mstat counts, and what the kernel has beyond it;
 * @key: the kind's key, the two lines' ".mstat" and ".rest" below it.
 */
static void counted(struct account *a, int depth, const char *key,
		    long long kernel, long long mstat, const char *mine,
		    const char *rest)
{
	char *k = a->keys[a->nkeys++];

	snprintf(k, KEY_LEN, "%s.mstat", key);
	add(a, depth, mine, k, FROM_MSTAT, mstat,
	    "mstat: since it was on, live");
	k = a->keys[a->nkeys++];
	snprintf(k, KEY_LEN, "%s.rest", key);
	add(a, depth, rest, k, FROM_REST, kernel - mstat,
	    "the line above, less mstat's count");
}

/*
 * The bytes the per-cache and kmalloc_class rows hold live (format 1.8,
 * caches_at_load 1: each row counts from /proc/slabinfo's objects of its
 * caches when counting began, at load or at the last reset), into
 * @objects; those with no count then, "large" kmalloc's pages and the
 * caches past the table (cache_overflow), net since, into @net.
 */
static void slab_rows(const struct mstat_snap *s, long long *objects,
		      long long *net)
{
	int i;

	*objects = 0;
	*net = s->over[CACHE_LIVE_BYTES];
	for (i = 0; i < s->ncache; i++)
		*objects += s->cache[i].v[CACHE_LIVE_BYTES];
	for (i = 0; i < s->nkcls; i++) {
		if (s->kcls[i].size)
			*objects += s->kcls[i].v[KCLS_LIVE_BYTES];
		else
			*net += s->kcls[i].v[KCLS_LIVE_BYTES];
	}
}

/*
 * The slab's lines: from 1.8, its live objects as the rows count them
 * (from what the caches held when counting began), large kmallocs and
 * caches past the table net since then, and the rest, its free space and
 * metadata; before, Slab when counting began (1.7), mstat's net count
 * since, and the rest's change. The api source's objects are not in
 * them: what another module reports may live anywhere.
 */
static void add_slab(struct account *a, const struct mstat_snap *s,
		     long long slab, bool mark)
{
	long long slab0 = mstat_get(s, "kernel_slab_reclaimable_bytes_at_load") +
			  mstat_get(s, "kernel_slab_unreclaimable_bytes_at_load");
	long long live = mstat_get(s, "slab_live_bytes");
	long long objects, net;

	if (mstat_get(s, "caches_at_load") == 1) {
		slab_rows(s, &objects, &net);
		add(a, 3, "objects", "kernel.slab.mstat", FROM_MSTAT, objects,
		    "mstat: the cache and kmalloc_class rows' live bytes, from /proc/slabinfo's objects when counting began");
		add(a, 3, "large kmallocs, net", "kernel.slab.net",
		    FROM_MSTAT, net,
		    "mstat: kmalloc_class large and cache_overflow (no count when counting began)");
		add(a, 3, "the rest", "kernel.slab.rest", FROM_REST,
		    slab - objects - net,
		    "free space in slabs, metadata, large kmallocs from before");
	} else {
		/* 1.7 (mark): then + mstat's net since + the rest's change. */
		if (!mark)
			slab0 = 0;
		else
			add(a, 3, "at mstat's load", "kernel.slab.at_load",
			    FROM_KERNEL, slab0,
			    "kernel: Slab when mstat began counting (kernel_slab_*_bytes_at_load)");
		add(a, 3, "objects, net since mstat's load", "kernel.slab.mstat",
		    FROM_MSTAT, live,
		    "mstat: slab_live_bytes (allocated less freed since load)");
		add(a, 3, "the rest", "kernel.slab.rest", FROM_REST,
		    slab - slab0 - live, mark ?
		    "free space and metadata's change since load, less older objects freed" :
		    "older objects, free space in slabs, metadata");
	}
}

/*
 * The user lines: anon, file (from 1.9 less the swap cache, which a
 * swapped-in page mapped again also has in anon: its pages counted once,
 * the mapped ones in anon, the others left to unexplained), hugetlb.
 * Return: their sum.
 */
static long long add_user(struct account *a, const struct mstat_snap *s,
			  const long long mi[MI_NR])
{
	long long anon = mstat_get(s, "kernel_anon_bytes");
	long long file = mstat_get(s, "kernel_file_bytes");
	long long huge = mi[MI_HUGETLB] > 0 ? mi[MI_HUGETLB] : 0;
	bool has_sc = mstat_find(s, "kernel_swapcache_bytes");
	long long sc = mstat_get(s, "kernel_swapcache_bytes");
	long long user = anon + file - sc + huge;

	add(a, 1, "user", "user", FROM_SUM, user, "the lines below");
	add(a, 2, "anon", "user.anon", FROM_KERNEL, anon,
	    "kernel: NR_ANON_MAPPED (AnonPages)");
	if (has_sc) {
		add(a, 2, "file", "user.file", FROM_KERNEL, file - sc,
		    "kernel: NR_FILE_PAGES less NR_SWAPCACHE (Cached + Buffers)");
	} else {
		add(a, 2, "file", "user.file", FROM_KERNEL, file,
		    "kernel: NR_FILE_PAGES (Cached + SwapCached + Buffers)");
	}
	add(a, 3, "of which shmem", "user.file.shmem", FROM_KERNEL,
	    mstat_get(s, "kernel_shmem_bytes"), "kernel: NR_SHMEM (Shmem)");
	if (mi[MI_HUGETLB] >= 0)
		add(a, 2, "hugetlb pool", "user.hugetlb", FROM_MEMINFO, huge,
		    "meminfo: Hugetlb");
	if (has_sc)
		add(a, 2, "of which in the swap cache", "user.swapcache",
		    FROM_KERNEL, sc,
		    "kernel: NR_SWAPCACHE (SwapCached): the mapped ones in anon, the rest in unexplained");
	return user;
}

/*
 * The kernel's own lines for memory no other line holds, where this
 * kernel has the counter (1.9): zsmalloc's pages (zram, zswap), the
 * reclaimable kernel memory that is not slab. Return: their sum.
 */
static long long add_kernel_named(struct account *a,
				  const struct mstat_snap *s)
{
	long long zs = mstat_get(s, "kernel_zspages_bytes");
	long long misc = mstat_get(s, "kernel_kernel_misc_reclaimable_bytes");

	if (mstat_find(s, "kernel_zspages_bytes"))
		add(a, 2, "zsmalloc", "kernel.zsmalloc", FROM_KERNEL, zs,
		    "kernel: NR_ZSPAGES (zram's and zswap's pools)");
	if (mstat_find(s, "kernel_kernel_misc_reclaimable_bytes"))
		add(a, 2, "reclaimable, not slab", "kernel.misc_reclaimable",
		    FROM_KERNEL, misc,
		    "kernel: NR_KERNEL_MISC_RECLAIMABLE (KReclaimable less SReclaimable)");
	return zs + misc;
}

/*
 * Each process's page directory that NR_PAGETABLE leaves out (1.9: the
 * kernel_pgd_uncounted_bytes_each of kernels before 6.14): one per
 * mm_struct, whose cache row counts them live. Return: its bytes, 0
 * where none is left out or the row is not there.
 */
static long long add_pgd(struct account *a, const struct mstat_snap *s)
{
	long long each = mstat_get(s, "kernel_pgd_uncounted_bytes_each");
	int i;

	if (each <= 0)
		return 0;
	for (i = 0; i < s->ncache; i++) {
		const struct mstat_cache *c = &s->cache[i];

		if (!c->named || c->gone || strcmp(c->name, "mm_struct"))
			continue;
		add(a, 2, "page directories", "kernel.pgd", FROM_MSTAT,
		    c->v[CACHE_LIVE_OBJ] * each,
		    "mstat: mm_struct objects live x %lld bytes, each process's PGD, which NR_PAGETABLE leaves out before 6.14",
		    each);
		return c->v[CACHE_LIVE_OBJ] * each;
	}
	return 0;
}

/*
 * The kernel's static per-CPU data, __per_cpu_end - __per_cpu_start, from
 * @path (/proc/kallsyms, or a copy of it; NULL: none). Read once a run:
 * the file is megabytes, and the figure is fixed from boot. Return: its
 * bytes, or -1 if @path is NULL or unreadable, or hides addresses (all
 * zero, kptr_restrict).
 */
static long long percpu_static(const char *path)
{
	static const char *done;
	static long long size = -1;
	unsigned long long addr, start = 0, end = 0;
	char line[512], type, name[128];
	int found = 0;
	FILE *f;

	if (!path)
		return -1;
	if (done && !strcmp(done, path))
		return size;
	done = path;
	size = -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (found != 3 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "__per_cpu_start")) {
			start = addr;
			found |= 1;
		} else if (!strcmp(name, "__per_cpu_end")) {
			end = addr;
			found |= 2;
		}
	}
	fclose(f);
	if (found == 3 && end > start)
		size = (long long)(end - start);
	return size;
}

/*
 * Boot's first percpu chunk (1.10): memblock's, so not in MemTotal, yet
 * in Percpu. Each possible CPU's unit holds the static per-CPU data
 * (@pstatic: percpu_static()'s), the modules' reserve and the dynamic
 * part, page-aligned together (the module's lines say the last two, as
 * its kernel's headers do). Return: its bytes, or -1 if unknown.
 */
static long long percpu_first_chunk(const struct mstat_snap *s,
				    long long pstatic)
{
	long long page = sysconf(_SC_PAGESIZE), unit;

	if (pstatic < 0 || page <= 0 ||
	    !mstat_find(s, "kernel_percpu_units"))
		return -1;
	unit = pstatic +
	       mstat_get(s, "kernel_percpu_first_chunk_reserved_bytes") +
	       mstat_get(s, "kernel_percpu_first_chunk_dynamic_bytes");
	unit = (unit + page - 1) / page * page;
	return unit * mstat_get(s, "kernel_percpu_units");
}

/*
 * How far the sum of the kernel's counters may be off (1.9): each zone
 * counter by the zones' lag bound, each node counter by the nodes'
 * (kernel_*_stat_lag_bytes). The zone counters: free, zsmalloc,
 * unaccepted; the node ones: anon, file, swap cache, the two slabs,
 * kernel stacks, page tables and secondary ones, reclaimable not slab,
 * vmalloc (7.x).
 * -1 before 1.9.
 */
static long long lag_bound(const struct mstat_snap *s)
{
	static const char *const zone[] = {
		"kernel_mem_free_bytes", "kernel_zspages_bytes",
		"kernel_unaccepted_bytes",
	};
	static const char *const node[] = {
		"kernel_anon_bytes", "kernel_file_bytes",
		"kernel_swapcache_bytes", "kernel_slab_reclaimable_bytes",
		"kernel_slab_unreclaimable_bytes", "kernel_kernel_stack_bytes",
		"kernel_page_tables_bytes", "kernel_sec_page_tables_bytes",
		"kernel_kernel_misc_reclaimable_bytes", "kernel_vmalloc_bytes",
	};
	long long b = 0;
	size_t i;

	if (!mstat_find(s, "kernel_zone_stat_lag_bytes"))
		return -1;
	for (i = 0; i < ARRAY_SIZE(zone); i++)
		if (mstat_find(s, zone[i]))
			b += mstat_get(s, "kernel_zone_stat_lag_bytes");
	for (i = 0; i < ARRAY_SIZE(node); i++)
		if (mstat_find(s, node[i]))
			b += mstat_get(s, "kernel_node_stat_lag_bytes");
	return b;
}

/*
 * A kind that meminfo gives and mstat counts too (vmalloc, percpu): the
 * line is meminfo's, read after the snapshot, or mstat's where there is
 * none; where mstat's count is the larger (meminfo read behind it), the
 * line is mstat's, and says so.
 */
static long long add_meminfo_kind(struct account *a, const char *name,
				  const char *key, long long meminfo,
				  long long mine, const char *what,
				  const char *detail, long long age_ms)
{
	char after[80];

	if (meminfo < 0) {
		add(a, 2, name, key, FROM_MSTAT, mine,
		    "mstat: its count (no /proc/meminfo beside the snapshot)");
		return mine;
	}
	if (meminfo < mine) {
		add(a, 2, name, key, FROM_MSTAT, mine,
		    "mstat: its count, %lld above meminfo's %s read after it",
		    mine - meminfo, what);
		return mine;
	}
	/* A snapshot served again (snapshot_reused) is older than meminfo. */
	snprintf(after, sizeof(after), "read after the snapshot%s",
		 age_ms > 0 ? ", which was served " : "");
	if (age_ms > 0)
		snprintf(after + strlen(after), sizeof(after) - strlen(after),
			 "%lld ms old", age_ms);
	add(a, 2, name, key, FROM_MEMINFO, meminfo, "meminfo: %s (%s%s)", what,
	    detail, after);
	return meminfo;
}

static int build(struct account *a, const struct mstat_snap *s,
		 const long long mi[MI_NR], long long pstatic)
{
	long long t = mstat_get(s, "kernel_mem_total_bytes");
	long long free_ = mstat_get(s, "kernel_mem_free_bytes");
	long long slab = mstat_get(s, "kernel_slab_reclaimable_bytes") +
			 mstat_get(s, "kernel_slab_unreclaimable_bytes");
	long long stack = mstat_get(s, "kernel_kernel_stack_bytes");
	long long pt = mstat_get(s, "kernel_page_tables_bytes") +
		       mstat_get(s, "kernel_sec_page_tables_bytes");
	long long unacc = mstat_get(s, "kernel_unaccepted_bytes");
	bool stack_vm = mstat_get(s, "kernel_stack_in_vmalloc") == 1;
	bool mark = mstat_find(s, "kernel_mem_total_bytes_at_load");
	bool has_pcp = mstat_find(s, "kernel_pcp_free_bytes");
	long long pcp = mstat_get(s, "kernel_pcp_free_bytes");
	long long vm = s->vm[VM_KIND_VMALLOC][VM_LIVE_BYTES];
	long long pcpu = s->src[SRC_PERCPU][SRC_LIVE_OBJ] ?
			 s->src[SRC_PERCPU][SRC_LIVE_BYTES] : 0;
	long long first = percpu_first_chunk(s, pstatic);
	long long pcpu_mi = mi[MI_PERCPU];
	long long user, kern, vmk, pck;
	struct line *k;

	if (s->minor < 6 || !mstat_find(s, "kernel_mem_total_bytes")) {
		mstat_err("%s: format %s has no kernel counters (1.6 on)",
			  s->path, s->version);
		return -1;
	}
	a->gen = s->gen;
	a->total = t;
	a->bound = lag_bound(s);
	add(a, 0, "MemTotal", "total", FROM_KERNEL, t,
	    "kernel: totalram_pages()");
	/*
	 * What other modules reported through mstat's API may live in any
	 * line below (their slab, their pages): inside MemTotal, no part.
	 */
	if (s->src[SRC_API][SRC_LIVE_OBJ])
		add(a, 1, "of which reported through mstat's API", "api",
		    FROM_MSTAT, s->src[SRC_API][SRC_LIVE_BYTES],
		    "mstat: live objects other modules reported (mstat_account_alloc()), in the lines below");
	add(a, 1, "free", "free", FROM_KERNEL, free_,
	    "kernel: NR_FREE_PAGES (MemFree)");
	if (has_pcp)
		add(a, 1, "free, on per-CPU lists", "free_pcp", FROM_KERNEL, pcp,
		    "kernel: the zones' per-CPU lists (zoneinfo's count:), not in MemFree");
	if (mstat_find(s, "kernel_unaccepted_bytes"))
		add(a, 1, "unaccepted", "unaccepted", FROM_KERNEL, unacc,
		    "kernel: NR_UNACCEPTED (Unaccepted: not yet accepted from the host)");
	user = add_user(a, s, mi);
	k = add(a, 1, "kernel", "kernel", FROM_SUM, 0, "the lines below");
	add(a, 2, "slab", "kernel.slab", FROM_KERNEL, slab,
	    "kernel: NR_SLAB_RECLAIMABLE_B + NR_SLAB_UNRECLAIMABLE_B (Slab)");
	add_slab(a, s, slab, mark);
	if (mstat_find(s, "kernel_vmalloc_bytes")) {
		/* 1.9, 7.x: NR_VMALLOC, read in the snapshot. */
		vmk = mstat_get(s, "kernel_vmalloc_bytes");
		add(a, 2, "vmalloc", "kernel.vmalloc", FROM_KERNEL, vmk,
		    "kernel: NR_VMALLOC (VmallocUsed)");
	} else {
		vmk = add_meminfo_kind(a, "vmalloc", "kernel.vmalloc",
				       mi[MI_VMALLOC_USED], vm, "VmallocUsed",
				       "", mstat_get(s, "snapshot_age_ms"));
	}
	counted(a, 3, "kernel.vmalloc", vmk, vm, "areas mstat counted",
		"areas made before mstat counted");
	if (stack_vm)
		add(a, 3, "of which kernel stacks", "kernel.vmalloc.stacks",
		    FROM_KERNEL, stack,
		    "kernel: NR_KERNEL_STACK_KB (KernelStack; in vmalloc areas)");
	/*
	 * 1.10: the objects mstat counted in the first chunk are outside
	 * MemTotal with it; before, Percpu whole (the first chunk in it).
	 */
	if (mstat_find(s, "percpu_first_chunk_bytes"))
		pcpu -= mstat_get(s, "percpu_first_chunk_bytes");
	if (first >= 0 && pcpu_mi >= 0)
		pcpu_mi = pcpu_mi > first ? pcpu_mi - first : 0;
	pck = add_meminfo_kind(a, "percpu", "kernel.percpu", pcpu_mi, pcpu,
			       first >= 0 ? "Percpu less the first chunk" :
			       "Percpu",
			       first >= 0 ? "later chunks' pages, " :
			       mstat_find(s, "kernel_percpu_units") ?
			       "chunks' pages, the first chunk's with them (no /proc/kallsyms to size it), " :
			       "chunks' pages, ",
			       mstat_get(s, "snapshot_age_ms"));
	counted(a, 3, "kernel.percpu", pck, pcpu, "objects mstat counted",
		"older ones, and free space in chunks");
	if (!stack_vm)
		add(a, 2, "kernel stacks", "kernel.stacks", FROM_KERNEL, stack,
		    "kernel: NR_KERNEL_STACK_KB (KernelStack)");
	add(a, 2, "page tables", "kernel.page_tables", FROM_KERNEL, pt,
	    "kernel: NR_PAGETABLE + NR_SECONDARY_PAGETABLE");
	kern = slab + vmk + pck + (stack_vm ? 0 : stack) + pt + add_pgd(a, s) +
	       add_kernel_named(a, s);
	k->bytes = kern;
	a->unexplained = t - free_ - pcp - unacc - user - kern;
	if (a->bound >= 0) {
		char b[32];

		add(a, 1, "unexplained", "unexplained", FROM_REST,
		    a->unexplained,
		    "MemTotal less the lines above, +-%s (the kernel's counters' lag): pages given out that no counter names (raw pages)",
		    mstat_bytes(b, (double)a->bound));
	}
	else
		add(a, 1, "unexplained", "unexplained", FROM_REST,
		    a->unexplained,
		    has_pcp ? "MemTotal less the lines above: pages given out that no counter names (raw pages)" :
			      "MemTotal less the lines above: the page allocator's raw pages, its per-CPU lists");
	a->pcpu_first = first;
	a->pcpu_static = pstatic;
	return 0;
}

/*
 * The lines after MemTotal's tree, in no sum: boot's first percpu chunk
 * (1.10), which Percpu counts and MemTotal never had, and the objects
 * mstat counted in it.
 */
static void add_outside(struct account *a, const struct mstat_snap *s)
{
	if (a->pcpu_first < 0)
		return;
	add(a, 0, "not in MemTotal: percpu's first chunk",
	    "boot.percpu_first_chunk", FROM_KERNEL, a->pcpu_first,
	    "kernel: reserved at boot (memblock), in Percpu: static %lld + reserve + dynamic, page-aligned, x %lld possible CPUs",
	    a->pcpu_static, mstat_get(s, "kernel_percpu_units"));
	if (mstat_find(s, "percpu_first_chunk_bytes"))
		add(a, 1, "of which objects mstat counted",
		    "boot.percpu_first_chunk.mstat", FROM_MSTAT,
		    mstat_get(s, "percpu_first_chunk_bytes"),
		    "mstat: since it was on, live (not in the percpu line's)");
}

/*
 * The raw pages the profile sampled, under unexplained, by caller: an
 * estimate ("of which"), each line with its standard error; its callers
 * add up to it.
 */
static void add_raw(struct account *a, const struct mstat_snap *s,
		    const struct mstat_page_samples *ps)
{
	static const char *const keys[MSTAT_RAW_CALLERS + 1] = {
		"unexplained.raw_sampled.1", "unexplained.raw_sampled.2",
		"unexplained.raw_sampled.3", "unexplained.raw_sampled.4",
		"unexplained.raw_sampled.5", "unexplained.raw_sampled.other",
	};
	int i;

	if (!ps->have)
		return;
	add(a, 2, "of which raw pages, sampled", "unexplained.raw_sampled",
	    FROM_MSTAT, ps->kind[PK_RAW],
	    "mstat: page samples in use whose stack no kind claims, +-%lld (1 s.e.), %lld samples",
	    mstat_page_se(ps->raw_var), ps->kind_n[PK_RAW]);
	for (i = 0; i < ps->ncaller; i++)
		add(a, 3, ps->caller[i].name, keys[i], FROM_MSTAT,
		    ps->caller[i].bytes, "mstat: sampled, +-%lld (1 s.e.), %lld samples",
		    mstat_page_se(ps->caller[i].var), ps->caller[i].n);
	/* 1.10: page tables this kernel's NR_PAGETABLE leaves out. */
	if (mstat_get(s, "kernel_pud_uncounted") == 1)
		add(a, 2, "of which PUD page tables, sampled",
		    "unexplained.pt_pud_sampled", FROM_MSTAT, ps->kind[PK_PT_PUD],
		    "mstat: page samples under __pud_alloc, which NR_PAGETABLE leaves out before 6.12, +-%lld (1 s.e.), %lld samples",
		    mstat_page_se(ps->kind_var[PK_PT_PUD]),
		    ps->kind_n[PK_PT_PUD]);
	if (mstat_get(s, "kernel_pte_kernel_uncounted") == 1)
		add(a, 2, "of which kernel page tables, sampled",
		    "unexplained.pt_kernel_sampled", FROM_MSTAT,
		    ps->kind[PK_PT_KERNEL],
		    "mstat: page samples under __pte_alloc_kernel (init_mm's), which NR_PAGETABLE leaves out before 6.16, +-%lld (1 s.e.), %lld samples",
		    mstat_page_se(ps->kind_var[PK_PT_KERNEL]),
		    ps->kind_n[PK_PT_KERNEL]);
}

/*
 * The /proc/meminfo to read beside the snapshot: --meminfo's, or the
 * machine's when the snapshot is the machine's own /proc/mstat; none for
 * a saved snapshot.
 */
const char *mstat_memory_meminfo(const struct mstat_opts *o)
{
	if (o->meminfo)
		return o->meminfo;
	return strcmp(o->file[0], MSTAT_PROC) ? NULL : "/proc/meminfo";
}

/*
 * The kallsyms beside @o's snapshot, for the size of boot's first percpu
 * chunk: --kallsyms', or /proc/kallsyms beside the machine's own
 * /proc/mstat; NULL beside a saved snapshot.
 */
const char *mstat_memory_kallsyms(const struct mstat_opts *o)
{
	if (o->kallsyms)
		return o->kallsyms;
	return strcmp(o->file[0], MSTAT_PROC) ? NULL : "/proc/kallsyms";
}

/*
 * The sites file beside @o's snapshot: --sites', or /proc/mstat_sites
 * beside the machine's own /proc/mstat; NULL beside a saved snapshot.
 */
static const char *sites_path(const struct mstat_opts *o)
{
	if (o->sites)
		return o->sites;
	return strcmp(o->file[0], MSTAT_PROC) ? NULL : MSTAT_SITES_PROC;
}

/*
 * The sites file beside @o's snapshot (sites_path()), for the raw pages'
 * series: the live one only when it can be read (a module without it, or
 * a reader without the right, gives the account alone, as before).
 * Return: 0, @ss the file's rows or NULL; -1 if --sites' cannot be read
 * (it said why), as mstat memory fails then.
 */
int mstat_memory_sites(const struct mstat_opts *o, struct mstat_sites **ss)
{
	const char *sites = sites_path(o);

	*ss = NULL;
	if (!sites || (!o->sites && access(sites, R_OK)))
		return 0;
	*ss = mstat_sites_read(sites);
	return *ss || !o->sites ? 0 : -1;
}

/*
 * The account as Prometheus series, for mstat prom and mstat serve: one
 * gauge, a series a line; then, with @ss (format 2.3 with page samples),
 * the raw pages by caller (mstat_memory_raw_prom()). Nothing for a
 * snapshot without the kernel's counters (before format 1.6). @meminfo: the /proc/meminfo
 * to read beside the snapshot, or NULL (a saved snapshot: then the
 * vmalloc and percpu lines are mstat's own counts, from="mstat"). @ss:
 * the sites file beside it (mstat_memory_sites()), or NULL.
 */
void mstat_memory_prom(FILE *f, const struct mstat_snap *s,
		       const char *meminfo, const struct mstat_sites *ss)
{
	struct mstat_page_samples *ps;
	struct account *a;
	long long mi[MI_NR];
	int i;

	if (s->minor < 6 || !mstat_find(s, "kernel_mem_total_bytes"))
		return;
	a = mstat_alloc(NULL, sizeof(*a));
	ps = mstat_alloc(NULL, sizeof(*ps));
	memset(a, 0, sizeof(*a));
	mstat_page_samples(ps, ss);
	if (!meminfo || read_meminfo(meminfo, mi))
		for (i = 0; i < MI_NR; i++)
			mi[i] = -1;
	if (!build(a, s, mi, percpu_static(meminfo && !strcmp(meminfo, "/proc/meminfo") ?
					  "/proc/kallsyms" : NULL))) {
		add_outside(a, s);
		mstat_prom_head(f, "mstat_memory_bytes", "gauge",
				"MemTotal as mstat memory accounts for it, a series a line: line, its place in the tree; from, whose figure it is (kernel: a counter the module read in the snapshot; meminfo: /proc/meminfo's, read after the snapshot, mstat_memory_snapshot_age_seconds later; mstat: mstat's own count; sum: of the lines below; rest: what the others leave, unexplained within +- mstat_memory_unexplained_bound_bytes).");
		for (i = 0; i < a->n; i++)
			fprintf(f, "mstat_memory_bytes{line=\"%s\",from=\"%s\"} %lld\n",
				a->l[i].key, mstat_memory_from[a->l[i].kind],
				a->l[i].bytes);
		mstat_memory_moment_prom(f, a, s, mi);
		mstat_memory_raw_prom(f, ps);
	}
	free(ps);
	free(a);
}

/* The bytes of @a's line @key, or -1. */
static long long line_bytes(const struct account *a, const char *key)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->l[i].key && !strcmp(a->l[i].key, key))
			return a->l[i].bytes;
	return -1;
}

/*
 * --by caller: the vm areas beside @o's snapshot by caller,
 * --vmallocinfo's, or /proc/vmallocinfo beside the machine's own
 * /proc/mstat; none beside a saved snapshot (a message says so); each
 * caller's areas since load from @ow, if read.
 */
static int by_caller(const struct mstat_opts *o, const struct mstat_owners *ow,
		     struct mstat_vm_callers *vc)
{
	const char *path = o->vmallocinfo;

	if (!path && !strcmp(o->file[0], MSTAT_PROC))
		path = "/proc/vmallocinfo";
	if (!path) {
		mstat_err("--by caller beside a saved snapshot needs --vmallocinfo FILE");
		return -1;
	}
	return mstat_vm_callers_read(path, (int)o->top, ow, vc);
}

/*
 * The owners beside @o's snapshot, for --by caller and --cgroup, and the
 * owners' series of mstat prom and serve: --owners', or
 * /proc/mstat_owners beside the machine's own /proc/mstat when it can be
 * read (an older module has none: the exact parts are left out, and said
 * so). Return: 0, *@ow the file or NULL; -1 if --owners' cannot be read
 * (it said why).
 */
int mstat_memory_owners(const struct mstat_opts *o, struct mstat_owners **ow)
{
	const char *path = o->owners;

	*ow = NULL;
	if (!path && !strcmp(o->file[0], MSTAT_PROC) &&
	    !access(MSTAT_OWNERS_PROC, R_OK))
		path = MSTAT_OWNERS_PROC;
	if (!path)
		return 0;
	*ow = mstat_owners_read(path);
	return *ow ? 0 : -1;
}

int do_memory(const struct mstat_opts *o)
{
	struct account *a = mstat_alloc(NULL, sizeof(*a));
	struct mstat_page_samples *ps = mstat_alloc(NULL, sizeof(*ps));
	const char *sites = sites_path(o);
	struct mstat_sites *ss = NULL;
	struct mstat_vm_callers vc = { 0 };
	struct mstat_pcpu_callers pc = { 0 };
	struct mstat_slab_callers sc = { 0 };
	struct mstat_cg_table cg = { 0 };
	struct mstat_memory_whose w = { 0 };
	struct mstat_owners *ow = NULL;
	const char *meminfo;
	long long mi[MI_NR];
	struct mstat_snap *s;
	int err = EXIT_INPUT;

	memset(a, 0, sizeof(*a));
	memset(ps, 0, sizeof(*ps));
	s = mstat_snap_read(o->file[0]);
	if (!s)
		goto out;
	/* Never this machine's meminfo beside a saved snapshot. */
	meminfo = mstat_memory_meminfo(o);
	if (!meminfo)
		for (int i = 0; i < MI_NR; i++)
			mi[i] = -1;
	else if (read_meminfo(meminfo, mi))
		goto out;
	/* The profile beside the machine's own /proc/mstat, or --sites'. */
	if (sites) {
		ss = mstat_sites_read(sites);
		if (!ss)
			goto out;
		mstat_page_samples(ps, ss);
	}
	if (build(a, s, mi, percpu_static(mstat_memory_kallsyms(o))))
		goto out;
	add_raw(a, s, ps);
	add_outside(a, s);
	if ((o->by_caller || o->cgroup) && mstat_memory_owners(o, &ow))
		goto out;
	if (o->by_caller && by_caller(o, ow, &vc))
		goto out;
	if (o->by_caller && ow) {
		mstat_pcpu_callers(ow, (int)o->top, &pc);
		w.pc = &pc;
	}
	if (o->by_caller && ss) {
		mstat_slab_callers(ss, (int)o->top, &sc);
		w.sc = &sc;
	}
	if (o->cgroup) {
		if (mstat_cg_table(ow, ss, o->cgroup_path, (int)o->top, true,
				   &cg))
			goto out;
		w.cg = &cg;
	}
	w.vc = vc.path ? &vc : NULL;
	if (o->json)
		mstat_memory_json(a, ps, &w);
	else
		mstat_memory_text(a, mi, s, ps, sites);
	if (!o->json && w.vc)
		mstat_vm_callers_text(stdout, &vc, line_bytes(a, "kernel.vmalloc"));
	if (!o->json && w.pc)
		mstat_pcpu_callers_text(stdout, &pc);
	if (!o->json && w.sc)
		mstat_slab_callers_text(stdout, &sc);
	if (!o->json && w.cg)
		mstat_cg_table_text(stdout, &cg);
	err = mstat_out_close(stdout, NULL, NULL);
out:
	mstat_cg_table_free(&cg);
	mstat_pcpu_callers_free(&pc);
	mstat_slab_callers_free(&sc);
	mstat_owners_free(ow);
	mstat_vm_callers_free(&vc);
	mstat_snap_free(s);
	mstat_sites_free(ss);
	free(ps);
	free(a);
	return err;
}

static const struct option mstat_memory_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "meminfo", required_argument, NULL, OPT_MEMINFO },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "sites", required_argument, NULL, OPT_SITES },
	{ "by", required_argument, NULL, OPT_BY },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "vmallocinfo", required_argument, NULL, OPT_VMALLOCINFO },
	{ "cgroup", optional_argument, NULL, OPT_CGROUP },
	{ "owners", required_argument, NULL, OPT_OWNERS },
	{ NULL, 0, NULL, 0 }
};

const struct mstat_optspec mstat_memory_optspec = {
	.name = "memory", .shortopts = "-:hf:",
	.longopts = mstat_memory_longopts, .file = MSTAT_PROC,
};

int cmd_memory(int argc, char **argv)
{
	struct mstat_opts o = MSTAT_OPTS_INIT;
	int err = mstat_opts_parse(&mstat_memory_optspec, argc, argv, &o);

	return err ? err : do_memory(&o);
}
