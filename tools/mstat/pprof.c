// SPDX-License-Identifier: GPL-2.0
/*
 * mstat pprof: /proc/mstat_sites as a gzipped pprof profile
 * (perftools.profiles.Profile, profile.proto beside this file). The
 * protobuf is written by hand: varints, keys, length-delimited messages,
 * and the string table, each string once.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "gzip.h"
#include "input.h"
#include "pages.h"
#include "pprof.h"
#include "slab.h"
#include "stats.h"
#include "util.h"

/* Protocol buffers, by hand */

enum { PB_VARINT = 0, PB_LEN = 2 };

static void pb_varint(struct mstat_buf *b, uint64_t v)
{
	unsigned char c[10];
	int n = 0;

	do {
		c[n] = v & 0x7f;
		v >>= 7;
		if (v)
			c[n] |= 0x80;
		n++;
	} while (v);
	mstat_buf_put(b, c, n);
}

static void pb_key(struct mstat_buf *b, unsigned int field, unsigned int wt)
{
	pb_varint(b, (uint64_t)field << 3 | wt);
}

/* int64, uint64 and bool: proto3 leaves zeros out. */
static void pb_int(struct mstat_buf *b, unsigned int field, int64_t v)
{
	if (!v)
		return;
	pb_key(b, field, PB_VARINT);
	pb_varint(b, (uint64_t)v);	/* negative: ten bytes */
}

static void pb_bytes(struct mstat_buf *b, unsigned int field, const void *d,
		     size_t n)
{
	pb_key(b, field, PB_LEN);
	pb_varint(b, n);
	mstat_buf_put(b, d, n);
}

/* Append message @m as field @field and empty @m for the next one. */
static void pb_msg(struct mstat_buf *b, unsigned int field,
		   struct mstat_buf *m)
{
	pb_bytes(b, field, m->p, m->len);
	m->len = 0;
}

static void pb_packed(struct mstat_buf *b, unsigned int field,
		      const int64_t *v, size_t n, struct mstat_buf *tmp)
{
	size_t i;

	tmp->len = 0;
	for (i = 0; i < n; i++)
		pb_varint(tmp, (uint64_t)v[i]);
	pb_msg(b, field, tmp);
}

/* The string table's index of @s ("" first: added first), added if new. */
static int64_t mstat_str(struct mstat_strmap *t, const char *s)
{
	return mstat_strmap_add(t, s);
}

/* mstat pprof */

/* Field numbers of perftools.profiles (profile.proto beside this file). */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6, PROFILE_TIME_NANOS = 9,
	PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12, PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,
	VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3,
	LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3, LABEL_NUM_UNIT = 4,
	MAPPING_ID = 1, MAPPING_FILENAME = 5, MAPPING_HAS_FUNCTIONS = 7,
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
};

struct mstat_pprof {
	struct mstat_buf out, msg, sub;
	struct mstat_strmap strs;
	int64_t *map;		/* filename string of mapping i + 1 */
	size_t nmap;
	unsigned char *done;	/* by string: 1 location, 2 function, written */
	size_t ndone;
	struct mstat_cgroups *cg;	/* opened at the first cgroup id */
	long long backing_rows, backing_bytes;	/* mstat_pprof_backing()'s */
};

/*
 * Whether @st is a row of pages that became memory the profile samples
 * as itself: a slab's pages (its objects are sampled), a vm area's (the
 * area is) or a percpu chunk's (its objects are), as its stack says
 * (pages.c's kinds). One byte is one count: such a row is left out of
 * the profile, and a comment says how much was, so that the in-use sums
 * are true; a raw page, a page table's, a user page stay, labelled with
 * their kind.
 */
static bool mstat_pprof_backing(const struct mstat_site *st)
{
	enum mstat_page_kind k;

	if (st->src != SRC_PAGE)
		return false;
	k = mstat_page_kind(st);
	return k == PK_SLAB || k == PK_VMALLOC || k == PK_PERCPU;
}

/* A site's mean sampled object size: its u64 counters, not signed. */
static unsigned long long mstat_site_avg(const struct mstat_site *st)
{
	unsigned long long n = st->allocs;

	return n ? (unsigned long long)st->alloc_bytes / n : 0;
}

/*
 * The ratio by which the kernel scales a site's sampled figures into its
 * est_ columns (mstat_scale() in mstat_sites.c): 1 / (1 - e^(-avg/rate))
 * with avg the site's mean sampled object size.
 */
static double mstat_site_scale(const struct mstat_site *st, long long rate)
{
	if (!st->allocs)
		return 1;
	return mstat_sample_scale((double)mstat_site_avg(st), (double)rate);
}

/* @v, rounded, saturated to int64_t (a double beyond it has no int64_t). */
static int64_t mstat_round_i64(double v)
{
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	return (int64_t)(v + 0.5);
}

static void mstat_pprof_value_type(struct mstat_pprof *pp, unsigned int field,
				   const char *type, const char *unit)
{
	pb_int(&pp->sub, VALUE_TYPE_TYPE, mstat_str(&pp->strs, type));
	pb_int(&pp->sub, VALUE_TYPE_UNIT, mstat_str(&pp->strs, unit));
	pb_msg(&pp->out, field, &pp->sub);
}

/*
 * One Mapping per object file, "vmlinux" or a module, marked as having
 * functions already, so that pprof looks for no binary to symbolize with.
 */
static int64_t mstat_pprof_mapping(struct mstat_pprof *pp, const char *file)
{
	int64_t f = mstat_str(&pp->strs, file);
	size_t i;

	for (i = 0; i < pp->nmap; i++)
		if (pp->map[i] == f)
			return i + 1;
	pp->map = mstat_alloc(pp->map, (pp->nmap + 1) * sizeof(*pp->map));
	pp->map[pp->nmap++] = f;
	return pp->nmap;
}

static void mstat_pprof_mappings(struct mstat_pprof *pp)
{
	size_t i;

	for (i = 0; i < pp->nmap; i++) {
		pb_int(&pp->msg, MAPPING_ID, i + 1);
		pb_int(&pp->msg, MAPPING_FILENAME, pp->map[i]);
		pb_int(&pp->msg, MAPPING_HAS_FUNCTIONS, 1);
		pb_msg(&pp->out, PROFILE_MAPPING, &pp->msg);
	}
}

/* A frame as %pS printed it: "func+0x5e/0xc0 [mod]" or "0xffff..." */
struct mstat_frame {
	char func[256];		/* "func", or "func [mod]" */
	const char *file;	/* "vmlinux", the module, or "[unknown]" */
	char mod[64];
};

static void mstat_frame_split(struct mstat_frame *f, const char *text)
{
	const char *sp = strchr(text, ' ');
	size_t n = strcspn(text, "+ ");

	f->mod[0] = '\0';
	if (sp && sp[1] == '[' && sp[strlen(sp) - 1] == ']')
		snprintf(f->mod, sizeof(f->mod), "%.*s", (int)strlen(sp) - 3,
			 sp + 2);
	if (f->mod[0])
		snprintf(f->func, sizeof(f->func), "%.*s [%s]", (int)n, text,
			 f->mod);
	else
		snprintf(f->func, sizeof(f->func), "%.*s", (int)n, text);
	f->file = f->mod[0] ? f->mod :
		  !strncmp(text, "0x", 2) ? "[unknown]" : "vmlinux";
}

/* Whether string @id's object of kind @bit was written; marks it. */
static bool mstat_pprof_done(struct mstat_pprof *pp, int64_t id,
			     unsigned char bit)
{
	bool was;

	if ((size_t)id >= pp->ndone) {
		size_t n = 2 * (size_t)id + 256;

		pp->done = mstat_alloc(pp->done, n);
		memset(pp->done + pp->ndone, 0, n - pp->ndone);
		pp->ndone = n;
	}
	was = pp->done[id] & bit;
	pp->done[id] |= bit;
	return was;
}

/*
 * The Location of a frame, written once: its id is the frame text's
 * string index, its one Line's function the function name's (both never
 * 0, the index of ""). pprof then merges equal frames of all stacks.
 */
static int64_t mstat_pprof_location(struct mstat_pprof *pp, const char *text)
{
	int64_t loc = mstat_str(&pp->strs, text), fn;
	struct mstat_frame f;

	if (mstat_pprof_done(pp, loc, 1))
		return loc;
	mstat_frame_split(&f, text);
	fn = mstat_str(&pp->strs, f.func);
	pb_int(&pp->msg, LOCATION_ID, loc);
	pb_int(&pp->msg, LOCATION_MAPPING_ID, mstat_pprof_mapping(pp, f.file));
	pb_int(&pp->sub, LINE_FUNCTION_ID, fn);
	pb_msg(&pp->msg, LOCATION_LINE, &pp->sub);
	pb_msg(&pp->out, PROFILE_LOCATION, &pp->msg);
	if (!mstat_pprof_done(pp, fn, 2)) {
		pb_int(&pp->msg, FUNCTION_ID, fn);
		pb_int(&pp->msg, FUNCTION_NAME, fn);
		pb_int(&pp->msg, FUNCTION_SYSTEM_NAME, fn);
		pb_int(&pp->msg, FUNCTION_FILENAME,
		       mstat_str(&pp->strs, f.file));
		pb_msg(&pp->out, PROFILE_FUNCTION, &pp->msg);
	}
	return loc;
}

/* A row's values: alloc_objects, alloc_space, inuse_objects, inuse_space. */
static void mstat_site_values(const struct mstat_site *st, long long rate,
			      int64_t v[4])
{
	double r = mstat_site_scale(st, rate);

	v[0] = mstat_round_i64(mstat_u64(st->allocs) * r);
	v[1] = mstat_round_i64(mstat_u64(st->alloc_bytes) * r);
	v[2] = st->est_calls;
	v[3] = st->est_bytes;
}

static void mstat_pprof_label_num(struct mstat_pprof *pp, const char *key,
				  int64_t num, const char *unit)
{
	pb_int(&pp->sub, LABEL_KEY, mstat_str(&pp->strs, key));
	/* A zero is left out, as pb_int() does: it still reads as 0. */
	pb_int(&pp->sub, LABEL_NUM, num);
	if (unit)
		pb_int(&pp->sub, LABEL_NUM_UNIT, mstat_str(&pp->strs, unit));
	pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
}

static void mstat_pprof_label_str(struct mstat_pprof *pp, const char *key,
				  const char *str)
{
	pb_int(&pp->sub, LABEL_KEY, mstat_str(&pp->strs, key));
	pb_int(&pp->sub, LABEL_STR, mstat_str(&pp->strs, str));
	pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
}

/*
 * A label of several values, "a,b" (a merged cache's names), as one
 * label of @key a value: go tool pprof's -tagfocus splits its own
 * argument at commas, so no filter could name "a,b" and 'cache=^b$'
 * matched nothing; it matches a sample that has any label cache=b.
 */
static void mstat_pprof_label_list(struct mstat_pprof *pp, const char *key,
				   const char *list)
{
	char one[MSTAT_SLAB_LABEL_MAX];
	const char *p = list, *comma;
	size_t n;

	for (;;) {
		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) : strlen(p);
		if (n >= sizeof(one))
			n = sizeof(one) - 1;
		memcpy(one, p, n);
		one[n] = '\0';
		if (n)
			mstat_pprof_label_str(pp, key, one);
		if (!comma)
			break;
		p = comma + 1;
	}
}

/*
 * The labels a fleet knows a cgroup by, those its path gives
 * (mstat_cgroup_tags()).
 */
static void mstat_pprof_cgroup_tags(struct mstat_pprof *pp, const char *path)
{
	static const struct {
		const char *key;
		size_t off;
	} tag[] = {
		{ "container_id", offsetof(struct mstat_cgroup_tags, container_id) },
		{ "container_runtime", offsetof(struct mstat_cgroup_tags, runtime) },
		{ "pod_uid", offsetof(struct mstat_cgroup_tags, pod_uid) },
		{ "pod_qos", offsetof(struct mstat_cgroup_tags, pod_qos) },
		{ "systemd_unit", offsetof(struct mstat_cgroup_tags, unit) },
		{ "systemd_slice", offsetof(struct mstat_cgroup_tags, slice) },
	};
	struct mstat_cgroup_tags t;
	const char *v;
	size_t i;

	if (!mstat_cgroup_tags(path, &t))
		return;
	for (i = 0; i < ARRAY_SIZE(tag); i++) {
		v = (const char *)&t + tag[i].off;
		if (*v)
			mstat_pprof_label_str(pp, tag[i].key, v);
	}
}

/*
 * A row's labels cgroup (and what its path gives a fleet), node and
 * cache, those it has (format 2.2), and its source (2.3).
 */
static void mstat_pprof_row_labels(struct mstat_pprof *pp,
				   const struct mstat_site *st)
{
	char buf[32], names[MSTAT_SLAB_LABEL_MAX];
	const char *cg = mstat_cgroup_label(&pp->cg, st->cgroup, buf,
						 sizeof(buf));

	if (cg) {
		mstat_pprof_label_str(pp, "cgroup", cg);
		mstat_pprof_cgroup_tags(pp, cg);
	}
	if (st->node != MSTAT_NODE_UNKNOWN)
		mstat_pprof_label_num(pp, "node", st->node, "node");
	if (st->cache)
		mstat_pprof_label_list(pp, "cache",
				       mstat_slab_label(st->cache, names,
							sizeof(names)));
	if (st->src == SRC_PAGE)
		mstat_pprof_label_str(pp, "kind",
				      mstat_page_kind_name[mstat_page_kind(st)]);
	if (st->src >= 0) {
		pb_int(&pp->sub, LABEL_KEY, mstat_str(&pp->strs, "source"));
		pb_int(&pp->sub, LABEL_STR,
		       mstat_str(&pp->strs, mstat_src_names[st->src]));
		pb_msg(&pp->msg, SAMPLE_LABEL, &pp->sub);
	}
}

/*
 * One Sample: the stack, leaf first, its values, and its labels: the
 * object size ("bytes": @live's, else the row's mean), the row's cgroup
 * and node, and for a live object (@live not NULL) its "age" in whole
 * seconds.
 */
static void mstat_pprof_sample(struct mstat_pprof *pp,
			       const struct mstat_site *st, const int64_t v[4],
			       const struct mstat_live *live)
{
	int64_t *loc = mstat_alloc(NULL, (st->nframe + 1) * sizeof(*loc));
	size_t i;

	loc[0] = mstat_pprof_location(pp, st->text);
	for (i = 0; i < st->nframe; i++)
		loc[i + 1] = mstat_pprof_location(pp, st->frame[i]);
	pb_packed(&pp->msg, SAMPLE_LOCATION_ID, loc, st->nframe + 1, &pp->sub);
	pb_packed(&pp->msg, SAMPLE_VALUE, v, 4, &pp->sub);
	mstat_pprof_label_num(pp, "bytes",
			      live ? live->bytes : (int64_t)mstat_site_avg(st),
			      "bytes");
	mstat_pprof_row_labels(pp, st);
	if (live)
		mstat_pprof_label_num(pp, "age", live->age_ms / 1000,
				      "seconds");
	pb_msg(&pp->out, PROFILE_SAMPLE, &pp->msg);
	free(loc);
}

/*
 * A row as Samples (format 2.2): one per live line, its in-use share of
 * the row's estimate (est_calls / sampled_calls objects, est_bytes /
 * sampled_bytes of its bytes, rounded so that the shares add up), then
 * one with the row's alloc values and the in-use the live lines do not
 * cover (objects reported without an address, frees not yet in the
 * snapshot), without an age. The in-use values add up to the row's
 * est_calls and est_bytes exactly, the alloc values are the row's. Were
 * the live lines to hold more than the row's sampled figures, they are
 * the whole; a row whose estimate is not positive gives them nothing.
 */
static void mstat_pprof_row(struct mstat_pprof *pp, const struct mstat_site *st,
			    const int64_t v[4])
{
	double sb = 0, cum_b = 0, sc, cb, cc;
	int64_t lv[4] = { 0 }, rest[4], done_b = 0, done_c = 0, b, c;
	size_t i;

	for (i = 0; i < st->nlive; i++)
		sb += (double)st->live[i].bytes;
	if (sb < (double)st->sampled_bytes)
		sb = (double)st->sampled_bytes;
	sc = (double)st->sampled_calls;
	if (sc < (double)st->nlive)
		sc = (double)st->nlive;
	cb = v[3] > 0 && sb > 0 ? (double)v[3] / sb : 0;
	cc = v[2] > 0 && sc > 0 ? (double)v[2] / sc : 0;
	for (i = 0; i < st->nlive; i++) {
		cum_b += (double)st->live[i].bytes;
		b = mstat_round_i64(cb * cum_b);
		c = mstat_round_i64(cc * (double)(i + 1));
		lv[2] = c - done_c;
		lv[3] = b - done_b;
		done_c = c;
		done_b = b;
		mstat_pprof_sample(pp, st, lv, &st->live[i]);
	}
	rest[0] = v[0];
	rest[1] = v[1];
	rest[2] = v[2] - done_c;
	rest[3] = v[3] - done_b;
	if (!st->nlive || rest[0] || rest[1] || rest[2] || rest[3])
		mstat_pprof_sample(pp, st, rest, NULL);
}

/*
 * A row's stack and labels as one string: the leaf and the callers, "\n"
 * between, then, if it has labels (format 2.2), "\n\001" and them.
 */
static char *mstat_site_key(const struct mstat_site *st)
{
	struct mstat_buf b = { 0 };
	char lab[64];
	size_t i;

	mstat_buf_put(&b, st->text, strlen(st->text));
	for (i = 0; i < st->nframe; i++) {
		mstat_buf_put(&b, "\n", 1);
		mstat_buf_put(&b, st->frame[i], strlen(st->frame[i]));
	}
	if (st->cgroup != MSTAT_CGROUP_UNKNOWN || st->node != MSTAT_NODE_UNKNOWN ||
	    st->cache) {
		snprintf(lab, sizeof(lab), "\n\001%lld %lld ", st->cgroup, st->node);
		mstat_buf_put(&b, lab, strlen(lab));
		if (st->cache)
			mstat_buf_put(&b, st->cache, strlen(st->cache));
	}
	mstat_buf_put(&b, "", 1);
	return (char *)b.p;
}

/*
 * The earlier read's values by stack, for a delta: @keys gives each stack
 * of @base a string index, (*@vals)[index] its values (zeros for other
 * strings).
 */
static void mstat_base_values(const struct mstat_sites *base,
			      struct mstat_strmap *keys, int64_t (**vals)[4],
			      size_t *nvals)
{
	size_t i;

	mstat_str(keys, "");
	for (i = 0; i < base->n; i++) {
		char *k = mstat_site_key(&base->site[i]);
		int64_t id = mstat_str(keys, k);

		free(k);
		if ((size_t)id >= *nvals) {
			size_t n = 2 * (size_t)id + 64;

			*vals = mstat_alloc(*vals, n * sizeof(**vals));
			memset(*vals + *nvals, 0, (n - *nvals) * sizeof(**vals));
			*nvals = n;
		}
		mstat_site_values(&base->site[i], base->rate, (*vals)[id]);
	}
}

/* How the values were made; a comment in every profile. */
static const char mstat_pprof_note[] =
	"inuse_* = est_calls/est_bytes; alloc_* = allocs/alloc_bytes / (1 - exp(-avg/rate))";

static void mstat_pprof_comments(struct mstat_pprof *pp,
				 const struct mstat_sites *ss)
{
	char c[256];
	int n;

	n = snprintf(c, sizeof(c),
		     "mstat_sites %s snapshot %lld sample_rate %lld %s %lld %s %lld addr_drops %lld addr_live %lld",
		     ss->version, ss->snapshot, ss->rate,
		     ss->major < 2 ? "sites" : "stacks", ss->nsites,
		     ss->major < 2 ? "site_drops" : "stack_drops",
		     ss->site_drops, ss->addr_drops, ss->addr_live);
	if (ss->major >= 2 && n > 0 && (size_t)n < sizeof(c))
		n += snprintf(c + n, sizeof(c) - n, " depth %lld leafless %lld",
			      ss->depth, ss->leafless);
	if (ss->addr_phantoms >= 0 && n > 0 && (size_t)n < sizeof(c))
		snprintf(c + n, sizeof(c) - n, " addr_phantoms %lld",
			 ss->addr_phantoms);
	pb_int(&pp->out, PROFILE_COMMENT, mstat_str(&pp->strs, c));
	pb_int(&pp->out, PROFILE_COMMENT, mstat_str(&pp->strs, mstat_pprof_note));
	if (!pp->backing_rows)
		return;
	snprintf(c, sizeof(c),
		 "left out, each byte counted once: %lld page rows (est_bytes %lld) of pages that became slabs, vm areas or percpu chunks, sampled as those",
		 pp->backing_rows, pp->backing_bytes);
	pb_int(&pp->out, PROFILE_COMMENT, mstat_str(&pp->strs, c));
}

/* The encoded Profile, uncompressed, in pp->out. */
static void mstat_pprof_build(struct mstat_pprof *pp,
			      const struct mstat_sites *ss,
			      const struct mstat_sites *base,
			      enum mstat_pprof_kind kind)
{
	struct mstat_strmap keys = { 0 };
	int64_t (*bv)[4] = NULL, v[4];
	size_t nbv = 0, i, k;
	struct timespec now;

	mstat_str(&pp->strs, "");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "alloc_objects", "count");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "alloc_space", "bytes");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "inuse_objects", "count");
	mstat_pprof_value_type(pp, PROFILE_SAMPLE_TYPE, "inuse_space", "bytes");
	if (base)
		mstat_base_values(base, &keys, &bv, &nbv);
	for (i = 0; i < ss->n; i++) {
		if (mstat_pprof_backing(&ss->site[i])) {
			pp->backing_rows++;
			pp->backing_bytes += ss->site[i].est_bytes;
			continue;
		}
		mstat_site_values(&ss->site[i], ss->rate, v);
		if (base) {
			char *key = mstat_site_key(&ss->site[i]);
			int64_t id = mstat_str(&keys, key);

			free(key);
			/* Modulo 2^64, as the counters: never an overflow. */
			for (k = 0; (size_t)id < nbv && k < 4; k++)
				v[k] = (int64_t)((uint64_t)v[k] - (uint64_t)bv[id][k]);
			/* As Go's delta profiles: no sample of all zeros. */
			if (!v[0] && !v[1] && !v[2] && !v[3])
				continue;
		}
		/* A delta has no ages: one sample per row. */
		if (base)
			mstat_pprof_sample(pp, &ss->site[i], v, NULL);
		else
			mstat_pprof_row(pp, &ss->site[i], v);
	}
	mstat_pprof_mappings(pp);
	clock_gettime(CLOCK_REALTIME, &now);
	pb_int(&pp->out, PROFILE_TIME_NANOS,
	       (int64_t)now.tv_sec * 1000000000 + now.tv_nsec);
	mstat_pprof_value_type(pp, PROFILE_PERIOD_TYPE, "space", "bytes");
	pb_int(&pp->out, PROFILE_PERIOD, ss->rate);
	mstat_pprof_comments(pp, ss);
	pb_int(&pp->out, PROFILE_DEFAULT_SAMPLE_TYPE,
	       mstat_str(&pp->strs, kind == MSTAT_PPROF_ALLOCS ?
				    "alloc_space" : "inuse_space"));
	/* Last: every string has its index by now. */
	for (i = 0; i < pp->strs.n; i++)
		pb_bytes(&pp->out, PROFILE_STRING_TABLE, pp->strs.str[i],
			 strlen(pp->strs.str[i]));
	free(bv);
	mstat_strmap_free(&keys);
}

bool mstat_pprof_gz(struct mstat_buf *z, const struct mstat_sites *ss,
		    const struct mstat_sites *base, enum mstat_pprof_kind kind)
{
	struct mstat_pprof pp;
	bool ok;

	memset(&pp, 0, sizeof(pp));
	mstat_pprof_build(&pp, ss, base, kind);
	ok = mstat_gzip(z, pp.out.p, pp.out.len);
	free(pp.out.p);
	free(pp.msg.p);
	free(pp.sub.p);
	free(pp.map);
	free(pp.done);
	mstat_cgroups_free(pp.cg);
	mstat_strmap_free(&pp.strs);
	return ok;
}

static int mstat_pprof_write(const struct mstat_opts *o, struct mstat_buf *z)
{
	char tmp[4096];
	FILE *f;

	if (!o->out && isatty(STDOUT_FILENO)) {
		mstat_err("not writing a binary profile to a terminal: use -o FILE");
		return EXIT_USAGE;
	}
	f = mstat_out_open(o->out, tmp, sizeof(tmp));
	if (!f)
		return EXIT_INPUT;
	fwrite(z->p, 1, z->len, f);
	return mstat_out_close(f, o->out, tmp);
}

int do_pprof(const struct mstat_opts *o)
{
	struct mstat_sites *ss = mstat_sites_read(o->file[0]);
	struct mstat_buf z = { 0 };
	int err;

	if (!ss)
		return EXIT_INPUT;
	err = mstat_pprof_gz(&z, ss, NULL, MSTAT_PPROF_HEAP) ?
		mstat_pprof_write(o, &z) : EXIT_INPUT;
	free(z.p);
	mstat_sites_free(ss);
	return err;
}

static const struct option mstat_pprof_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

const struct mstat_optspec mstat_pprof_optspec = {
	.name = "pprof", .shortopts = "-:hf:o:",
	.longopts = mstat_pprof_longopts, .file = MSTAT_SITES_PROC,
};

int cmd_pprof(int argc, char **argv)
{
	struct mstat_opts o = MSTAT_OPTS_INIT;
	int err = mstat_opts_parse(&mstat_pprof_optspec, argc, argv, &o);

	return err ? err : do_pprof(&o);
}
