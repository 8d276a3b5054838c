// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' verdict written: as text, as JSON (json.c's writer) and as
 * Prometheus text for the node exporter's textfile collector; and mstat
 * serve's per-cache series over its window.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cgroup.h"
#include "json.h"
#include "leaks_out.h"
#include "leaks_int.h"
#include "slab.h"
#include "stats.h"
#include "util.h"

/* Does row @rw hold a leak-like sample of its stack? */
static bool mstat_leak_row_counts(const struct mstat_leaks *lk,
				  const struct mstat_leak_row *rw)
{
	const struct mstat_leak_stack *s = &lk->st[rw->stack];
	size_t j;

	if (rw->seen != lk->reads - 1)
		return false;
	for (j = 0; j < rw->n; j++)
		if (mstat_leak_like(lk, &rw->obj[j], s->min_age))
			return true;
	return false;
}

/* What mstat_leak_labels() lists. */
enum {
	MSTAT_LEAK_CGROUPS,
	MSTAT_LEAK_NODES,
	MSTAT_LEAK_CACHES,
	/* What a fleet knows the cgroups by (mstat_cgroup_tags()). */
	MSTAT_LEAK_CONTAINERS,	/* RUNTIME:ID, or ID; in words, 12 digits */
	MSTAT_LEAK_PODS,	/* pod UIDs */
	MSTAT_LEAK_UNITS,	/* systemd units */
};

/*
 * A fleet's label of cgroup @path, @which of MSTAT_LEAK_CONTAINERS, _PODS
 * and _UNITS, into @buf; NULL if its path does not say.
 */
static const char *mstat_leak_tag(const char *path, int which, bool json,
				  char *buf, size_t len)
{
	struct mstat_cgroup_tags t;

	if (!path || !mstat_cgroup_tags(path, &t))
		return NULL;
	switch (which) {
	case MSTAT_LEAK_CONTAINERS:
		if (!t.container_id[0])
			return NULL;
		snprintf(buf, len, "%s%s%.*s", t.runtime, t.runtime[0] ? ":" : "",
			 json ? 64 : 12, t.container_id);
		return buf;
	case MSTAT_LEAK_PODS:
		snprintf(buf, len, "%s", t.pod_uid);
		break;
	default:
		snprintf(buf, len, "%s", t.unit);
		break;
	}
	return buf[0] ? buf : NULL;
}

/* How mstat_leak_labels() writes: words ("-" for none), JSON, or words
 * with whole container ids and nothing for none (a Prometheus label). */
enum { MSTAT_LEAK_FMT_TEXT, MSTAT_LEAK_FMT_JSON, MSTAT_LEAK_FMT_WORDS };

/*
 * The labels of stack @si's leak-like samples, each once, as @fmt
 * gives: @which MSTAT_LEAK_*.
 */
static void mstat_leak_labels(FILE *f, struct mstat_leaks *lk, int si,
			      int which, int fmt)
{
	char buf[32], tag[300], names[MSTAT_SLAB_LABEL_MAX], *seen[64];
	bool json = fmt == MSTAT_LEAK_FMT_JSON;
	const char *v;
	int r, i, n = 0;

	fputs(json ? "[" : "", f);
	for (r = 0; r < lk->nrow; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->stack != si || !mstat_leak_row_counts(lk, rw))
			continue;
		if (which == MSTAT_LEAK_CGROUPS ||
		    which >= MSTAT_LEAK_CONTAINERS) {
			v = mstat_leak_cg_label(lk, rw->cgroup, buf,
						sizeof(buf));
			if (which >= MSTAT_LEAK_CONTAINERS)
				v = mstat_leak_tag(v, which,
						   fmt != MSTAT_LEAK_FMT_TEXT,
						   tag, sizeof(tag));
		} else if (which == MSTAT_LEAK_NODES) {
			if (rw->node == MSTAT_NODE_UNKNOWN)
				continue;
			snprintf(buf, sizeof(buf), "%lld", rw->node);
			v = buf;
		} else {
			v = rw->cache ? mstat_slab_label(rw->cache, names,
							 sizeof(names)) : NULL;
		}
		if (!v)
			continue;
		for (i = 0; i < n && strcmp(seen[i], v); i++)
			;
		if (i < n || n == (int)ARRAY_SIZE(seen))
			continue;
		seen[n] = mstat_strdup(v, strlen(v));
		if (n)
			fputs(json ? ", " : " ", f);
		n++;
		if (json && which != MSTAT_LEAK_NODES)
			mstat_json_str(f, v);
		else
			fputs(v, f);
	}
	if (!n && fmt == MSTAT_LEAK_FMT_TEXT)
		fputs("-", f);
	fputs(json ? "]" : "", f);
	for (i = 0; i < n; i++)
		free(seen[i]);
}

/*
 * In words, after a stack's cgroups: its containers, pods and units,
 * those its cgroups' paths give; nothing on a machine whose paths give
 * none.
 */
static void mstat_leak_fleet_words(struct mstat_leaks *lk, int si)
{
	static const char *const word[] = { "containers", "pods", "units" };
	struct mstat_cgroup_tags t;
	char buf[32];
	const char *v;
	bool any = false;
	int r, w;

	for (r = 0; r < lk->nrow && !any; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->stack != si || !mstat_leak_row_counts(lk, rw))
			continue;
		v = mstat_leak_cg_label(lk, rw->cgroup, buf, sizeof(buf));
		any = v && mstat_cgroup_tags(v, &t) &&
		      (t.container_id[0] || t.pod_uid[0] || t.unit[0]);
	}
	if (!any)
		return;
	for (w = 0; w < 3; w++) {
		printf("; %s ", word[w]);
		mstat_leak_labels(stdout, lk, si, MSTAT_LEAK_CONTAINERS + w, MSTAT_LEAK_FMT_TEXT);
	}
}

static int mstat_leak_order_cmp(const void *a, const void *b);
static const struct mstat_leaks *mstat_leak_sorting;

/* Suspects first by the low end of their rate. */
static int mstat_leak_order_cmp(const void *a, const void *b)
{
	const struct mstat_leaks *lk = mstat_leak_sorting;
	double x = lk->st[*(const int *)a].low, y = lk->st[*(const int *)b].low;

	return (x < y) - (x > y);
}

static int mstat_leak_cache_cmp(const void *a, const void *b)
{
	const struct mstat_leak_cache *x = *(struct mstat_leak_cache *const *)a;
	const struct mstat_leak_cache *y = *(struct mstat_leak_cache *const *)b;

	return (x->tr.low < y->tr.low) - (x->tr.low > y->tr.low);
}

/*
 * Why a stack judged from the history is not a suspect though its
 * samples would be enough (mstat_leak_judge_history()); NULL otherwise.
 */
static const char *mstat_leak_not_growing(const struct mstat_leak_stack *s)
{
	if (s->stopped)
		return "stopped: no birth for longer than a steady leak leaves";
	if (s->slowing)
		return "slowing: births older on average than a steady leak's";
	if (s->crowded)
		return "crowded: births younger on average than a steady leak's, a stack that frees";
	return NULL;
}

static bool mstat_leak_explained(const struct mstat_leak_cache *c)
{
	return c->explained_high > 0 && c->explained_high >= c->tr.low;
}

/*
 * A stack named in a list after the suspects, by its site and cache;
 * @why: NULL, or why it is there, with its low end when @low, else with
 * its samples.
 */
static void mstat_leak_json_stack_ref(const struct mstat_leak_stack *s,
				      bool low, const char *why, bool *first)
{
	char names[MSTAT_SLAB_LABEL_MAX];

	printf("%s\n    {\"kind\": \"stack\", \"site\": ", *first ? "" : ",");
	*first = false;
	mstat_json_str(stdout, s->site);
	printf(", \"cache\": ");
	mstat_json_str(stdout, s->cache ? mstat_slab_label(s->cache, names,
							 sizeof(names)) : NULL);
	if (low) {
		printf(", \"rate_low_bps\": ");
		mstat_json_num(stdout, s->low);
	}
	if (why && !low)
		printf(", \"samples\": %d", s->k);
	if (why) {
		printf(", \"why\": ");
		mstat_json_str(stdout, why);
	}
	printf("}");
}

static void mstat_leak_json(struct mstat_leaks *lk, const int *ord, int ns,
			    struct mstat_leak_cache **cs, int ncs)
{
	const struct mstat_opts *o = lk->o;
	char names[MSTAT_SLAB_LABEL_MAX];
	bool first = true;
	size_t j;
	int i;

	printf("{\n  \"version\": 1,\n  \"duration_s\": %.1f, \"interval_s\": %.1f, \"reads\": %d, \"sample_rate\": %lld,\n",
	       lk->t1 - lk->t0, lk->reads > 1 ? (lk->t1 - lk->t0) / (lk->reads - 1) : 0.0,
	       lk->reads, lk->rate);
	printf("  \"confidence\": %g, \"min_rate_bps\": %.1f, \"ages\": %s,\n",
	       o->confidence, o->min_rate, lk->ages ? "true" : "false");
	printf("  \"restarts\": %d, \"samples_since_s\": %.1f, \"judged\": %s,\n",
	       lk->restarts, lk->sv - lk->s0, lk->judged ? "true" : "false");
	printf("  \"interrupted\": %s, \"history_s\": ",
	       lk->interrupted ? "true" : "false");
	mstat_json_num(stdout, lk->history ? lk->s1 - lk->sv : NAN);
	printf(",\n");
	printf("  \"suspects\": [");
	for (i = 0; i < ns; i++) {
		const struct mstat_leak_stack *s = &lk->st[ord[i]];

		printf("%s\n    {\"kind\": \"stack\", \"site\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, s->site);
		printf(",\n     \"stack\": [");
		mstat_json_str(stdout, s->site);
		for (j = 0; j < s->nframe; j++) {
			printf(", ");
			mstat_json_str(stdout, s->frame[j]);
		}
		printf("],\n     \"cgroups\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CGROUPS, MSTAT_LEAK_FMT_JSON);
		printf(", \"nodes\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_NODES, MSTAT_LEAK_FMT_JSON);
		printf(", \"caches\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CACHES, MSTAT_LEAK_FMT_JSON);
		printf(",\n     \"containers\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CONTAINERS, MSTAT_LEAK_FMT_JSON);
		printf(", \"pods\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_PODS, MSTAT_LEAK_FMT_JSON);
		printf(", \"units\": ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_UNITS, MSTAT_LEAK_FMT_JSON);
		printf(",\n     \"rate_bps\": ");
		mstat_json_num(stdout, s->rate);
		printf(", \"rate_low_bps\": ");
		mstat_json_num(stdout, s->low);
		printf(", \"rate_high_bps\": ");
		mstat_json_num(stdout, s->high);
		printf(",\n     \"samples\": %d, \"oldest_s\": ", s->k);
		mstat_json_num(stdout, s->oldest);
		printf(", \"usual_lifetime_s\": ");
		mstat_json_num(stdout, s->usual);
		printf(", \"frees_seen\": %zu", s->nlife);
		if (lk->history) {
			printf(",\n     \"sampled_frees\": %lld, \"churn_horizon_s\": ",
			       s->frees);
			mstat_json_num(stdout, s->churn);
		}
		printf("}");
	}
	for (i = 0; i < ncs; i++) {
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(cs[i]->name, names,
							sizeof(names)));
		printf(",\n     \"rate_bps\": ");
		mstat_json_num(stdout, cs[i]->tr.rate);
		printf(", \"rate_low_bps\": ");
		mstat_json_num(stdout, cs[i]->tr.low);
		printf(", \"rate_high_bps\": ");
		mstat_json_num(stdout, cs[i]->tr.high);
		printf(",\n     \"explained\": %s}",
		       mstat_leak_explained(cs[i]) ? "true" : "false");
	}
	printf("%s],\n  \"unexplained\": [", first ? "" : "\n  ");
	first = true;
	for (i = 0; i < ncs; i++) {
		if (mstat_leak_explained(cs[i]))
			continue;
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(cs[i]->name, names,
							sizeof(names)));
		printf(", \"why\": \"grows, no sampled stack yet\"}");
	}
	for (i = 0; i < lk->nst; i++)
		if (lk->st[i].contradicted)
			mstat_leak_json_stack_ref(&lk->st[i], true,
						  "grows while its cache does not",
						  &first);
	printf("%s],\n  \"filling\": [", first ? "" : "\n  ");
	first = true;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->tr.filling)
			continue;
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(fc->name, names,
							sizeof(names)));
		printf(", \"live_bytes\": ");
		mstat_json_num(stdout, fc->x[lk->w->n - 1]);
		printf(", \"plateau_bytes\": ");
		mstat_json_num(stdout, fc->tr.plateau);
		printf(", \"tau_s\": ");
		mstat_json_num(stdout, fc->tr.tau);
		printf("}");
	}
	for (i = 0; i < lk->nst; i++)
		if (lk->st[i].filling)
			mstat_leak_json_stack_ref(&lk->st[i], false, NULL, &first);
	printf("%s],\n  \"lazy\": [", first ? "" : "\n  ");
	first = true;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->lazy)
			continue;
		printf("%s\n    {\"kind\": \"cache\", \"cache\": ", first ? "" : ",");
		first = false;
		mstat_json_str(stdout, mstat_slab_label(fc->name, names,
							sizeof(names)));
		printf(", \"rate_bps\": ");
		mstat_json_num(stdout, fc->tr.rate);
		printf(", \"why\": \"freed lazily by the kernel\"}");
	}
	for (i = 0; i < lk->nst; i++)
		if (lk->st[i].lazy)
			mstat_leak_json_stack_ref(&lk->st[i], false, NULL, &first);
	printf("%s],\n  \"not_growing\": [", first ? "" : "\n  ");
	first = true;
	for (i = 0; i < lk->nst; i++) {
		const char *why = mstat_leak_not_growing(&lk->st[i]);

		if (!why)
			continue;
		mstat_leak_json_stack_ref(&lk->st[i], false, why, &first);
	}
	printf("%s]\n}\n", first ? "" : "\n  ");
}

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

static void mstat_leak_prom_verdict(FILE *f, struct mstat_leaks *lk,
				    const int *ord, int ns,
				    struct mstat_leak_cache **cs, int ncs)
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

static void mstat_leak_text(struct mstat_leaks *lk, const int *ord, int ns,
			    struct mstat_leak_cache **cs, int ncs)
{
	char a[32], b[32], c[32], names[MSTAT_SLAB_LABEL_MAX];
	size_t j;
	int i, nu = 0;

	printf("mstat leaks: %d read%s over %.0f s, sample rate %lld, confidence %g%s\n",
	       lk->reads, lk->reads == 1 ? "" : "s", lk->t1 - lk->t0, lk->rate,
	       lk->o->confidence,
	       lk->ages ? "" : " (no sampled ages: format 2.2 needed for stacks)");
	if (lk->interrupted)
		printf("interrupted after %d of %d reads: the verdict so far\n",
		       lk->reads, lk->planned);
	if (lk->history)
		printf("judged from the profile's history of %.0f s (since mstat's load, its rate's last change, a reset or dropped entries)\n",
		       lk->s1 - lk->sv);
	else if (lk->restarts)
		printf("the samples from %.0f s in (the module dropped its address table %d time%s: a source switched, a reset or missed frees)\n",
		       lk->sv - lk->s0, lk->restarts,
		       lk->restarts > 1 ? "s" : "");
	if (!ns && !ncs && !lk->judged)
		printf("no verdict: not enough reads to judge (%d; at confidence %g the exact counts need %d)\n",
		       lk->reads, lk->o->confidence,
		       mstat_leak_min_reads(lk->o->confidence));
	else if (!ns && !ncs)
		printf("no suspect: nothing grows without bound\n");
	for (i = 0; i < ns; i++) {
		const struct mstat_leak_stack *s = &lk->st[ord[i]];

		printf("\nLEAK stack %s\n", s->site);
		printf("  rate %s/s (%g%%: %s/s to %s/s) from %d samples, %s %.0f s%s",
		       mstat_bytes(a, s->rate), lk->o->confidence * 100,
		       mstat_bytes(b, s->low), mstat_bytes(c, s->high), s->k,
		       lk->history ? "began" : "oldest", s->oldest,
		       lk->history ? " ago or before" : "");
		if (lk->history && s->frees && !s->nlife)
			printf(", %lld sampled frees since load: its objects older than %.0f s only\n",
			       s->frees, s->min_age);
		else if (!s->nlife)
			printf(", no sampled free\n");
		else if (isnan(s->usual))
			printf(", %zu sampled free%s, none usual for the stack\n",
			       s->nlife, s->nlife > 1 ? "s" : "");
		else
			printf(", usual lifetime %.1f s (%zu frees)\n", s->usual,
			       s->nlife);
		printf("  cgroups ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CGROUPS, MSTAT_LEAK_FMT_TEXT);
		printf("; caches ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_CACHES, MSTAT_LEAK_FMT_TEXT);
		printf("; nodes ");
		mstat_leak_labels(stdout, lk, ord[i], MSTAT_LEAK_NODES, MSTAT_LEAK_FMT_TEXT);
		mstat_leak_fleet_words(lk, ord[i]);
		printf("\n");
		for (j = 0; j < s->nframe; j++)
			printf("    %s\n", s->frame[j]);
	}
	for (i = 0; i < ncs; i++) {
		printf("\nLEAK cache %s\n",
		       mstat_slab_label(cs[i]->name, names, sizeof(names)));
		printf("  live bytes grow %s/s (%g%%: %s/s to %s/s)%s\n",
		       mstat_bytes(a, cs[i]->tr.rate), lk->o->confidence * 100,
		       mstat_bytes(b, cs[i]->tr.low), mstat_bytes(c, cs[i]->tr.high),
		       mstat_leak_explained(cs[i]) ? ", explained by the stacks above" :
		       ", no sampled stack explains it yet");
	}
	for (i = 0; i < lk->nst; i++) {
		if (!lk->st[i].contradicted)
			continue;
		if (!nu++)
			printf("\nUnexplained (no verdict):\n");
		printf("  stack %s grows (%s/s at least) while its cache %s does not\n",
		       lk->st[i].site, mstat_bytes(a, lk->st[i].low),
		       mstat_slab_label(lk->st[i].cache, names, sizeof(names)));
	}
	nu = 0;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->tr.filling)
			continue;
		if (!nu++)
			printf("\nFilling, not leaking (the rate falls toward a plateau):\n");
		printf("  cache %s: %s live, toward %s (time constant %.0f s)\n",
		       mstat_slab_label(fc->name, names, sizeof(names)), mstat_bytes(a, fc->x[lk->w->n - 1]),
		       mstat_bytes(b, fc->tr.plateau), fc->tr.tau);
		for (j = 0; j < (size_t)lk->nst; j++)
			if (lk->st[j].filling && !strcmp(mstat_leak_cache_named(lk->w,
					lk->st[j].cache)->name, fc->name))
				printf("    stack %s\n", lk->st[j].site);
	}
	nu = 0;
	for (i = 0; i < lk->nst; i++) {
		const char *why = mstat_leak_not_growing(&lk->st[i]);

		if (!why)
			continue;
		if (!nu++)
			printf("\nLive since, not growing now (the history's births):\n");
		printf("  stack %s: %d samples, %s\n", lk->st[i].site,
		       lk->st[i].k, why);
	}
	nu = 0;
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];

		if (!fc->lazy)
			continue;
		if (!nu++)
			printf("\nFreed lazily by the kernel, not judged:\n");
		printf("  cache %s: grows %s/s (vfree() purges its areas in batches)\n",
		       mstat_slab_label(fc->name, names, sizeof(names)),
		       mstat_bytes(a, fc->tr.rate));
		for (j = 0; j < (size_t)lk->nst; j++)
			if (lk->st[j].lazy && !strcmp(mstat_leak_cache_named(lk->w,
					lk->st[j].cache)->name, fc->name))
				printf("    stack %s\n", lk->st[j].site);
	}
}

/*
 * The verdict of @lk, judged, as --prom (into -o's file), --json or
 * text: the suspect stacks by the low end of their rate, then the
 * caches; their count into *@suspects. Return: 0, or -1 if -o's file
 * could not be written (it said why).
 */
int mstat_leak_report(struct mstat_leaks *lk, int *suspects)
{
	const struct mstat_opts *o = lk->o;
	struct mstat_leak_cache **cs;
	int err = 0, i, ns = 0, ncs = 0, *ord;

	ord = mstat_alloc(NULL, (lk->nst + 1) * sizeof(*ord));
	for (i = 0; i < lk->nst; i++)
		if (lk->st[i].suspect)
			ord[ns++] = i;
	mstat_leak_sorting = lk;
	qsort(ord, ns, sizeof(*ord), mstat_leak_order_cmp);
	cs = mstat_alloc(NULL, (lk->w->nc + 1) * sizeof(*cs));
	for (i = 0; i < lk->w->nc; i++)
		if (lk->w->c[i].tr.suspect)
			cs[ncs++] = &lk->w->c[i];
	qsort(cs, ncs, sizeof(*cs), mstat_leak_cache_cmp);
	if (o->prom_out) {
		char tmp[4096];
		FILE *f = mstat_out_open(o->out, tmp, sizeof(tmp));

		err = -1;
		if (f) {
			mstat_leak_prom_verdict(f, lk, ord, ns, cs, ncs);
			err = mstat_out_close(f, o->out, tmp) ? -1 : 0;
		}
	} else if (o->json) {
		mstat_leak_json(lk, ord, ns, cs, ncs);
	} else {
		mstat_leak_text(lk, ord, ns, cs, ncs);
	}
	free(ord);
	free(cs);
	*suspects = ns + ncs;
	return err;
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

/**
 * mstat_leak_progress() - a watch's progress on a terminal
 * @lk: the reads so far, judged (mstat_leak_judge())
 * @planned: the reads the watch takes
 *
 * The screen redrawn after each read, as mstat top does: where the watch
 * is, the suspects so far (their rate and its interval at the confidence
 * asked, the samples they stand on; a cache's from the exact counts), and
 * what may still become one; each row cut at the terminal's width (the
 * site last: the whole stack is in the verdict).
 */
/* A row of the progress screen, cut at the terminal's width @cols. */
static void mstat_leak_progress_row(int cols, const char *kind,
				    const char *rate, const char *iv,
				    const char *samples, const char *since,
				    const char *what)
{
	char line[512];

	snprintf(line, sizeof(line), "%-6s %11s  %-27s %7s %8s  %s", kind, rate,
		 iv, samples, since, what);
	if (cols > 0 && (size_t)cols < strlen(line))
		line[cols] = '\0';
	puts(line);
}

void mstat_leak_progress(const struct mstat_leaks *lk, int planned)
{
	const struct mstat_opts *o = lk->o;
	char a[32], b[32], c[32], k[24], t[24], names[MSTAT_SLAB_LABEL_MAX];
	int i, ns = 0, watching = 0, need = mstat_leak_min_reads(o->confidence);
	struct winsize ws;
	int cols = 0;

	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws))
		cols = ws.ws_col;

	printf("\033[H\033[2J");
	printf("mstat leaks: read %d of %d, %.0f s of %.0f s; Ctrl-C ends the watch with the verdict so far\n",
	       lk->reads, planned, lk->t1 - lk->t0, o->duration);
	if (lk->history)
		printf("the stacks from the profile's history of %.0f s; ",
		       lk->s1 - lk->sv);
	else
		printf("the stacks from the samples born since the watch began; ");
	if (lk->reads < need)
		printf("the caches' exact counts from read %d\n", need);
	else
		printf("the caches' exact counts over %d reads\n", lk->w->n);
	putchar('\n');
	mstat_leak_progress_row(cols, "KIND", "RATE/s", "INTERVAL", "SAMPLES",
				"SINCE", "SITE OR CACHE");
	for (i = 0; i < lk->nst; i++) {
		const struct mstat_leak_stack *s = &lk->st[i];
		char iv[64];

		if (!s->suspect) {
			watching += s->judged && s->k > 0 && !s->stopped &&
				    !s->slowing && !s->crowded && !s->contradicted;
			continue;
		}
		ns++;
		snprintf(iv, sizeof(iv), "%s - %s", mstat_bytes(b, s->low),
			 mstat_bytes(c, s->high));
		snprintf(k, sizeof(k), "%d", s->k);
		snprintf(t, sizeof(t), "%.0f s", s->oldest);
		mstat_leak_progress_row(cols, "stack", mstat_bytes(a, s->rate),
					iv, k, t, s->site);
	}
	for (i = 0; i < lk->w->nc; i++) {
		const struct mstat_leak_cache *fc = &lk->w->c[i];
		char iv[64];

		if (!fc->tr.suspect)
			continue;
		ns++;
		snprintf(iv, sizeof(iv), "%s - %s", mstat_bytes(b, fc->tr.low),
			 mstat_bytes(c, fc->tr.high));
		mstat_leak_progress_row(cols, "cache", mstat_bytes(a, fc->tr.rate),
					iv, "exact", "-",
					mstat_slab_label(fc->name, names,
							 sizeof(names)));
	}
	if (!ns)
		printf("(no suspect yet)\n");
	printf("\n%d suspect%s at %g%%; %d stack%s with live samples too few or too young to say yet\n",
	       ns, ns == 1 ? "" : "s", o->confidence * 100, watching,
	       watching == 1 ? "" : "s");
	fflush(stdout);
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
	mstat_leak_sorting = &lk;
	qsort(ord, ns, sizeof(*ord), mstat_leak_order_cmp);
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
