// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' verdict as Prometheus text, for the node exporter's
 * textfile collector (mstat leaks --prom); and mstat serve's series: the
 * per-cache verdict over its window, and each snapshot's verdict of the
 * stacks from the module's history, with the cgroups' paths it keeps
 * from one snapshot to the next.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "leaks_cache.h"
#include "leaks_int.h"
#include "leaks_prom.h"
#include "slab.h"
#include "util.h"

static void mstat_leak_prom_num(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else
		fprintf(f, "%.3f", v);
}

/* Stack @si's labels of @which as one Prometheus label value. */
static void mstat_leak_prom_words(FILE *f, struct mstat_leaks *lk, int si,
				  int which)
{
	char *v = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&v, &len);

	if (m) {
		mstat_leak_labels(m, lk, si, which, MSTAT_LEAK_FMT_WORDS);
		if (fclose(m))
			len = 0;
	}
	mstat_prom_label(f, len ? v : "");
	free(v);
}

/* Stack @si's label set, without the closing brace. */
static void mstat_leak_prom_stack(FILE *f, struct mstat_leaks *lk, int si,
				  const char *name)
{
	static const struct { const char *label; int which; } l[] = {
		{ "cache", MSTAT_LEAK_CACHES },
		{ "cgroup", MSTAT_LEAK_CGROUPS },
		{ "container_id", MSTAT_LEAK_CONTAINERS },
		{ "pod_uid", MSTAT_LEAK_PODS },
		{ "systemd_unit", MSTAT_LEAK_UNITS },
	};
	const char *site = lk->st[si].site, *mod;
	size_t k, n;

	/* "fn+0x1a/0x40 [mod]": the function, and the module apart. */
	n = strcspn(site, "+ ");
	fprintf(f, "%s{site=\"", name);
	mstat_prom_label_n(f, site, n);
	fputs("\",module=\"", f);
	mod = strchr(site + n, '[');
	if (mod && strchr(mod, ']'))
		mstat_prom_label_n(f, mod + 1, strcspn(mod + 1, "]"));
	for (k = 0; k < ARRAY_SIZE(l); k++) {
		fprintf(f, "\",%s=\"", l[k].label);
		mstat_leak_prom_words(f, lk, si, l[k].which);
	}
	fputc('"', f);
}

/*
 * The verdict as Prometheus text (--prom), for the node exporter's
 * textfile collector: what it was judged over, then a series a suspect
 * stack (its caller's function and module, so that a series outlives a
 * rebuild that moves an offset, and the caches, cgroups, containers, pods and
 * units of its samples, each a label of words, "" for none) and a
 * series a suspect cache, with their growth and its interval. A stack
 * that is no suspect has no series: the label sets stay as few as the
 * suspects.
 */
/* The suspect stacks @ord (@ns) of @lk's verdict, their two series. */
static void mstat_leak_prom_stacks(FILE *f, struct mstat_leaks *lk,
				   const int *ord, int ns)
{
	static const char *const bound[] = { "low", "est", "high" };
	const struct mstat_leak_stack *s;
	int i, b;

	mstat_prom_head(f, "mstat_leak_stack_suspect", "gauge",
			"1 for each stack whose sampled objects mstat leaks calls a leak.");
	for (i = 0; i < ns; i++) {
		mstat_leak_prom_stack(f, lk, ord[i], "mstat_leak_stack_suspect");
		fputs("} 1\n", f);
	}
	mstat_prom_head(f, "mstat_leak_stack_rate_bytes_per_second", "gauge",
			"Growth of a suspect stack's estimated live bytes: the estimate (est) and its confidence interval (low, high).");
	for (i = 0; i < ns; i++) {
		s = &lk->st[ord[i]];
		for (b = 0; b < 3; b++) {
			mstat_leak_prom_stack(f, lk, ord[i],
					      "mstat_leak_stack_rate_bytes_per_second");
			fprintf(f, ",bound=\"%s\"} ", bound[b]);
			mstat_leak_prom_num(f, b == 0 ? s->low : b == 1 ? s->rate : s->high);
			fputc('\n', f);
		}
	}
}

void mstat_leak_prom_verdict(FILE *f, struct mstat_leaks *lk, const int *ord,
			     int ns, struct mstat_leak_cache **cs, int ncs)
{
	char names[MSTAT_SLAB_LABEL_MAX];
	int i;

	mstat_prom_head(f, "mstat_leaks_reads", "gauge",
			"Reads of /proc/mstat and /proc/mstat_sites mstat leaks judged.");
	fprintf(f, "mstat_leaks_reads %d\n", lk->reads);
	mstat_prom_head(f, "mstat_leaks_seconds", "gauge",
			"Time from the first read mstat leaks judged to the last.");
	fprintf(f, "mstat_leaks_seconds %.1f\n", lk->t1 - lk->t0);
	mstat_prom_head(f, "mstat_leaks_judged", "gauge",
			"1 if the reads were enough for a verdict, else 0.");
	fprintf(f, "mstat_leaks_judged %d\n", lk->judged);
	/* So that a verdict nobody renews (the module gone) can be aged out. */
	mstat_prom_head(f, "mstat_leaks_time_seconds", "gauge",
			"When the verdict was written, seconds since the epoch.");
	fprintf(f, "mstat_leaks_time_seconds %lld\n", (long long)time(NULL));
	mstat_leak_prom_stacks(f, lk, ord, ns);
	mstat_prom_head(f, "mstat_leaks_cache_suspect", "gauge",
			"1 for each cache whose live bytes mstat leaks calls a leak over its reads.");
	for (i = 0; i < ncs; i++) {
		fputs("mstat_leaks_cache_suspect{cache=\"", f);
		mstat_prom_label(f, mstat_slab_label(cs[i]->name, names,
						     sizeof(names)));
		fputs("\"} 1\n", f);
	}
}

void mstat_leak_prom(FILE *f, const struct mstat_leak_window *cw, double conf,
		     double min_rate)
{
	struct mstat_leak_window *w = (struct mstat_leak_window *)cw;
	static const char *const bound[] = { "low", "est", "high" };
	const struct mstat_leak_cache *c;
	char names[MSTAT_SLAB_LABEL_MAX];
	double v;
	int i, b;

	mstat_leak_window_judge(w, conf, min_rate);
	mstat_prom_head(f, "mstat_leak_window_reads", "gauge",
			"Reads of /proc/mstat the leak verdict is over (the last /metrics scrapes).");
	fprintf(f, "mstat_leak_window_reads %d\n", w->n);
	mstat_prom_head(f, "mstat_leak_window_seconds", "gauge",
			"Time from the first to the last read of the window.");
	fprintf(f, "mstat_leak_window_seconds %.3f\n",
		w->n ? w->t[w->n - 1] - w->t[0] : 0.0);
	mstat_prom_head(f, "mstat_leak_suspect", "gauge",
			"1 if the cache's live bytes grow without bound over the window (mstat leaks' per-cache rule), else 0.");
	for (i = 0; i < w->nc; i++) {
		c = &w->c[i];
		if (!c->tr.judged || isnan(c->x[w->n - 1]))
			continue;
		fputs("mstat_leak_suspect{cache=\"", f);
		mstat_prom_label(f, mstat_slab_label(c->name, names,
						     sizeof(names)));
		fprintf(f, "\"} %d\n", c->tr.suspect);
	}
	mstat_prom_head(f, "mstat_leak_rate_bytes_per_second", "gauge",
			"Growth of the cache's live bytes over the window: the lower envelope's Theil-Sen slope (est) and its confidence interval (low, high).");
	for (i = 0; i < w->nc; i++) {
		c = &w->c[i];
		if (!c->tr.judged || isnan(c->x[w->n - 1]))
			continue;
		for (b = 0; b < 3; b++) {
			v = b == 0 ? c->tr.low : b == 1 ? c->tr.rate : c->tr.high;
			fputs("mstat_leak_rate_bytes_per_second{cache=\"", f);
			mstat_prom_label(f, mstat_slab_label(c->name, names,
							     sizeof(names)));
			fprintf(f, "\",bound=\"%s\"} ", bound[b]);
			mstat_leak_prom_num(f, v);
			fputc('\n', f);
		}
	}
}

struct mstat_leak_cgs {
	struct mstat_cgroups *cg;
	long long *id;
	char **path;
	int n, cap;
};

struct mstat_leak_cgs *mstat_leak_cgs_new(void)
{
	struct mstat_leak_cgs *cgs = mstat_alloc(NULL, sizeof(*cgs));

	memset(cgs, 0, sizeof(*cgs));
	return cgs;
}

void mstat_leak_cgs_free(struct mstat_leak_cgs *cgs)
{
	int i;

	if (!cgs)
		return;
	for (i = 0; i < cgs->n; i++)
		free(cgs->path[i]);
	free(cgs->id);
	free(cgs->path);
	if (cgs->cg)
		mstat_cgroups_free(cgs->cg);
	free(cgs);
}

void mstat_leak_prom_history(FILE *f, const struct mstat_opts *o,
			     const struct mstat_snap *s,
			     const struct mstat_sites *ss, double t,
			     struct mstat_leak_cgs *cgs)
{
	struct mstat_leaks lk = { .o = o, .phantoms = -1 };
	int i, ns = 0, *ord;

	if (ss->history_ms < 0)
		return;
	/*
	 * The paths known so far, and the tree as last walked: a cgroup
	 * not among them has the tree walked again, once this read
	 * (cg_walk is not this read's: mstat_leak_cg_learn()).
	 */
	if (cgs) {
		lk.cg = cgs->cg;
		lk.cg_id = cgs->id;
		lk.cg_path = cgs->path;
		lk.ncg = cgs->n;
		lk.cgcap = cgs->cap;
		lk.cg_walk = 0;
	}

	lk.w = mstat_leak_window_new(1);
	mstat_leak_window_add(lk.w, s, t);
	lk.t0 = lk.t1 = lk.tprev = t;
	mstat_leak_sites(&lk, ss, t);
	lk.reads = 1;
	mstat_leak_judge(&lk);
	ord = mstat_alloc(NULL, (lk.nst + 1) * sizeof(*ord));
	for (i = 0; i < lk.nst; i++)
		if (lk.st[i].suspect)
			ord[ns++] = i;
	mstat_leak_sort(&lk, ord, ns);
	mstat_prom_head(f, "mstat_leaks_history_seconds", "gauge",
			"The heap profile's history the stacks were judged from, in one read: since mstat's load, its rate's last change, a reset or dropped entries.");
	fprintf(f, "mstat_leaks_history_seconds %.1f\n", lk.s1 - lk.sv);
	mstat_leak_prom_stacks(f, &lk, ord, ns);
	free(ord);
	if (cgs) {
		cgs->cg = lk.cg;
		cgs->id = lk.cg_id;
		cgs->path = lk.cg_path;
		cgs->n = lk.ncg;
		cgs->cap = lk.cgcap;
		lk.cg = NULL;
		lk.cg_id = NULL;
		lk.cg_path = NULL;
		lk.ncg = 0;
	}
	mstat_leaks_free(&lk);
}
