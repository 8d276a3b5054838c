// SPDX-License-Identifier: GPL-2.0
/*
 * The parser of /proc/mstat and /proc/mstat_sites (see parse.h for the
 * grammar). No I/O, no messages: callers get a struct mstat_perror.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_WORDS	32

const char *const mstat_src_names[MSTAT_NR_SRC] = {
	"kmalloc", "cache", "page", "api", "vmalloc", "percpu",
};

const char *const mstat_vm_fields[VM_NR] = {
	"allocs", "frees", "live_areas", "bytes_allocated", "bytes_freed",
	"live_bytes",
};

const char *const mstat_vm_kinds[MSTAT_NR_VM_KINDS] = {
	"vmalloc", "vmap", "ioremap", "other",
};

const char *const mstat_ctx_names[MSTAT_NR_CTX] = {
	"task", "softirq", "hardirq",
};

const char *const mstat_src_fields[SRC_NR] = {
	"enabled", "allocs", "frees", "failures", "bytes_requested",
	"bytes_allocated", "bytes_freed", "live_objects", "live_bytes",
};

const char *const mstat_slab_fields[MSTAT_NR_SLAB_FIELDS] = {
	"allocs", "frees", "bytes_requested", "bytes_allocated",
	"bytes_freed", "live_objects", "live_bytes", "frag_bytes",
};

const char *const mstat_cls_fields[CLS_NR] = {
	"allocs", "frees", "live_objects", "bytes_requested",
	"bytes_allocated", "bytes_freed", "live_bytes", "frag_bytes",
	"frag_live_bytes_est",
};

const char *const mstat_kcls_fields[KCLS_NR] = {
	"allocs", "frees", "live_objects", "live_bytes", "at_load_objects",
};

const char *const mstat_cache_fields[CACHE_NR] = {
	"allocs", "frees", "failures", "live_objects", "live_bytes",
};

const char *const mstat_ord_fields[ORD_NR] = {
	"allocs", "frees", "failures", "live_pages",
};

/* Numbers */

/* Decimal digits and nothing else, at most UINT64_MAX. */
bool mstat_parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* A u64, or '-' and at most 2^63: kept as its two's complement. */
bool mstat_parse_num(const char *s, long long *v)
{
	unsigned long long u;

	if (*s != '-') {
		if (!mstat_parse_u64(s, &u))
			return false;
	} else {
		if (!mstat_parse_u64(s + 1, &u) || u > (uint64_t)INT64_MAX + 1)
			return false;
		u = -u;
	}
	*v = (long long)u;
	return true;
}

/*
 * Whether the value named @name (a "name value" line's name, or a row's
 * column, as mstat_cls_fields[] names them) is an s64: the live counts,
 * which may be negative (*live_objects, *live_bytes, *live_pages). Every
 * other value of /proc/mstat is a u64, cumulative or not, kept as its
 * two's complement: print it with %llu, or it reads negative from 2^63.
 */
bool mstat_is_s64(const char *name)
{
	static const char *const suf[] = { "live_objects", "live_bytes",
					   "live_pages" };
	size_t n = strlen(name), i;

	for (i = 0; i < sizeof(suf) / sizeof(suf[0]); i++) {
		size_t k = strlen(suf[i]);

		if (n >= k && !strcmp(name + n - k, suf[i]))
			return true;
	}
	return false;
}

static bool parse_nums(char **w, int n, long long *v)
{
	int i;

	for (i = 0; i < n; i++)
		if (!mstat_parse_num(w[i], &v[i]))
			return false;
	return true;
}

/* Lines and words */

/*
 * Split @line at single spaces into at most @max words; their count, or
 * @max + 1 if there are more. "" has none; "a  b" has an empty one.
 */
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

/* Undo split() on [@line, @end): the line whole again, for messages. */
static void unsplit(char *line, const char *end)
{
	for (; line < end; line++)
		if (!*line)
			*line = ' ';
}

static bool fail(struct mstat_perror *err, enum mstat_perr code, int line,
		 const char *text)
{
	err->code = code;
	err->line = line;
	err->text = text;
	return false;
}

/* The whole-file checks: text, not empty, ends in a newline. */
static bool check_text(const char *buf, size_t len, struct mstat_perror *err)
{
	memset(err, 0, sizeof(*err));
	if (strlen(buf) != len) {
		err->off = strlen(buf);
		return fail(err, MSTAT_E_NUL, 0, NULL);
	}
	if (!len)
		return fail(err, MSTAT_E_EMPTY, 0, NULL);
	if (buf[len - 1] != '\n')
		return fail(err, MSTAT_E_PARTIAL, 0, NULL);
	return true;
}

/* Cut the next line off *@pos; NULL at the end (check_text() passed). */
static char *next_line(char **pos)
{
	char *line = *pos, *nl;

	if (!*line)
		return NULL;
	nl = strchr(line, '\n');
	*nl = '\0';
	*pos = nl + 1;
	return line;
}

/* Digits without a leading zero (but "0"), saturating at INT_MAX. */
static const char *parse_part(const char *s, int *v)
{
	long long n = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++)
		n = n > INT_MAX ? n : n * 10 + (*s - '0');
	*v = n > INT_MAX ? INT_MAX : (int)n;
	return s;
}

/*
 * Line 1: @head, then MAJOR.MINOR (MAJOR without a leading zero), MAJOR
 * being MSTAT_MAJOR. The version goes to @version (truncated to 31).
 */
/* @lo..@hi: the majors this parser reads of the file. */
static bool parse_head(char *line, const char *head, char *version,
		       int *major, int *minor, int lo, int hi,
		       struct mstat_perror *err)
{
	const char *v = line + strlen(head), *p;

	if (strncmp(line, head, strlen(head)))
		return fail(err, MSTAT_E_HEAD, 1, line);
	p = parse_part(v, major);
	if (!p || (*v == '0' && p - v > 1) || *p != '.')
		return fail(err, MSTAT_E_VERSION, 1, line);
	p = parse_part(p + 1, minor);
	if (!p || *p)
		return fail(err, MSTAT_E_VERSION, 1, line);
	if (*major < lo || *major > hi)
		return fail(err, MSTAT_E_MAJOR, 1, line);
	snprintf(version, 32, "%s", v);
	return true;
}

/* /proc/mstat */

struct snap_parser {
	struct mstat_snap *s;
	bool exact;
	mstat_dup_fn *dup;
	void *arg;
	struct mstat_perror *err;
	int line;
	const char *text;
};

/* A line given twice: tell, or stop. True to go on. */
static bool dup(struct snap_parser *p, enum mstat_dup_kind kind,
		const char *what)
{
	struct mstat_dup d = { .kind = kind, .line = p->line };

	snprintf(d.what, sizeof(d.what), "%s", what);
	if (p->dup && p->dup(p->arg, &d))
		return true;
	p->err->dup = d;
	return fail(p->err, MSTAT_E_DUP, p->line, p->text);
}

static bool stop(struct snap_parser *p, enum mstat_perr code)
{
	return fail(p->err, code, p->line, p->text);
}

static bool valid_name(const char *n)
{
	if (!*n || strlen(n) >= MSTAT_NAME_MAX)
		return false;
	for (; *n; n++)
		if (!(*n == '_' || (*n >= 'a' && *n <= 'z') ||
		      (*n >= '0' && *n <= '9')))
			return false;
	return true;
}

const struct mstat_counter *mstat_find(const struct mstat_snap *s,
				       const char *name)
{
	int i;

	for (i = 0; i < s->nctr; i++)
		if (!strcmp(s->ctr[i].name, name))
			return &s->ctr[i];
	return NULL;
}

long long mstat_get(const struct mstat_snap *s, const char *name)
{
	const struct mstat_counter *c = mstat_find(s, name);

	return c ? c->val : 0;
}

double mstat_snap_age(const struct mstat_snap *s)
{
	return mstat_get(s, "snapshot_age_ms") / 1000.0;
}

double mstat_snap_taken(const struct mstat_snap *s)
{
	return s->when.tv_sec + s->when.tv_nsec / 1e9 - mstat_snap_age(s);
}

bool mstat_snap_again(const struct mstat_snap *s, long long gen,
		      long long age_ms)
{
	return mstat_get(s, "snapshot_reused") && s->gen == gen &&
	       mstat_get(s, "snapshot_age_ms") > age_ms;
}

/* "name value" */
static bool add_counter(struct snap_parser *p, char **w)
{
	struct mstat_snap *s = p->s;
	struct mstat_counter *c = &s->ctr[s->nctr];

	if (!valid_name(w[0]))
		return stop(p, MSTAT_E_COUNTER);
	if (s->nctr == MSTAT_MAX_COUNTERS)
		return stop(p, MSTAT_E_TOO_MANY);
	if (mstat_find(s, w[0]))
		return dup(p, MSTAT_DUP_COUNTER, w[0]);
	if (!mstat_parse_num(w[1], &c->val))
		return stop(p, MSTAT_E_COUNTER);
	snprintf(c->name, sizeof(c->name), "%s", w[0]);
	c->line = p->line;
	s->nctr++;
	return true;
}

/*
 * A size-class row, "WORD SIZE|large" and @ncols numbers (or more, unless
 * exact), into @rows[*@nrows]; @kind names a duplicate.
 */
static bool add_class_row(struct snap_parser *p, char **w, int n,
			  struct mstat_class *rows, int *nrows, int ncols,
			  enum mstat_dup_kind kind)
{
	struct mstat_class *c = &rows[*nrows];
	int i;

	if (p->exact ? n != 2 + ncols : n < 2 + ncols)
		return stop(p, MSTAT_E_CLASS);
	if (*nrows == MSTAT_MAX_CLASSES)
		return stop(p, MSTAT_E_TOO_MANY);
	if (strlen(w[1]) >= sizeof(c->name))
		return stop(p, MSTAT_E_CLASS);
	if (!strcmp(w[1], "large"))
		c->size = 0;
	else if (!mstat_parse_u64(w[1], &c->size) || !c->size)
		return stop(p, MSTAT_E_CLASS);
	for (i = 0; i < *nrows; i++)
		if (!strcmp(rows[i].name, w[1]))
			return dup(p, kind, w[1]);
	memset(c->v, 0, sizeof(c->v));
	if (!parse_nums(w + 2, ncols, c->v))
		return stop(p, MSTAT_E_CLASS);
	snprintf(c->name, sizeof(c->name), "%s", w[1]);
	c->line = p->line;
	(*nrows)++;
	return true;
}

/* "class SIZE|large" and CLS_NR numbers. */
static bool add_class(struct snap_parser *p, char **w, int n)
{
	return add_class_row(p, w, n, p->s->cls, &p->s->ncls, CLS_NR,
			     MSTAT_DUP_CLASS);
}

/*
 * "kmalloc_class SIZE|large" and KCLS_NR numbers: format 1.1 on, the last
 * (at load) from 1.8.
 */
static bool add_kclass(struct snap_parser *p, char **w, int n)
{
	return add_class_row(p, w, n, p->s->kcls, &p->s->nkcls,
			     p->s->minor >= 8 ? KCLS_NR : KCLS_AT_LOAD,
			     MSTAT_DUP_KCLASS);
}

/*
 * A cache's name as the module writes it: "-" for none, else bytes in
 * '!'..'~' with a backslash and three octal digits for any other byte
 * (and the backslash). Into @out, decoded; false if malformed.
 */
static bool decode_cache_name(const char *w, struct mstat_cache *c)
{
	size_t n = 0;
	unsigned int v;

	c->named = strcmp(w, "-") != 0;
	c->name[0] = '\0';
	if (!c->named)
		return true;
	for (; *w; w++) {
		if (n == sizeof(c->name) - 1)
			return false;
		if ((unsigned char)*w < '!' || (unsigned char)*w > '~')
			return false;
		if (*w != '\\') {
			c->name[n++] = *w;
			continue;
		}
		if (w[1] < '0' || w[1] > '3' || w[2] < '0' || w[2] > '7' ||
		    w[3] < '0' || w[3] > '7')
			return false;
		v = (w[1] - '0') * 64 + (w[2] - '0') * 8 + (w[3] - '0');
		if (!v)
			return false;
		c->name[n++] = (char)v;
		w += 3;
	}
	c->name[n] = '\0';
	return n > 0;
}

/*
 * "cache ID SIZE", CACHE_NR numbers, "live"|"gone" and NAME: format 1.2;
 * from 1.8, then the objects at load.
 */
static bool add_cache(struct snap_parser *p, char **w, int n)
{
	struct mstat_snap *s = p->s;
	struct mstat_cache *c = &s->cache[s->ncache];
	bool at_load = s->minor >= 8;
	char what[24];
	int i;

	if (n != 5 + CACHE_NR + at_load)
		return stop(p, MSTAT_E_CACHE);
	c->at_load = 0;
	if (at_load && !mstat_parse_u64(w[5 + CACHE_NR], &c->at_load))
		return stop(p, MSTAT_E_CACHE);
	if (s->ncache == MSTAT_MAX_CACHES)
		return stop(p, MSTAT_E_TOO_MANY);
	if (!mstat_parse_u64(w[1], &c->id) || !c->id ||
	    !mstat_parse_u64(w[2], &c->size) || !c->size ||
	    !parse_nums(w + 3, CACHE_NR, c->v) ||
	    (strcmp(w[3 + CACHE_NR], "live") && strcmp(w[3 + CACHE_NR], "gone")) ||
	    !decode_cache_name(w[4 + CACHE_NR], c))
		return stop(p, MSTAT_E_CACHE);
	c->gone = !strcmp(w[3 + CACHE_NR], "gone");
	for (i = 0; i < s->ncache; i++) {
		if (s->cache[i].id == c->id) {
			snprintf(what, sizeof(what), "%llu", c->id);
			return dup(p, MSTAT_DUP_CACHE, what);
		}
	}
	c->line = p->line;
	s->ncache++;
	return true;
}

/* "cache_overflow" and CACHE_NR numbers: format 1.2. */
static bool add_cache_overflow(struct snap_parser *p, char **w, int n)
{
	if (n != 1 + CACHE_NR || !parse_nums(w + 1, CACHE_NR, p->s->over))
		return stop(p, MSTAT_E_CACHE);
	if (p->s->has_caches)
		return dup(p, MSTAT_DUP_CACHE, "overflow");
	p->s->has_caches = true;
	return true;
}

/* "order N" and ORD_NR numbers (or more, unless exact); N <= 63. */
static bool add_order(struct snap_parser *p, char **w, int n)
{
	struct mstat_snap *s = p->s;
	struct mstat_order *o = &s->ord[s->nord];
	unsigned long long order;
	char what[24];
	int i;

	if (p->exact ? n != 2 + ORD_NR : n < 2 + ORD_NR)
		return stop(p, MSTAT_E_ORDER);
	if (s->nord == MSTAT_MAX_ORDERS)
		return stop(p, MSTAT_E_TOO_MANY);
	if (!mstat_parse_u64(w[1], &order) || order > 63)
		return stop(p, MSTAT_E_ORDER);
	for (i = 0; i < s->nord; i++) {
		if (s->ord[i].n == order) {
			snprintf(what, sizeof(what), "%llu", order);
			return dup(p, MSTAT_DUP_ORDER, what);
		}
	}
	if (!parse_nums(w + 2, ORD_NR, o->v))
		return stop(p, MSTAT_E_ORDER);
	o->n = order;
	o->line = p->line;
	s->nord++;
	return true;
}

/* "vm KIND" and VM_NR numbers: format 1.6. */
static bool add_vm(struct snap_parser *p, char **w, int n)
{
	struct mstat_snap *s = p->s;
	int k;

	if (p->exact ? n != 2 + VM_NR : n < 2 + VM_NR)
		return stop(p, MSTAT_E_VM);
	for (k = 0; k < MSTAT_NR_VM_KINDS; k++)
		if (!strcmp(w[1], mstat_vm_kinds[k]))
			break;
	if (k == MSTAT_NR_VM_KINDS) {
		/* A later minor may add kinds. */
		return p->exact && s->minor == 6 ? stop(p, MSTAT_E_VM) : true;
	}
	if (s->has_vm[k])
		return dup(p, MSTAT_DUP_VM, w[1]);
	if (!parse_nums(w + 2, VM_NR, s->vm[k]))
		return stop(p, MSTAT_E_VM);
	s->has_vm[k] = true;
	return true;
}

static bool parse_line(struct snap_parser *p, char *line)
{
	char *w[MAX_WORDS], *end = line + strlen(line);
	int n;
	bool ok;

	if (line[0] == '#')
		return true;
	p->text = line;
	n = split(line, w, MAX_WORDS);
	if (n && !strcmp(w[0], "class"))
		ok = add_class(p, w, n);
	else if (n && !strcmp(w[0], "order"))
		ok = add_order(p, w, n);
	else if (n && !strcmp(w[0], "kmalloc_class") && p->s->minor >= 1)
		ok = add_kclass(p, w, n);
	else if (n && !strcmp(w[0], "cache") && p->s->minor >= 2)
		ok = add_cache(p, w, n);
	else if (n && !strcmp(w[0], "cache_overflow") && p->s->minor >= 2)
		ok = add_cache_overflow(p, w, n);
	else if (n && !strcmp(w[0], "vm") && p->s->minor >= 6)
		ok = add_vm(p, w, n);
	else if (n == 2)
		ok = add_counter(p, w);
	else if (!p->exact && p->s->minor > 0)
		ok = true;	/* a later minor may add lines of other shapes */
	else
		ok = stop(p, MSTAT_E_LINE);
	if (!ok)
		unsplit(line, end);
	return ok;
}

bool mstat_snap_parse(struct mstat_snap *s, char *buf, size_t len,
		      unsigned int flags, mstat_dup_fn *dupfn, void *arg,
		      struct mstat_perror *err)
{
	struct snap_parser p = {
		.s = s, .exact = flags & MSTAT_PARSE_EXACT, .dup = dupfn,
		.arg = arg, .err = err, .line = 1,
	};
	const char *path = s->path;
	char *pos = buf, *line;

	memset(s, 0, sizeof(*s));
	s->path = path;
	if (!check_text(buf, len, err))
		return false;
	line = next_line(&pos);
	if (!parse_head(line, MSTAT_HEAD, s->version, &s->major, &s->minor,
			MSTAT_MAJOR, MSTAT_MAJOR, err))
		return false;
	while ((line = next_line(&pos))) {
		p.line++;
		if (!parse_line(&p, line))
			return false;
	}
	return true;
}

const char *mstat_snap_missing(const struct mstat_snap *s)
{
	static const char *const misc[] = {
		"generation", "snapshot_wait_ns", "snapshot_waited_cpus",
		"page_live_pages", "gfp_sleep_allocs", "gfp_atomic_allocs",
	};
	static char name[MSTAT_NAME_MAX];
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(misc); i++)
		if (!mstat_find(s, misc[i]))
			return misc[i];
	for (i = 0; i < MSTAT_NR_SRC_1_0; i++) {
		for (j = 0; j < SRC_NR; j++) {
			snprintf(name, sizeof(name), "%s_%s",
				 mstat_src_names[i], mstat_src_fields[j]);
			if (!mstat_find(s, name))
				return name;
		}
	}
	for (i = 0; i < MSTAT_NR_SLAB_FIELDS; i++) {
		snprintf(name, sizeof(name), "slab_%s", mstat_slab_fields[i]);
		if (!mstat_find(s, name))
			return name;
	}
	for (i = 0; i < MSTAT_NR_CTX * 2; i++) {
		snprintf(name, sizeof(name), "ctx_%s_%s", mstat_ctx_names[i / 2],
			 i % 2 ? "frees" : "allocs");
		if (!mstat_find(s, name))
			return name;
	}
	return NULL;
}

void mstat_snap_index(struct mstat_snap *s)
{
	char name[MSTAT_NAME_MAX];
	int i, j;

	for (i = 0; i < MSTAT_NR_SRC; i++) {
		snprintf(name, sizeof(name), "%s_enabled", mstat_src_names[i]);
		s->has_src[i] = mstat_find(s, name);
		for (j = 0; j < SRC_NR; j++) {
			snprintf(name, sizeof(name), "%s_%s",
				 mstat_src_names[i], mstat_src_fields[j]);
			s->src[i][j] = mstat_get(s, name);
		}
	}
	s->gen = mstat_get(s, "generation");
}

/* /proc/mstat_sites */

static char *dup_str(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

/* "func+0x5e/0xc0 [mod]": func, and mod or NULL. False: out of memory. */
static bool site_split(struct mstat_site *st)
{
	const char *t = st->text, *sp = strchr(t, ' ');
	bool mod = sp && sp[1] == '[' && sp[strlen(sp) - 1] == ']';

	st->func = dup_str(t, strcspn(t, "+ "));
	st->module = mod ? dup_str(sp + 2, strlen(sp) - 3) : NULL;
	return st->func && (!mod || st->module);
}

/*
 * "# snapshot N sample_rate R sites N ..." (format 1) or "... stacks N
 * stack_drops N ..." (2): known keys, others skipped.
 */
static bool sites_header(struct mstat_sites *ss, char *line)
{
	struct { const char *key; long long *v; bool seen; } k[] = {
		{ "snapshot", &ss->snapshot, false },
		{ "sample_rate", &ss->rate, false },
		{ ss->major == 1 ? "sites" : "stacks", &ss->nsites, false },
		{ ss->major == 1 ? "site_drops" : "stack_drops", &ss->site_drops,
		  false },
		{ "addr_drops", &ss->addr_drops, false },
		{ "addr_live", &ss->addr_live, false },
		{ "depth", &ss->depth, false },
		{ "leafless", &ss->leafless, false },
		{ "reused", &ss->reused, false },
		{ "age_ms", &ss->age_ms, false },
		{ "addr_phantoms", &ss->addr_phantoms, false },
	};
	char *w[MAX_WORDS];
	int n = split(line, w, MAX_WORDS), i;
	size_t j;

	ss->depth = ss->leafless = -1;
	ss->reused = ss->age_ms = ss->addr_phantoms = -1;
	if (n < 1 || n > MAX_WORDS || strcmp(w[0], "#") || n % 2 == 0)
		return false;
	for (i = 1; i < n; i += 2)
		for (j = 0; j < ARRAY_SIZE(k); j++)
			if (!strcmp(w[i], k[j].key))
				k[j].seen = mstat_parse_num(w[i + 1], k[j].v);
	return k[0].seen && k[1].seen && k[2].seen && ss->nsites >= 0;
}

/* What mstat_sites_parse() keeps between lines. */
struct sites_parser {
	struct mstat_sites *ss;
	int ncol;		/* the words of a row before its site */
	bool labels;		/* rows have "cgroup node cache" (2.2 on) */
	bool source;		/* and "source" (2.3 on) */
	bool later;		/* a minor after 2.3: lines may have more words */
	int line;
};

/*
 * "# est_bytes ... site": the columns, as many as the version has (8, and
 * "cgroup node cache" from 2.2) or, in a later minor, more (skipped).
 */
static enum mstat_perr sites_columns(struct sites_parser *p, char *line)
{
	char *w[MAX_WORDS];
	int n = split(line, w, MAX_WORDS);

	if (n > MAX_WORDS || n < 2 || strcmp(w[n - 1], "site"))
		return MSTAT_E_SITE_COLUMNS;
	n -= 2;
	if (n < p->ncol || (n > p->ncol && !p->later))
		return MSTAT_E_SITE_COLUMNS;
	if (p->labels && (strcmp(w[9], "cgroup") || strcmp(w[10], "node") ||
			  strcmp(w[11], "cache")))
		return MSTAT_E_SITE_COLUMNS;
	if (p->source && strcmp(w[12], "source"))
		return MSTAT_E_SITE_COLUMNS;
	p->ncol = n;
	return MSTAT_OK;
}

/* A u64 up to INT64_MAX, so that its long long is not negative. */
static bool parse_nonneg(const char *s, long long *v)
{
	unsigned long long u;

	if (!mstat_parse_u64(s, &u) || u > INT64_MAX)
		return false;
	*v = (long long)u;
	return true;
}

/* "-", "hardirq", "softirq" or an id >= 1. */
static bool parse_cgroup(const char *s, long long *v)
{
	if (!strcmp(s, "-"))
		*v = MSTAT_CGROUP_UNKNOWN;
	else if (!strcmp(s, "hardirq"))
		*v = MSTAT_CGROUP_HARDIRQ;
	else if (!strcmp(s, "softirq"))
		*v = MSTAT_CGROUP_SOFTIRQ;
	else
		return parse_nonneg(s, v) && *v >= 1;
	return true;
}

/* "-" or a node number. */
static bool parse_node(const char *s, long long *v)
{
	if (!strcmp(s, "-")) {
		*v = MSTAT_NODE_UNKNOWN;
		return true;
	}
	return parse_nonneg(s, v) && *v <= INT_MAX;
}

/*
 * Eight numbers, from 2.2 the labels "cgroup node cache", from 2.3 the
 * source (a source's name, or "-"), then the site,
 * which may hold a blank: "f+0x1/0x2 [m]".
 */
static enum mstat_perr sites_row(struct sites_parser *p, char *line)
{
	struct mstat_sites *ss = p->ss;
	struct mstat_site *st;
	long long v[8], cgroup = MSTAT_CGROUP_UNKNOWN, node = MSTAT_NODE_UNKNOWN;
	struct mstat_cache cache = { .named = false };
	char *w[MAX_WORDS];
	int i, src = -1;

	for (i = 0; i < p->ncol; i++) {
		w[i] = line;
		line += strcspn(line, " ");
		if (!*line)
			return MSTAT_E_SITE_ROW;
		*line++ = '\0';
	}
	if (!*line || !parse_nums(w, 8, v))
		return MSTAT_E_SITE_ROW;
	if (p->labels && !parse_cgroup(w[8], &cgroup))
		return MSTAT_E_SITE_CGROUP;
	if (p->labels && !parse_node(w[9], &node))
		return MSTAT_E_SITE_NODE;
	if (p->labels && !decode_cache_name(w[10], &cache))
		return MSTAT_E_SITE_CACHE;
	if (p->source) {
		for (src = 0; src < MSTAT_NR_SRC; src++)
			if (!strcmp(w[11], mstat_src_names[src]))
				break;
		if (src == MSTAT_NR_SRC && strcmp(w[11], "-"))
			return MSTAT_E_SITE_SOURCE;
		if (src == MSTAT_NR_SRC)
			src = -1;
	}
	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? ss->cap * 2 : 256;
		struct mstat_site *ns = realloc(ss->site, cap * sizeof(*ns));

		if (!ns)
			return MSTAT_E_NOMEM;
		ss->site = ns;
		ss->cap = cap;
	}
	st = &ss->site[ss->n];
	memset(st, 0, sizeof(*st));
	memcpy(&st->est_bytes, v, sizeof(v));
	st->cgroup = cgroup;
	st->node = node;
	st->src = src;
	st->cache = cache.named ? dup_str(cache.name, strlen(cache.name)) : NULL;
	st->line = p->line;
	if (cache.named && !st->cache)
		return MSTAT_E_NOMEM;
	st->text = dup_str(line, strlen(line));
	ss->n++;
	if (!st->text || !site_split(st))
		return MSTAT_E_NOMEM;
	return MSTAT_OK;
}

/* "\tframe" (format 2): the next caller of the last row's stack. */
static enum mstat_perr sites_frame(struct mstat_sites *ss, const char *line)
{
	struct mstat_site *st = ss->n ? &ss->site[ss->n - 1] : NULL;
	char **nf;

	if (ss->major < 2 || !line[1] || strchr(line + 1, '\t'))
		return MSTAT_E_SITE_ROW;
	if (!st || st->nlive)
		return MSTAT_E_SITE_PLACE;
	nf = realloc(st->frame, (st->nframe + 1) * sizeof(*nf));
	if (!nf)
		return MSTAT_E_NOMEM;
	st->frame = nf;
	st->frame[st->nframe] = dup_str(line + 1, strlen(line + 1));
	if (!st->frame[st->nframe])
		return MSTAT_E_NOMEM;
	st->nframe++;
	return MSTAT_OK;
}

/* "+ AGE_MS BYTES" (format 2.2): a live sampled object of the last row. */
static enum mstat_perr sites_live(struct sites_parser *p, char *line)
{
	struct mstat_sites *ss = p->ss;
	struct mstat_site *st = ss->n ? &ss->site[ss->n - 1] : NULL;
	struct mstat_live *l;
	char *w[MAX_WORDS];
	int n = split(line, w, MAX_WORDS);

	if ((p->later ? n < 3 || n > MAX_WORDS : n != 3) || strcmp(w[0], "+"))
		return MSTAT_E_SITE_LIVE;
	if (!st)
		return MSTAT_E_SITE_PLACE;
	/* Room for a power of two at a time. */
	if (!(st->nlive & (st->nlive - 1))) {
		l = realloc(st->live, (st->nlive ? 2 * st->nlive : 1) *
			    sizeof(*l));
		if (!l)
			return MSTAT_E_NOMEM;
		st->live = l;
	}
	l = &st->live[st->nlive];
	if (!parse_nonneg(w[1], &l->age_ms) || !parse_nonneg(w[2], &l->bytes))
		return MSTAT_E_SITE_LIVE;
	l->line = p->line;
	st->nlive++;
	return MSTAT_OK;
}

void mstat_sites_clear(struct mstat_sites *ss)
{
	size_t i, j;

	for (i = 0; i < ss->n; i++) {
		free(ss->site[i].text);
		free(ss->site[i].func);
		free(ss->site[i].module);
		for (j = 0; j < ss->site[i].nframe; j++)
			free(ss->site[i].frame[j]);
		free(ss->site[i].frame);
		free(ss->site[i].live);
		free(ss->site[i].cache);
	}
	free(ss->site);
	ss->site = NULL;
	ss->n = ss->cap = 0;
}

bool mstat_sites_parse(struct mstat_sites *ss, char *buf, size_t len,
		       struct mstat_perror *err)
{
	struct sites_parser p = { .ss = ss, .ncol = 8, .line = 1 };
	char *pos = buf, *line, *end;
	enum mstat_perr e;
	bool head = false;

	if (!check_text(buf, len, err))
		return false;
	line = next_line(&pos);
	if (!parse_head(line, MSTAT_SITES_HEAD, ss->version, &ss->major,
			&ss->minor, 1, MSTAT_SITES_MAJOR, err))
		return false;
	p.labels = ss->major == 2 && ss->minor >= 2;
	p.source = ss->major == 2 && ss->minor >= 3;
	p.later = ss->major == 2 && ss->minor > 3;
	if (p.labels)
		p.ncol = p.source ? 12 : 11;
	while ((line = next_line(&pos))) {
		p.line++;
		end = line + strlen(line);
		if (!head && line[0] == '#') {
			head = sites_header(ss, line);
			continue;
		}
		if (!strncmp(line, "# est_bytes ", 12))
			e = sites_columns(&p, line);
		else if (line[0] == '#')
			continue;
		else if (!head)
			e = MSTAT_E_SITES_HEADER;
		else if (line[0] == '\t')
			e = sites_frame(ss, line);
		else if (line[0] == '+' && p.labels)
			e = sites_live(&p, line);
		else
			e = sites_row(&p, line);
		if (e != MSTAT_OK) {
			unsplit(line, end);
			return fail(err, e, p.line, line);
		}
	}
	if (!head || (long long)ss->n != ss->nsites) {
		if (!head)
			ss->nsites = -1;
		return fail(err, MSTAT_E_SITES_COUNT, p.line, NULL);
	}
	return true;
}
