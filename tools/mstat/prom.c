// SPDX-License-Identifier: GPL-2.0
/*
 * mstat prom: the snapshot in the Prometheus text exposition format
 * (written atomically with -o).
 */
#define _POSIX_C_SOURCE 200809L

#include "main.h"

static void mstat_prom_head(FILE *f, const char *name, const char *type,
			    const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* One metric with a source="..." label per source. */
static void mstat_prom_by_source(FILE *f, const struct mstat_snap *s,
				 const char *name, const char *type, int field,
				 const char *help)
{
	int i;

	mstat_prom_head(f, name, type, help);
	for (i = 0; i < MSTAT_NR_SRC; i++)
		fprintf(f, "%s{source=\"%s\"} %lld\n", name,
			mstat_src_names[i], s->src[i][field]);
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
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mstat_prom_head(f, m[i].name, m[i].type, m[i].help);
		for (j = 0; j < s->ncls; j++)
			fprintf(f, "%s{class=\"%s\"} %lld\n", m[i].name,
				s->cls[j].name, s->cls[j].v[m[i].field]);
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
	size_t i;
	int j;

	for (i = 0; i < ARRAY_SIZE(m); i++) {
		mstat_prom_head(f, m[i].name, m[i].type, m[i].help);
		for (j = 0; j < s->nord; j++)
			fprintf(f, "%s{order=\"%d\"} %lld\n", m[i].name, j,
				s->ord[j].v[m[i].field]);
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
		fprintf(f, "mstat_context_allocs_total{context=\"%s\"} %lld\n",
			mstat_ctx_names[i], mstat_get(s, name));
	}
	mstat_prom_head(f, "mstat_context_frees_total", "counter",
			"Frees by the context they ran in.");
	for (i = 0; i < MSTAT_NR_CTX; i++) {
		snprintf(name, sizeof(name), "ctx_%s_frees", mstat_ctx_names[i]);
		fprintf(f, "mstat_context_frees_total{context=\"%s\"} %lld\n",
			mstat_ctx_names[i], mstat_get(s, name));
	}
	mstat_prom_head(f, "mstat_gfp_allocs_total", "counter",
			"Allocations whose GFP flags may (sleep) or may not (atomic) sleep.");
	fprintf(f, "mstat_gfp_allocs_total{gfp=\"sleep\"} %lld\n",
		mstat_get(s, "gfp_sleep_allocs"));
	fprintf(f, "mstat_gfp_allocs_total{gfp=\"atomic\"} %lld\n",
		mstat_get(s, "gfp_atomic_allocs"));
	mstat_prom_head(f, "mstat_slab_frag_bytes_total", "counter",
			"Slab internal fragmentation (allocated - requested bytes), cumulative.");
	fprintf(f, "mstat_slab_frag_bytes_total %lld\n",
		mstat_get(s, "slab_frag_bytes"));
	mstat_prom_head(f, "mstat_page_live_pages", "gauge",
			"Pages allocated minus freed since load, all orders.");
	fprintf(f, "mstat_page_live_pages %lld\n",
		mstat_get(s, "page_live_pages"));
}

static void mstat_prom_snapshot(FILE *f, const struct mstat_snap *s)
{
	mstat_prom_head(f, "mstat_generation", "gauge",
			"Number of the snapshot these values come from.");
	fprintf(f, "mstat_generation %lld\n", s->gen);
	mstat_prom_head(f, "mstat_snapshot_wait_seconds", "gauge",
			"How long the snapshot waited for open write sections.");
	fprintf(f, "mstat_snapshot_wait_seconds %.9f\n",
		mstat_get(s, "snapshot_wait_ns") / 1e9);
	mstat_prom_head(f, "mstat_snapshot_waited_cpus", "gauge",
			"How many CPUs the snapshot waited on.");
	fprintf(f, "mstat_snapshot_waited_cpus %lld\n",
		mstat_get(s, "snapshot_waited_cpus"));
	mstat_prom_head(f, "mstat_info", "gauge",
			"Format version of /proc/mstat; always 1.");
	fprintf(f, "mstat_info{version=\"%s\"} 1\n", s->version);
}

void mstat_prom(FILE *f, const struct mstat_snap *s)
{
	mstat_prom_sources(f, s);
	mstat_prom_misc(f, s);
	mstat_prom_classes(f, s);
	mstat_prom_orders(f, s);
	mstat_prom_snapshot(f, s);
}

