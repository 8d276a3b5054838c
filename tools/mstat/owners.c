// SPDX-License-Identifier: GPL-2.0
/*
 * Whose kernel memory it is: mstat memory --by caller's percpu objects,
 * and --cgroup's table.
 *
 * The figures come from three places, and each says which:
 *  - exact: /proc/mstat_owners, the vm areas and percpu objects mstat
 *    counted since its load (or last reset) and holds, by caller and by
 *    the cgroup of the task that allocated them (a free takes its bytes
 *    from that row, whoever frees);
 *  - sampled: /proc/mstat_sites' rows, the heap profile's estimates of
 *    slab objects and raw pages in use by the cgroup of the task that
 *    allocated them (pages.c's kinds: a page that became a slab, a vm
 *    area's or a percpu chunk's is counted as what it became, never
 *    twice), each with its standard error;
 *  - the kernel's: the cgroup's memory.stat, what the kernel charges it
 *    (its vmalloc, percpu, slab and kernel lines), for it and its
 *    descendants together: so mstat's figures beside it are the
 *    subtree's too.
 *
 * A cgroup is charged for __GFP_ACCOUNT allocations of its tasks (and
 * what the kernel charges on their behalf, as a socket's memory), from
 * whenever they were made; mstat counts what its tasks allocated, charged
 * or not, since mstat's load. "not charged" is their difference, kind by
 * kind: what the cgroup caused and nobody pays for (positive), or what it
 * is charged for that mstat did not see it cause (negative: made before
 * the load, by another context on its behalf, or of a kind mstat does not
 * count). Interrupts' and softirqs' memory is their own row: the kernel
 * charges it to nobody, or to whoever it was for.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgroup.h"
#include "json.h"
#include "owners.h"
#include "pages.h"
#include "util.h"

const char *const mstat_cg_kind_name[CGK_NR] = {
	"vmalloc", "percpu", "slab", "pages",
};

/* A table-full row's caller, which is no caller. */
#define MSTAT_OWNERS_FULL	"other (mstat's table full)"

void mstat_pcpu_callers(const struct mstat_owners *ow, int top,
			struct mstat_pcpu_callers *pc)
{
	struct mstat_callers cs = { 0 };
	struct mstat_caller *c;
	size_t i;

	memset(pc, 0, sizeof(*pc));
	pc->path = ow->path;
	for (i = 0; i < ow->n; i++) {
		const struct mstat_owner *r = &ow->r[i];

		if (r->src != SRC_PERCPU)
			continue;
		c = mstat_callers_add(&cs, r->other ? MSTAT_OWNERS_FULL :
						      r->caller);
		c->allocs += r->allocs;
		c->frees += r->frees;
		c->bytes += r->bytes;
		pc->bytes += r->bytes;
		pc->objects += r->allocs - r->frees;
	}
	mstat_callers_top(&cs, top, "every other caller");
	pc->c = cs.c;
	pc->n = (int)cs.n;
}

void mstat_pcpu_callers_text(FILE *f, const struct mstat_pcpu_callers *pc)
{
	char b[32], c[32];
	int i;

	fprintf(f, "\npercpu by caller (exact, %s: objects counted since load, %s in %s objects; the objects made before are not named)\n",
		pc->path, mstat_bytes(b, (double)pc->bytes),
		mstat_count(c, pc->objects));
	for (i = 0; i < pc->n; i++)
		fprintf(f, "  %12s  %-40s %7s object%s\n",
			mstat_bytes(b, (double)pc->c[i].bytes), pc->c[i].name,
			mstat_count(c, pc->c[i].allocs - pc->c[i].frees),
			pc->c[i].allocs - pc->c[i].frees == 1 ? "" : "s");
}

void mstat_pcpu_callers_json(FILE *f, const struct mstat_pcpu_callers *pc)
{
	int i;

	fputs("{\"from\": ", f);
	mstat_json_str(f, pc->path);
	fprintf(f, ", \"bytes\": %lld, \"objects\": %lld, \"callers\": [",
		pc->bytes, pc->objects);
	for (i = 0; i < pc->n; i++) {
		fputs(i ? ", {\"caller\": " : "{\"caller\": ", f);
		mstat_json_str(f, pc->c[i].name);
		fprintf(f, ", \"bytes\": %lld, \"objects\": %lld, \"allocs\": %lld, \"frees\": %lld}",
			pc->c[i].bytes, pc->c[i].allocs - pc->c[i].frees,
			pc->c[i].allocs, pc->c[i].frees);
	}
	fputs("]}", f);
}

void mstat_pcpu_callers_free(struct mstat_pcpu_callers *pc)
{
	free(pc->c);
	pc->c = NULL;
	pc->n = 0;
}

/* --by caller's slab objects, sampled */

/*
 * The allocator's own wrappers, 5.10 to 7.3: a slab object's caller is its
 * stack's first frame that is none of them (kvmalloc()'s user, not
 * kvmalloc(); a vm area's page array is its area's caller's).
 */
static const char *const slab_wrappers[] = {
	"kvmalloc_node", "__kvmalloc_node", "__kvmalloc_node_noprof",
	"kvmalloc_node_noprof", "kvrealloc", "kvrealloc_noprof",
	"kmemdup", "kmemdup_noprof", "kstrdup", "kstrdup_noprof", "kstrndup",
	"kmemdup_nul", "krealloc", "krealloc_noprof", "__krealloc",
	"__vmalloc_node_range", "__vmalloc_node_range_noprof",
	"__vmalloc_area_node", "__vmalloc_node", "__vmalloc_node_noprof",
	"vmalloc", "vmalloc_noprof", "vzalloc", "vzalloc_noprof",
	"__get_vm_area_node", "alloc_vmap_area",
};

/* @st's caller as "FUNC" or "FUNC [MODULE]", past slab_wrappers[]. */
static void slab_caller(const struct mstat_site *st, char *buf, size_t size)
{
	const char *frame = st->text, *f;
	size_t i, j, n;

	for (i = 0; i <= st->nframe; i++) {
		f = i ? st->frame[i - 1] : st->text;
		n = strcspn(f, "+ .");
		for (j = 0; j < ARRAY_SIZE(slab_wrappers); j++)
			if (strlen(slab_wrappers[j]) == n &&
			    !strncmp(f, slab_wrappers[j], n))
				break;
		if (j == ARRAY_SIZE(slab_wrappers)) {
			frame = f;
			break;
		}
	}
	n = strcspn(frame, "+ .");
	f = strstr(frame, " [");
	snprintf(buf, size, "%.*s%.30s", (int)(n < 96 ? n : 96), frame,
		 f ? f : "");
}

void mstat_slab_callers(const struct mstat_sites *ss, int top,
			struct mstat_slab_callers *sc)
{
	struct mstat_callers cs = { 0 };
	struct mstat_caller *c;
	char name[128];
	size_t i;

	memset(sc, 0, sizeof(*sc));
	sc->rate = ss->rate;
	for (i = 0; i < ss->n; i++) {
		const struct mstat_site *st = &ss->site[i];
		long long e;
		double v;

		if (st->src != SRC_KMALLOC && st->src != SRC_CACHE)
			continue;
		e = mstat_row_estimate(st, ss->rate, &v);
		if (e <= 0)
			continue;
		slab_caller(st, name, sizeof(name));
		c = mstat_callers_add(&cs, name);
		if (!c->count)
			snprintf(c->cache, sizeof(c->cache), "%s",
				 st->cache ? st->cache : "");
		c->bytes += e;
		c->var += v;
		c->count += st->sampled_calls;
		sc->bytes += e;
		sc->var += v;
	}
	mstat_callers_top(&cs, top, "every other caller");
	sc->c = cs.c;
	sc->n = (int)cs.n;
}

void mstat_slab_callers_text(FILE *f, const struct mstat_slab_callers *sc)
{
	char a[32], b[32], r[32];
	int i;

	fprintf(f, "\nslab by caller (sampled at %s, the heap profile's objects in use, +- one standard error: %s +- %s)\n",
		mstat_bytes(r, (double)sc->rate), mstat_bytes(a, (double)sc->bytes),
		mstat_bytes(b, sqrt(sc->var)));
	for (i = 0; i < sc->n; i++)
		fprintf(f, "  %12s +- %-10s %-40s %s\n",
			mstat_bytes(a, (double)sc->c[i].bytes),
			mstat_bytes(b, sqrt(sc->c[i].var)), sc->c[i].name,
			sc->c[i].cache);
}

void mstat_slab_callers_json(FILE *f, const struct mstat_slab_callers *sc)
{
	int i;

	fprintf(f, "{\"sample_rate\": %lld, \"bytes\": %lld, \"stderr\": %lld, \"callers\": [",
		sc->rate, sc->bytes, llround(sqrt(sc->var)));
	for (i = 0; i < sc->n; i++) {
		fputs(i ? ", {\"caller\": " : "{\"caller\": ", f);
		mstat_json_str(f, sc->c[i].name);
		fputs(", \"cache\": ", f);
		mstat_json_str(f, sc->c[i].cache);
		fprintf(f, ", \"bytes\": %lld, \"stderr\": %lld, \"samples\": %lld}",
			sc->c[i].bytes, llround(sqrt(sc->c[i].var)),
			sc->c[i].count);
	}
	fputs("]}", f);
}

void mstat_slab_callers_free(struct mstat_slab_callers *sc)
{
	free(sc->c);
	sc->c = NULL;
	sc->n = 0;
}

/* --cgroup */

/* The row labelled @label in @t, made (empty) if new. */
static struct mstat_cg_row *cg_row(struct mstat_cg_table *t, size_t *cap,
				   long long id, const char *label)
{
	struct mstat_cg_row *r;
	long i = mstat_strmap_add(&t->by_label, label);

	/* Rows are added in the map's order: a row's index is its label's. */
	if (i < t->n)
		return &t->r[i];
	if ((size_t)t->n == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		t->r = mstat_alloc(t->r, *cap * sizeof(*t->r));
	}
	r = &t->r[t->n++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	snprintf(r->label, sizeof(r->label), "%s", label);
	for (i = 0; i < CGK_NR; i++)
		r->charged[i] = -1;
	r->kernel = r->sock = -1;
	return r;
}

/* The row of cgroup value @id (its path's, or its special label's). */
static struct mstat_cg_row *cg_row_of(struct mstat_cg_table *t, size_t *cap,
				      struct mstat_cgroups **cg, long long id)
{
	char buf[32];
	const char *l = mstat_cgroup_label(cg, id, buf, sizeof(buf));

	return cg_row(t, cap, id, l ? l : "-");
}

/* Whether @label is @dir or below it ("/" holds every path). */
static bool cg_under(const char *label, const char *dir)
{
	size_t n = strlen(dir);

	if (label[0] != '/' || dir[0] != '/')
		return !strcmp(label, dir);
	if (!strcmp(dir, "/"))
		return true;
	return !strncmp(label, dir, n) && (label[n] == '\0' || label[n] == '/');
}

/* Every ancestor of @t's path rows, as a row of its own (their ids read). */
static void cg_ancestors(struct mstat_cg_table *t, size_t *cap)
{
	char path[512], dir[1024];
	struct stat st;
	int i, n = t->n;
	char *slash;

	for (i = 0; i < n; i++) {
		if (t->r[i].label[0] != '/')
			continue;
		snprintf(path, sizeof(path), "%s", t->r[i].label);
		while ((slash = strrchr(path, '/'))) {
			if (slash == path)
				slash[1] = '\0';
			else
				*slash = '\0';
			snprintf(dir, sizeof(dir), "%s%s", t->root ? t->root : "",
				 path);
			cg_row(t, cap, t->root && !stat(dir, &st) ?
				       (long long)st.st_ino : MSTAT_CGROUP_UNKNOWN,
			       path);
			if (!strcmp(path, "/"))
				break;
		}
	}
}

/*
 * @src's own figures into its tree's and each ancestor's (a path's, up to
 * "/"; every ancestor has its row, cg_ancestors()); a label that is no
 * path is its own tree.
 */
static void cg_add_up(struct mstat_cg_table *t, const struct mstat_cg_row *src)
{
	char path[sizeof(src->label)];
	struct mstat_cg_row *r;
	char *slash;
	long i;
	int k;

	snprintf(path, sizeof(path), "%s", src->label);
	for (;;) {
		i = mstat_strmap_find(&t->by_label, path);
		if (i >= 0) {
			r = &t->r[i];
			for (k = 0; k < CGK_NR; k++) {
				r->tree[k] += src->own[k];
				r->tree_var[k] += src->own_var[k];
			}
		}
		if (path[0] != '/' || !strcmp(path, "/"))
			break;
		slash = strrchr(path, '/');
		if (slash == path)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/* @r's memory.stat lines, from the tree at @root. */
static void cg_memory_stat(struct mstat_cg_row *r, const char *root)
{
	char path[1100], key[64];
	long long v;
	FILE *f;

	if (!root || r->label[0] != '/')
		return;
	snprintf(path, sizeof(path), "%s%s/memory.stat", root,
		 strcmp(r->label, "/") ? r->label : "");
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%63s %lld", key, &v) == 2) {
		if (!strcmp(key, "vmalloc"))
			r->charged[CGK_VMALLOC] = v;
		else if (!strcmp(key, "percpu"))
			r->charged[CGK_PERCPU] = v;
		else if (!strcmp(key, "slab"))
			r->charged[CGK_SLAB] = v;
		else if (!strcmp(key, "kernel"))
			r->kernel = v;
		else if (!strcmp(key, "sock"))
			r->sock = v;
	}
	fclose(f);
}

static long long cg_total(const struct mstat_cg_row *r)
{
	long long s = 0;
	int k;

	for (k = 0; k < CGK_NR; k++)
		s += r->tree[k];
	return s;
}

static int cg_cmp(const void *x, const void *y)
{
	const struct mstat_cg_row *a = x, *b = y;
	long long ta = cg_total(a), tb = cg_total(b);

	if (ta != tb)
		return ta < tb ? 1 : -1;
	return strcmp(a->label, b->label);
}

/* @ow's and @ss's figures into @t's rows, by the cgroup they name. */
static void cg_collect(struct mstat_cg_table *t, size_t *cap,
		       struct mstat_cgroups **cg, const struct mstat_owners *ow,
		       const struct mstat_sites *ss)
{
	struct mstat_cg_row *r;
	size_t i;

	for (i = 0; ow && i < ow->n; i++) {
		const struct mstat_owner *o = &ow->r[i];
		int k = o->src == SRC_PERCPU ? CGK_PERCPU : CGK_VMALLOC;

		if (o->src == SRC_VMALLOC && strcmp(o->kind, "vmalloc"))
			continue;
		r = cg_row_of(t, cap, cg, o->cgroup);
		r->own[k] += o->bytes;
	}
	for (i = 0; ss && i < ss->n; i++) {
		const struct mstat_site *st = &ss->site[i];
		long long e;
		double v;
		int k;

		if (st->src == SRC_KMALLOC || st->src == SRC_CACHE)
			k = CGK_SLAB;
		else if (st->src == SRC_PAGE && mstat_page_kind(st) == PK_RAW)
			k = CGK_PAGES;
		else
			continue;
		e = mstat_row_estimate(st, ss->rate, &v);
		if (e <= 0)
			continue;
		r = cg_row_of(t, cap, cg, st->cgroup);
		r->own[k] += e;
		r->own_var[k] += v;
	}
}

int mstat_cg_table(const struct mstat_owners *ow, const struct mstat_sites *ss,
		   const char *only, int top, bool charged,
		   struct mstat_cg_table *t)
{
	struct mstat_cgroups *cg = mstat_cgroups_open();
	size_t cap = 0;
	int i, n;

	memset(t, 0, sizeof(*t));
	t->exact = ow;
	t->sampled = ss && ss->major == 2 && ss->minor >= 3;
	t->rate = ss ? ss->rate : 0;
	t->root = mstat_cgroups_root(cg);
	cg_collect(t, &cap, &cg, ow, t->sampled ? ss : NULL);
	if (only) {
		char dir[1024];
		struct stat st;

		snprintf(dir, sizeof(dir), "%s%s", t->root ? t->root : "", only);
		if (!t->root || stat(dir, &st)) {
			mstat_err("--cgroup=%s: no such cgroup under %s", only,
				  t->root ? t->root : "(no cgroup2 mount)");
			t->root = NULL;
			mstat_cgroups_free(cg);
			mstat_cg_table_free(t);
			return -1;
		}
		cg_row(t, &cap, (long long)st.st_ino, only);
	}
	cg_ancestors(t, &cap);
	for (i = 0; i < t->n; i++) {
		cg_add_up(t, &t->r[i]);
		if (charged)
			cg_memory_stat(&t->r[i], t->root);
	}
	mstat_strmap_free(&t->by_label);
	/* --cgroup=PATH: its subtree's rows alone. */
	for (i = n = 0; i < t->n; i++)
		if (!only || cg_under(t->r[i].label, only))
			t->r[n++] = t->r[i];
	t->n = n;
	qsort(t->r, t->n, sizeof(*t->r), cg_cmp);
	if (t->n > top) {
		t->left = t->n - top;
		t->n = top;
	}
	/* The root's path outlives the tree: kept in a copy of its own. */
	t->root = t->root ? mstat_strdup(t->root, strlen(t->root)) : NULL;
	mstat_cgroups_free(cg);
	return 0;
}

void mstat_cg_table_free(struct mstat_cg_table *t)
{
	mstat_strmap_free(&t->by_label);
	free(t->r);
	free((char *)t->root);
	t->r = NULL;
	t->root = NULL;
	t->n = 0;
}

/* A cgroup's labels from its path: pod, container, unit. */
static void cg_tags_text(FILE *f, const char *label)
{
	struct mstat_cgroup_tags g;

	if (label[0] != '/' || !mstat_cgroup_tags(label, &g))
		return;
	if (g.pod_uid[0])
		fprintf(f, "  pod %s%s%s", g.pod_uid, g.pod_qos[0] ? " " : "",
			g.pod_qos);
	if (g.container_id[0])
		fprintf(f, "  container %.12s", g.container_id);
	if (g.unit[0])
		fprintf(f, "  unit %s", g.unit);
}

void mstat_cg_table_text(FILE *f, const struct mstat_cg_table *t)
{
	char a[32], b[32], c[32];
	int i, k;

	fprintf(f, "\nkernel memory by cgroup (caused: by the cgroup's tasks and its children's; vmalloc and percpu %s, slab and raw pages %s%s%s; charged: its memory.stat%s)\n",
		t->exact ? "exact since load" : "not known (no /proc/mstat_owners)",
		t->sampled ? "sampled at " : "not known (no page samples: profile_pages=1)",
		t->sampled ? mstat_bytes(a, (double)t->rate) : "",
		t->sampled ? ", +- one standard error" : "",
		t->root ? "" : ", not read: no cgroup2 tree");
	for (i = 0; i < t->n; i++) {
		const struct mstat_cg_row *r = &t->r[i];
		long long sum = 0;
		double var = 0;

		fprintf(f, "  %s", r->label);
		cg_tags_text(f, r->label);
		fprintf(f, "\n    %-10s %24s %12s %14s\n", "", "caused",
			"charged", "not charged");
		for (k = 0; k < CGK_NR; k++) {
			sum += r->tree[k];
			var += r->tree_var[k];
			snprintf(c, sizeof(c), "%s", mstat_bytes(a, (double)r->tree[k]));
			if (r->tree_var[k] > 0)
				snprintf(c + strlen(c), sizeof(c) - strlen(c),
					 " +- %s", mstat_bytes(a, sqrt(r->tree_var[k])));
			fprintf(f, "    %-10s %24s", k == CGK_PAGES ? "raw pages" :
				mstat_cg_kind_name[k], c);
			if (r->charged[k] >= 0)
				fprintf(f, " %12s %14s\n",
					mstat_bytes(a, (double)r->charged[k]),
					mstat_bytes(b, (double)(r->tree[k] -
								r->charged[k])));
			else
				fprintf(f, " %12s %14s\n", "-", "-");
		}
		snprintf(c, sizeof(c), "%s", mstat_bytes(a, (double)sum));
		if (var > 0)
			snprintf(c + strlen(c), sizeof(c) - strlen(c), " +- %s",
				 mstat_bytes(a, sqrt(var)));
		fprintf(f, "    %-10s %24s", "kernel", c);
		if (r->kernel >= 0)
			fprintf(f, " %12s %14s\n", mstat_bytes(a, (double)r->kernel),
				mstat_bytes(b, (double)(sum - r->kernel)));
		else
			fprintf(f, " %12s %14s\n", "-", "-");
	}
	if (t->left)
		fprintf(f, "  (%d more cgroups: --top)\n", t->left);
}

static void cg_kinds_json(FILE *f, const char *name, const long long *v,
			  const double *var)
{
	int k;

	fprintf(f, ", \"%s\": {", name);
	for (k = 0; k < CGK_NR; k++) {
		fprintf(f, "%s\"%s\": ", k ? ", " : "", mstat_cg_kind_name[k]);
		if (var)
			fprintf(f, "%lld", var[k] > 0 ? llround(sqrt(var[k])) : 0);
		else if (v[k] >= 0)
			fprintf(f, "%lld", v[k]);
		else
			fputs("null", f);
	}
	fputc('}', f);
}

void mstat_cg_table_json(FILE *f, const struct mstat_cg_table *t)
{
	struct mstat_cgroup_tags g;
	int i;

	fprintf(f, "{\"exact\": %s, \"sampled\": %s, \"sample_rate\": %lld, \"root\": ",
		t->exact ? "true" : "false", t->sampled ? "true" : "false",
		t->rate);
	if (t->root)
		mstat_json_str(f, t->root);
	else
		fputs("null", f);
	fprintf(f, ", \"left_out\": %d, \"cgroups\": [", t->left);
	for (i = 0; i < t->n; i++) {
		const struct mstat_cg_row *r = &t->r[i];
		bool tags = r->label[0] == '/' && mstat_cgroup_tags(r->label, &g);

		fputs(i ? ", {\"cgroup\": " : "{\"cgroup\": ", f);
		mstat_json_str(f, r->label);
		fprintf(f, ", \"id\": %lld, \"pod_uid\": ", r->id > 0 ? r->id : 0);
		mstat_json_str(f, tags ? g.pod_uid : "");
		fputs(", \"container_id\": ", f);
		mstat_json_str(f, tags ? g.container_id : "");
		fputs(", \"unit\": ", f);
		mstat_json_str(f, tags ? g.unit : "");
		cg_kinds_json(f, "own", r->own, NULL);
		cg_kinds_json(f, "own_se", NULL, r->own_var);
		cg_kinds_json(f, "caused", r->tree, NULL);
		cg_kinds_json(f, "caused_se", NULL, r->tree_var);
		cg_kinds_json(f, "charged", r->charged, NULL);
		fprintf(f, ", \"charged_kernel\": %lld, \"charged_sock\": %lld}",
			r->kernel, r->sock);
	}
	fputs("]}", f);
}

/* Prometheus */

static long long cg_own_total(const struct mstat_cg_row *r)
{
	long long s = 0;
	int k;

	for (k = 0; k < CGK_NR; k++)
		s += r->own[k];
	return s;
}

static int cg_own_cmp(const void *x, const void *y)
{
	const struct mstat_cg_row *a = x, *b = y;
	long long ta = cg_own_total(a), tb = cg_own_total(b);

	if (ta != tb)
		return ta < tb ? 1 : -1;
	return strcmp(a->label, b->label);
}

/* One mstat_owner_bytes series. */
static void owner_series(FILE *f, int src, const char *caller, long long v)
{
	fprintf(f, "mstat_owner_bytes{source=\"%s\",caller=\"",
		mstat_src_names[src]);
	mstat_prom_label(f, caller);
	fprintf(f, "\"} %lld\n", v);
}

/*
 * @ow's callers of @src: the @max of most bytes, the rest (with the
 * table-full row's) as "other".
 */
static void owners_callers_prom(FILE *f, const struct mstat_owners *ow,
				int src, int max)
{
	struct mstat_callers cs = { 0 };
	long long full = 0;
	size_t i;

	for (i = 0; i < ow->n; i++) {
		const struct mstat_owner *r = &ow->r[i];

		if (r->src != src || (src == SRC_VMALLOC && strcmp(r->kind, "vmalloc")))
			continue;
		if (r->other)
			full += r->bytes;
		else
			mstat_callers_add(&cs, r->caller)->bytes += r->bytes;
	}
	mstat_callers_top(&cs, max, "other");
	for (i = 0; i < cs.n; i++) {
		/* The rest, "other", is last: the table-full row's with it. */
		if (i == (size_t)max) {
			cs.c[i].bytes += full;
			full = 0;
		}
		owner_series(f, src, cs.c[i].name, cs.c[i].bytes);
	}
	if (full)
		owner_series(f, src, "other", full);
	mstat_callers_free(&cs);
}

/* One cgroup's series, by kind (the sampled ones' standard error too). */
static void cg_series(FILE *f, const char *label, const long long *own,
		      const double *var, bool have[CGK_NR])
{
	struct mstat_cgroup_tags g;
	bool tags = label[0] == '/' && mstat_cgroup_tags(label, &g);
	int k, pass;

	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < CGK_NR; k++) {
			bool exact = k == CGK_VMALLOC || k == CGK_PERCPU;

			if (!have[k] || (pass && exact))
				continue;
			fputs(pass ? "mstat_cgroup_kernel_stderr_bytes{cgroup=\"" :
				     "mstat_cgroup_kernel_bytes{cgroup=\"", f);
			mstat_prom_label(f, label);
			fputs("\",pod_uid=\"", f);
			mstat_prom_label(f, tags ? g.pod_uid : "");
			fputs("\",container_id=\"", f);
			mstat_prom_label(f, tags ? g.container_id : "");
			fputs("\",unit=\"", f);
			mstat_prom_label(f, tags ? g.unit : "");
			fprintf(f, "\",kind=\"%s\"", mstat_cg_kind_name[k]);
			if (!pass)
				fprintf(f, ",from=\"%s\"", exact ? "exact" : "sampled");
			fprintf(f, "} %lld\n", pass ?
				(var[k] > 0 ? llround(sqrt(var[k])) : 0) : own[k]);
		}
	}
}

void mstat_owners_prom(FILE *f, const struct mstat_owners *ow,
		       const struct mstat_sites *ss, int max)
{
	struct mstat_cg_table t;
	long long rest[CGK_NR] = { 0 };
	double rest_var[CGK_NR] = { 0 };
	bool have[CGK_NR], any_rest = false;
	int i, k, shown = 0;

	if (ow) {
		mstat_prom_head(f, "mstat_owner_bytes", "gauge",
				"The live bytes of the vm areas (vmalloc's kind) and percpu objects mstat counted since load, by caller, exactly (/proc/mstat_owners): the --owner-max callers of most bytes of each source, the rest as caller=\"other\".");
		owners_callers_prom(f, ow, SRC_VMALLOC, max);
		owners_callers_prom(f, ow, SRC_PERCPU, max);
	}
	if (mstat_cg_table(ow, ss, NULL, 1 << 30, false, &t))
		return;
	for (k = 0; k < CGK_NR; k++)
		have[k] = k == CGK_VMALLOC || k == CGK_PERCPU ? t.exact : t.sampled;
	if (t.exact || t.sampled) {
		mstat_prom_head(f, "mstat_cgroup_kernel_bytes", "gauge",
				"Kernel memory a cgroup's own tasks allocated and hold, by kind: vmalloc and percpu exactly, counted since load (from=\"exact\"), slab and raw pages estimated from the heap profile's samples (from=\"sampled\"); its children's are theirs; the --owner-max cgroups of most, the rest as cgroup=\"other\".");
		mstat_prom_head(f, "mstat_cgroup_kernel_stderr_bytes", "gauge",
				"One standard error of a sampled mstat_cgroup_kernel_bytes.");
	}
	qsort(t.r, t.n, sizeof(*t.r), cg_own_cmp);
	for (i = 0; i < t.n && (t.exact || t.sampled); i++) {
		const struct mstat_cg_row *r = &t.r[i];

		if (!cg_own_total(r))
			continue;
		if (shown++ < max) {
			cg_series(f, r->label, r->own, r->own_var, have);
			continue;
		}
		any_rest = true;
		for (k = 0; k < CGK_NR; k++) {
			rest[k] += r->own[k];
			rest_var[k] += r->own_var[k];
		}
	}
	if (any_rest)
		cg_series(f, "other", rest, rest_var, have);
	mstat_cg_table_free(&t);
}
