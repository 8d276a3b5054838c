// SPDX-License-Identifier: GPL-2.0
/*
 * mstat leaks' stack tier (leaks.c states the method): each read's rows
 * of /proc/mstat_sites into stacks cut at an interrupt's entry, their
 * sampled objects' births and lifetimes, the leak-like samples at the
 * last read and each stack's verdict, from the watch or from the
 * history; the check of the stacks against their caches' exact growth;
 * and the judgement of both tiers (mstat_leak_judge()).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "leaks_int.h"
#include "stats.h"
#include "util.h"

#define MSTAT_LEAK_MIN_SAMPLES	5
/*
 * From the history, for a stack that never freed a sample: its births'
 * shape (stopped, slowing) is what tells a leak from a fill, and a leak
 * of 2 KiB/s leaves 7 samples in 30 minutes at the default rate. With 4
 * the test of a fill that stopped can reject one that ran for a tenth of
 * the span at (1 - 0.99) / 10; with 3 it cannot (test_history.sh's
 * simulated histories: 3 named such a fill in 3 of 60).
 */
#define MSTAT_LEAK_MIN_HISTORY	4
#define MSTAT_LEAK_TOLERANCE	1.0	/* s: one object's birth in two reads */
#define MSTAT_LEAK_ALIGNED	0.005	/* s: the same, the reads aligned */

/* The sampled objects' slab cache, when the file names it (2.2). */
static const char *mstat_site_cache(const struct mstat_site *r)
{
	return r->cache;
}

/*
 * The functions where an asynchronous interrupt's stack begins: a stack
 * sampled there, or in a softirq, goes on into the frames of whatever the
 * interrupt happened to stop (an idle loop, a syscall, another softirq's
 * caller), so one leak would be as many stacks as the code it interrupted.
 * A stack is cut after the first of them, the frame kept: the x86-64 entry
 * stubs of interrupts and of the exceptions that are interrupts (NMI,
 * machine check), arm64's irq and fiq vectors and its switch to the irq
 * stack, and the softirq loop, which also runs where a task enables
 * bottom halves and in ksoftirqd. A synchronous exception (a page fault,
 * asm_exc_page_fault) is not cut: the code that faulted is the caller.
 */
static const char *const mstat_leak_irq_entry[] = {
	"asm_sysvec_", "asm_common_interrupt", "asm_spurious_interrupt",
	"asm_exc_nmi", "asm_exc_machine_check",
	"el1h_64_irq", "el0t_64_irq", "el1h_64_fiq", "el0t_64_fiq",
	"el0t_32_irq", "el0t_32_fiq", "call_on_irq_stack",
	"handle_softirqs", "__do_softirq",
};

/* Is @frame ("func+0x1/0x2 [mod]") in an interrupt's entry? */
static bool mstat_leak_is_entry(const char *frame)
{
	size_t i, l, fl = strcspn(frame, "+ .");

	for (i = 0; i < ARRAY_SIZE(mstat_leak_irq_entry); i++) {
		l = strlen(mstat_leak_irq_entry[i]);
		/* A name ending in '_' is a prefix; else the whole name. */
		if (mstat_leak_irq_entry[i][l - 1] == '_' ?
		    fl > l && !strncmp(frame, mstat_leak_irq_entry[i], l) :
		    fl == l && !strncmp(frame, mstat_leak_irq_entry[i], l))
			return true;
	}
	return false;
}

/* How many of @r's frames are the stack's: up to an interrupt's entry. */
static size_t mstat_leak_nframe(const struct mstat_site *r)
{
	size_t i;

	if (mstat_leak_is_entry(r->text))
		return 0;
	for (i = 0; i < r->nframe; i++)
		if (mstat_leak_is_entry(r->frame[i]))
			return i + 1;
	return r->nframe;
}

static int mstat_leak_stack_get(struct mstat_leaks *lk, const struct mstat_site *r)
{
	struct mstat_buf b = { 0 };
	struct mstat_leak_stack *s;
	size_t i, nframe = mstat_leak_nframe(r);
	int at;

	mstat_buf_put(&b, r->text, strlen(r->text));
	for (i = 0; i < nframe; i++) {
		mstat_buf_put(&b, "\n", 1);
		mstat_buf_put(&b, r->frame[i], strlen(r->frame[i]));
	}
	mstat_buf_put(&b, "", 1);
	at = (int)mstat_strmap_find(&lk->stackmap, (char *)b.p);
	if (at >= 0) {
		free(b.p);
		return at;
	}
	if (lk->nst == lk->stcap) {
		lk->stcap = lk->stcap ? 2 * lk->stcap : 64;
		lk->st = mstat_alloc(lk->st, lk->stcap * sizeof(*lk->st));
	}
	s = &lk->st[lk->nst];
	memset(s, 0, sizeof(*s));
	s->site = mstat_strdup(r->text, strlen(r->text));
	s->nframe = nframe;
	s->frame = mstat_alloc(NULL, (nframe + 1) * sizeof(*s->frame));
	for (i = 0; i < nframe; i++)
		s->frame[i] = mstat_strdup(r->frame[i], strlen(r->frame[i]));
	mstat_strmap_add(&lk->stackmap, (char *)b.p);
	free(b.p);
	return lk->nst++;
}

static void mstat_leak_life(struct mstat_leak_stack *s, double life)
{
	if (s->nlife == s->lifecap) {
		s->lifecap = s->lifecap ? 2 * s->lifecap : 16;
		s->life = mstat_alloc(s->life, s->lifecap * sizeof(*s->life));
	}
	s->life[s->nlife++] = life;
}

static int mstat_cmp_obj(const void *a, const void *b)
{
	const struct mstat_leak_obj *x = a, *y = b;

	return (x->birth > y->birth) - (x->birth < y->birth);
}

/*
 * Row @rw's live samples now, @obj (@n, by birth), at time @t: those of
 * the last read not among them were freed; learn their lifetimes. An
 * object of the last read is the first of @obj not taken yet of its size
 * and within the tolerance of its birth, wherever it stands among the
 * others born within it: births a millisecond apart, or alike, need not
 * sort alike in two reads (their ages are taken at two moments), and an
 * object taken for freed would teach its stack a lifetime that hides the
 * stack's leak.
 */
static void mstat_leak_match(struct mstat_leaks *lk, struct mstat_leak_row *rw,
			     const struct mstat_leak_obj *obj, size_t n,
			     double t)
{
	struct mstat_leak_stack *s = &lk->st[rw->stack];
	bool *taken = n ? mstat_alloc(NULL, n * sizeof(*taken)) : NULL;
	size_t i, j = 0, k;

	if (n)
		memset(taken, 0, n * sizeof(*taken));
	if (rw->seen != lk->reads - 1)
		rw->n = 0;	/* not in the last read: nothing to match */
	for (i = 0; i < rw->n; i++) {
		const struct mstat_leak_obj *p = &rw->obj[i];

		/* Those born before p's window: born since, or taken. */
		while (j < n && (taken[j] || obj[j].birth < p->birth - lk->tol))
			j++;
		for (k = j; k < n && obj[k].birth <= p->birth + lk->tol; k++)
			if (!taken[k] && obj[k].bytes == p->bytes)
				break;
		if (k < n && obj[k].birth <= p->birth + lk->tol)
			taken[k] = true;
		else if (!lk->lost && p->birth >= lk->s0 - lk->tol)
			mstat_leak_life(s, (lk->sprev + t) / 2 - p->birth);
	}
	free(taken);
	if (n > rw->cap) {
		rw->cap = n;
		rw->obj = mstat_alloc(rw->obj, n * sizeof(*rw->obj));
	}
	if (n)
		memcpy(rw->obj, obj, n * sizeof(*obj));
	rw->n = n;
	rw->seen = lk->reads;
}

/*
 * The offset of this read's births from the last read's. A birth is a
 * read's time less an age the module took at its snapshot, a moment the
 * read's time only brackets: on a loaded machine the two differ by
 * something else at every read (a second, under TCG), more than two
 * births of one object may be trusted to agree, and an object taken for
 * freed teaches its stack a lifetime (which then hides its leak). But an
 * object live in both reads is older by exactly the time between the
 * two snapshots, so the births of all such objects are off by the same
 * offset, to the millisecond of the ages: the offset is where the
 * differences between the rows' births of the two reads (same row, same
 * size, within @win) crowd, two at least within 2 ms. Return true and
 * @off, or false (no two objects live in both reads).
 *
 * Of this read's objects, MSTAT_LEAK_PROBES at most, spread over all of
 * them, are paired with the last read's: every pair in the window of
 * each object would be quadratic in a stack's samples (a leak of 20,000
 * live samples of one size), and a few hundred objects live in both
 * reads crowd at the offset plainly enough.
 */
#define MSTAT_LEAK_PROBES	256

static bool mstat_leak_align(const struct mstat_leaks *lk, double win,
			     double *off)
{
	double *d = NULL, best = 0;
	size_t nd = 0, cap = 0, i, j, k, n = 0, bn = 0, all = 0, every, seen = 0;
	int r;

	for (r = 0; r < lk->nrow; r++)
		if (lk->row[r].now == lk->reads && lk->row[r].seen == lk->reads - 1)
			all += lk->row[r].pn;
	every = all / MSTAT_LEAK_PROBES + 1;
	for (r = 0; r < lk->nrow; r++) {
		const struct mstat_leak_row *rw = &lk->row[r];

		if (rw->now != lk->reads || rw->seen != lk->reads - 1)
			continue;
		for (i = 0, k = 0; i < rw->pn; i++) {
			const struct mstat_leak_obj *q = &rw->pend[i];

			while (k < rw->n && rw->obj[k].birth < q->birth - win)
				k++;
			if (seen++ % every)
				continue;
			for (j = k; j < rw->n && rw->obj[j].birth <= q->birth + win; j++) {
				if (rw->obj[j].bytes != q->bytes)
					continue;
				if (nd == cap) {
					cap = cap ? 2 * cap : 256;
					d = mstat_alloc(d, cap * sizeof(*d));
				}
				d[nd++] = q->birth - rw->obj[j].birth;
			}
		}
	}
	if (nd)
		qsort(d, nd, sizeof(*d), mstat_cmp_double);
	for (i = 0, j = 0; i < nd; i++) {
		while (d[i] - d[j] > 0.002)
			j++;
		n = i - j + 1;
		if (n > bn || (n == bn && fabs(d[(i + j) / 2]) < fabs(best))) {
			bn = n;
			best = d[(i + j) / 2];
		}
	}
	free(d);
	*off = best;
	return bn >= 2;
}

void mstat_leak_sites(struct mstat_leaks *lk,
		      const struct mstat_sites *ss, double t)
{
	double off, win;
	struct mstat_leak_row *rw;
	size_t r, i;
	char lab[96];
	int at;

	if (ss->age_ms > 0)
		t -= ss->age_ms / 1000.0;	/* a snapshot served again */
	t += lk->corr;
	lk->rate = ss->rate;
	/* Entries dropped without their frees since the last read. */
	lk->lost = lk->reads && ss->addr_phantoms >= 0 && lk->phantoms >= 0 &&
		   ss->addr_phantoms > lk->phantoms;
	if (ss->addr_phantoms >= 0)
		lk->phantoms = ss->addr_phantoms;
	for (r = 0; r < ss->n; r++) {
		const struct mstat_site *st = &ss->site[r];
		const char *cache = mstat_site_cache(st);
		struct mstat_buf key = { 0 };
		int sk = mstat_leak_stack_get(lk, st);

		if (st->nlive)
			lk->ages = true;
		snprintf(lab, sizeof(lab), "%d %lld %lld ", sk, st->cgroup,
			 st->node);
		mstat_buf_put(&key, lab, strlen(lab));
		mstat_buf_put(&key, cache ? cache : "-",
			      strlen(cache ? cache : "-") + 1);
		at = (int)mstat_strmap_find(&lk->rowmap, (char *)key.p);
		if (at < 0) {
			if (lk->nrow == lk->rowcap) {
				lk->rowcap = lk->rowcap ? 2 * lk->rowcap : 64;
				lk->row = mstat_alloc(lk->row,
						      lk->rowcap * sizeof(*lk->row));
			}
			rw = &lk->row[lk->nrow];
			memset(rw, 0, sizeof(*rw));
			rw->stack = sk;
			rw->cgroup = st->cgroup;
			if (!lk->o->from)
				mstat_leak_cg_learn(lk, st->cgroup);
			rw->node = st->node;
			rw->cache = cache ? mstat_strdup(cache, strlen(cache)) : NULL;
			rw->seen = -2;
			rw->now = -1;
			mstat_strmap_add(&lk->rowmap, (char *)key.p);
			at = lk->nrow++;
		}
		free(key.p);
		rw = &lk->row[at];
		if (rw->now != lk->reads) {
			rw->now = lk->reads;
			rw->pn = 0;
			rw->frees = 0;
		}
		/* Its frees, not the entries the module dropped (2.5). */
		rw->frees += st->frees - st->drops;
		if (rw->pn + st->nlive > rw->pcap) {
			rw->pcap = rw->pn + st->nlive;
			rw->pend = mstat_alloc(rw->pend,
					       rw->pcap * sizeof(*rw->pend));
		}
		for (i = 0; i < st->nlive; i++) {
			rw->pend[rw->pn].birth = t - st->live[i].age_ms / 1000.0;
			rw->pend[rw->pn++].bytes = st->live[i].bytes;
		}
	}
	for (at = 0; at < lk->nrow; at++) {
		rw = &lk->row[at];
		if (rw->now == lk->reads)
			qsort(rw->pend, rw->pn, sizeof(*rw->pend), mstat_cmp_obj);
	}
	/* This read's births on the last read's clock, if they can be. */
	lk->tol = MSTAT_LEAK_TOLERANCE;
	win = lk->reads ? (t - lk->s1) / 2 : 0;
	if (win > 10)
		win = 10;
	if (lk->reads && mstat_leak_align(lk, win, &off)) {
		lk->tol = MSTAT_LEAK_ALIGNED;
		lk->corr -= off;
		t -= off;
		for (at = 0; at < lk->nrow; at++) {
			rw = &lk->row[at];
			for (i = 0; rw->now == lk->reads && i < rw->pn; i++)
				rw->pend[i].birth -= off;
		}
	}
	lk->sprev = lk->reads ? lk->s1 : t;
	lk->s1 = t;
	if (!lk->reads)
		lk->s0 = lk->sv = t;
	/*
	 * The history: every live sample born since its start is in the
	 * read, so births count from there; a later read's history that
	 * begins later (the rate changed, a reset, entries dropped) moves
	 * the start up. Its counts' span, for the churn's horizon.
	 */
	if (ss->history_ms >= 0 && (!lk->reads || lk->history)) {
		double hs = t - ss->history_ms / 1000.0;

		if (lk->reads && hs > lk->sv + lk->tol)
			lk->restarts++;
		if (!lk->reads || hs > lk->sv + lk->tol)
			lk->sv = hs;
		lk->history = true;
		lk->counts = ss->counts_ms >= 0 ? ss->counts_ms / 1000.0 : -1;
	} else {
		lk->history = false;
	}
	if (lk->lost && !lk->history) {
		/*
		 * Births since the last read may have been dropped: count
		 * from it again (those dropped before it, older, are gone).
		 */
		lk->sv = lk->sprev;
		lk->restarts++;
	}
	for (at = 0; at < lk->nrow; at++) {
		rw = &lk->row[at];
		if (rw->now == lk->reads) {
			mstat_leak_match(lk, rw, rw->pend, rw->pn, t);
		} else if (rw->seen == lk->reads - 1 && lk->reads > 0) {
			/* The last read had it and this one has not: all freed. */
			mstat_leak_match(lk, rw, NULL, 0, t);
		}
		if (rw->seen != lk->reads)
			rw->n = 0;
	}
}

/* Bytes a sample of @bytes stands for at rate @rate. */
static double mstat_leak_weight(long long bytes, long long rate)
{
	return bytes * mstat_sample_scale((double)bytes, (double)rate);
}

/* Is @o, a live sample at the end of the watch, leak-like for @s? */
bool mstat_leak_like(const struct mstat_leaks *lk,
		     const struct mstat_leak_obj *o, double min_age)
{
	double age = lk->s1 - o->birth;

#ifdef MSTAT_LEAKS_WEAK
	(void)min_age;
	return o->birth >= (lk->history ? lk->sv : lk->s0) - MSTAT_LEAK_TOLERANCE &&
	       age >= 0;
#else
	return o->birth >= lk->sv - MSTAT_LEAK_TOLERANCE && age >= min_age;
#endif
}

/*
 * The longest lifetime usual for stack @si: the longest of its learnt
 * lifetimes at which a tenth at least of its sampled objects that lived
 * as long were freed (then or later), among those born since the watch
 * began (@lives, @n, sorted) and those live at the last read. A free
 * that most of the objects as old as it outlived (one long-lived object
 * of a stack that leaks, the rest of its objects still live and older)
 * tells of it alone, not of the stack. 0 when none is.
 */
static double mstat_leak_usual_life(const struct mstat_leaks *lk, int si,
				    const double *lives, size_t n)
{
	double *ages = NULL, L = 0;
	size_t na = 0, cap = 0, i, j, a;
	int x;

	for (x = lk->stack_at[si]; x < lk->stack_at[si + 1]; x++) {
		const struct mstat_leak_row *rw = &lk->row[lk->by_stack[x]];

		if (rw->seen != lk->reads - 1)
			continue;
		for (j = 0; j < rw->n; j++) {
			if (rw->obj[j].birth < lk->s0 - lk->tol)
				continue;
			if (na == cap) {
				cap = cap ? 2 * cap : 64;
				ages = mstat_alloc(ages, cap * sizeof(*ages));
			}
			ages[na++] = lk->s1 - rw->obj[j].birth;
		}
	}
	if (na)
		qsort(ages, na, sizeof(*ages), mstat_cmp_double);
	/* From the longest: n - i frees at lives[i] or later, a live older. */
	for (i = n, a = na; i-- > 0;) {
		while (a > 0 && ages[a - 1] >= lives[i])
			a--;
		if (10 * (n - i) >= (n - i) + (na - a)) {
			L = lives[i];
			break;
		}
	}
	free(ages);
	return L;
}

/*
 * The horizon of stack @si's churn from its history, in one read: the
 * stack's sampled frees since its counts began (lk->counts s) say it
 * frees at least frees/counts samples a second; were its k live samples
 * of that churn, their mean lifetime would be k counts / frees (Little's
 * law). Twice that: the ages a churn of that mean lifetime leaves live
 * beyond it are a tail that crowds toward it (mstat_leak_judge_stack()'s
 * test), not births spread evenly. A leak on the same stack (an error
 * path's) would lengthen it with its own samples, the older the more:
 * so k counts only the samples younger than the horizon, which is then
 * the largest H with H = 2 k(H) counts / frees, found from H = infinity
 * down (k(H) grows with H, so each step shortens it, and it stops at
 * that fixed point or at 0). 0 for a stack that never freed a sample.
 */
static double mstat_leak_churn(const struct mstat_leaks *lk, int si)
{
	const struct mstat_leak_stack *s = &lk->st[si];
	double per, H = INFINITY, next;
	long long k;
	size_t j;
	int x;

	if (!lk->history || lk->counts <= 0 || !s->frees)
		return 0;
	per = lk->counts / s->frees;
	for (;;) {
		k = 0;
		for (x = lk->stack_at[si]; x < lk->stack_at[si + 1]; x++) {
			const struct mstat_leak_row *rw = &lk->row[lk->by_stack[x]];

			if (rw->seen != lk->reads - 1)
				continue;
			for (j = 0; j < rw->n; j++)
				k += lk->s1 - rw->obj[j].birth < H;
		}
		next = 2 * (double)k * per;
		if (next >= H)
			return H;
		H = next;
	}
}

/*
 * What a stack's leak-like samples (older than @A) tell of their births,
 * from the history: @k of them, the oldest @S s old, the youngest @y,
 * and the mean age of the @k - 1 but the oldest. Given the oldest, a
 * steady leak's other births are uniform over (A, S) whenever it began.
 */
struct mstat_leak_shape {
	int k;
	double S, y, mean;
};

static void mstat_leak_shape(const struct mstat_leaks *lk, int si, double A,
			     struct mstat_leak_shape *sh)
{
	double age, sum = 0;
	size_t j;
	int x;

	memset(sh, 0, sizeof(*sh));
	sh->y = INFINITY;
	for (x = lk->stack_at[si]; x < lk->stack_at[si + 1]; x++) {
		const struct mstat_leak_row *rw = &lk->row[lk->by_stack[x]];

		if (rw->seen != lk->reads - 1)
			continue;
		for (j = 0; j < rw->n; j++) {
			if (!mstat_leak_like(lk, &rw->obj[j], A))
				continue;
			age = lk->s1 - rw->obj[j].birth;
			sh->k++;
			sum += age;
			if (age > sh->S)
				sh->S = age;
			if (age < sh->y)
				sh->y = age;
		}
	}
	if (sh->k > 1)
		sh->mean = (sum - sh->S) / (sh->k - 1);
}

/*
 * A stack judged from the history (leaks.c): its leak-like samples'
 * births against a steady leak's, each test at level (1 - @conf) / 10,
 * so that a steady leak is kept by the three at 1 - 3 (1 - conf) / 10 at
 * least. Given the oldest, the k - 1 others of a steady leak are uniform
 * over (A, S):
 *  - stopped: the youngest is older than a steady leak leaves its last
 *    birth, P(all k - 1 older than y) = (1 - (y - A) / (S - A))^(k - 1)
 *    below the level (a fill that ended, objects kept since boot);
 *  - slowing or crowded: Laplace's test of a trend in a Poisson
 *    process, the mean age of the k - 1 against (A + S) / 2, its
 *    standard deviation (S - A) / sqrt(12 (k - 1)), two-sided: older on
 *    average (births slowing: a cache warming toward a bound);
 *    younger on average (births crowding toward now) when the stack
 *    frees: a tail of lifetimes longer than its churn's horizon, or a
 *    leak that speeds up, which the watch's reads then tell apart.
 * And the span of the leak's births: from A to S and the gap before S a
 * steady leak leaves on average, (S - A) / k, at most @Te.
 */
static double mstat_leak_judge_history(struct mstat_leak_stack *s,
				       const struct mstat_leak_shape *sh,
				       double A, double Te, double conf)
{
	double span = sh->S - A, z, sd, alpha = (1 - conf) / 10;

	if (sh->k < 2 || span <= 0)
		return Te;
	if (pow(1 - (sh->y - A) / span, sh->k - 1) < alpha)
		s->stopped = true;
	sd = span / sqrt(12.0 * (sh->k - 1));
	z = (sh->mean - (A + sh->S) / 2) / sd;
	if (z > mstat_norm_q(1 - alpha / 2))
		s->slowing = true;
	else if (s->frees && z < -mstat_norm_q(1 - alpha / 2))
		s->crowded = true;
	span *= (sh->k + 1.0) / sh->k;
	return span < Te ? span : Te;
}

void mstat_leak_judge_stack(struct mstat_leaks *lk, int si)
{
	struct mstat_leak_stack *s = &lk->st[si];
	double T = lk->s1 - lk->sv, dt;
	double conf = lk->o->confidence, A = 0, Te, w, mid, best = 0, *lives;
	double cache_bytes[64];
	const char *caches[64];
	int nc = 0, i, x;
	size_t j;

	for (x = lk->stack_at[si]; x < lk->stack_at[si + 1]; x++)
		if (lk->row[lk->by_stack[x]].now == lk->reads - 1)
			s->frees += lk->row[lk->by_stack[x]].frees;

	dt = lk->reads > 1 ? (lk->s1 - lk->s0) / (lk->reads - 1) : T;
	s->usual = NAN;
	if (s->nlife) {
		lives = mstat_alloc(NULL, s->nlife * sizeof(*lives));
		memcpy(lives, s->life, s->nlife * sizeof(*lives));
		qsort(lives, s->nlife, sizeof(*lives), mstat_cmp_double);
		s->usual = mstat_leak_usual_life(lk, si, lives, s->nlife);
		A = 1.5 * s->usual + 2 * dt;
		if (!s->usual)
			s->usual = NAN;	/* frees, none usual */
		free(lives);
	}
	s->churn = mstat_leak_churn(lk, si);
	if (s->churn > A)
		A = s->churn;
#ifdef MSTAT_LEAKS_WEAK
	A = 0;
#endif
	s->min_age = A;
	Te = T - A;
	s->rate = 0;
	s->low = 0;
	s->high = INFINITY;
	s->oldest = NAN;
	if (Te <= T / 4 || T <= 0)
		return;		/* lives too long for this watch to judge */
	s->judged = true;
	if (lk->history) {
		struct mstat_leak_shape sh;

		mstat_leak_shape(lk, si, A, &sh);
		Te = mstat_leak_judge_history(s, &sh, A, Te, conf);
	}
	mid = lk->s1 - A - Te / 2;
	for (x = lk->stack_at[si]; x < lk->stack_at[si + 1]; x++) {
		const struct mstat_leak_row *rw = &lk->row[lk->by_stack[x]];

		if (rw->seen != lk->reads - 1)
			continue;
		for (j = 0; j < rw->n; j++) {
			const struct mstat_leak_obj *o = &rw->obj[j];

			if (!mstat_leak_like(lk, o, A))
				continue;
			w = mstat_leak_weight(o->bytes, lk->rate);
			s->k++;
			s->bytes += w;
			s->bytes2 += w * w;
			if (w > s->wmax)
				s->wmax = w;
			s->later += o->birth >= mid;
			if (isnan(s->oldest) || lk->s1 - o->birth > s->oldest)
				s->oldest = lk->s1 - o->birth;
			if (!rw->cache)
				continue;
			for (i = 0; i < nc && strcmp(caches[i], rw->cache); i++)
				;
			if (i == nc && nc < (int)ARRAY_SIZE(caches)) {
				caches[nc] = rw->cache;
				cache_bytes[nc++] = 0;
			}
			if (i < nc)
				cache_bytes[i] += w;
		}
	}
	for (i = 0; i < nc; i++) {
		if (cache_bytes[i] > best) {
			best = cache_bytes[i];
			s->cache = caches[i];
		}
	}
	s->cache_frac = s->bytes > 0 ? best / s->bytes : 0;
	if (!s->k)
		return;
	s->rate = s->bytes / Te;
	mstat_weighted_poisson(s->bytes, s->bytes2, s->wmax, conf, &s->low,
			       &s->high);
	s->low /= Te;
	s->high /= Te;
	s->suspect = s->k >= (lk->history && !s->frees ?
			      MSTAT_LEAK_MIN_HISTORY : MSTAT_LEAK_MIN_SAMPLES) &&
		     s->low > lk->o->min_rate;
#ifndef MSTAT_LEAKS_WEAK
	if (lk->history) {
		/* Said only of a stack that would be a suspect otherwise. */
		if (!s->suspect)
			s->stopped = s->slowing = s->crowded = false;
		else if (s->stopped || s->slowing || s->crowded)
			s->suspect = false;
		return;
	}
	/*
	 * Not a fill that stopped: the later half of the exposure has a rate
	 * half the earlier's at least, so a third of the births or more
	 * (rejected when fewer are unlikely at 1 - conf).
	 */
	if (mstat_binom_cdf(s->k, s->later, 1 / 3.0) < 1 - conf)
		s->suspect = false;
#endif
}

/* The stacks against the caches. */
void mstat_leak_cross(struct mstat_leaks *lk)
{
	struct mstat_leak_cache *c;
#ifndef MSTAT_LEAKS_WEAK
	double share;
#endif
	int i;

	for (i = 0; i < lk->nst; i++) {
		struct mstat_leak_stack *s = &lk->st[i];

		if (!s->suspect || !s->cache)
			continue;
		c = mstat_leak_cache_named(lk->w, s->cache);
		if (!c || !c->tr.judged)
			continue;
#ifndef MSTAT_LEAKS_WEAK
		/*
		 * Its cache grows slower than its share of it, over the watch
		 * or in its later half (a fill that stopped, too young a
		 * stack for its samples to say so); a stack of several sizes
		 * has its bytes in several caches, and only those in its
		 * cache go into this one.
		 */
		share = s->low * s->cache_frac;
		if (c->tr.high < share || c->tr.late_high < share) {
			s->suspect = false;
			s->contradicted = true;
			continue;
		}
		/* Its cache fills toward a plateau: so do its objects. */
		if (c->tr.filling) {
			s->suspect = false;
			s->filling = true;
			continue;
		}
		/* Its cache is freed lazily: so are its objects. */
		if (c->lazy) {
			s->suspect = false;
			s->lazy = true;
			continue;
		}
#endif
		c->explained_high += s->high;
	}
}

/*
 * Each stack's rows, once a judgement: @by_stack the rows' indices by
 * stack, stack si's from @stack_at[si] to @stack_at[si + 1], so that each
 * stack's verdict walks its own rows, not every row (mstat serve judges
 * at every snapshot).
 */
static void mstat_leak_group(struct mstat_leaks *lk)
{
	int i;

	lk->stack_at = mstat_alloc(lk->stack_at,
				   (lk->nst + 2) * sizeof(*lk->stack_at));
	lk->by_stack = mstat_alloc(lk->by_stack,
				   (lk->nrow + 1) * sizeof(*lk->by_stack));
	memset(lk->stack_at, 0, (lk->nst + 2) * sizeof(*lk->stack_at));
	for (i = 0; i < lk->nrow; i++)
		lk->stack_at[lk->row[i].stack + 2]++;
	for (i = 0; i < lk->nst; i++)
		lk->stack_at[i + 2] += lk->stack_at[i + 1];
	for (i = 0; i < lk->nrow; i++)
		lk->by_stack[lk->stack_at[lk->row[i].stack + 1]++] = i;
}

/**
 * mstat_leak_judge() - judge both tiers as of the last read
 * @lk: the reads so far
 *
 * Again at each read of a watch on a terminal or with --until-sure: each
 * judgement starts from the reads, not from the last one's verdict.
 *
 * Return: the suspects, stacks and caches.
 */
int mstat_leak_judge(struct mstat_leaks *lk)
{
	const struct mstat_opts *o = lk->o;
	struct mstat_leak_stack *s;
	int i, n = 0;

	for (i = 0; i < lk->w->nc; i++)
		lk->w->c[i].explained_high = 0;
	mstat_leak_window_judge(lk->w, o->confidence, o->min_rate);
	mstat_leak_group(lk);
	for (i = 0; i < lk->nst; i++) {
		s = &lk->st[i];
		memset(&s->k, 0, sizeof(*s) - offsetof(struct mstat_leak_stack, k));
		mstat_leak_judge_stack(lk, i);
	}
	mstat_leak_cross(lk);
	lk->judged = false;
	for (i = 0; i < lk->w->nc && !lk->judged; i++)
		lk->judged = lk->w->c[i].tr.judged;
	/* From the history, the stacks judge alone. */
	for (i = 0; i < lk->nst && lk->history && !lk->judged; i++)
		lk->judged = lk->st[i].judged;
	for (i = 0; i < lk->nst; i++)
		n += lk->st[i].suspect;
	for (i = 0; i < lk->w->nc; i++)
		n += lk->w->c[i].tr.suspect;
	return n;
}

/* Everything @lk holds (not @lk itself). */
void mstat_leaks_free(struct mstat_leaks *lk)
{
	size_t j;
	int i;

	for (i = 0; i < lk->ncg; i++)
		free(lk->cg_path[i]);
	free(lk->cg_id);
	free(lk->cg_path);

	for (i = 0; i < lk->nst; i++) {
		free(lk->st[i].site);
		for (j = 0; j < lk->st[i].nframe; j++)
			free(lk->st[i].frame[j]);
		free(lk->st[i].frame);
		free(lk->st[i].life);
	}
	for (i = 0; i < lk->nrow; i++) {
		free(lk->row[i].obj);
		free(lk->row[i].pend);
		free(lk->row[i].cache);
	}
	free(lk->st);
	free(lk->row);
	free(lk->stack_at);
	free(lk->by_stack);
	mstat_strmap_free(&lk->stackmap);
	mstat_strmap_free(&lk->rowmap);
	mstat_leak_window_free(lk->w);
	if (lk->cg)
		mstat_cgroups_free(lk->cg);
}
