// SPDX-License-Identifier: GPL-2.0
/*
 * mstat --json: the snapshot as one JSON object: every counter, the
 * sources, the class and order tables, and (format 1.2) the per-cache
 * table.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>

#include "json.h"
#include "slab.h"
#include "util.h"

static void mstat_json_fields(const char *const *names, const long long *v,
			      int n)
{
	char b[24];
	int i;

	for (i = 0; i < n; i++)
		printf("%s\"%s\": %s", i ? ", " : "", names[i],
		       mstat_num(b, mstat_is_s64(names[i]), v[i]));
}

static void mstat_json_counters(const struct mstat_snap *s)
{
	char b[24];
	int i;

	printf("  \"counters\": {\n");
	for (i = 0; i < s->nctr; i++)
		printf("    \"%s\": %s%s\n", s->ctr[i].name,
		       mstat_num(b, mstat_is_s64(s->ctr[i].name), s->ctr[i].val),
		       i + 1 < s->nctr ? "," : "");
	printf("  },\n");
}

static void mstat_json_sources(const struct mstat_snap *s)
{
	int i;

	const char *sep = "";

	printf("  \"sources\": {");
	for (i = 0; i < MSTAT_NR_SRC; i++) {
		if (!s->has_src[i])
			continue;
		printf("%s\n    \"%s\": {", sep, mstat_src_names[i]);
		mstat_json_fields(mstat_src_fields, s->src[i], SRC_NR);
		printf("}");
		sep = ",";
	}
	printf("\n");
	printf("  },\n");
}

static void mstat_json_tables(const struct mstat_snap *s)
{
	int i;

	printf("  \"classes\": [\n");
	for (i = 0; i < s->ncls; i++) {
		const struct mstat_class *c = &s->cls[i];

		if (!c->size)
			printf("    {\"class\": \"large\", \"size\": null, ");
		else
			printf("    {\"class\": \"%s\", \"size\": %llu, ",
			       c->name, c->size);
		mstat_json_fields(mstat_cls_fields, c->v, CLS_NR);
		printf("}%s\n", i + 1 < s->ncls ? "," : "");
	}
	printf("  ],\n  \"orders\": [\n");
	for (i = 0; i < s->nord; i++) {
		printf("    {\"order\": %d, ", i);
		mstat_json_fields(mstat_ord_fields, s->ord[i].v, ORD_NR);
		printf("}%s\n", i + 1 < s->nord ? "," : "");
	}
	printf("  ]%s\n", s->has_caches ? "," : "");
}

/*
 * A cache name as a JSON string: quote, backslash and control bytes
 * escaped; other bytes as they are, bytes of 0x80 and up as \u00XX (a
 * name is bytes, not necessarily UTF-8).
 */
static void mstat_json_string(const char *v)
{
	putchar('"');
	for (; *v; v++) {
		unsigned char ch = *v;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void mstat_json_caches(const struct mstat_snap *s)
{
	char names[MSTAT_SLAB_LABEL_MAX];
	int i;

	printf("  \"caches\": {\"enabled\": %s, \"rows\": %lld, \"used\": %lld, \"named\": %s,\n",
	       mstat_get(s, "caches_enabled") ? "true" : "false",
	       mstat_get(s, "caches_rows"), mstat_get(s, "caches_used"),
	       mstat_get(s, "caches_named") ? "true" : "false");
	printf("    \"table\": [\n");
	for (i = 0; i < s->ncache; i++) {
		const struct mstat_cache *c = &s->cache[i];

		printf("      {\"id\": %llu, \"name\": ", c->id);
		if (c->named)
			mstat_json_string(c->name);
		else
			printf("null");
		/* Every name, SLUB's merged ones after it (slab.h). */
		printf(", \"names\": ");
		if (c->named)
			mstat_json_string(mstat_slab_label(c->name, names,
							   sizeof(names)));
		else
			printf("null");
		printf(", \"object_size\": %llu, ", c->size);
		mstat_json_fields(mstat_cache_fields, c->v, CACHE_NR);
		printf(", \"state\": \"%s\"}%s\n", c->gone ? "gone" : "live",
		       i + 1 < s->ncache ? "," : "");
	}
	printf("    ],\n    \"overflow\": {");
	mstat_json_fields(mstat_cache_fields, s->over, CACHE_NR);
	printf("}\n  }\n");
}

void mstat_json(const struct mstat_snap *s)
{
	printf("{\n  \"version\": \"%s\",\n  \"generation\": %llu,\n",
	       s->version, (unsigned long long)s->gen);
	mstat_json_counters(s);
	mstat_json_sources(s);
	mstat_json_tables(s);
	if (s->has_caches)
		mstat_json_caches(s);
	printf("}\n");
}

