// SPDX-License-Identifier: GPL-2.0
/*
 * The tool's one JSON writer: every string any command writes as JSON
 * (mstat --json, mstat leaks --json, mstat memory --json) goes through
 * mstat_json_str(), so that each has the one escaping rule of json.h;
 * and mstat --json itself: the snapshot as one JSON object, every
 * counter, the sources, the class and order tables, and (format 1.2)
 * the per-cache table.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>

#include "json.h"
#include "parse_snap.h"
#include "slab.h"
#include "util.h"

/*
 * The length of the well-formed UTF-8 sequence at @p (1 to 4 bytes, as
 * Unicode's table 3-7 has them: no overlong form, no surrogate, nothing
 * above U+10FFFF); if there is none, minus the length of its maximal
 * subpart (the longest start of a well-formed sequence, at least the
 * byte itself), which the caller replaces by one U+FFFD as Unicode's
 * "best practice" and Python's decode("utf-8", "replace") do. The NUL
 * that ends the string is no continuation byte, so a sequence cut short
 * by it is a subpart.
 */
static int mstat_utf8_len(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		lo = p[0] == 0xe0 ? 0xa0 : lo;
		hi = p[0] == 0xed ? 0x9f : hi;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		lo = p[0] == 0xf0 ? 0x90 : lo;
		hi = p[0] == 0xf4 ? 0x8f : hi;
	} else {
		return -1;
	}
	for (i = 1; i < n; i++) {
		if (p[i] < lo || p[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

void mstat_json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	fputc('"', f);
	while (*p) {
		if (*p == '"' || *p == '\\') {
			fprintf(f, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p++);
			continue;
		}
		n = mstat_utf8_len(p);
		if (n < 0) {
			fputs("\\ufffd", f);
			p += -n;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

void mstat_json_key(FILE *f, const char *name)
{
	mstat_json_str(f, name);
	fputs(": ", f);
}

void mstat_json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.1f", v);
}

/* mstat --json */

static void mstat_json_fields(const char *const *names, const long long *v,
			      int n)
{
	char b[24];
	int i;

	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", stdout);
		mstat_json_key(stdout, names[i]);
		fputs(mstat_num(b, mstat_is_s64(names[i]), v[i]), stdout);
	}
}

static void mstat_json_counters(const struct mstat_snap *s)
{
	char b[24];
	int i;

	printf("  \"counters\": {\n");
	for (i = 0; i < s->nctr; i++) {
		fputs("    ", stdout);
		mstat_json_key(stdout, s->ctr[i].name);
		printf("%s%s\n",
		       mstat_num(b, mstat_is_s64(s->ctr[i].name), s->ctr[i].val),
		       i + 1 < s->nctr ? "," : "");
	}
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
		printf("%s\n    ", sep);
		mstat_json_key(stdout, mstat_src_names[i]);
		putchar('{');
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

		printf("    {\"class\": ");
		if (!c->size) {
			printf("\"large\", \"size\": null, ");
		} else {
			mstat_json_str(stdout, c->name);
			printf(", \"size\": %llu, ", c->size);
		}
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
			mstat_json_str(stdout, c->name);
		else
			printf("null");
		/* Every name, SLUB's merged ones after it (slab.h). */
		printf(", \"names\": ");
		if (c->named)
			mstat_json_str(stdout, mstat_slab_label(c->name, names,
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
	printf("{\n  \"version\": ");
	mstat_json_str(stdout, s->version);
	printf(",\n  \"generation\": %llu,\n", (unsigned long long)s->gen);
	mstat_json_counters(s);
	mstat_json_sources(s);
	mstat_json_tables(s);
	if (s->has_caches)
		mstat_json_caches(s);
	printf("}\n");
}

