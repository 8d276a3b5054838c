// SPDX-License-Identifier: GPL-2.0
/*
 * mstat prom: the snapshot in the Prometheus text exposition format
 * (written atomically with -o).
 *
 * Per slab cache (format 1.2), mstat_cache_*{cache="NAME"}: the caches
 * that are not gone, filtered by --cache-include / --cache-exclude (POSIX
 * extended regexes on the name) and limited to --cache-max (default 200)
 * with the most live bytes, as node_exporter's slabinfo collector
 * filters. A label is unique whatever the names: of the rows exported,
 * the first (lowest id) of a name is cache="NAME", later ones of the
 * same name cache="NAME#ID", a row without a name cache="#ID", so that
 * a duplicate series never fails a scrape. The filter's regexes are
 * compiled once (mstat_prom_filter_init()), not at every snapshot:
 * mstat serve keeps them for all its scrapes.
 */
#define _POSIX_C_SOURCE 200809L

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "memory.h"
#include "owners.h"
#include "parse_snap.h"
#include "prom.h"
#include "slab.h"
#include "util.h"

/* One metric with a source="..." label per source. */
static void mstat_prom_by_source(FILE *f, const struct mstat_snap *s,
				 const char *name, const char *type, int field,
				 const char *help)
{
	char b[24];
	int i;

	mstat_prom_head(f, name, type, help);
	for (i = 0; i < MSTAT_NR_SRC; i++)
		if (s->has_src[i])
			fprintf(f, "%s{source=\"%s\"} %s\n", name,
				mstat_src_names[i],
				mstat_num(b,
					  mstat_is_s64(mstat_src_fields[field]),
					  s->src[i][field]));
}

static void mstat_prom_sources(FILE *f, const struct mstat_snap *s)
{
	static const struct {
		const char *name, *type;
		int field;
		const char *help;
	} m[] = {
		{ "mstat_allocs_total", "counter", SRC_ALLOCS,
		  "Successful allocations." },
		{ "mstat_frees_total", "counter", SRC_FREES,
		  "Frees." },
		{ "mstat_failures_total", "counter", SRC_FAILURES,
		  "Allocations that returned NULL." },
		{ "mstat_requested_bytes_total", "counter", SRC_BYTES_REQ,
		  "Bytes callers asked for." },
		{ "mstat_allocated_bytes_total", "counter", SRC_BYTES_ALLOC,
		  "Bytes the allocated objects occupy." },
		{ "mstat_freed_bytes_total", "counter", SRC_BYTES_FREED,
		  "Bytes freed objects occupied." },
		{ "mstat_live_objects", "gauge", SRC_LIVE_OBJ,
		  "Allocations minus frees since load (may be negative)." },
		{ "mstat_live_bytes", "gauge", SRC_LIVE_BYTES,
		  "Allocated minus freed bytes since load (may be negative)." },
		{ "mstat_source_enabled", "gauge", SRC_ENABLED,
		  "1 if the source is counted now." },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(m); i++)
		mstat_prom_by_source(f, s, m[i].name, m[i].type, m[i].field,
				     m[i].help);
}

static void mstat_prom_classes(FILE *f, const struct mstat_snap *s)
{
	static const struct {
		const char *name, *type;
		int field;
		const char *help;
	} m[] = {
		{ "mstat_class_allocs_total", "counter", CLS_ALLOCS,
		  "Allocations by kmalloc size class." },
		{ "mstat_class_frees_total", "counter", CLS_FREES,
		  "Frees by size class." },
		{ "mstat_class_requested_bytes_total", "counter", CLS_BYTES_REQ,
		  "Bytes requested by size class." },
		{ "mstat_class_allocated_bytes_total", "counter", CLS_BYTES_ALLOC,
		  "Bytes allocated by size class." },
		{ "mstat_class_freed_bytes_total", "counter", CLS_BYTES_FREED,
		  "Bytes freed by size class." },
		{ "mstat_class_frag_bytes_total", "counter", CLS_FRAG,
		  "Internal fragmentation (allocated - requested) by size class." },
		{ "mstat_class_live_objects", "gauge", CLS_LIVE_OBJ,
		  "Live objects by size class (net since load)." },
		{ "mstat_class_live_bytes", "gauge", CLS_LIVE_BYTES,
		  "Live bytes by size class (net since load)." },
		{ "mstat_class_frag_live_bytes", "gauge", CLS_FRAG_LIVE_EST,
		  "Estimated fragmentation of the live objects by size class." },
	};
	char b[24];
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mstat_prom_head(f, m[i].name, m[i].type, m[i].help);
		for (j = 0; j < s->ncls; j++)
			fprintf(f, "%s{class=\"%s\"} %s\n", m[i].name,
				s->cls[j].name,
				mstat_num(b, mstat_is_s64(mstat_cls_fields[m[i].field]),
					  s->cls[j].v[m[i].field]));
	}
}

static void mstat_prom_orders(FILE *f, const struct mstat_snap *s)
{
	static const struct {
		const char *name, *type;
		int field;
		const char *help;
	} m[] = {
		{ "mstat_page_order_allocs_total", "counter", ORD_ALLOCS,
		  "Page allocations by order." },
		{ "mstat_page_order_frees_total", "counter", ORD_FREES,
		  "Page frees by order." },
		{ "mstat_page_order_failures_total", "counter", ORD_FAILURES,
		  "Failed page allocations by order." },
		{ "mstat_page_order_live_pages", "gauge", ORD_LIVE_PAGES,
		  "Live pages by order (net since load)." },
	};
	char b[24];
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mstat_prom_head(f, m[i].name, m[i].type, m[i].help);
		for (j = 0; j < s->nord; j++)
			fprintf(f, "%s{order=\"%d\"} %s\n", m[i].name, j,
				mstat_num(b, mstat_is_s64(mstat_ord_fields[m[i].field]),
					  s->ord[j].v[m[i].field]));
	}
}

static void mstat_prom_misc(FILE *f, const struct mstat_snap *s)
{
	char name[64];
	int i;

	mstat_prom_head(f, "mstat_context_allocs_total", "counter",
			"Allocations by the context they ran in.");
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		snprintf(name, sizeof(name), "ctx_%s_allocs", mstat_ctx_names[i]);
		fprintf(f, "mstat_context_allocs_total{context=\"%s\"} %llu\n",
			mstat_ctx_names[i], (unsigned long long)mstat_get(s, name));
	}
	mstat_prom_head(f, "mstat_context_frees_total", "counter",
			"Frees by the context they ran in.");
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		snprintf(name, sizeof(name), "ctx_%s_frees", mstat_ctx_names[i]);
		fprintf(f, "mstat_context_frees_total{context=\"%s\"} %llu\n",
			mstat_ctx_names[i], (unsigned long long)mstat_get(s, name));
	}
	mstat_prom_head(f, "mstat_gfp_allocs_total", "counter",
			"Allocations whose GFP flags may (sleep) or may not (atomic) sleep.");
	fprintf(f, "mstat_gfp_allocs_total{gfp=\"sleep\"} %llu\n",
		(unsigned long long)mstat_get(s, "gfp_sleep_allocs"));
	fprintf(f, "mstat_gfp_allocs_total{gfp=\"atomic\"} %llu\n",
		(unsigned long long)mstat_get(s, "gfp_atomic_allocs"));
	mstat_prom_head(f, "mstat_slab_frag_bytes_total", "counter",
			"Slab internal fragmentation (allocated - requested bytes), cumulative.");
	fprintf(f, "mstat_slab_frag_bytes_total %llu\n",
		(unsigned long long)mstat_get(s, "slab_frag_bytes"));
	mstat_prom_head(f, "mstat_page_live_pages", "gauge",
			"Pages allocated minus freed since load, all orders.");
	fprintf(f, "mstat_page_live_pages %lld\n",
		mstat_get(s, "page_live_pages"));
}

static void mstat_prom_snapshot(FILE *f, const struct mstat_snap *s)
{
	mstat_prom_head(f, "mstat_generation", "gauge",
			"Number of the snapshot these values come from.");
	fprintf(f, "mstat_generation %llu\n", (unsigned long long)s->gen);
	mstat_prom_head(f, "mstat_snapshot_wait_seconds", "gauge",
			"How long the snapshot waited for open write sections.");
	fprintf(f, "mstat_snapshot_wait_seconds %.9f\n",
		mstat_u64(mstat_get(s, "snapshot_wait_ns")) / 1e9);
	mstat_prom_head(f, "mstat_snapshot_waited_cpus", "gauge",
			"How many CPUs the snapshot waited on.");
	fprintf(f, "mstat_snapshot_waited_cpus %lld\n",
		mstat_get(s, "snapshot_waited_cpus"));
	/*
	 * A reader without CAP_SYS_ADMIN, such as mstat serve's unit, may be
	 * served the last snapshot again (format 1.5 on): never as if new.
	 */
	mstat_prom_head(f, "mstat_snapshot_age_seconds", "gauge",
			"How old the snapshot was when this read got it: 0 for one it took; for one the module served again (snapshot_reused 1: a reader without CAP_SYS_ADMIN within proc_min_interval_ms, or while four such snapshots are held open) its age, snapshot_age_ms (format 1.5 on; 0 before, which never served one again).");
	fprintf(f, "mstat_snapshot_age_seconds %.3f\n", mstat_snap_age(s));
	mstat_prom_head(f, "mstat_info", "gauge",
			"Format version of /proc/mstat; always 1.");
	fprintf(f, "mstat_info{version=\"%s\"} 1\n", s->version);
}

struct mstat_prom_cache {
	const struct mstat_cache *c;
	bool first;	/* the lowest id of its name */
};

/* Most live bytes first; ties: the lower id. */
static int mstat_prom_cache_cmp(const void *a, const void *b)
{
	const struct mstat_cache *x = ((const struct mstat_prom_cache *)a)->c;
	const struct mstat_cache *y = ((const struct mstat_prom_cache *)b)->c;

	if (x->v[CACHE_LIVE_BYTES] != y->v[CACHE_LIVE_BYTES])
		return x->v[CACHE_LIVE_BYTES] < y->v[CACHE_LIVE_BYTES] ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static bool mstat_prom_regex(regex_t *re, const char *pat, const char *opt)
{
	char msg[128];
	int err = regcomp(re, pat, REG_EXTENDED | REG_NOSUB);

	if (err) {
		regerror(err, re, msg, sizeof(msg));
		mstat_err("%s \"%s\": %s", opt, pat, msg);
		return false;
	}
	return true;
}

bool mstat_prom_filter_init(struct mstat_prom_filter *pf,
			    const struct mstat_opts *o)
{
	pf->has_include = false;
	pf->has_exclude = false;
	pf->max = o->cache_max;
	pf->owner_max = o->owner_max;
	if (o->cache_include) {
		if (!mstat_prom_regex(&pf->include, o->cache_include,
				      "--cache-include"))
			return false;
		pf->has_include = true;
	}
	if (o->cache_exclude) {
		if (!mstat_prom_regex(&pf->exclude, o->cache_exclude,
				      "--cache-exclude")) {
			mstat_prom_filter_free(pf);
			return false;
		}
		pf->has_exclude = true;
	}
	return true;
}

void mstat_prom_filter_free(struct mstat_prom_filter *pf)
{
	if (pf->has_include)
		regfree(&pf->include);
	if (pf->has_exclude)
		regfree(&pf->exclude);
	pf->has_include = false;
	pf->has_exclude = false;
}

/* The filters match the cache's every name (slab.h), as its label. */
static bool mstat_prom_filter_pass(const struct mstat_prom_filter *pf,
				   const struct mstat_cache *c)
{
	char names[MSTAT_SLAB_LABEL_MAX];
	const char *n = mstat_slab_label(c->name, names, sizeof(names));

	return !c->gone &&
	       (!pf->has_include || !regexec(&pf->include, n, 0, NULL, 0)) &&
	       (!pf->has_exclude || regexec(&pf->exclude, n, 0, NULL, 0));
}

/*
 * Selection: the rows of @s that pass @pf, each marked whether it is the
 * first of its name, most live bytes first, in memory of their own (free
 * them); *@n of them passed, the first *@kept are within --cache-max.
 */
static struct mstat_prom_cache *
mstat_prom_cache_select(const struct mstat_snap *s,
			const struct mstat_prom_filter *pf, int *n, int *kept)
{
	struct mstat_prom_cache *rows;
	int i, j;

	rows = mstat_alloc(NULL, (s->ncache + 1) * sizeof(*rows));
	*n = 0;
	for (i = 0; i < s->ncache; i++) {
		const struct mstat_cache *c = &s->cache[i];
		bool first = c->named;

		if (!mstat_prom_filter_pass(pf, c))
			continue;
		/* Rows come in id order: the first of a name is the first kept. */
		for (j = 0; first && j < *n; j++)
			if (rows[j].c->named && !strcmp(rows[j].c->name, c->name))
				first = false;
		rows[*n].c = c;
		rows[(*n)++].first = first;
	}
	qsort(rows, *n, sizeof(*rows), mstat_prom_cache_cmp);
	*kept = *n > pf->max ? pf->max : *n;
	return rows;
}

/* Printing: the series of the @kept @rows, each metric's in turn. */
static void mstat_prom_cache_series(FILE *f,
				    const struct mstat_prom_cache *rows,
				    int kept)
{
	static const struct {
		const char *name, *type;
		int field;	/* -1: the object size */
		const char *help;
	} m[] = {
		{ "mstat_cache_allocs_total", "counter", CACHE_ALLOCS,
		  "Allocations from the slab cache." },
		{ "mstat_cache_frees_total", "counter", CACHE_FREES,
		  "Frees to the slab cache." },
		{ "mstat_cache_failures_total", "counter", CACHE_FAILURES,
		  "Failed allocations from the slab cache." },
		{ "mstat_cache_live_objects", "gauge", CACHE_LIVE_OBJ,
		  "Live objects of the slab cache: from format 1.8 with those it held at load, before that net since load." },
		{ "mstat_cache_live_bytes", "gauge", CACHE_LIVE_BYTES,
		  "Live bytes of the slab cache: from format 1.8 with those it held at load, before that net since load." },
		{ "mstat_cache_object_size_bytes", "gauge", -1,
		  "Object size of the slab cache." },
	};
	char b[24], names[MSTAT_SLAB_LABEL_MAX];
	size_t k;
	int i;

	for (k = 0; kept && k < ARRAY_SIZE(m); k++) {
		mstat_prom_head(f, m[k].name, m[k].type, m[k].help);
		for (i = 0; i < kept; i++) {
			const struct mstat_cache *c = rows[i].c;

			fprintf(f, "%s{cache=\"", m[k].name);
			mstat_prom_label(f, c->named ?
					 mstat_slab_label(c->name, names,
							  sizeof(names)) : "");
			if (!rows[i].first)
				fprintf(f, "#%llu", c->id);
			fprintf(f, "\"} %s\n", m[k].field < 0 ?
				mstat_num(b, 0, c->size) :
				mstat_num(b, mstat_is_s64(mstat_cache_fields[m[k].field]),
					  c->v[m[k].field]));
		}
	}
}

/* Printing: the overflow row, the table's size, and @dropped. */
static void mstat_prom_cache_table(FILE *f, const struct mstat_snap *s,
				   int dropped)
{
	static const char *const over[CACHE_NR] = {
		"mstat_cache_overflow_allocs_total",
		"mstat_cache_overflow_frees_total",
		"mstat_cache_overflow_failures_total",
		"mstat_cache_overflow_live_objects",
		"mstat_cache_overflow_live_bytes",
	};
	char b[24];
	size_t k;

	for (k = 0; k < CACHE_NR; k++) {
		mstat_prom_head(f, over[k], k < CACHE_LIVE_OBJ ? "counter" :
				"gauge", "Slab cache events without a row of their own (table full, or per-cache counting off).");
		fprintf(f, "%s %s\n", over[k],
			mstat_num(b, mstat_is_s64(mstat_cache_fields[k]),
				  s->over[k]));
	}
	mstat_prom_head(f, "mstat_caches_rows", "gauge",
			"Rows of the per-cache table.");
	fprintf(f, "mstat_caches_rows %lld\n", mstat_get(s, "caches_rows"));
	mstat_prom_head(f, "mstat_caches_used", "gauge",
			"Rows of the per-cache table taken (rows are not reused).");
	fprintf(f, "mstat_caches_used %lld\n", mstat_get(s, "caches_used"));
	mstat_prom_head(f, "mstat_cache_rows_dropped", "gauge",
			"Caches that passed the filters but were left out by --cache-max.");
	fprintf(f, "mstat_cache_rows_dropped %d\n", dropped);
}

/* The per-cache series (format 1.2): select, then print. */
static void mstat_prom_caches(FILE *f, const struct mstat_snap *s,
			      const struct mstat_prom_filter *pf)
{
	struct mstat_prom_cache *rows;
	int n, kept;

	if (!s->has_caches)
		return;
	rows = mstat_prom_cache_select(s, pf, &n, &kept);
	mstat_prom_cache_series(f, rows, kept);
	free(rows);
	mstat_prom_cache_table(f, s, n - kept);
}

void mstat_prom(FILE *f, const struct mstat_snap *s,
		const struct mstat_prom_filter *pf, const char *meminfo,
		const struct mstat_sites *ss, const struct mstat_owners *ow)
{
	mstat_prom_sources(f, s);
	mstat_prom_misc(f, s);
	mstat_prom_classes(f, s);
	mstat_prom_orders(f, s);
	mstat_prom_caches(f, s, pf);
	mstat_memory_prom(f, s, meminfo, ss);
	mstat_owners_prom(f, ow, ss, (int)pf->owner_max);
	mstat_prom_snapshot(f, s);
}

static const struct option mstat_prom_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "cache-include", required_argument, NULL, OPT_CACHE_INCLUDE },
	{ "cache-exclude", required_argument, NULL, OPT_CACHE_EXCLUDE },
	{ "cache-max", required_argument, NULL, OPT_CACHE_MAX },
	{ "meminfo", required_argument, NULL, OPT_MEMINFO },
	{ "sites", required_argument, NULL, OPT_SITES },
	{ "owners", required_argument, NULL, OPT_OWNERS },
	{ "owner-max", required_argument, NULL, OPT_OWNER_MAX },
	{ NULL, 0, NULL, 0 }
};

const struct mstat_optspec mstat_prom_optspec = {
	.name = "prom", .shortopts = "-:hf:o:",
	.longopts = mstat_prom_longopts, .file = MSTAT_PROC,
};

int cmd_prom(int argc, char **argv)
{
	struct mstat_opts o = MSTAT_OPTS_INIT;
	struct mstat_prom_filter pf;
	struct mstat_sites *ss = NULL;
	struct mstat_owners *ow = NULL;
	struct mstat_snap *s;
	char tmp[4096];
	FILE *f;
	int err = mstat_opts_parse(&mstat_prom_optspec, argc, argv, &o);

	if (err)
		return err;
	/* First, so that a bad regex writes nothing. */
	if (!mstat_prom_filter_init(&pf, &o))
		return EXIT_USAGE;
	s = mstat_snap_read(o.file[0]);
	/* The raw pages' series come from the sites file: read before -o. */
	if (s && (mstat_memory_sites(&o, &ss) || mstat_memory_owners(&o, &ow))) {
		mstat_snap_free(s);
		s = NULL;
	}
	f = s ? mstat_out_open(o.out, tmp, sizeof(tmp)) : NULL;
	if (f) {
		mstat_prom(f, s, &pf, mstat_memory_meminfo(&o), ss, ow);
		err = mstat_out_close(f, o.out, tmp);
	} else {
		err = EXIT_INPUT;
	}
	mstat_snap_free(s);
	mstat_sites_free(ss);
	mstat_owners_free(ow);
	mstat_prom_filter_free(&pf);
	return err;
}
