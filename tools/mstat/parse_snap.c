// SPDX-License-Identifier: GPL-2.0
/*
 * The parser of /proc/mstat (see parse.h for the grammar), with parse.c's
 * lines, words and numbers, and what the commands ask of a snapshot: a
 * counter by name, its age, whether it was served again. No I/O, no
 * messages: callers get a struct mstat_perror.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parse_snap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

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
	return mstat_fail(p->err, MSTAT_E_DUP, p->line, p->text);
}

static bool stop(struct snap_parser *p, enum mstat_perr code)
{
	return mstat_fail(p->err, code, p->line, p->text);
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
	if (!mstat_parse_nums(w + 2, ncols, c->v))
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
	    !mstat_parse_nums(w + 3, CACHE_NR, c->v) ||
	    (strcmp(w[3 + CACHE_NR], "live") && strcmp(w[3 + CACHE_NR], "gone")) ||
	    !mstat_cache_name_decode(w[4 + CACHE_NR], c))
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
	if (n != 1 + CACHE_NR || !mstat_parse_nums(w + 1, CACHE_NR, p->s->over))
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
	if (!mstat_parse_nums(w + 2, ORD_NR, o->v))
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
	if (!mstat_parse_nums(w + 2, VM_NR, s->vm[k]))
		return stop(p, MSTAT_E_VM);
	s->has_vm[k] = true;
	return true;
}

static bool parse_line(struct snap_parser *p, char *line)
{
	char *w[MSTAT_MAX_WORDS], *end = line + strlen(line);
	int n;
	bool ok;

	if (line[0] == '#')
		return true;
	p->text = line;
	n = mstat_split(line, w, MSTAT_MAX_WORDS);
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
		mstat_unsplit(line, end);
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
	if (!mstat_check_text(buf, len, err))
		return false;
	line = mstat_next_line(&pos);
	if (!mstat_parse_head(line, MSTAT_HEAD, s->version, &s->major,
			      &s->minor, MSTAT_MAJOR, MSTAT_MAJOR, err))
		return false;
	while ((line = mstat_next_line(&pos))) {
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
