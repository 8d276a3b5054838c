// SPDX-License-Identifier: GPL-2.0
/*
 * The lines, words and numbers of /proc/mstat and /proc/mstat_sites (see
 * parse.h for the grammar), which parse_snap.c's parser of /proc/mstat
 * reads with, and the parser of /proc/mstat_sites. No I/O, no messages:
 * callers get a struct mstat_perror.
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

bool mstat_parse_nums(char **w, int n, long long *v)
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
int mstat_split(char *line, char **w, int max)
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

/* Undo mstat_split() on [@line, @end): the line whole again (messages). */
void mstat_unsplit(char *line, const char *end)
{
	for (; line < end; line++)
		if (!*line)
			*line = ' ';
}

bool mstat_fail(struct mstat_perror *err, enum mstat_perr code, int line,
		const char *text)
{
	err->code = code;
	err->line = line;
	err->text = text;
	return false;
}

/* The whole-file checks: text, not empty, ends in a newline. */
bool mstat_check_text(const char *buf, size_t len, struct mstat_perror *err)
{
	memset(err, 0, sizeof(*err));
	if (strlen(buf) != len) {
		err->off = strlen(buf);
		return mstat_fail(err, MSTAT_E_NUL, 0, NULL);
	}
	if (!len)
		return mstat_fail(err, MSTAT_E_EMPTY, 0, NULL);
	if (buf[len - 1] != '\n')
		return mstat_fail(err, MSTAT_E_PARTIAL, 0, NULL);
	return true;
}

/*
 * Cut the next line off *@pos; NULL at the end (mstat_check_text() has
 * passed).
 */
char *mstat_next_line(char **pos)
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
bool mstat_parse_head(char *line, const char *head, char *version,
		      int *major, int *minor, int lo, int hi,
		      struct mstat_perror *err)
{
	const char *v = line + strlen(head), *p;

	if (strncmp(line, head, strlen(head)))
		return mstat_fail(err, MSTAT_E_HEAD, 1, line);
	p = parse_part(v, major);
	if (!p || (*v == '0' && p - v > 1) || *p != '.')
		return mstat_fail(err, MSTAT_E_VERSION, 1, line);
	p = parse_part(p + 1, minor);
	if (!p || *p)
		return mstat_fail(err, MSTAT_E_VERSION, 1, line);
	if (*major < lo || *major > hi)
		return mstat_fail(err, MSTAT_E_MAJOR, 1, line);
	snprintf(version, 32, "%s", v);
	return true;
}

/* Words of both files */

/*
 * A cache's name as the module writes it: "-" for none, else bytes in
 * '!'..'~' with a backslash and three octal digits for any other byte
 * (and the backslash). Into @out, decoded; false if malformed.
 */
bool mstat_cache_name_decode(const char *w, struct mstat_cache *c)
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
		{ "history_ms", &ss->history_ms, false },
		{ "counts_ms", &ss->counts_ms, false },
	};
	char *w[MSTAT_MAX_WORDS];
	int n = mstat_split(line, w, MSTAT_MAX_WORDS), i;
	size_t j;

	ss->depth = ss->leafless = -1;
	ss->reused = ss->age_ms = ss->addr_phantoms = ss->history_ms =
		ss->counts_ms = -1;
	if (n < 1 || n > MSTAT_MAX_WORDS || strcmp(w[0], "#") || n % 2 == 0)
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
	bool drops;		/* and "drops" (2.5 on) */
	bool later;		/* a minor after 2.3: lines may have more words */
	int line;
};

/*
 * "# est_bytes ... site": the columns, as many as the version has (8, and
 * "cgroup node cache" from 2.2) or, in a later minor, more (skipped).
 */
static enum mstat_perr sites_columns(struct sites_parser *p, char *line)
{
	char *w[MSTAT_MAX_WORDS];
	int n = mstat_split(line, w, MSTAT_MAX_WORDS);

	if (n > MSTAT_MAX_WORDS || n < 2 || strcmp(w[n - 1], "site"))
		return MSTAT_E_SITE_COLUMNS;
	n -= 2;
	if (n < p->ncol || (n > p->ncol && !p->later))
		return MSTAT_E_SITE_COLUMNS;
	if (p->labels && (strcmp(w[9], "cgroup") || strcmp(w[10], "node") ||
			  strcmp(w[11], "cache")))
		return MSTAT_E_SITE_COLUMNS;
	if (p->source && strcmp(w[12], "source"))
		return MSTAT_E_SITE_COLUMNS;
	if (p->drops && strcmp(w[13], "drops"))
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

bool mstat_parse_cgroup(const char *s, long long *v)
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
 * source (a source's name, or "-"), from 2.5 the drops (of the frees,
 * entries dropped without theirs), then the site, which may hold a
 * blank: "f+0x1/0x2 [m]".
 */
static enum mstat_perr sites_row(struct sites_parser *p, char *line)
{
	struct mstat_sites *ss = p->ss;
	struct mstat_site *st;
	long long v[8], cgroup = MSTAT_CGROUP_UNKNOWN, node = MSTAT_NODE_UNKNOWN;
	long long drops = 0;
	struct mstat_cache cache = { .named = false };
	char *w[MSTAT_MAX_WORDS];
	int i, src = -1;

	for (i = 0; i < p->ncol; i++) {
		w[i] = line;
		line += strcspn(line, " ");
		if (!*line)
			return MSTAT_E_SITE_ROW;
		*line++ = '\0';
	}
	if (!*line || !mstat_parse_nums(w, 8, v))
		return MSTAT_E_SITE_ROW;
	if (p->labels && !mstat_parse_cgroup(w[8], &cgroup))
		return MSTAT_E_SITE_CGROUP;
	if (p->labels && !parse_node(w[9], &node))
		return MSTAT_E_SITE_NODE;
	if (p->labels && !mstat_cache_name_decode(w[10], &cache))
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
	if (p->drops && (!parse_nonneg(w[12], &drops) || drops > v[6]))
		return MSTAT_E_SITE_ROW;
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
	st->drops = drops;
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
	char *w[MSTAT_MAX_WORDS];
	int n = mstat_split(line, w, MSTAT_MAX_WORDS);

	if ((p->later ? n < 3 || n > MSTAT_MAX_WORDS : n != 3) || strcmp(w[0], "+"))
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

	if (!mstat_check_text(buf, len, err))
		return false;
	line = mstat_next_line(&pos);
	if (!mstat_parse_head(line, MSTAT_SITES_HEAD, ss->version, &ss->major,
			      &ss->minor, 1, MSTAT_SITES_MAJOR, err))
		return false;
	p.labels = ss->major == 2 && ss->minor >= 2;
	p.source = ss->major == 2 && ss->minor >= 3;
	p.drops = ss->major == 2 && ss->minor >= 5;
	p.later = ss->major == 2 && ss->minor > 3;
	if (p.labels)
		p.ncol = p.drops ? 13 : p.source ? 12 : 11;
	while ((line = mstat_next_line(&pos))) {
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
			mstat_unsplit(line, end);
			return mstat_fail(err, e, p.line, line);
		}
	}
	if (!head || (long long)ss->n != ss->nsites) {
		if (!head)
			ss->nsites = -1;
		return mstat_fail(err, MSTAT_E_SITES_COUNT, p.line, NULL);
	}
	return true;
}
