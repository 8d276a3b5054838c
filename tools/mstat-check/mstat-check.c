// SPDX-License-Identifier: GPL-2.0
/*
 * mstat-check: read /proc/mstat (or FILEs) and check every invariant its
 * snapshot promises, within each read and across reads.
 *
 *   mstat-check [-n N] [-i MS] [FILE...]
 *   mstat-check --selftest
 *
 * Each FILE (default /proc/mstat) is read N times (default 1), MS
 * milliseconds apart (default 0); all reads, in order, form one sequence
 * whose generation must strictly increase and whose cumulative counters
 * must never decrease. Within a read:
 *
 *  - the first line is "mstat - version: 1.<minor>";
 *  - every other line is "name value", a "class" or "order" row, or a
 *    "#" comment; no name appears twice;
 *  - per source (kmalloc, cache, page, api): live_objects = allocs -
 *    frees, live_bytes = bytes_allocated - bytes_freed (as s64);
 *  - slab_* = the sum of kmalloc, cache and api, for allocs, frees and
 *    bytes; slab_live_* and slab_frag_bytes follow from them;
 *  - per class row: live_objects, live_bytes and frag_bytes follow from
 *    its other columns, frag_live_bytes_est is the kernel's estimate,
 *    bytes_requested <= bytes_allocated, and the bytes of every event lie
 *    in the class's size range; the rows sum to slab_allocs, slab_frees,
 *    slab_bytes_requested, slab_bytes_allocated and slab_bytes_freed;
 *  - per order row: live_pages = (allocs - frees) << order; the rows sum
 *    to page_allocs, page_frees, page_failures, page_live_pages, and,
 *    in pages of PAGE_SIZE, to page_bytes_allocated and page_bytes_freed;
 *  - the ctx_*_allocs (frees) sum to the allocs (frees) of all sources;
 *  - gfp_sleep_allocs + gfp_atomic_allocs = the allocs of all sources.
 *
 * Prints one line per violation and a summary line; exits 0 if all
 * holds, 1 on any violation or parse error, 2 on usage, open or read
 * errors. --selftest checks a built-in good sample passes and corrupted
 * ones fail.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_FIELDS	256
#define MAX_NAME	64
#define MAX_CLASSES	32
#define MAX_ORDERS	32
#define CLASS_COLS	9	/* allocs .. frag_live_bytes_est */
#define ORDER_COLS	4	/* allocs frees failures live_pages */

/* Columns of the class and order rows. */
enum {
	C_ALLOCS, C_FREES, C_LIVE, C_REQ, C_ALLOC, C_FREED, C_LIVE_BYTES,
	C_FRAG, C_FRAG_LIVE,
};

enum { O_ALLOCS, O_FREES, O_FAILURES, O_LIVE };

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const sources[] = { "kmalloc", "cache", "page", "api" };
static const char *const slab_sources[] = { "kmalloc", "cache", "api" };
#define NR_SOURCES	4
#define NR_SLAB		3

/* Cumulative columns: never decrease between reads. */
static const int class_cumulative[] = { C_ALLOCS, C_FREES, C_REQ, C_ALLOC,
					C_FREED };
static const char *const class_col_name[CLASS_COLS] = {
	"allocs", "frees", "live_objects", "bytes_requested",
	"bytes_allocated", "bytes_freed", "live_bytes", "frag_bytes",
	"frag_live_bytes_est",
};

static const char *const order_col_name[ORDER_COLS] = {
	"allocs", "frees", "failures", "live_pages",
};

struct field {
	char name[MAX_NAME];
	uint64_t v;		/* s64 values as their two's complement */
};

struct class_row {
	char label[16];
	uint64_t size;		/* 0 for "large" */
	uint64_t v[CLASS_COLS];
};

struct order_row {
	unsigned int n;
	uint64_t v[ORDER_COLS];
};

struct snap {
	struct field f[MAX_FIELDS];
	int nf;
	struct class_row cls[MAX_CLASSES];
	int ncls;
	struct order_row ord[MAX_ORDERS];
	int nord;
};

struct checker {
	const char *what;	/* the current read, for messages */
	int reads;
	int violations;
	int max_print;		/* print only the first ones; 0: all */
	int have_prev;
	uint64_t gen_first, gen_last;
	uint64_t page_size;
	struct snap prev, cur;
};

static void violation(struct checker *c, const char *fmt, ...)
{
	va_list ap;

	c->violations++;
	if (c->max_print && c->violations > c->max_print)
		return;
	printf("mstat-check: %s: ", c->what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Parsing. */

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* A u64 or a negative s64, kept as its two's complement. */
static int parse_num(const char *s, uint64_t *v)
{
	uint64_t u;

	if (*s != '-')
		return parse_u64(s, v);
	if (parse_u64(s + 1, &u) || u > (uint64_t)INT64_MAX + 1)
		return -1;
	*v = -u;
	return 0;
}

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= MAX_NAME)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return 0;
	return 1;
}

static struct field *find_field(struct snap *s, const char *name)
{
	int i;

	for (i = 0; i < s->nf; i++)
		if (!strcmp(s->f[i].name, name))
			return &s->f[i];
	return NULL;
}

/* Split @line at single spaces into at most @max words; their count. */
static int split(char *line, char **w, int max)
{
	int n = 0;
	char *p = line;

	if (!*line)
		return 0;
	for (;;) {
		if (n == max)
			return max + 1;
		w[n++] = p;
		p = strchr(p, ' ');
		if (!p)
			return n;
		*p++ = '\0';
	}
}

static int parse_class(struct checker *c, struct snap *s, char **w, int n)
{
	struct class_row *r;
	int i;

	if (n != 2 + CLASS_COLS || s->ncls == MAX_CLASSES ||
	    strlen(w[1]) >= sizeof(r->label))
		return -1;
	r = &s->cls[s->ncls];
	strcpy(r->label, w[1]);
	if (!strcmp(w[1], "large"))
		r->size = 0;
	else if (parse_u64(w[1], &r->size) || !r->size)
		return -1;
	for (i = 0; i < s->ncls; i++)
		if (!strcmp(s->cls[i].label, r->label)) {
			violation(c, "class %s appears twice", r->label);
			return 0;
		}
	for (i = 0; i < CLASS_COLS; i++)
		if (parse_num(w[2 + i], &r->v[i]))
			return -1;
	s->ncls++;
	return 0;
}

static int parse_order(struct checker *c, struct snap *s, char **w, int n)
{
	struct order_row *r;
	uint64_t order;
	int i;

	if (n != 2 + ORDER_COLS || s->nord == MAX_ORDERS ||
	    parse_u64(w[1], &order) || order > 63)
		return -1;
	r = &s->ord[s->nord];
	r->n = order;
	for (i = 0; i < s->nord; i++)
		if (s->ord[i].n == r->n) {
			violation(c, "order %u appears twice", r->n);
			return 0;
		}
	for (i = 0; i < ORDER_COLS; i++)
		if (parse_num(w[2 + i], &r->v[i]))
			return -1;
	s->nord++;
	return 0;
}

static int parse_field(struct checker *c, struct snap *s, char **w, int n)
{
	struct field *f;

	if (n != 2 || !valid_name(w[0]) || s->nf == MAX_FIELDS)
		return -1;
	if (find_field(s, w[0])) {
		violation(c, "%s appears twice", w[0]);
		return 0;
	}
	f = &s->f[s->nf];
	if (parse_num(w[1], &f->v))
		return -1;
	strcpy(f->name, w[0]);
	s->nf++;
	return 0;
}

static int parse_version(const char *line)
{
	static const char prefix[] = "mstat - version: 1.";
	const char *p = line + sizeof(prefix) - 1;

	if (strncmp(line, prefix, sizeof(prefix) - 1) || !*p)
		return -1;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	return 0;
}

/* Parse @buf (NUL-terminated, modified) into c->cur; 0 or -1. */
static int parse(struct checker *c, char *buf, size_t len)
{
	struct snap *s = &c->cur;
	char *line = buf, *nl, *w[2 + CLASS_COLS];
	int lineno = 0, n, err;

	memset(s, 0, sizeof(*s));
	if (strlen(buf) != len) {
		violation(c, "NUL byte in the file");
		return -1;
	}
	if (!len || buf[len - 1] != '\n') {
		violation(c, "empty, or no newline at the end");
		return -1;
	}
	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		if (++lineno == 1) {
			if (parse_version(line)) {
				violation(c, "line 1: not \"mstat - version: 1.x\": \"%s\"",
					  line);
				return -1;
			}
			continue;
		}
		if (line[0] == '#')
			continue;
		n = split(line, w, 2 + CLASS_COLS);
		if (n && !strcmp(w[0], "class"))
			err = parse_class(c, s, w, n);
		else if (n && !strcmp(w[0], "order"))
			err = parse_order(c, s, w, n);
		else
			err = parse_field(c, s, w, n);
		if (err) {
			violation(c, "line %d does not parse", lineno);
			return -1;
		}
	}
	return 0;
}

/* Checks within one read. */

/* The value of field @fmt..., or 0 and a violation if it is missing. */
static uint64_t get(struct checker *c, const char *fmt, ...)
{
	char name[2 * MAX_NAME];
	struct field *f;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	f = find_field(&c->cur, name);
	if (!f) {
		violation(c, "%s missing", name);
		return 0;
	}
	return f->v;
}

static void expect(struct checker *c, const char *what, uint64_t got,
		   uint64_t want)
{
	if (got != want)
		violation(c, "%s is %" PRId64 ", expected %" PRId64, what,
			  (int64_t)got, (int64_t)want);
}

static void check_sources(struct checker *c)
{
	char what[2 * MAX_NAME];
	uint64_t a, f;
	int i;

	for (i = 0; i < NR_SOURCES; i++) {
		const char *s = sources[i];

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
	char what[2 * MAX_NAME];
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

/* @n events of @bytes in total must each be in (lo, hi]; hi 0: no limit. */
static int in_class(uint64_t n, uint64_t bytes, uint64_t lo, uint64_t hi)
{
	if (!n)
		return bytes == 0;
	if (bytes / n < lo || (bytes / n == lo && bytes % n == 0))
		return 0;	/* at most n * lo */
	return !hi || bytes / n < hi || (bytes / n == hi && bytes % n == 0);
}

static void check_class_row(struct checker *c, const struct class_row *r,
			    uint64_t lo)
{
	const uint64_t *v = r->v;
	uint64_t frag = v[C_ALLOC] - v[C_REQ], est = 0;
	int64_t live = (int64_t)(v[C_ALLOCS] - v[C_FREES]);
	char what[64];

	snprintf(what, sizeof(what), "class %s live_objects", r->label);
	expect(c, what, v[C_LIVE], v[C_ALLOCS] - v[C_FREES]);
	snprintf(what, sizeof(what), "class %s live_bytes", r->label);
	expect(c, what, v[C_LIVE_BYTES], v[C_ALLOC] - v[C_FREED]);
	snprintf(what, sizeof(what), "class %s frag_bytes", r->label);
	expect(c, what, v[C_FRAG], frag);
	if (v[C_REQ] > v[C_ALLOC])
		violation(c, "class %s: bytes_requested %" PRIu64 " > bytes_allocated %" PRIu64,
			  r->label, v[C_REQ], v[C_ALLOC]);
	/* The kernel's estimate: frag * live / allocs, or 0 if none live. */
	if (v[C_ALLOCS] && live > 0)
		est = frag * (uint64_t)live / v[C_ALLOCS];
	/* Not where the kernel's u64 product wraps. */
	if (!frag || live <= 0 || (uint64_t)live <= UINT64_MAX / frag) {
		snprintf(what, sizeof(what), "class %s frag_live_bytes_est",
			 r->label);
		expect(c, what, v[C_FRAG_LIVE], est);
	}
	if (!in_class(v[C_ALLOCS], v[C_ALLOC], lo, r->size))
		violation(c, "class %s: %" PRIu64 " allocs of %" PRIu64 " bytes in all do not fit the class (%" PRIu64 ", %" PRIu64 "]",
			  r->label, v[C_ALLOCS], v[C_ALLOC], lo, r->size);
	if (!in_class(v[C_FREES], v[C_FREED], lo, r->size))
		violation(c, "class %s: %" PRIu64 " frees of %" PRIu64 " bytes in all do not fit the class (%" PRIu64 ", %" PRIu64 "]",
			  r->label, v[C_FREES], v[C_FREED], lo, r->size);
}

static void check_classes(struct checker *c)
{
	static const struct { int col; const char *slab; } sum[] = {
		{ C_ALLOCS, "slab_allocs" },
		{ C_FREES, "slab_frees" },
		{ C_REQ, "slab_bytes_requested" },
		{ C_ALLOC, "slab_bytes_allocated" },
		{ C_FREED, "slab_bytes_freed" },
	};
	char what[64];
	uint64_t t, lo = 0;
	size_t i;
	int j;

	if (!c->cur.ncls) {
		violation(c, "no class rows");
		return;
	}
	for (j = 0; j < c->cur.ncls; j++) {
		const struct class_row *r = &c->cur.cls[j];

		if (j < c->cur.ncls - 1 ? r->size <= lo : r->size != 0)
			violation(c, "class rows not ascending, ending in \"large\": %s",
				  r->label);
		check_class_row(c, r, lo);
		lo = r->size;
	}
	for (i = 0; i < ARRAY_SIZE(sum); i++) {
		t = 0;
		for (j = 0; j < c->cur.ncls; j++)
			t += c->cur.cls[j].v[sum[i].col];
		snprintf(what, sizeof(what), "sum of class %s",
			 class_col_name[sum[i].col]);
		expect(c, what, t, get(c, "%s", sum[i].slab));
	}
}

static void check_orders(struct checker *c)
{
	uint64_t a = 0, f = 0, fail = 0, live = 0, pa = 0, pf = 0;
	char what[64];
	int j;

	if (!c->cur.nord) {
		violation(c, "no order rows");
		return;
	}
	for (j = 0; j < c->cur.nord; j++) {
		const struct order_row *r = &c->cur.ord[j];

		if (r->n != (unsigned int)j)
			violation(c, "order rows not 0, 1, ...: row %d is order %u",
				  j, r->n);
		snprintf(what, sizeof(what), "order %u live_pages", r->n);
		expect(c, what, r->v[O_LIVE],
		       (r->v[O_ALLOCS] - r->v[O_FREES]) << r->n);
		a += r->v[O_ALLOCS];
		f += r->v[O_FREES];
		fail += r->v[O_FAILURES];
		live += r->v[O_LIVE];
		pa += r->v[O_ALLOCS] << r->n;
		pf += r->v[O_FREES] << r->n;
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

static int has_affix(const char *s, const char *pre, const char *suf)
{
	size_t n = strlen(s), np = strlen(pre), ns = strlen(suf);

	return n > np + ns && !strncmp(s, pre, np) && !strcmp(s + n - ns, suf);
}

static void check_ctx_gfp(struct checker *c)
{
	uint64_t a = 0, f = 0, ca = 0, cf = 0;
	int i, nctx = 0;

	for (i = 0; i < NR_SOURCES; i++) {
		a += get(c, "%s_allocs", sources[i]);
		f += get(c, "%s_frees", sources[i]);
	}
	for (i = 0; i < c->cur.nf; i++) {
		const struct field *fl = &c->cur.f[i];

		if (has_affix(fl->name, "ctx_", "_allocs")) {
			ca += fl->v;
			nctx++;
		} else if (has_affix(fl->name, "ctx_", "_frees")) {
			cf += fl->v;
		}
	}
	if (!nctx)
		violation(c, "no ctx_*_allocs lines");
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

	for (i = 0; i < ARRAY_SIZE(suf); i++)
		if (has_affix(name, "", suf[i]))
			return 1;
	return 0;
}

static void not_less(struct checker *c, const char *what, uint64_t prev,
		     uint64_t cur)
{
	if (cur < prev)
		violation(c, "%s decreased: %" PRIu64 " -> %" PRIu64, what,
			  prev, cur);
}

static void check_monotonic(struct checker *c)
{
	const struct snap *p = &c->prev, *s = &c->cur;
	struct field *f;
	char what[64];
	size_t k;
	int i, j;

	for (i = 0; i < p->nf; i++) {
		if (!cumulative(p->f[i].name))
			continue;
		f = find_field(&c->cur, p->f[i].name);
		if (f)
			not_less(c, f->name, p->f[i].v, f->v);
		else
			violation(c, "%s disappeared", p->f[i].name);
	}
	for (i = 0; i < p->ncls; i++)
		for (j = 0; j < s->ncls; j++) {
			if (strcmp(p->cls[i].label, s->cls[j].label))
				continue;
			for (k = 0; k < ARRAY_SIZE(class_cumulative); k++) {
				int col = class_cumulative[k];

				snprintf(what, sizeof(what), "class %s %s",
					 s->cls[j].label, class_col_name[col]);
				not_less(c, what, p->cls[i].v[col],
					 s->cls[j].v[col]);
			}
		}
	for (i = 0; i < p->nord && i < s->nord; i++)
		for (k = O_ALLOCS; k <= O_FAILURES; k++) {
			snprintf(what, sizeof(what), "order %u %s",
				 s->ord[i].n, order_col_name[k]);
			not_less(c, what, p->ord[i].v[k], s->ord[i].v[k]);
		}
}

/* One read: parse and check @buf, then remember it. */
static void check_read(struct checker *c, char *buf, size_t len)
{
	struct field *g;

	c->reads++;
	if (parse(c, buf, len))
		return;
	g = find_field(&c->cur, "generation");
	if (!g) {
		violation(c, "generation missing");
		return;
	}
	check_sources(c);
	check_slab(c);
	check_classes(c);
	check_orders(c);
	check_ctx_gfp(c);
	if (c->have_prev) {
		if (g->v <= c->gen_last)
			violation(c, "generation %" PRIu64 " after %" PRIu64,
				  g->v, c->gen_last);
		check_monotonic(c);
	} else {
		c->gen_first = g->v;
	}
	c->gen_last = g->v;
	c->prev = c->cur;
	c->have_prev = 1;
}

/* Reading files. */

/* The whole of @path, NUL-terminated, in *@buf; its length, or -1. */
static ssize_t read_file(const char *path, char **buf, size_t *cap)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "mstat-check: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (*cap - len < 4096) {
			char *nb = realloc(*buf, *cap * 2 + 4096);

			if (!nb) {
				fprintf(stderr, "mstat-check: out of memory\n");
				close(fd);
				return -1;
			}
			*buf = nb;
			*cap = *cap * 2 + 4096;
		}
		n = read(fd, *buf + len, *cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "mstat-check: %s: read: %s\n", path,
				strerror(errno));
			close(fd);
			return -1;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	(*buf)[len] = '\0';
	return len;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int summary(const struct checker *c)
{
	printf("mstat-check: reads=%d violations=%d generation=%" PRIu64 "..%" PRIu64 "\n",
	       c->reads, c->violations, c->gen_first, c->gen_last);
	return c->violations ? 1 : 0;
}

/* Self-test: a generated good sample, and corruptions of it. */

enum bad {
	GOOD, BAD_LIVE, BAD_SLAB, BAD_CLASS_SUM, BAD_CLASS_SIZE, BAD_ORDER,
	BAD_PAGE_BYTES, BAD_CTX, BAD_GFP, BAD_VERSION, BAD_PARSE, BAD_MISSING,
	BAD_DUP, NR_BAD
};

static const char *const bad_name[NR_BAD] = {
	"good", "live_objects off by one", "slab_frees off by one",
	"class allocs off by one", "class bytes out of range",
	"order live_pages off by one", "page bytes off by a page",
	"ctx off by one", "gfp off by one", "version 2.0",
	"garbage value", "missing api_frees", "duplicate line",
};

struct sample {
	char *p;
	size_t left;
};

static void put(struct sample *s, const char *fmt, ...)
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
	uint64_t cls[SAMPLE_CLASSES][5], slab[5] = { 0 }, src[NR_SOURCES][6];
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
	/* Split the slab totals: cache 1/4, api 1/8, kmalloc the rest. */
	for (j = 0; j < 5; j++) {
		src[1][j] = slab[j] / 4;
		src[3][j] = slab[j] / 8;
		src[0][j] = slab[j] - src[1][j] - src[3][j];
	}
	memset(src[2], 0, sizeof(src[2]));
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
	for (i = 0; i < NR_SOURCES; i++) {
		if (i != 2)
			src[i][5] = k;	/* failures */
		all_a += src[i][0];
		all_f += src[i][1];
	}

	put(&s, "mstat - version: %s\n", bad == BAD_VERSION ? "2.0" : "1.0");
	put(&s, "generation %" PRIu64 "\nsnapshot_wait_ns 0\nsnapshot_waited_cpus 0\n",
	    gen);
	for (i = 0; i < NR_SOURCES; i++) {
		const char *n = sources[i];
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

/* A corrupted sequence: 0 if the checker caught it. */
static int selftest_bad(const char *name, const uint64_t (*seq)[2], int n,
			enum bad bad)
{
	int v = selftest_run(name, seq, n, bad);

	printf("mstat-check: selftest: %s: %d violations%s\n", name, v,
	       v ? "" : " (expected some)");
	return v == 0;
}

static int selftest(void)
{
	static const uint64_t good[][2] = { { 1, 1 }, { 2, 2 }, { 7, 2 },
					    { 8, 1000 } };
	static const uint64_t same_gen[][2] = { { 3, 1 }, { 3, 2 } };
	static const uint64_t decrease[][2] = { { 3, 2 }, { 4, 1 } };
	int failed = 0, bad, n;

	n = selftest_run(bad_name[GOOD], good, 4, GOOD);
	printf("mstat-check: selftest: %s: %d violations%s\n",
	       bad_name[GOOD], n, n ? " (expected none)" : "");
	failed |= n != 0;
	for (bad = GOOD + 1; bad < NR_BAD; bad++)
		failed |= selftest_bad(bad_name[bad], good, 1, bad);
	failed |= selftest_bad("generation not increasing", same_gen, 2, GOOD);
	failed |= selftest_bad("counters decreasing", decrease, 2, GOOD);
	printf("mstat-check: selftest %s\n", failed ? "FAILED" : "passed");
	return failed;
}

static int usage(void)
{
	fprintf(stderr, "usage: mstat-check [-n N] [-i MS] [FILE...] | --selftest\n");
	return 2;
}

/* A count for -n or -i, or -1. */
static long parse_opt(const char *s, long min)
{
	uint64_t v;

	if (parse_u64(s, &v) || v < (uint64_t)min || v > 1000000)
		return -1;
	return v;
}

int main(int argc, char **argv)
{
	static const char *const dflt[] = { "/proc/mstat" };
	static struct checker c;
	const char *const *files;
	long reads = 1, ms = 0, ps;
	char *buf = NULL, what[256];
	size_t cap = 0;
	ssize_t len;
	int i, nfiles, r;

	if (argc == 2 && !strcmp(argv[1], "--selftest"))
		return selftest() ? 1 : 0;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (i + 1 == argc)
			return usage();
		if (!strcmp(argv[i], "-n"))
			reads = parse_opt(argv[++i], 1);
		else if (!strcmp(argv[i], "-i"))
			ms = parse_opt(argv[++i], 0);
		else
			return usage();
		if (reads < 0 || ms < 0)
			return usage();
	}
	files = i < argc ? (const char *const *)&argv[i] : dflt;
	nfiles = i < argc ? argc - i : 1;

	ps = sysconf(_SC_PAGESIZE);
	c.page_size = ps > 0 ? ps : 4096;
	c.what = what;
	for (i = 0; i < nfiles; i++)
		for (r = 0; r < reads; r++) {
			if (c.reads)
				sleep_ms(ms);
			len = read_file(files[i], &buf, &cap);
			if (len < 0)
				return 2;
			snprintf(what, sizeof(what), "%s read %d",
				 files[i], c.reads + 1);
			check_read(&c, buf, len);
		}
	free(buf);
	return summary(&c);
}
