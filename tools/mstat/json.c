// SPDX-License-Identifier: GPL-2.0
/*
 * mstat --json: the snapshot as one JSON object: every counter, the
 * sources, the class and order tables.
 */
#define _POSIX_C_SOURCE 200809L

#include "main.h"

static void mstat_json_fields(const char *const *names, const long long *v,
			      int n)
{
	int i;

	for (i = 0; i < n; i++)
		printf("%s\"%s\": %lld", i ? ", " : "", names[i], v[i]);
}

static void mstat_json_counters(const struct mstat_snap *s)
{
	int i;

	printf("  \"counters\": {\n");
	for (i = 0; i < s->nctr; i++)
		printf("    \"%s\": %lld%s\n", s->ctr[i].name, s->ctr[i].val,
		       i + 1 < s->nctr ? "," : "");
	printf("  },\n");
}

static void mstat_json_sources(const struct mstat_snap *s)
{
	int i;

	printf("  \"sources\": {\n");
	for (i = 0; i < MSTAT_NR_SRC; i++) {
		printf("    \"%s\": {", mstat_src_names[i]);
		mstat_json_fields(mstat_src_fields, s->src[i], SRC_NR);
		printf("}%s\n", i + 1 < MSTAT_NR_SRC ? "," : "");
	}
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
	printf("  ]\n");
}

void mstat_json(const struct mstat_snap *s)
{
	printf("{\n  \"version\": \"%s\",\n  \"generation\": %lld,\n",
	       s->version, s->gen);
	mstat_json_counters(s);
	mstat_json_sources(s);
	mstat_json_tables(s);
	printf("}\n");
}

