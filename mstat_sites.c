// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/mstat_sites' reader (layer 2, beside the profile it reads): the
 * sampled heap profile as of a fresh snapshot, as rows.
 *
 * A read takes a snapshot whose copy (mstat_sites_copy(), mstat_profile.c,
 * which keeps the tables' layout) fills the rows and the live objects
 * under the core's lock, then here, outside it: each row's figures
 * scaled up from the sampled ones to estimates (mstat_scale()), the rows
 * sorted by estimated bytes in use, and each row given its live objects,
 * oldest first. Nothing here runs on the allocation path.
 *
 * The buffers of one read are kept for the next (the spare below), so
 * that a reader polling /proc/mstat_sites makes no vmalloc() a read.
 */
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "mstat_compat.h"
#include "mstat_profile.h"
#include "mstat_sites.h"
#include "mstat_stats.h"

/**
 * mstat_row_inuse() - a site's sampled bytes in use
 * @r: the site
 *
 * A free subtracts the bytes its own sample added, from the same bucket,
 * and only if that sample was counted after the last reset, which clears
 * the buckets' figures at the cut where it clears the counters
 * (mstat_profile_reset()).
 *
 * Return: allocated minus freed sampled bytes; signed, so that a free
 * published before its allocation would read as a negative figure, not
 * as a wrapped one.
 */
s64 mstat_row_inuse(const struct mstat_site_row *r)
{
	return r->v[MSTAT_B_ABYTES] - r->v[MSTAT_B_FBYTES];
}

/* By estimated bytes in use, descending; then allocations, then site. */
static int mstat_row_cmp(const void *a, const void *b)
{
	const struct mstat_site_row *p = a, *q = b;
	s64 x = p->est_bytes, y = q->est_bytes;

	if (x != y)
		return x < y ? 1 : -1;
	if (p->v[MSTAT_B_ALLOCS] != q->v[MSTAT_B_ALLOCS])
		return p->v[MSTAT_B_ALLOCS] < q->v[MSTAT_B_ALLOCS] ? 1 : -1;
	return p->site < q->site ? -1 : p->site > q->site;
}

/*
 * Scale sampled figures of a site up to estimates of the true ones:
 * val / p, p the chance in 2^-32 (at most 2^32, so the quotient is at
 * least val). It fits 64 bits while (val >> 32) < p; else it is more than
 * S64_MAX, what the estimates, s64, saturate to anyway. The guard keeps
 * mul_u64_u64_div_u64()'s quotient within 64 bits and its divisor non-zero
 * (its divq raises #DE, an oops, on x86_64 otherwise).
 */
static u64 mstat_scale(u64 val, const struct mstat_site_row *r,
		       unsigned long rate)
{
	u64 avg, p;

	if (rate <= 1 || !r->v[MSTAT_B_ALLOCS])
		return val;
	avg = div64_u64(r->v[MSTAT_B_ABYTES], r->v[MSTAT_B_ALLOCS]);
	p = mstat_sample_prob_q32(avg, rate);
	if (!p)
		return val;
	if ((val >> 32) >= p)
		return U64_MAX;
	return mul_u64_u64_div_u64(val, 1ULL << 32, p);
}

/*
 * mstat_scale() for a signed in-use figure (see mstat_row_inuse()): the
 * magnitude scaled, saturated at +-S64_MAX, never wrapped into the other
 * sign.
 */
static s64 mstat_scale_signed(s64 val, const struct mstat_site_row *r,
			      unsigned long rate)
{
	u64 mag = val < 0 ? -(u64)val : val;
	s64 est = min_t(u64, mstat_scale(mag, r, rate), S64_MAX);

	return val < 0 ? -est : est;
}

/* By bucket, then oldest first. */
static int mstat_live_cmp(const void *a, const void *b)
{
	const struct mstat_live *p = a, *q = b;

	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->time < q->time ? -1 : p->time > q->time;
}

/* The first of @ss->live in bucket @b, by bisection. */
static unsigned int mstat_live_first(const struct mstat_sites *ss,
				     const void *b)
{
	unsigned int lo = 0, hi = ss->nlive;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ss->live[mid].b < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * One profile's buffers kept for the next read: a read would otherwise
 * vmalloc two areas, whose vfree() is lazy, so that a reader polling
 * /proc/mstat_sites would see the vmap_area cache grow by two objects a
 * read (`mstat leaks` took it for a leak). Under its own lock; the
 * buffers' size is fixed while the module is loaded.
 */
static struct mstat_sites *mstat_sites_spare;
static DEFINE_SPINLOCK(mstat_sites_spare_lock);

static void mstat_sites_vfree(struct mstat_sites *ss)
{
	if (IS_ERR_OR_NULL(ss))
		return;
	vfree(ss->live);
	vfree(ss);
}

/**
 * mstat_sites_free() - give back what mstat_profile_read() gave
 * @ss: the profile, or an ERR_PTR() or NULL
 *
 * Kept for the next read if none is, else freed.
 */
void mstat_sites_free(struct mstat_sites *ss)
{
	if (IS_ERR_OR_NULL(ss))
		return;
	spin_lock(&mstat_sites_spare_lock);
	if (!mstat_sites_spare && ss->live) {
		mstat_sites_spare = ss;
		ss = NULL;
	}
	spin_unlock(&mstat_sites_spare_lock);
	mstat_sites_vfree(ss);
}
EXPORT_SYMBOL_IF_KUNIT(mstat_sites_free);

/**
 * mstat_profile_read() - the published profile, as of a fresh snapshot
 * @snap: the snapshot it goes with
 *
 * The rows' live objects are the address table's entries at the read,
 * right after the snapshot's cut: one whose free was counted after the
 * cut is missing, and one sampled after it has no row yet or is there
 * beside its row's figures. Their ages are taken at @ss->now.
 *
 * Context: process; sleeps.
 * Return: rows sorted by estimated bytes in use (free them with
 * mstat_sites_free()), or an ERR_PTR().
 */
struct mstat_sites *mstat_profile_read(struct mstat_snapshot *snap)
{
	unsigned int i, buckets, addrs;
	struct mstat_sites *ss;
	int err;

	mstat_profile_sizes(&buckets, &addrs);

	spin_lock(&mstat_sites_spare_lock);
	ss = mstat_sites_spare;
	mstat_sites_spare = NULL;
	spin_unlock(&mstat_sites_spare_lock);
	if (ss) {
		struct mstat_live *live = ss->live;

		memset(ss, 0, struct_size(ss, row, buckets));
		ss->live = live;
	} else {
		ss = vzalloc(struct_size(ss, row, buckets));
		if (!ss)
			return ERR_PTR(-ENOMEM);
		ss->live = vmalloc(array_size(addrs, sizeof(*ss->live)));
		if (!ss->live) {
			mstat_sites_vfree(ss);
			return ERR_PTR(-ENOMEM);
		}
	}
	err = mstat_read_with(&mstat_core, snap, mstat_sites_copy, ss);
	if (err) {
		mstat_sites_free(ss);
		return ERR_PTR(err);
	}
	ss->gen = snap->gen;
	ss->rate = READ_ONCE(mstat_profile_rate);
	mstat_profile_counts(ss);
	sort(ss->live, ss->nlive, sizeof(ss->live[0]), mstat_live_cmp, NULL);
	for (i = 0; i < ss->n; i++) {
		struct mstat_site_row *r = &ss->row[i];

		r->est_bytes = mstat_scale_signed(mstat_row_inuse(r), r, ss->rate);
		r->est_calls = mstat_scale_signed(r->v[MSTAT_B_ALLOCS] -
						  r->v[MSTAT_B_FREES], r, ss->rate);
	}
	sort(ss->row, ss->n, sizeof(ss->row[0]), mstat_row_cmp, NULL);
	for (i = 0; i < ss->n; i++) {
		struct mstat_site_row *r = &ss->row[i];
		unsigned int k = mstat_live_first(ss, r->b), end = k;

		while (end < ss->nlive && ss->live[end].b == r->b)
			end++;
		r->live = &ss->live[k];
		r->nlive = end - k;
	}
	return ss;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_read);

/**
 * mstat_profile_site() - a site's published figures, for tests
 * @name: the call site's function, as %ps prints it
 * @allocs: sampled allocations
 * @frees: sampled frees
 *
 * Takes a snapshot first. Sums every bucket whose site is in function
 * @name.
 *
 * Return: 0, or -errno.
 */
int mstat_profile_site(const char *name, u64 *allocs, u64 *frees)
{
	struct mstat_snapshot snap;
	struct mstat_sites *ss = mstat_profile_read(&snap);
	size_t len = strlen(name);
	char sym[KSYM_SYMBOL_LEN];
	unsigned int i;

	if (IS_ERR(ss))
		return PTR_ERR(ss);
	*allocs = *frees = 0;
	for (i = 0; i < ss->n; i++) {
		/* "%ps" may add ".constprop.0" or " [module]". */
		snprintf(sym, sizeof(sym), "%ps", (void *)ss->row[i].site);
		if (strncmp(sym, name, len) ||
		    (sym[len] && sym[len] != ' ' && sym[len] != '.'))
			continue;
		*allocs += ss->row[i].v[MSTAT_B_ALLOCS];
		*frees += ss->row[i].v[MSTAT_B_FREES];
	}
	mstat_sites_free(ss);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mstat_profile_site);

/**
 * mstat_sites_exit() - free the buffers kept for the next read
 *
 * Context: no read may run any more (/proc/mstat_sites removed).
 */
void mstat_sites_exit(void)
{
	mstat_sites_vfree(mstat_sites_spare);
	mstat_sites_spare = NULL;
}
