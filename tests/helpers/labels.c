// SPDX-License-Identifier: GPL-2.0
/*
 * labels - judge the heap profile's labels (/proc/mstat_sites format 2.2,
 * read through tools/mstat/parse.c) against the truth of the
 * mstat_labeltest module (tests/labels/mstat_labeltest.c), in a guest
 * (scripts/guest/labels.sh):
 *
 *	labels judge [-T swap|bytes|age] [-z Z] [-g DIR]... TRUTH SITES
 *	labels live NAME SITES LEAF N SIZE
 *	labels gone NAME SITES LEAF...
 *
 * judge: TRUTH is the module's truth file as read before SITES was, with
 * the now_ns line of a second read after it appended (so that the read of
 * SITES lies between the first and the last now_ns). Per leaf (a tag: a
 * stack, whatever its callers) and cgroup label, and per leaf and node,
 * the estimates against the truth's batches:
 *
 *  - in use: the rows' est_bytes, against the bytes the batches keep;
 *  - allocated: each row's alloc_bytes scaled by the sampling probability
 *    of its mean object size (as mstat pprof scales them), against the
 *    bytes the batches allocated.
 *
 * An object of size s is sampled with p = 1 - exp(-s/rate); the estimate
 * of n objects, (sampled objects) * s / p, has the standard deviation
 * sqrt(n (1 - p) / p) * s. The bound is Z of those (default 5: the
 * chains test found the squared deviations of TCG guests 1.5 times the
 * model's variance, the guests' random seeds repeating from boot to
 * boot; at that, Z = 5 fails a good run about once in 20,000 checks). A
 * label the truth does not have has the bound 0: a row mislabelled fails
 * its pair. A tag has one object size (the module's batches say; a tag
 * of two sizes is refused).
 *
 * Then: every task batch's cgroup id is the inode number of a directory
 * given with -g and every such directory was used; every row of a leaf
 * of the truth has a cgroup label of the truth or "softirq" for a tag the
 * truth allocated from softirq, and every row of the softirq tag is
 * labelled softirq, of the hardirq tag hardirq; no batch's memory was
 * off its node (misplaced 0);
 * addr_drops is 0 (a dropped sample would leave the in-use figures); per
 * row of a leaf with kept objects, its live lines cover its sampled bytes,
 * each one object of the tag's size, and each age lies, to the second,
 * in the window the truth gives: from (first now_ns - its batches'
 * last_ns) - 1 s to (last now_ns - their first_ns) + 1 s; every row of a
 * leaf names the kmalloc cache of the tag's size as its cache
 * ("kmalloc-512", "kmalloc-1k"; "kmalloc-rnd-NN-512" and "kmalloc-cg-"
 * too).
 *
 * -T: a false truth, the test's own test: "swap" swaps the first two
 * cgroups other than the root in every batch, "bytes" doubles batch 0's
 * objects, "age" makes every batch 3 s older, "cache" doubles every
 * tag's size in the cache check alone. The check the lie touches
 * must fail (the guest script expects exit 1 and the lines).
 *
 * live: the rows of LEAF hold exactly N sampled objects, N live lines of
 * SIZE bytes (at profile_rate 1, every object is sampled): the objects
 * that are to become phantoms are in the table. gone: no row of any LEAF
 * has sampled bytes or objects in use, or a live line. NAME is the
 * check's name.
 *
 * Prints "ok NAME" / "not ok NAME: WHY" per check and "# " lines with
 * the figures; exits 1 if a check failed, 2 on bad usage or input.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/mstat/parse.h"

#define MAXB	64	/* batches: the module's LT_MAX_BATCHES */
#define MAXDIRS	8
#define MAXKEYS	256
#define SLACK_MS 1000	/* "to the second" */

struct batch {
	unsigned int id, tag;
	char leaf[32];
	long long cgroup;	/* an id, or MSTAT_CGROUP_SOFTIRQ */
	long long node, size, count, kept, misplaced;
	long long first_ns, last_ns;
	int churn;
};

static struct batch bt[MAXB];
static int nb;
static long long now_lo = -1, now_hi = -1;
static int failed;

static void verdict(bool good, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (good) {
		printf("ok %s\n", name);
		return;
	}
	failed = 1;
	printf("not ok %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static char *slurp(const char *path, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t r;

	if (!f || !buf) {
		fprintf(stderr, "labels: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while ((r = fread(buf + n, 1, cap - 1 - n, f)) > 0) {
		n += r;
		if (n == cap - 1) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void read_sites(const char *path, struct mstat_sites *ss)
{
	struct mstat_perror e;
	size_t len;
	char *buf = slurp(path, &len);

	memset(ss, 0, sizeof(*ss));
	ss->path = path;
	if (!mstat_sites_parse(ss, buf, len, &e)) {
		printf("not ok labels-parse: %s line %d: error %d: %s\n", path,
		       e.line, e.code, e.text ? e.text : "");
		exit(1);
	}
}

static void read_truth(const char *path)
{
	size_t len;
	char *buf = slurp(path, &len), *line, *save = NULL;

	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct batch *b = &bt[nb];
		char ctx[16], cg[32];
		long long v;

		if (sscanf(line, "now_ns %lld", &v) == 1) {
			if (now_lo < 0 || v < now_lo)
				now_lo = v;
			if (v > now_hi)
				now_hi = v;
			continue;
		}
		if (nb == MAXB) {
			fprintf(stderr, "labels: %s: over %d batches\n", path, MAXB);
			exit(2);
		}
		if (sscanf(line, "batch %u tag %u leaf %31s ctx %15s cgroup %31s node %lld size %lld count %lld kept %lld churn %d misplaced %lld first_ns %lld last_ns %lld",
			   &b->id, &b->tag, b->leaf, ctx, cg, &b->node,
			   &b->size, &b->count, &b->kept, &b->churn,
			   &b->misplaced, &b->first_ns, &b->last_ns) != 13) {
			fprintf(stderr, "labels: %s: not a truth line: %s\n", path, line);
			exit(2);
		}
		if (!strcmp(ctx, "softirq"))
			b->cgroup = MSTAT_CGROUP_SOFTIRQ;
		else if (!strcmp(ctx, "hardirq"))
			b->cgroup = MSTAT_CGROUP_HARDIRQ;
		else
			b->cgroup = strtoll(cg, NULL, 10);
		nb++;
	}
	if (now_lo < 0 || !nb) {
		fprintf(stderr, "labels: %s: no now_ns or no batch\n", path);
		exit(2);
	}
	free(buf);
}

static const char *cgname(long long cg, char *buf, size_t size)
{
	if (cg == MSTAT_CGROUP_SOFTIRQ)
		return "softirq";
	if (cg == MSTAT_CGROUP_HARDIRQ)
		return "hardirq";
	if (cg == MSTAT_CGROUP_UNKNOWN)
		return "unknown";
	snprintf(buf, size, "%lld", cg);
	return buf;
}

static bool is_test_leaf(const char *func)
{
	int i;

	for (i = 0; i < nb; i++)
		if (!strcmp(bt[i].leaf, func))
			return true;
	return false;
}

/* The tag's one object size, or -1 if its batches disagree. */
static long long leaf_size(const char *leaf)
{
	long long s = 0;
	int i;

	for (i = 0; i < nb; i++) {
		if (strcmp(bt[i].leaf, leaf))
			continue;
		if (s && s != bt[i].size)
			return -1;
		s = bt[i].size;
	}
	return s;
}

/* -T cache: the cache check takes every tag's size as twice what it is. */
static int cache_scale = 1;

/* Whether @cache is kmalloc's cache of objects of @size bytes. */
static bool kmalloc_cache_of(const char *cache, long long size)
{
	char want[32];
	size_t n, w;

	if (!cache || strncmp(cache, "kmalloc-", 8))
		return false;
	if (size >= 1024 && !(size % 1024))
		snprintf(want, sizeof(want), "-%lldk", size / 1024);
	else
		snprintf(want, sizeof(want), "-%lld", size);
	n = strlen(cache);
	w = strlen(want);
	return n > w && !strcmp(cache + n - w, want) &&
	       (n - w == 7 || strchr(cache + 8, '-'));
}

/* Every row of a test leaf is labelled with kmalloc's cache of its size. */
static void judge_caches(const struct mstat_sites *ss)
{
	int rows = 0, bad = 0;
	size_t i;

	for (i = 0; i < ss->n; i++) {
		const struct mstat_site *r = &ss->site[i];
		long long s;

		if (!is_test_leaf(r->func))
			continue;
		rows++;
		s = leaf_size(r->func) * cache_scale;
		if (!kmalloc_cache_of(r->cache, s) && bad++ < 5)
			printf("# %s: cache %s, not kmalloc's of %lld bytes\n",
			       r->func, r->cache ? r->cache : "-", s);
	}
	verdict(rows && !bad, "labels-caches", "%d of %d rows of the leaves with another cache",
		bad, rows);
}

static void tamper(const char *how)
{
	long long a = 0, b = 0;
	int i;

	if (!strcmp(how, "bytes")) {
		bt[0].count *= 2;
		bt[0].kept *= 2;
	} else if (!strcmp(how, "age")) {
		for (i = 0; i < nb; i++) {
			bt[i].first_ns -= 3000000000LL;
			bt[i].last_ns -= 3000000000LL;
		}
	} else if (!strcmp(how, "cache")) {
		cache_scale = 2;
	} else if (!strcmp(how, "swap")) {
		for (i = 0; i < nb; i++) {
			long long c = bt[i].cgroup;

			if (c <= 1)
				continue;
			if (!a)
				a = c;
			else if (!b && c != a)
				b = c;
		}
		for (i = 0; i < nb; i++)
			if (bt[i].cgroup == a)
				bt[i].cgroup = b;
			else if (bt[i].cgroup == b)
				bt[i].cgroup = a;
		printf("# tampered: cgroups %lld and %lld swapped\n", a, b);
	} else {
		fprintf(stderr, "labels: -T swap, bytes, age or cache, not %s\n", how);
		exit(2);
	}
}

/* One (leaf, label) pair: by cgroup (bynode 0) or by node (1). */
struct key {
	const char *leaf;
	int bynode;
	long long label;
};

static struct key keys[MAXKEYS];
static int nkeys;

static void add_key(const char *leaf, int bynode, long long label)
{
	int i;

	for (i = 0; i < nkeys; i++)
		if (keys[i].bynode == bynode && keys[i].label == label &&
		    !strcmp(keys[i].leaf, leaf))
			return;
	if (nkeys == MAXKEYS) {
		fprintf(stderr, "labels: over %d label pairs\n", MAXKEYS);
		exit(2);
	}
	keys[nkeys++] = (struct key){ leaf, bynode, label };
}

static double prob(double size, double rate)
{
	return -expm1(-size / rate);
}

/* The in-use and allocated estimates of one pair, against the truth. */
static void judge_key(const struct mstat_sites *ss, const struct key *k,
		      double z)
{
	double rate = ss->rate, s = leaf_size(k->leaf), p = prob(s, rate);
	double est_in = 0, est_al = 0, n_in = 0, n_al = 0, b_in, b_al;
	char name[96], buf[32];
	const char *what = k->bynode ? "node" : "cg", *lb;
	size_t i;
	int rows = 0;

	for (i = 0; i < ss->n; i++) {
		const struct mstat_site *r = &ss->site[i];

		if (strcmp(r->func, k->leaf) ||
		    (k->bynode ? r->node : r->cgroup) != k->label)
			continue;
		rows++;
		est_in += r->est_bytes;
		if (r->allocs > 0)
			est_al += r->alloc_bytes /
				  prob((double)r->alloc_bytes / r->allocs, rate);
	}
	for (i = 0; i < (size_t)nb; i++) {
		const struct batch *b = &bt[i];

		if (strcmp(b->leaf, k->leaf) ||
		    (k->bynode ? b->node : b->cgroup) != k->label)
			continue;
		n_in += b->kept;
		n_al += b->count;
	}
	b_in = z * sqrt(n_in * (1 - p) / p) * s;
	b_al = z * sqrt(n_al * (1 - p) / p) * s;
	if (k->bynode) {
		snprintf(buf, sizeof(buf), "%lld", k->label);
		lb = buf;
	} else {
		lb = cgname(k->label, buf, sizeof(buf));
	}
	printf("# %s %s %s: %d rows; in use %.0f estimated, %.0f true, bound %.0f; allocated %.0f estimated, %.0f true, bound %.0f (size %.0f, p %.4f)\n",
	       k->leaf, what, lb, rows, est_in, n_in * s, b_in, est_al,
	       n_al * s, b_al, s, p);
	snprintf(name, sizeof(name), "labels-inuse-%s-%s-%s", k->leaf, what, lb);
	verdict(fabs(est_in - n_in * s) <= b_in, name,
		"estimate %.0f, truth %.0f, bound %.0f", est_in, n_in * s, b_in);
	snprintf(name, sizeof(name), "labels-alloc-%s-%s-%s", k->leaf, what, lb);
	verdict(fabs(est_al - n_al * s) <= b_al, name,
		"estimate %.0f, truth %.0f, bound %.0f", est_al, n_al * s, b_al);
}

/* Each row of a kept leaf: its live lines, their sizes and ages. */
static void judge_ages(const struct mstat_sites *ss)
{
	long long lo_all = 0, hi_all = 0, nlive = 0, bad = 0;
	size_t i, j;
	int rows = 0;

	for (i = 0; i < ss->n; i++) {
		const struct mstat_site *r = &ss->site[i];
		long long first = -1, last = -1, covered = 0, lo, hi, s;
		char cg[32];
		int k;

		if (!is_test_leaf(r->func))
			continue;
		for (k = 0; k < nb; k++) {
			const struct batch *b = &bt[k];

			if (strcmp(b->leaf, r->func) || b->cgroup != r->cgroup ||
			    b->node != r->node || !b->kept)
				continue;
			if (first < 0 || b->first_ns < first)
				first = b->first_ns;
			if (b->last_ns > last)
				last = b->last_ns;
		}
		if (first < 0)
			continue;	/* judged by judge_key() */
		rows++;
		s = leaf_size(r->func);
		lo = (now_lo - last) / 1000000 - SLACK_MS;
		hi = (now_hi - first) / 1000000 + SLACK_MS;
		for (j = 0; j < r->nlive; j++) {
			const struct mstat_live *l = &r->live[j];

			covered += l->bytes;
			nlive++;
			if (l->age_ms < lo || l->age_ms > hi || l->bytes != s) {
				if (bad++ < 5)
					printf("# %s cg %s node %lld: live object of %lld bytes, age %lld ms, not %lld bytes in [%lld, %lld] ms\n",
					       r->func, cgname(r->cgroup, cg, sizeof(cg)),
					       r->node, l->bytes, l->age_ms, s, lo, hi);
			}
		}
		if (covered != r->sampled_bytes) {
			bad++;
			printf("# %s cg %s node %lld: live lines cover %lld bytes, sampled_bytes %lld\n",
			       r->func, cgname(r->cgroup, cg, sizeof(cg)), r->node,
			       covered, r->sampled_bytes);
		}
		if (!lo_all || lo < lo_all)
			lo_all = lo;
		if (hi > hi_all)
			hi_all = hi;
	}
	printf("# ages: %lld live lines in %d rows, windows within [%lld, %lld] ms\n",
	       nlive, rows, lo_all, hi_all);
	verdict(!bad && nlive > 0, "labels-ages",
		"%lld live lines wrong, of %lld", bad, nlive);
}

/*
 * Every row of a test leaf has a label the truth has for it; every row of
 * a tag allocated in interrupt context is labelled with that context.
 */
static void judge_rows(const struct mstat_sites *ss)
{
	long long irq_bad[2] = { 0 }, irq_rows[2] = { 0 }, node_bad = 0;
	static const long long irq_cg[2] = {
		MSTAT_CGROUP_SOFTIRQ, MSTAT_CGROUP_HARDIRQ,
	};
	static const char *const irq_name[2] = { "softirq", "hardirq" };
	size_t i;
	char cg[32];
	int k, q;

	for (i = 0; i < ss->n; i++) {
		const struct mstat_site *r = &ss->site[i];
		bool cg_ok = false, node_ok = false, irq[2] = { false };

		if (!is_test_leaf(r->func))
			continue;
		for (k = 0; k < nb; k++) {
			if (strcmp(bt[k].leaf, r->func))
				continue;
			for (q = 0; q < 2; q++)
				if (bt[k].cgroup == irq_cg[q])
					irq[q] = true;
			if (bt[k].cgroup == r->cgroup)
				cg_ok = true;
			if (bt[k].node == r->node)
				node_ok = true;
		}
		for (q = 0; q < 2; q++) {
			if (!irq[q])
				continue;
			irq_rows[q]++;
			if (r->cgroup != irq_cg[q]) {
				irq_bad[q]++;
				printf("# %s: a row labelled cgroup %s\n", r->func,
				       cgname(r->cgroup, cg, sizeof(cg)));
			}
		}
		if (!cg_ok || !node_ok) {
			node_bad++;
			printf("# %s: a row labelled cgroup %s node %lld, which the truth does not have\n",
			       r->func, cgname(r->cgroup, cg, sizeof(cg)), r->node);
		}
	}
	for (q = 0; q < 2; q++) {
		char name[32];

		snprintf(name, sizeof(name), "labels-%s", irq_name[q]);
		verdict(irq_rows[q] > 0 && !irq_bad[q], name,
			"%lld rows of the %s tag, %lld not labelled %s",
			irq_rows[q], irq_name[q], irq_bad[q], irq_name[q]);
	}
	verdict(!node_bad, "labels-row-labels",
		"%lld rows with a label the truth does not have", node_bad);
}

static void judge_cgroups(char **dirs, int ndirs)
{
	long long ino[MAXDIRS];
	int i, k, bad = 0;

	for (i = 0; i < ndirs; i++) {
		struct stat st;
		bool used = false;

		if (stat(dirs[i], &st)) {
			printf("# %s: %s\n", dirs[i], strerror(errno));
			bad++;
			continue;
		}
		ino[i] = st.st_ino;
		for (k = 0; k < nb; k++)
			used |= bt[k].cgroup == ino[i];
		printf("# cgroup %s: inode %lld, %s\n", dirs[i], ino[i],
		       used ? "used" : "not used by any batch");
		bad += !used;
	}
	for (k = 0; k < nb; k++) {
		bool found = bt[k].cgroup == MSTAT_CGROUP_SOFTIRQ ||
			     bt[k].cgroup == MSTAT_CGROUP_HARDIRQ;

		for (i = 0; i < ndirs; i++)
			found |= bt[k].cgroup == ino[i];
		if (!found) {
			printf("# batch %u: cgroup %lld is no directory given\n",
			       bt[k].id, bt[k].cgroup);
			bad++;
		}
	}
	verdict(ndirs > 1 && !bad, "labels-cgroup-ids",
		"%d mismatches between the batches' cgroups and the %d directories",
		bad, ndirs);
}

static int cmd_judge(int argc, char **argv)
{
	char *dirs[MAXDIRS];
	const char *how = NULL;
	struct mstat_sites ss;
	double z = 5;
	int c, i, ndirs = 0;
	long long mis = 0;

	while ((c = getopt(argc, argv, "T:z:g:")) != -1) {
		switch (c) {
		case 'T':
			how = optarg;
			break;
		case 'z':
			z = atof(optarg);
			break;
		case 'g':
			if (ndirs == MAXDIRS)
				return 2;
			dirs[ndirs++] = optarg;
			break;
		default:
			return 2;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: labels judge [-T swap|bytes|age|cache] [-z Z] [-g DIR]... TRUTH SITES\n");
		return 2;
	}
	read_truth(argv[optind]);
	read_sites(argv[optind + 1], &ss);
	if (how)
		tamper(how);
	verdict(ss.major == 2 && ss.minor >= 2, "labels-format",
		"version %s, not 2.2 or later", ss.version);
	if (ss.major != 2 || ss.minor < 2)
		return 1;
	printf("# sample_rate %lld addr_drops %lld addr_live %lld addr_phantoms %lld; truth read from %lld to %lld ns\n",
	       ss.rate, ss.addr_drops, ss.addr_live, ss.addr_phantoms,
	       now_lo, now_hi);
	verdict(ss.addr_drops == 0, "labels-addr-drops", "addr_drops %lld",
		ss.addr_drops);
	for (i = 0; i < nb; i++) {
		mis += bt[i].misplaced;
		if (leaf_size(bt[i].leaf) < 0) {
			fprintf(stderr, "labels: %s has two sizes\n", bt[i].leaf);
			return 2;
		}
		add_key(bt[i].leaf, 0, bt[i].cgroup);
		add_key(bt[i].leaf, 1, bt[i].node);
	}
	verdict(!mis, "labels-placed", "%lld objects off their node", mis);
	/* Rows' labels the truth lacks: pairs of truth 0. */
	for (i = 0; i < (int)ss.n; i++) {
		if (!is_test_leaf(ss.site[i].func))
			continue;
		for (c = 0; c < nb; c++)
			if (!strcmp(bt[c].leaf, ss.site[i].func))
				break;
		add_key(bt[c].leaf, 0, ss.site[i].cgroup);
		add_key(bt[c].leaf, 1, ss.site[i].node);
	}
	judge_cgroups(dirs, ndirs);
	judge_rows(&ss);
	for (i = 0; i < nkeys; i++)
		judge_key(&ss, &keys[i], z);
	judge_ages(&ss);
	judge_caches(&ss);
	return failed;
}

static int cmd_live(int argc, char **argv)
{
	struct mstat_sites ss;
	long long n, size, calls = 0, lines = 0, wrong = 0;
	size_t i, j;

	if (argc != 7) {
		fprintf(stderr, "usage: labels live NAME SITES LEAF N SIZE\n");
		return 2;
	}
	n = atoll(argv[5]);
	size = atoll(argv[6]);
	read_sites(argv[3], &ss);
	for (i = 0; i < ss.n; i++) {
		const struct mstat_site *r = &ss.site[i];

		if (strcmp(r->func, argv[4]))
			continue;
		calls += r->sampled_calls;
		for (j = 0; j < r->nlive; j++) {
			lines++;
			wrong += r->live[j].bytes != size;
		}
	}
	printf("# %s: %lld sampled objects in use, %lld live lines, %lld not of %lld bytes; want %lld\n",
	       argv[4], calls, lines, wrong, size, n);
	verdict(calls == n && lines == n && !wrong, argv[2],
		"%lld sampled in use, %lld live lines (%lld wrong), not %lld",
		calls, lines, wrong, n);
	return failed;
}

static int cmd_gone(int argc, char **argv)
{
	struct mstat_sites ss;
	int a;

	if (argc < 5) {
		fprintf(stderr, "usage: labels gone NAME SITES LEAF...\n");
		return 2;
	}
	read_sites(argv[3], &ss);
	printf("# addr_phantoms %lld addr_live %lld\n", ss.addr_phantoms,
	       ss.addr_live);
	for (a = 4; a < argc; a++) {
		long long sb = 0, eb = 0, sc = 0, lines = 0;
		int rows = 0;
		size_t i;
		char name[96];

		for (i = 0; i < ss.n; i++) {
			const struct mstat_site *r = &ss.site[i];

			if (strcmp(r->func, argv[a]))
				continue;
			rows++;
			sb += r->sampled_bytes;
			eb += r->est_bytes;
			sc += r->sampled_calls;
			lines += r->nlive;
		}
		printf("# %s: %d rows, sampled_bytes %lld, sampled_calls %lld, est_bytes %lld, live lines %lld\n",
		       argv[a], rows, sb, sc, eb, lines);
		snprintf(name, sizeof(name), "%s-%s", argv[2], argv[a]);
		verdict(!sb && !eb && !sc && !lines, name,
			"sampled_bytes %lld, sampled_calls %lld, est_bytes %lld, %lld live lines",
			sb, sc, eb, lines);
	}
	return failed;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "judge"))
		return cmd_judge(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "live"))
		return cmd_live(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "gone"))
		return cmd_gone(argc, argv);
	fprintf(stderr, "usage: labels judge|live|gone ARGS... (each says its own when its ARGS are wrong)\n");
	return 2;
}
