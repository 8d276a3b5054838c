// SPDX-License-Identifier: GPL-2.0
/*
 * mstat check: read /proc/mstat (or FILEs) and check every invariant its
 * snapshot promises, within each read and across reads. It was the
 * separate tool mstat-check; its command line, output and exit status
 * are unchanged, and it reads through the tool's parser (parse.c, in its
 * exact mode: the shapes of format 1.0 and 1.1, nothing else).
 *
 *   mstat check [-n N] [-i MS] [FILE...]
 *
 * Each FILE (default /proc/mstat) is read N times (default 1), MS
 * milliseconds apart (default 0); all reads, in order, form one sequence
 * whose generation must strictly increase (or stay, in a read that says
 * "snapshot_reused 1": the last snapshot served again to a reader without
 * CAP_SYS_ADMIN, format 1.5) and whose cumulative counters must never
 * decrease. Within a read:
 *
 *  - the first line is "mstat - version: 1.<minor>";
 *  - every other line is "name value", a "class" or "order" row, or a
 *    "#" comment; no name appears twice;
 *  - per source (kmalloc, cache, page, api): live_objects = allocs -
 *    frees, live_bytes = bytes_allocated - bytes_freed (as s64);
 *  - slab_* = the sum of kmalloc, cache and api, for allocs, frees and
 *    bytes; slab_live_* and slab_frag_bytes follow from them;
 *  - per class row: live_objects, live_bytes and frag_bytes follow from
 *    its other columns, frag_live_bytes_est is the kernel's estimate
 *    (exactly: its product in 128 bits), bytes_requested <=
 *    bytes_allocated, and the bytes of every event lie in the class's size
 *    range (these two while the class's bytes are below 2^64, 16 EiB: they
 *    need the true values); the rows sum to slab_allocs, slab_frees,
 *    slab_bytes_requested, slab_bytes_allocated and slab_bytes_freed;
 *  - from format 1.1, per kmalloc_class row (the kmalloc source alone,
 *    the same labels as the class rows): live_objects = at_load_objects
 *    (from 1.8; "large" has none) + allocs - frees, allocs and frees no
 *    more than the class row's, live_bytes = live_objects * size below
 *    "large"; the rows sum to kmalloc_allocs, kmalloc_frees and, without
 *    their objects at load, kmalloc_live_bytes;
 *  - from format 1.2, the per-cache table: per cache row, live_objects =
 *    at_load_objects (from 1.8) + allocs - frees, live_bytes =
 *    live_objects * object_size; for the overflow row, live_objects =
 *    allocs - frees; the rows and the overflow sum to cache_allocs,
 *    cache_frees, cache_failures and, without the rows' objects at load,
 *    cache_live_objects and cache_live_bytes; rows <= caches_used <=
 *    caches_rows; ids unique; across reads, a row keeps its name, size
 *    and objects at load, its allocs, frees and failures never decrease,
 *    a gone row never lives again, and caches_used never decreases;
 *  - per order row: live_pages = (allocs - frees) << order; the rows sum
 *    to page_allocs, page_frees, page_failures, page_live_pages, and,
 *    in pages of PAGE_SIZE, to page_bytes_allocated and page_bytes_freed;
 *  - the ctx_*_allocs (frees) sum to the allocs (frees) of all sources;
 *  - gfp_sleep_allocs + gfp_atomic_allocs = the allocs of all sources.
 *
 * Counters are u64s that wrap modulo 2^64; sums, differences and the
 * products by a size are compared modulo 2^64, as the module makes them,
 * which holds across a wrap. Across reads, a counter that wrapped reads as
 * decreased.
 *
 * Prints one line per violation and a summary line; exits 0 if all
 * holds, 1 on any violation or parse error, 2 on usage, open or read
 * errors. main.c parses the options. The checker's own test, that it
 * passes good samples and catches corrupted ones, is check_selftest.c, a
 * program of the test build (make check-selftest).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "input.h"
#include "parse_snap.h"

static const char *const slab_sources[] = { "kmalloc", "cache", "api" };
#define NR_SLAB		3

/* Cumulative class columns: never decrease between reads. */
static const int class_cumulative[] = { CLS_ALLOCS, CLS_FREES,
					CLS_BYTES_REQ, CLS_BYTES_ALLOC,
					CLS_BYTES_FREED };

void check_violation(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	c->violations++;
	if (c->max_print && c->violations > c->max_print)
		return;
	printf(CHECK_TAG "%s: ", c->what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Parsing: the tool's parser, its findings in mstat-check's words. */

static bool dup_line(void *arg, const struct mstat_dup *d)
{
	struct checker *c = arg;

	check_violation(c, "%s%s appears twice",
			d->kind == MSTAT_DUP_CLASS ? "class " :
			d->kind == MSTAT_DUP_ORDER ? "order " :
			d->kind == MSTAT_DUP_KCLASS ? "kmalloc_class " :
			d->kind == MSTAT_DUP_CACHE ? "cache " :
			d->kind == MSTAT_DUP_VM ? "vm " : "",
			d->what);
	return true;
}

/* Parse @buf (NUL-terminated, modified) into c->cur; 0 or -1. */
static int parse(struct checker *c, char *buf, size_t len)
{
	struct mstat_perror e;

	if (mstat_snap_parse(&c->cur, buf, len, MSTAT_PARSE_EXACT, dup_line,
			     c, &e))
		return 0;
	switch (e.code) {
	case MSTAT_E_NUL:
		check_violation(c, "NUL byte in the file");
		break;
	case MSTAT_E_EMPTY:
	case MSTAT_E_PARTIAL:
		check_violation(c, "empty, or no newline at the end");
		break;
	case MSTAT_E_HEAD:
	case MSTAT_E_VERSION:
	case MSTAT_E_MAJOR:
		check_violation(c, "line 1: not \"mstat - version: 1.x\": \"%s\"",
				e.text);
		break;
	default:
		check_violation(c, "line %d does not parse", e.line);
	}
	return -1;
}

/* Checks within one read. */

/* The value of field @fmt..., or 0 and a violation if it is missing. */
static uint64_t MSTAT_PRINTF(2, 3) get(struct checker *c, const char *fmt, ...)
{
	const struct mstat_counter *f;
	char name[2 * MSTAT_NAME_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	f = mstat_find(&c->cur, name);
	if (!f) {
		check_violation(c, "%s missing", name);
		return 0;
	}
	return f->val;
}

static void expect(struct checker *c, const char *what, uint64_t got,
		   uint64_t want)
{
	if (got != want)
		check_violation(c, "%s is %" PRId64 ", expected %" PRId64, what,
				(int64_t)got, (int64_t)want);
}

/* The sources a file of @c->cur's minor has: 1.6 added two. */
static int nr_sources(const struct checker *c)
{
	return c->cur.minor >= 6 ? MSTAT_NR_SRC : MSTAT_NR_SRC_1_0;
}

static void check_sources(struct checker *c)
{
	char what[2 * MSTAT_NAME_MAX];
	uint64_t a, f;
	int i;

	for (i = 0; i < nr_sources(c); i++) {
		const char *s = mstat_src_names[i];

		a = get(c, "%s_allocs", s);
		f = get(c, "%s_frees", s);
		snprintf(what, sizeof(what), "%s_live_objects", s);
		expect(c, what, get(c, "%s", what), a - f);
		a = get(c, "%s_bytes_allocated", s);
		f = get(c, "%s_bytes_freed", s);
		snprintf(what, sizeof(what), "%s_live_bytes", s);
		expect(c, what, get(c, "%s", what), a - f);
		get(c, "%s_failures", s);
		get(c, "%s_bytes_requested", s);
	}
}

static void check_slab(struct checker *c)
{
	static const char *const sum[] = { "allocs", "frees",
		"bytes_requested", "bytes_allocated", "bytes_freed" };
	char what[2 * MSTAT_NAME_MAX];
	uint64_t t;
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(sum); i++) {
		t = 0;
		for (j = 0; j < NR_SLAB; j++)
			t += get(c, "%s_%s", slab_sources[j], sum[i]);
		snprintf(what, sizeof(what), "slab_%s", sum[i]);
		expect(c, what, get(c, "%s", what), t);
	}
	expect(c, "slab_live_objects", get(c, "slab_live_objects"),
	       get(c, "slab_allocs") - get(c, "slab_frees"));
	expect(c, "slab_live_bytes", get(c, "slab_live_bytes"),
	       get(c, "slab_bytes_allocated") - get(c, "slab_bytes_freed"));
	expect(c, "slab_frag_bytes", get(c, "slab_frag_bytes"),
	       get(c, "slab_bytes_allocated") -
	       get(c, "slab_bytes_requested"));
}

/*
 * The kernel's estimate of a class's live fragmentation, exactly as
 * mstat_frag_live_est() (mstat_stats.c) makes it: frag * live / allocs
 * with the product in 128 bits; 0 if none live or no allocations; frag
 * if live >= allocs.
 */
static uint64_t frag_live_est(uint64_t frag, int64_t live, uint64_t allocs)
{
	__extension__ typedef unsigned __int128 u128;

	if (live <= 0 || !allocs)
		return 0;
	if ((uint64_t)live >= allocs)
		return frag;
	return (uint64_t)((u128)frag * (uint64_t)live / allocs);
}

/*
 * @n events of @bytes in total must each be in (lo, hi]; hi 0: no limit.
 * The mean needs the true @bytes: it holds while the class's bytes stay
 * below 2^64 (16 EiB through one class).
 */
static int in_class(uint64_t n, uint64_t bytes, uint64_t lo, uint64_t hi)
{
	if (!n)
		return bytes == 0;
	if (bytes / n < lo || (bytes / n == lo && bytes % n == 0))
		return 0;	/* at most n * lo */
	return !hi || bytes / n < hi || (bytes / n == hi && bytes % n == 0);
}

static void check_class_row(struct checker *c, const struct mstat_class *r,
			    uint64_t lo)
{
	uint64_t v[CLS_NR], size = r->size, frag, est;
	int64_t live;
	char what[64];
	int i;

	for (i = 0; i < CLS_NR; i++)
		v[i] = r->v[i];
	frag = v[CLS_BYTES_ALLOC] - v[CLS_BYTES_REQ];
	live = (int64_t)(v[CLS_ALLOCS] - v[CLS_FREES]);

	snprintf(what, sizeof(what), "class %s live_objects", r->name);
	expect(c, what, v[CLS_LIVE_OBJ], v[CLS_ALLOCS] - v[CLS_FREES]);
	snprintf(what, sizeof(what), "class %s live_bytes", r->name);
	expect(c, what, v[CLS_LIVE_BYTES], v[CLS_BYTES_ALLOC] - v[CLS_BYTES_FREED]);
	snprintf(what, sizeof(what), "class %s frag_bytes", r->name);
	expect(c, what, v[CLS_FRAG], frag);
	if (v[CLS_BYTES_REQ] > v[CLS_BYTES_ALLOC])
		check_violation(c, "class %s: bytes_requested %" PRIu64 " > bytes_allocated %" PRIu64,
				r->name, v[CLS_BYTES_REQ], v[CLS_BYTES_ALLOC]);
	est = frag_live_est(frag, live, v[CLS_ALLOCS]);
	if (v[CLS_FRAG_LIVE_EST] != est)
		check_violation(c, "class %s frag_live_bytes_est is %" PRIu64 ", expected %" PRIu64,
				r->name, v[CLS_FRAG_LIVE_EST], est);
	if (!in_class(v[CLS_ALLOCS], v[CLS_BYTES_ALLOC], lo, size))
		check_violation(c, "class %s: %" PRIu64 " allocs of %" PRIu64 " bytes in all do not fit the class (%" PRIu64 ", %" PRIu64 "]",
				r->name, v[CLS_ALLOCS], v[CLS_BYTES_ALLOC], lo, size);
	if (!in_class(v[CLS_FREES], v[CLS_BYTES_FREED], lo, size))
		check_violation(c, "class %s: %" PRIu64 " frees of %" PRIu64 " bytes in all do not fit the class (%" PRIu64 ", %" PRIu64 "]",
				r->name, v[CLS_FREES], v[CLS_BYTES_FREED], lo, size);
}

static void check_classes(struct checker *c)
{
	static const struct { int col; const char *slab; } sum[] = {
		{ CLS_ALLOCS, "slab_allocs" },
		{ CLS_FREES, "slab_frees" },
		{ CLS_BYTES_REQ, "slab_bytes_requested" },
		{ CLS_BYTES_ALLOC, "slab_bytes_allocated" },
		{ CLS_BYTES_FREED, "slab_bytes_freed" },
	};
	char what[64];
	uint64_t t, lo = 0;
	size_t i;
	int j;

	if (!c->cur.ncls) {
		check_violation(c, "no class rows");
		return;
	}
	for (j = 0; j < c->cur.ncls; j++) {
		const struct mstat_class *r = &c->cur.cls[j];

		if (j < c->cur.ncls - 1 ? r->size <= lo : r->size != 0)
			check_violation(c, "class rows not ascending, ending in \"large\": %s",
					r->name);
		check_class_row(c, r, lo);
		lo = r->size;
	}
	for (i = 0; i < ARRAY_SIZE(sum); i++) {
		t = 0;
		for (j = 0; j < c->cur.ncls; j++)
			t += c->cur.cls[j].v[sum[i].col];
		snprintf(what, sizeof(what), "sum of class %s",
			 mstat_cls_fields[sum[i].col]);
		expect(c, what, t, get(c, "%s", sum[i].slab));
	}
}

/* Format 1.1: the kmalloc source's own class rows. */
static void check_kclasses(struct checker *c)
{
	uint64_t a = 0, f = 0, lb = 0;
	char what[64];
	int j, k;

	if (c->cur.minor < 1)
		return;
	if (c->cur.nkcls != c->cur.ncls) {
		check_violation(c, "%d kmalloc_class rows for %d class rows",
				c->cur.nkcls, c->cur.ncls);
		return;
	}
	for (j = 0; j < c->cur.nkcls; j++) {
		const struct mstat_class *r = &c->cur.kcls[j];
		const struct mstat_class *cl = &c->cur.cls[j];
		uint64_t v[KCLS_NR];

		for (k = 0; k < KCLS_NR; k++)
			v[k] = r->v[k];
		if (strcmp(r->name, cl->name))
			check_violation(c, "kmalloc_class row %d is %s, class row %s",
					j, r->name, cl->name);
		snprintf(what, sizeof(what), "kmalloc_class %s live_objects",
			 r->name);
		expect(c, what, v[KCLS_LIVE_OBJ],
		       v[KCLS_AT_LOAD] + v[KCLS_ALLOCS] - v[KCLS_FREES]);
		if (!r->size && v[KCLS_AT_LOAD])
			check_violation(c, "kmalloc_class large has %" PRIu64 " objects at load",
					v[KCLS_AT_LOAD]);
		if (r->size) {
			snprintf(what, sizeof(what),
				 "kmalloc_class %s live_bytes", r->name);
			expect(c, what, v[KCLS_LIVE_BYTES],
			       v[KCLS_LIVE_OBJ] * r->size);
		}
		if (v[KCLS_ALLOCS] > (uint64_t)cl->v[CLS_ALLOCS] ||
		    v[KCLS_FREES] > (uint64_t)cl->v[CLS_FREES])
			check_violation(c, "kmalloc_class %s counts more than class %s",
					r->name, cl->name);
		a += v[KCLS_ALLOCS];
		f += v[KCLS_FREES];
		/* The source counts since load: without what was there. */
		lb += v[KCLS_LIVE_BYTES] - v[KCLS_AT_LOAD] * r->size;
	}
	expect(c, "sum of kmalloc_class allocs", a, get(c, "kmalloc_allocs"));
	expect(c, "sum of kmalloc_class frees", f, get(c, "kmalloc_frees"));
	expect(c, "sum of kmalloc_class live_bytes", lb,
	       get(c, "kmalloc_live_bytes"));
}

/* Format 1.2: the per-cache table adds up to the cache source. */
static void check_caches(struct checker *c)
{
	static const char *const total[CACHE_NR] = {
		"cache_allocs", "cache_frees", "cache_failures",
		"cache_live_objects", "cache_live_bytes",
	};
	const struct mstat_snap *s = &c->cur;
	uint64_t sum[CACHE_NR], v[CACHE_NR], used;
	char what[96];
	int j, k;

	if (s->minor < 2)
		return;
	if (!s->has_caches) {
		check_violation(c, "no cache_overflow row");
		return;
	}
	for (k = 0; k < CACHE_NR; k++)
		sum[k] = s->over[k];
	expect(c, "cache_overflow live_objects", s->over[CACHE_LIVE_OBJ],
	       (uint64_t)s->over[CACHE_ALLOCS] - (uint64_t)s->over[CACHE_FREES]);
	for (j = 0; j < s->ncache; j++) {
		const struct mstat_cache *r = &s->cache[j];

		for (k = 0; k < CACHE_NR; k++)
			v[k] = r->v[k];
		snprintf(what, sizeof(what), "cache %llu live_objects", r->id);
		expect(c, what, v[CACHE_LIVE_OBJ],
		       r->at_load + v[CACHE_ALLOCS] - v[CACHE_FREES]);
		snprintf(what, sizeof(what), "cache %llu live_bytes", r->id);
		expect(c, what, v[CACHE_LIVE_BYTES], v[CACHE_LIVE_OBJ] * r->size);
		/* The source counts since load: without what was there. */
		v[CACHE_LIVE_OBJ] -= r->at_load;
		v[CACHE_LIVE_BYTES] -= r->at_load * r->size;
		for (k = 0; k < CACHE_NR; k++)
			sum[k] += v[k];
	}
	for (k = 0; k < CACHE_NR; k++) {
		snprintf(what, sizeof(what), "sum of cache rows %s",
			 mstat_cache_fields[k]);
		expect(c, what, sum[k], get(c, "%s", total[k]));
	}
	used = get(c, "caches_used");
	if ((uint64_t)s->ncache > used || used > get(c, "caches_rows"))
		check_violation(c, "%d cache rows, caches_used %" PRIu64 ", caches_rows %" PRIu64,
				s->ncache, used, get(c, "caches_rows"));
}

static void check_orders(struct checker *c)
{
	uint64_t a = 0, f = 0, fail = 0, live = 0, pa = 0, pf = 0;
	char what[64];
	int j;

	if (!c->cur.nord) {
		check_violation(c, "no order rows");
		return;
	}
	for (j = 0; j < c->cur.nord; j++) {
		const struct mstat_order *r = &c->cur.ord[j];
		uint64_t v[ORD_NR];
		int k;

		for (k = 0; k < ORD_NR; k++)
			v[k] = r->v[k];
		if (r->n != (unsigned int)j)
			check_violation(c, "order rows not 0, 1, ...: row %d is order %u",
					j, r->n);
		snprintf(what, sizeof(what), "order %u live_pages", r->n);
		expect(c, what, v[ORD_LIVE_PAGES],
		       (v[ORD_ALLOCS] - v[ORD_FREES]) << r->n);
		a += v[ORD_ALLOCS];
		f += v[ORD_FREES];
		fail += v[ORD_FAILURES];
		live += v[ORD_LIVE_PAGES];
		pa += v[ORD_ALLOCS] << r->n;
		pf += v[ORD_FREES] << r->n;
	}
	expect(c, "sum of order allocs", a, get(c, "page_allocs"));
	expect(c, "sum of order frees", f, get(c, "page_frees"));
	expect(c, "sum of order failures", fail, get(c, "page_failures"));
	expect(c, "sum of order live_pages", live, get(c, "page_live_pages"));
	expect(c, "page_bytes_allocated / PAGE_SIZE",
	       get(c, "page_bytes_allocated"), pa * c->page_size);
	expect(c, "page_bytes_freed / PAGE_SIZE", get(c, "page_bytes_freed"),
	       pf * c->page_size);
}

/*
 * Format 1.6: every kind of vm area has its row, each row's live columns
 * are its allocations less its frees, and the rows add up to the vmalloc
 * source.
 */
static void check_vm(struct checker *c)
{
	const struct mstat_snap *s = &c->cur;
	uint64_t sum[VM_NR] = { 0 };
	char what[2 * MSTAT_NAME_MAX];
	int k, i;

	if (s->minor < 6)
		return;
	for (k = 0; k < MSTAT_NR_VM_KINDS; k++) {
		const long long *v = s->vm[k];

		if (!s->has_vm[k]) {
			check_violation(c, "vm %s missing", mstat_vm_kinds[k]);
			continue;
		}
		snprintf(what, sizeof(what), "vm %s live_areas",
			 mstat_vm_kinds[k]);
		expect(c, what, v[VM_LIVE_AREAS], v[VM_ALLOCS] - v[VM_FREES]);
		snprintf(what, sizeof(what), "vm %s live_bytes",
			 mstat_vm_kinds[k]);
		expect(c, what, v[VM_LIVE_BYTES],
		       v[VM_BYTES_ALLOC] - v[VM_BYTES_FREED]);
		for (i = 0; i < VM_NR; i++)
			sum[i] += v[i];
	}
	expect(c, "sum of vm allocs", sum[VM_ALLOCS], get(c, "vmalloc_allocs"));
	expect(c, "sum of vm frees", sum[VM_FREES], get(c, "vmalloc_frees"));
	expect(c, "sum of vm bytes_allocated", sum[VM_BYTES_ALLOC],
	       get(c, "vmalloc_bytes_allocated"));
	expect(c, "sum of vm bytes_freed", sum[VM_BYTES_FREED],
	       get(c, "vmalloc_bytes_freed"));
}

static int has_affix(const char *s, const char *pre, const char *suf)
{
	size_t n = strlen(s), np = strlen(pre), ns = strlen(suf);

	return n > np + ns && !strncmp(s, pre, np) && !strcmp(s + n - ns, suf);
}

static void check_ctx_gfp(struct checker *c)
{
	uint64_t a = 0, f = 0, ca = 0, cf = 0;
	int i, nctx = 0;

	for (i = 0; i < nr_sources(c); i++) {
		a += get(c, "%s_allocs", mstat_src_names[i]);
		f += get(c, "%s_frees", mstat_src_names[i]);
	}
	for (i = 0; i < c->cur.nctr; i++) {
		const struct mstat_counter *fl = &c->cur.ctr[i];

		if (has_affix(fl->name, "ctx_", "_allocs")) {
			ca += fl->val;
			nctx++;
		} else if (has_affix(fl->name, "ctx_", "_frees")) {
			cf += fl->val;
		}
	}
	if (!nctx)
		check_violation(c, "no ctx_*_allocs lines");
	expect(c, "sum of ctx_*_allocs", ca, a);
	expect(c, "sum of ctx_*_frees", cf, f);
	expect(c, "gfp_sleep_allocs + gfp_atomic_allocs",
	       get(c, "gfp_sleep_allocs") + get(c, "gfp_atomic_allocs"), a);
}

/* Checks across reads. */

static int cumulative(const char *name)
{
	static const char *const suf[] = { "_allocs", "_frees", "_failures",
		"_bytes_requested", "_bytes_allocated", "_bytes_freed" };
	size_t i;

	if (!strcmp(name, "caches_used"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(suf); i++)
		if (has_affix(name, "", suf[i]))
			return 1;
	return 0;
}

static void not_less(struct checker *c, const char *what, uint64_t prev,
		     uint64_t cur)
{
	if (cur < prev)
		check_violation(c, "%s decreased: %" PRIu64 " -> %" PRIu64, what,
				prev, cur);
}

/* Across reads: a row is one cache, its counts only grow. */
static void check_caches_monotonic(struct checker *c)
{
	const struct mstat_snap *p = &c->prev, *s = &c->cur;
	char what[96];
	int i, j, k;

	for (i = 0; i < p->ncache; i++)
		for (j = 0; j < s->ncache; j++) {
			const struct mstat_cache *a = &p->cache[i], *b = &s->cache[j];

			if (a->id != b->id)
				continue;
			if (a->size != b->size || a->named != b->named ||
			    strcmp(a->name, b->name))
				check_violation(c, "cache %llu changed from %s (%llu B) to %s (%llu B)",
						a->id, a->named ? a->name : "-",
						a->size, b->named ? b->name : "-",
						b->size);
			if (a->gone && !b->gone)
				check_violation(c, "cache %llu was gone, is live",
						a->id);
			if (a->at_load != b->at_load)
				check_violation(c, "cache %llu held %llu objects at load, now %llu",
						a->id, a->at_load, b->at_load);
			for (k = CACHE_ALLOCS; k <= CACHE_FAILURES; k++) {
				snprintf(what, sizeof(what), "cache %llu %s",
					 b->id, mstat_cache_fields[k]);
				not_less(c, what, a->v[k], b->v[k]);
			}
		}
}

static void check_monotonic(struct checker *c)
{
	const struct mstat_snap *p = &c->prev, *s = &c->cur;
	const struct mstat_counter *f;
	char what[64];
	size_t k;
	int i, j;

	for (i = 0; i < p->nctr; i++) {
		if (!cumulative(p->ctr[i].name))
			continue;
		f = mstat_find(&c->cur, p->ctr[i].name);
		if (f)
			not_less(c, f->name, p->ctr[i].val, f->val);
		else
			check_violation(c, "%s disappeared", p->ctr[i].name);
	}
	for (i = 0; i < p->ncls; i++)
		for (j = 0; j < s->ncls; j++) {
			if (strcmp(p->cls[i].name, s->cls[j].name))
				continue;
			for (k = 0; k < ARRAY_SIZE(class_cumulative); k++) {
				int col = class_cumulative[k];

				snprintf(what, sizeof(what), "class %s %s",
					 s->cls[j].name, mstat_cls_fields[col]);
				not_less(c, what, p->cls[i].v[col],
					 s->cls[j].v[col]);
			}
		}
	for (i = 0; i < p->nkcls && i < s->nkcls; i++)
		for (k = KCLS_ALLOCS; k <= KCLS_FREES; k++) {
			snprintf(what, sizeof(what), "kmalloc_class %s %s",
				 s->kcls[i].name, mstat_kcls_fields[k]);
			not_less(c, what, p->kcls[i].v[k], s->kcls[i].v[k]);
		}
	for (i = 0; i < p->nord && i < s->nord; i++)
		for (k = ORD_ALLOCS; k <= ORD_FAILURES; k++) {
			snprintf(what, sizeof(what), "order %u %s",
				 s->ord[i].n, mstat_ord_fields[k]);
			not_less(c, what, p->ord[i].v[k], s->ord[i].v[k]);
		}
	check_caches_monotonic(c);
}

void check_read(struct checker *c, char *buf, size_t len)
{
	const struct mstat_counter *g, *r;
	bool reused;
	uint64_t gen;

	c->reads++;
	if (parse(c, buf, len))
		return;
	g = mstat_find(&c->cur, "generation");
	if (!g) {
		check_violation(c, "generation missing");
		return;
	}
	gen = g->val;
	/* 1.5: an unprivileged open may be served the last snapshot again. */
	r = mstat_find(&c->cur, "snapshot_reused");
	reused = r && r->val == 1;
	check_sources(c);
	check_slab(c);
	check_vm(c);
	check_classes(c);
	check_kclasses(c);
	check_caches(c);
	check_orders(c);
	check_ctx_gfp(c);
	if (c->have_prev) {
		if (gen < c->gen_last || (gen == c->gen_last && !reused))
			check_violation(c, "generation %" PRIu64 " after %" PRIu64 "%s",
					gen, c->gen_last,
					gen == c->gen_last ? " (not snapshot_reused)" : "");
		check_monotonic(c);
	} else {
		c->gen_first = gen;
	}
	c->gen_last = gen;
	c->prev = c->cur;
	c->have_prev = 1;
}

/* Reading files. */

static int summary(const struct checker *c)
{
	printf(CHECK_TAG "reads=%d violations=%d generation=%" PRIu64 "..%" PRIu64 "\n",
	       c->reads, c->violations, c->gen_first, c->gen_last);
	return c->violations ? 1 : 0;
}

/* The whole of @path in *@buf, or -1 after a message. */
static ssize_t read_one(const char *path, char **buf)
{
	enum mstat_read_fail how;
	size_t len;

	free(*buf);
	*buf = mstat_slurp(path, 0, NULL, &len, &how);
	if (*buf)
		return len;
	if (errno == ENOMEM)
		fprintf(stderr, CHECK_TAG "out of memory\n");
	else if (how == MSTAT_READ_OPEN)
		fprintf(stderr, CHECK_TAG "%s: %s\n", path, strerror(errno));
	else
		fprintf(stderr, CHECK_TAG "%s: read: %s\n", path,
			strerror(errno));
	return -1;
}

int do_check(const struct mstat_check_opts *o)
{
	static const char *const dflt[] = { MSTAT_PROC };
	static struct checker c;
	const char *const *files = o->nfiles ? o->files : dflt;
	int i, nfiles = o->nfiles ? o->nfiles : 1;
	char *buf = NULL, what[256];
	ssize_t len;
	long ps, r;

	ps = sysconf(_SC_PAGESIZE);
	c.page_size = ps > 0 ? ps : 4096;
	c.what = what;
	for (i = 0; i < nfiles; i++)
		for (r = 0; r < o->reads; r++) {
			if (c.reads)
				mstat_sleep(o->ms / 1000.0);
			len = read_one(files[i], &buf);
			if (len < 0)
				return 2;
			snprintf(what, sizeof(what), "%s read %d",
				 files[i], c.reads + 1);
			c.cur.path = files[i];
			check_read(&c, buf, len);
		}
	free(buf);
	return summary(&c);
}

static const struct option mstat_check_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int mstat_check_opt(void *p, int c, const char *v)
{
	struct mstat_check_opts *o = p;

	switch (c) {
	case 'n':
		if (!mstat_parse_long(v, 1, 1000000, &o->reads))
			return mstat_bad_usage("check: -n wants 1 to 1000000 reads, got",
					       v);
		break;
	case 'i':
		if (!mstat_parse_long(v, 0, 1000000, &o->ms))
			return mstat_bad_usage("check: -i wants 0 to 1000000 ms, got",
					       v);
		break;
	case 1:
		o->files[o->nfiles++] = v;
		break;
	}
	return 0;
}

/* Its own options, as mstat-check had them; FILEs as operands. */
const struct mstat_optspec mstat_check_optspec = {
	.name = "check", .shortopts = "-:hn:i:",
	.longopts = mstat_check_longopts, .operands = true,
	.opt = mstat_check_opt,
};

int cmd_check(int argc, char **argv)
{
	struct mstat_check_opts o = { .reads = 1 };
	int err;

	/* Lives until exit, as the checker's messages name the files. */
	o.files = mstat_alloc(NULL, argc * sizeof(*o.files));
	err = mstat_opts_parse(&mstat_check_optspec, argc, argv, &o);
	return err ? err : do_check(&o);
}
