// SPDX-License-Identifier: GPL-2.0
/*
 * check-selftest, a program of the test build (make check-selftest; the
 * shipped mstat has none of it): the checker (check.c) must pass
 * consistent samples and catch each corruption of them (one counter, row
 * or line off), across reads too (a generation that does not increase,
 * counters that decrease). The samples are generated: a /proc/mstat of
 * any generation and scale whose every invariant holds, then one
 * corruption. Prints a line per sample and "... selftest passed" or
 * "... FAILED"; exits 0 if the good samples pass and every corrupted one
 * fails, else 1.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* Self-test: a generated good sample, and corruptions of it. */

enum bad {
	GOOD, BAD_LIVE, BAD_SLAB, BAD_CLASS_SUM, BAD_CLASS_SIZE, BAD_ORDER,
	BAD_PAGE_BYTES, BAD_CTX, BAD_GFP, BAD_VERSION, BAD_PARSE, BAD_MISSING,
	BAD_DUP, BAD_KCLASS, BAD_KCLASS_SUM, NR_BAD
};

static const char *const bad_name[NR_BAD] = {
	"good", "live_objects off by one", "slab_frees off by one",
	"class allocs off by one", "class bytes out of range",
	"order live_pages off by one", "page bytes off by a page",
	"ctx off by one", "gfp off by one", "version 2.0",
	"garbage value", "missing api_frees", "duplicate line",
	"kmalloc_class live_objects off by one",
	"kmalloc_class allocs off by one",
};

struct sample {
	char *p;
	size_t left;
};

static void MSTAT_PRINTF(2, 3) put(struct sample *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->p, s->left, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < s->left) {
		s->p += n;
		s->left -= n;
	}
}

static const unsigned int sample_size[] = { 8, 16, 32, 64, 96, 128, 192,
	256, 512, 1024, 2048, 4096, 8192, 0 };
#define SAMPLE_CLASSES	ARRAY_SIZE(sample_size)
#define SAMPLE_ORDERS	11

/* A consistent /proc/mstat of generation @gen, counters scaled by @k. */
static void make_sample(char *buf, size_t size, uint64_t gen, uint64_t k,
			enum bad bad, uint64_t page_size)
{
	uint64_t cls[SAMPLE_CLASSES][5], slab[5] = { 0 }, src[MSTAT_NR_SRC_1_0][6];
	uint64_t kcls[SAMPLE_CLASSES][5];
	uint64_t ord[SAMPLE_ORDERS][3], all_a = 0, all_f = 0, pages = 0;
	struct sample s = { buf, size };
	size_t i, j;

	for (i = 0; i < SAMPLE_CLASSES; i++) {
		uint64_t sz = sample_size[i] ? sample_size[i] : 20000;

		cls[i][0] = (i + 1) * 3 * k;		/* allocs */
		cls[i][1] = (i + 1) * 2 * k;		/* frees */
		cls[i][3] = cls[i][0] * sz;		/* bytes_allocated */
		cls[i][2] = cls[i][3] - cls[i][0] * (sz / 8); /* requested */
		cls[i][4] = cls[i][1] * sz;		/* bytes_freed */
		for (j = 0; j < 5; j++)
			slab[j] += cls[i][j];
	}
	/*
	 * Split each class: cache 1/4 and api 1/8 of its events (and their
	 * bytes, whole objects), kmalloc the rest: the kmalloc_class rows.
	 */
	memset(src, 0, sizeof(src));
	for (i = 0; i < SAMPLE_CLASSES; i++) {
		uint64_t sz = sample_size[i] ? sample_size[i] : 20000;
		uint64_t a = cls[i][0], f = cls[i][1], r = cls[i][2];

		for (j = 1; j < MSTAT_NR_SRC_1_0; j += 2) {
			uint64_t d = j == 1 ? 4 : 8;

			src[j][0] += a / d;
			src[j][1] += f / d;
			src[j][2] += r / d;
			src[j][3] += a / d * sz;
			src[j][4] += f / d * sz;
		}
		kcls[i][0] = a - a / 4 - a / 8;
		kcls[i][1] = f - f / 4 - f / 8;
		kcls[i][2] = r - r / 4 - r / 8;
		kcls[i][3] = kcls[i][0] * sz;
		kcls[i][4] = kcls[i][1] * sz;
		for (j = 0; j < 5; j++)
			src[0][j] += kcls[i][j];
	}

	for (i = 0; i < SAMPLE_ORDERS; i++) {
		ord[i][0] = (SAMPLE_ORDERS - i) * 2 * k;
		ord[i][1] = (SAMPLE_ORDERS - i) * k;
		ord[i][2] = i % 2 * k;
		src[2][0] += ord[i][0];
		src[2][1] += ord[i][1];
		src[2][5] += ord[i][2];
		src[2][3] += ord[i][0] * page_size << i;
		src[2][4] += ord[i][1] * page_size << i;
		pages += (ord[i][0] - ord[i][1]) << i;
	}
	src[2][2] = src[2][3];
	for (i = 0; i < MSTAT_NR_SRC_1_0; i++) {
		if (i != 2)
			src[i][5] = k;	/* failures */
		all_a += src[i][0];
		all_f += src[i][1];
	}

	put(&s, "mstat - version: %s\n", bad == BAD_VERSION ? "2.0" : "1.1");
	put(&s, "generation %" PRIu64 "\nsnapshot_wait_ns 0\nsnapshot_waited_cpus 0\n",
	    gen);
	for (i = 0; i < MSTAT_NR_SRC_1_0; i++) {
		const char *n = mstat_src_names[i];
		const uint64_t *v = src[i];

		put(&s, "%s_enabled 1\n%s_allocs %" PRIu64 "\n", n, n, v[0]);
		if (!(bad == BAD_MISSING && i == 3))
			put(&s, "%s_frees %" PRIu64 "\n", n, v[1]);
		put(&s, "%s_failures %" PRIu64 "\n", n, v[5]);
		put(&s, "%s_bytes_requested %" PRIu64 "\n", n, v[2]);
		put(&s, "%s_bytes_allocated %" PRIu64 "\n", n, v[3]);
		put(&s, "%s_bytes_freed %" PRIu64 "\n", n,
		    v[4] + (bad == BAD_PAGE_BYTES && i == 2 ? page_size : 0));
		put(&s, "%s_live_objects %" PRId64 "\n", n,
		    (int64_t)(v[0] - v[1]) + (bad == BAD_LIVE && !i));
		put(&s, "%s_live_bytes %" PRId64 "\n", n,
		    (int64_t)(v[3] - v[4] -
			      (bad == BAD_PAGE_BYTES && i == 2 ? page_size : 0)));
	}
	put(&s, "slab_allocs %" PRIu64 "\nslab_frees %" PRIu64 "\n", slab[0],
	    slab[1] + (bad == BAD_SLAB));
	if (bad == BAD_DUP)
		put(&s, "slab_allocs %" PRIu64 "\n", slab[0]);
	put(&s, "slab_bytes_requested %" PRIu64 "\nslab_bytes_allocated %" PRIu64 "\nslab_bytes_freed %" PRIu64 "\n",
	    slab[2], slab[3], slab[4]);
	put(&s, "slab_live_objects %" PRId64 "\nslab_live_bytes %" PRId64 "\nslab_frag_bytes %" PRIu64 "\n",
	    (int64_t)(slab[0] - slab[1] - (bad == BAD_SLAB)),
	    (int64_t)(slab[3] - slab[4]), slab[3] - slab[2]);
	put(&s, "page_live_pages %" PRId64 "\n", (int64_t)pages);
	put(&s, "ctx_task_allocs %" PRIu64 "\nctx_task_frees %" PRIu64 "\n",
	    all_a - all_a / 3 - all_a / 7, all_f - all_f / 3 - all_f / 7);
	put(&s, "ctx_softirq_allocs %" PRIu64 "\nctx_softirq_frees %" PRIu64 "\n",
	    all_a / 3 + (bad == BAD_CTX), all_f / 3);
	put(&s, "ctx_hardirq_allocs %" PRIu64 "\nctx_hardirq_frees %" PRIu64 "\n",
	    all_a / 7, all_f / 7);
	put(&s, "gfp_sleep_allocs %" PRIu64 "\ngfp_atomic_allocs %" PRIu64 "\n",
	    all_a - all_a / 5, all_a / 5 + (bad == BAD_GFP));
	put(&s, "# class size allocs frees ...\n");
	for (i = 0; i < SAMPLE_CLASSES; i++) {
		const uint64_t *v = cls[i];
		uint64_t frag = v[3] - v[2], bytes = v[3];
		int64_t live = (int64_t)(v[0] - v[1]);

		if (sample_size[i])
			put(&s, "class %u", sample_size[i]);
		else
			put(&s, "class large");
		if (bad == BAD_CLASS_SIZE && i == 4) {	/* 96: 1 B too big */
			bytes += 1;
			frag += 1;
		}
		put(&s, " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRIu64 " %" PRIu64 "\n",
		    v[0] + (bad == BAD_CLASS_SUM && i == 2),
		    v[1], live + (bad == BAD_CLASS_SUM && i == 2),
		    v[2], bytes, v[4], (int64_t)(bytes - v[4]), frag,
		    live > 0 ? frag * (uint64_t)live / v[0] : 0);
	}
	put(&s, "# order n allocs frees failures live_pages\n");
	for (i = 0; i < SAMPLE_ORDERS; i++)
		put(&s, "order %zu %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRId64 "%s\n",
		    i, ord[i][0], ord[i][1], ord[i][2],
		    (int64_t)((ord[i][0] - ord[i][1]) << i) +
		    (bad == BAD_ORDER && i == 3),
		    bad == BAD_PARSE && i == 5 ? "x" : "");
	put(&s, "# kmalloc_class size allocs frees live_objects live_bytes\n");
	for (i = 0; i < SAMPLE_CLASSES; i++) {
		const uint64_t *v = kcls[i];

		if (sample_size[i])
			put(&s, "kmalloc_class %u", sample_size[i]);
		else
			put(&s, "kmalloc_class large");
		put(&s, " %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 "\n",
		    v[0] + (bad == BAD_KCLASS_SUM && i == 3), v[1],
		    (int64_t)(v[0] - v[1]) + (bad == BAD_KCLASS && i == 5) +
		    (bad == BAD_KCLASS_SUM && i == 3),
		    (int64_t)(v[3] - v[4]) +
		    (bad == BAD_KCLASS_SUM && i == 3 ? (int64_t)sample_size[i] : 0));
	}
}

/* Check the samples (gen, k) in order; the number of violations. */
static int selftest_run(const char *name, const uint64_t (*seq)[2], int n,
			enum bad bad)
{
	static struct checker c;
	char buf[16384], what[80];
	int i;

	memset(&c, 0, sizeof(c));
	snprintf(what, sizeof(what), "selftest: %s", name);
	c.what = what;
	c.max_print = 3;
	c.page_size = 4096;
	for (i = 0; i < n; i++) {
		make_sample(buf, sizeof(buf), seq[i][0], seq[i][1],
			    i == n - 1 ? bad : GOOD, c.page_size);
		check_read(&c, buf, strlen(buf));
	}
	return c.violations;
}

/*
 * A snapshot served twice (format 1.5): generation 3, then generation 3
 * again with "snapshot_reused 1" after it, which is no violation; without
 * it, one. 0 if both are judged so.
 */
static int selftest_reused(void)
{
	static const char line[] = "snapshot_reused 1\n";
	static struct checker c;
	char buf[16384], *p;
	int i, v[2];

	for (i = 0; i < 2; i++) {
		memset(&c, 0, sizeof(c));
		c.what = "selftest: snapshot reused";
		c.max_print = 3;
		c.page_size = 4096;
		make_sample(buf, sizeof(buf), 3, 1, GOOD, c.page_size);
		check_read(&c, buf, strlen(buf));
		make_sample(buf, sizeof(buf) - sizeof(line), 3, 1, GOOD,
			    c.page_size);
		p = strstr(buf, "snapshot_wait_ns");
		if (i == 0 && p) {
			memmove(p + strlen(line), p, strlen(p) + 1);
			memcpy(p, line, strlen(line));
		}
		check_read(&c, buf, strlen(buf));
		v[i] = c.violations;
	}
	printf(CHECK_TAG "selftest: same generation, snapshot_reused 1: %d violations%s\n",
	       v[0], v[0] ? " (expected none)" : "");
	printf(CHECK_TAG "selftest: same generation, not reused: %d violations%s\n",
	       v[1], v[1] ? "" : " (expected some)");
	return v[0] != 0 || v[1] == 0;
}

/* A corrupted sequence: 0 if the checker caught it. */
static int selftest_bad(const char *name, const uint64_t (*seq)[2], int n,
			enum bad bad)
{
	int v = selftest_run(name, seq, n, bad);

	printf(CHECK_TAG "selftest: %s: %d violations%s\n", name, v,
	       v ? "" : " (expected some)");
	return v == 0;
}

int main(void)
{
	static const uint64_t good[][2] = { { 1, 1 }, { 2, 2 }, { 7, 2 },
					    { 8, 1000 } };
	static const uint64_t same_gen[][2] = { { 3, 1 }, { 3, 2 } };
	static const uint64_t decrease[][2] = { { 3, 2 }, { 4, 1 } };
	int failed = 0, bad, n;

	n = selftest_run(bad_name[GOOD], good, 4, GOOD);
	printf(CHECK_TAG "selftest: %s: %d violations%s\n",
	       bad_name[GOOD], n, n ? " (expected none)" : "");
	failed |= n != 0;
	for (bad = GOOD + 1; bad < NR_BAD; bad++)
		failed |= selftest_bad(bad_name[bad], good, 1, bad);
	failed |= selftest_bad("generation not increasing", same_gen, 2, GOOD);
	failed |= selftest_bad("counters decreasing", decrease, 2, GOOD);
	failed |= selftest_reused();
	printf(CHECK_TAG "selftest %s\n", failed ? "FAILED" : "passed");
	return failed ? 1 : 0;
}
