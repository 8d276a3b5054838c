// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' verdict written: as text, as JSON (json.c's writer), and
 * on a terminal the watch's progress; as Prometheus text, leaks_prom.c.
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
#include "leaks_int.h"
#include "slab.h"
#include "stats.h"
#include "util.h"

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
	mstat_leak_sort(lk, ord, ns);
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
