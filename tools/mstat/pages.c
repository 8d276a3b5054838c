// SPDX-License-Identifier: GPL-2.0
/*
 * The heap profile's page samples (/proc/mstat_sites 2.3, profile_pages=1)
 * as mstat memory sorts them (pages.h): each page row by what its stack
 * says the pages became, the raw ones by their caller, the first frame
 * outside the page allocator, and each row's estimate in use with its
 * variance from its sampled objects' own chances (stats.h's struct
 * mstat_ht).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pages.h"
#include "stats.h"
#include "util.h"

const char *const mstat_page_kind_name[PK_NR] = {
	"raw", "slab", "vmalloc", "page tables", "kernel stacks", "percpu",
	"file", "anon", "PUD page tables", "kernel page tables",
};

static const struct {
	enum mstat_page_kind kind;
	const char *func;
} page_frames[] = {
	{ PK_SLAB, "allocate_slab" }, { PK_SLAB, "new_slab" },
	{ PK_SLAB, "alloc_slab_page" }, { PK_SLAB, "kmalloc_order" },
	/*
	 * Large kmalloc's pages: kmalloc_order(_trace) and 5.10's static
	 * kmalloc_large_node to 6.0; kmalloc_large(_node) and
	 * __kmalloc_large_node from 6.1; the _noprof ones from 6.10.
	 */
	{ PK_SLAB, "kmalloc_order_trace" }, { PK_SLAB, "kmalloc_large_node" },
	{ PK_SLAB, "kmalloc_large" }, { PK_SLAB, "__kmalloc_large_node" },
	{ PK_SLAB, "__kmalloc_large_node_noprof" },
	{ PK_SLAB, "___kmalloc_large_node" },
	{ PK_SLAB, "__kmalloc_large_noprof" },
	{ PK_VMALLOC, "__vmalloc_area_node" },
	{ PK_VMALLOC, "vm_area_alloc_pages" },
	/* Where the two above are inlined (5.x, 7.x traces). */
	{ PK_VMALLOC, "__vmalloc_node_range" },
	{ PK_VMALLOC, "__vmalloc_node_range_noprof" },
	{ PK_PAGE_TABLES, "__pte_alloc" },
	{ PK_PAGE_TABLES, "pte_alloc_one" }, { PK_PAGE_TABLES, "__pte_alloc_one" },
	/* init_mm's PTE pages: vmalloc's mappings, and the like. */
	{ PK_PT_KERNEL, "__pte_alloc_kernel" },
	{ PK_PT_KERNEL, "pte_alloc_one_kernel" },
	{ PK_PT_KERNEL, "__pte_alloc_one_kernel" },
	{ PK_PAGE_TABLES, "__pmd_alloc" }, { PK_PT_PUD, "__pud_alloc" },
	{ PK_PAGE_TABLES, "__p4d_alloc" }, { PK_PAGE_TABLES, "pgd_alloc" },
	{ PK_PAGE_TABLES, "_pgd_alloc" },
	{ PK_STACKS, "alloc_thread_stack_node" },
	{ PK_PERCPU, "pcpu_alloc_pages" }, { PK_PERCPU, "pcpu_populate_chunk" },
	{ PK_FILE, "filemap_alloc_folio" },
	{ PK_FILE, "filemap_alloc_folio_noprof" },
	{ PK_FILE, "__filemap_get_folio" }, { PK_FILE, "page_cache_ra_unbounded" },
	{ PK_FILE, "page_cache_ra_order" }, { PK_FILE, "__page_cache_alloc" },
	{ PK_FILE, "shmem_alloc_folio" }, { PK_FILE, "shmem_alloc_and_add_folio" },
	{ PK_FILE, "shmem_alloc_page" }, { PK_FILE, "grow_dev_folio" },
	{ PK_FILE, "grow_dev_page" },
	/* Huge shmem's (to 5.18, 5.19 on); khugepaged's collapse of a file. */
	{ PK_FILE, "shmem_alloc_hugepage" }, { PK_FILE, "shmem_alloc_hugefolio" },
	{ PK_FILE, "collapse_file" },
	{ PK_ANON, "do_anonymous_page" }, { PK_ANON, "alloc_anon_folio" },
	{ PK_ANON, "wp_page_copy" }, { PK_ANON, "do_cow_fault" },
	{ PK_ANON, "do_huge_pmd_anonymous_page" },
	{ PK_ANON, "vma_alloc_zeroed_movable_folio" },
	{ PK_ANON, "do_swap_page" }, { PK_ANON, "do_wp_page" },
	/* khugepaged's collapse; UFFDIO_COPY's page (to 6.4, 6.5 on). */
	{ PK_ANON, "collapse_huge_page" }, { PK_ANON, "mcopy_atomic_pte" },
	{ PK_ANON, "mfill_atomic_pte_copy" },
	/* A GPU buffer's page, though a user's fault asked for it. */
	{ PK_RAW, "ttm_pool_alloc_page" },
	/* A fault's page none of the above claims: a user page. */
	{ PK_ANON, "__handle_mm_fault" }, { PK_ANON, "handle_mm_fault" },
};

/*
 * The page allocator's own entry points, 5.10 to 7.3 (the module skips
 * them; an older module's stacks, or a name it lacks, still hold them):
 * a raw page's caller is its stack's first frame that is none of these.
 */
static const char *const page_allocator[] = {
	"alloc_pages", "alloc_pages_noprof", "__alloc_pages",
	"__alloc_pages_noprof", "__alloc_pages_nodemask", "alloc_pages_current",
	"alloc_pages_node", "__alloc_pages_node", "alloc_pages_vma",
	"alloc_page_interleave", "alloc_pages_preferred_many",
	"alloc_pages_mpol", "alloc_pages_mpol_noprof", "__get_free_pages",
	"get_free_pages_noprof", "get_zeroed_page", "get_zeroed_page_noprof",
	"alloc_pages_exact", "alloc_pages_exact_noprof",
	"alloc_pages_exact_nid", "alloc_pages_exact_nid_noprof",
	"__alloc_pages_bulk", "alloc_pages_bulk_noprof",
	"alloc_pages_bulk_array_mempolicy",
	"alloc_pages_bulk_array_mempolicy_noprof",
	"alloc_pages_bulk_array_interleave",
	"alloc_pages_bulk_array_weighted_interleave",
	"alloc_pages_bulk_array_preferred_many",
	"alloc_pages_bulk_mempolicy_noprof", "alloc_pages_bulk_interleave",
	"alloc_pages_bulk_weighted_interleave",
	"alloc_pages_bulk_preferred_many", "alloc_pages_nolock",
	"alloc_pages_nolock_noprof", "try_alloc_pages_noprof",
	"__alloc_frozen_pages_noprof", "alloc_frozen_pages_noprof",
	"alloc_frozen_pages_nolock_noprof", "__folio_alloc",
	"__folio_alloc_noprof", "folio_alloc", "folio_alloc_noprof",
	"folio_alloc_mpol", "folio_alloc_mpol_noprof", "vma_alloc_folio",
	"vma_alloc_folio_noprof",
};

/*
 * The function of a frame as %pS prints it, without a clone's suffix
 * (.constprop.0, .isra.0, .part.0, .cold, .llvm.N: no kernel function
 * has a dot of its own): "f.isra.0+0x1/0x2 [m]" gives f.
 */
static void frame_func(const char *frame, char *buf, size_t size)
{
	size_t n = strcspn(frame, "+ .");

	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), frame);
}

/* Frame @i of @st's stack: 0 the site, then its callers. */
static const char *frame_at(const struct mstat_site *st, size_t i)
{
	return i ? st->frame[i - 1] : st->text;
}

static bool page_allocator_frame(const char *frame)
{
	char f[128];
	size_t i;

	frame_func(frame, f, sizeof(f));
	for (i = 0; i < ARRAY_SIZE(page_allocator); i++)
		if (!strcmp(f, page_allocator[i]))
			return true;
	return false;
}

/*
 * Allocators of pages for others, whose pages are named by what they are
 * and by whom they were asked ("page_pool: mlx5e_post_rx_wqes [mlx5_core]"):
 * a frame's function that starts with one of these prefixes.
 */
static const struct {
	const char *prefix;
	const char *name;
} page_users[] = {
	{ "page_pool_", "page_pool" }, { "__page_pool_", "page_pool" },
	{ "system_heap_", "dma-buf" }, { "dma_heap_", "dma-buf" },
	{ "cma_heap_", "dma-buf" },
};

/* The page_users[] name of @frame, or NULL. */
static const char *page_user(const char *frame)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(page_users); i++)
		if (!strncmp(frame, page_users[i].prefix,
			     strlen(page_users[i].prefix)))
			return page_users[i].name;
	return NULL;
}

/*
 * A raw page's caller, into @buf: its stack's first frame outside the
 * page allocator (the first frame if all are its), "FUNC" or "FUNC
 * [MODULE]", FUNC without a clone's suffix; a page_pool's or a dma-buf
 * heap's page "page_pool: FUNC [MODULE]", FUNC the first frame outside
 * that allocator too.
 */
static void page_caller(const struct mstat_site *st, char *buf, size_t size)
{
	const char *frame = st->text, *mod, *user = NULL, *u;
	char f[128];
	size_t i;

	for (i = 0; i <= st->nframe; i++) {
		if (page_allocator_frame(frame_at(st, i)))
			continue;
		u = page_user(frame_at(st, i));
		if (u) {
			user = u;
			continue;
		}
		frame = frame_at(st, i);
		break;
	}
	frame_func(frame, f, sizeof(f));
	mod = strstr(frame, " [");
	snprintf(buf, size, "%s%s%.96s%.30s", user ? user : "",
		 user ? ": " : "", f, mod ? mod : "");
}

enum mstat_page_kind mstat_page_kind(const struct mstat_site *st)
{
	char f[128];
	size_t i, j;

	for (i = 0; i <= st->nframe; i++) {
		frame_func(frame_at(st, i), f, sizeof(f));
		for (j = 0; j < ARRAY_SIZE(page_frames); j++)
			if (!strcmp(f, page_frames[j].func))
				return page_frames[j].kind;
	}
	return PK_RAW;
}

/* A raw caller's rows, summed; bytes first, for caller_cmp(). */
struct raw_caller {
	long long bytes, n;
	double var;
	char name[128];
};

/* Largest first. */
static int caller_cmp(const void *x, const void *y)
{
	const long long *a = x, *b = y;

	return *a < *b ? 1 : *a > *b ? -1 : 0;
}

/* Add a row of @name's to @c (*@nc callers, grown as need be). */
static struct raw_caller *caller_add(struct raw_caller *c, size_t *nc,
				     const char *name, long long bytes,
				     long long n, double var)
{
	size_t j;

	for (j = 0; j < *nc && strcmp(c[j].name, name); j++)
		;
	if (j == *nc) {
		c = mstat_alloc(c, (*nc + 1) * sizeof(*c));
		memset(&c[j], 0, sizeof(*c));
		snprintf(c[j].name, sizeof(c[j].name), "%s", name);
		(*nc)++;
	}
	c[j].bytes += bytes;
	c[j].n += n;
	c[j].var += var;
	return c;
}

/* @c's @nc callers into @ps: its top MSTAT_RAW_CALLERS, then the rest. */
static void callers_top(struct mstat_page_samples *ps, struct raw_caller *c,
			size_t nc)
{
	size_t i, j;

	if (nc)
		qsort(c, nc, sizeof(*c), caller_cmp);
	for (i = 0; i < nc; i++) {
		j = i < MSTAT_RAW_CALLERS ? i : MSTAT_RAW_CALLERS;
		if (i <= MSTAT_RAW_CALLERS)
			snprintf(ps->caller[j].name, sizeof(ps->caller[j].name),
				 "%s", i < MSTAT_RAW_CALLERS ? c[i].name :
				 "every other caller");
		ps->caller[j].bytes += c[i].bytes;
		ps->caller[j].n += c[i].n;
		ps->caller[j].var += c[i].var;
	}
	ps->ncaller = nc <= MSTAT_RAW_CALLERS ? (int)nc : MSTAT_RAW_CALLERS + 1;
}

/*
 * A page row's bytes in use, and into *@var the variance of that
 * estimate, from its sampled objects (Horvitz-Thompson, struct mstat_ht):
 * each live line (2.2 on) an object drawn with its own size's chance at
 * @rate, so that one far above the rate counts as itself, exactly. What
 * they leave of the row's sampled bytes and objects (none listed, an
 * address the module could not keep, a free after the cut), objects of
 * their mean size drawn with the chance the module scaled the row by,
 * q = sampled_bytes / est_bytes: with no live line, est_bytes, variance
 * (1 - q) est_bytes^2 / sampled_calls. Never below 0.
 */
long long mstat_row_estimate(const struct mstat_site *st, long long rate,
			     double *var)
{
	struct mstat_ht h = { 0, 0 };
	long long b = 0, rb, rn = st->sampled_calls - (long long)st->nlive;
	size_t i;

	for (i = 0; i < st->nlive; i++) {
		double s = (double)st->live[i].bytes;

		mstat_ht_add(&h, s, 1, mstat_sample_prob(s, (double)rate));
		b += st->live[i].bytes;
	}
	rb = st->sampled_bytes - b;
	if (rn < 1)
		rn = 1;
	if (rb > 0 && st->est_bytes > 0)
		mstat_ht_add(&h, (double)rb / rn, (double)rn,
			     (double)st->sampled_bytes / st->est_bytes);
	*var = h.var;
	return llround(h.est);
}

void mstat_page_samples(struct mstat_page_samples *ps,
			const struct mstat_sites *ss)
{
	struct raw_caller *c = NULL;
	size_t i, nc = 0;

	memset(ps, 0, sizeof(*ps));
	if (!ss || ss->major != 2 || ss->minor < 3)
		return;
	ps->rate = ss->rate;
	/* Since load or reset, every source's: each one a low estimate. */
	ps->dropped = (ss->site_drops > 0 ? ss->site_drops : 0) +
		      (ss->addr_drops > 0 ? ss->addr_drops : 0);
	for (i = 0; i < ss->n; i++) {
		const struct mstat_site *st = &ss->site[i];
		enum mstat_page_kind k;
		long long e;
		char name[128];
		double v;

		if (st->src != SRC_PAGE)
			continue;
		ps->have = true;
		ps->samples += st->sampled_calls;
		k = mstat_page_kind(st);
		e = mstat_row_estimate(st, ss->rate, &v);
		ps->kind[k] += e;
		ps->kind_n[k] += st->sampled_calls;
		ps->kind_var[k] += v;
		if (k != PK_RAW || e <= 0)
			continue;
		ps->raw_var += v;
		page_caller(st, name, sizeof(name));
		c = caller_add(c, &nc, name, e, st->sampled_calls, v);
	}
	callers_top(ps, c, nc);
	free(c);
}

long long mstat_page_se(double var)
{
	return var > 0 ? llround(sqrt(var)) : 0;
}
