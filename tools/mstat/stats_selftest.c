// SPDX-License-Identifier: GPL-2.0
/*
 * stats-selftest: stats.c against published tables, and the helpers
 * every command shares against cases worked by hand (util.c's string
 * map, cgroup.c's labels): a program of the test build,
 * build/stats-selftest; tools/mstat/test.sh runs it.
 *
 * The quantiles are those every statistics text prints, to four
 * decimals: the standard normal's; Student's t's for 1 to 30 degrees of
 * freedom, among them the 3 to 5 mstat leaks uses for the later half of
 * a cache's growth; chi-square's for 1 to 20. A quantile passes within
 * 0.00051 of the table (its rounding), or 0.00051 relative above 100.
 * The binomial against sums of its terms, the median and the Theil-Sen
 * slope against cases worked by hand. The Horvitz-Thompson estimate and
 * its variance against every outcome of a small sample, enumerated. One
 * "ok NAME" or "not ok NAME: WHY" line each, then "# checks=N failed=N";
 * exits 1 if one failed.
 *
 * With -b (broken), the t quantile is the one mstat leaks had before
 * stats.c, the normal's with its first two Cornish-Fisher corrections:
 * the table must catch it where the degrees of freedom are few; and the
 * variance of a sampled estimate is the one mstat memory had before, the
 * estimate squared over the samples, which the enumeration must catch.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "parse.h"
#include "stats.h"
#include "util.h"

static int checks, failed;
static bool broken;

static void result(bool ok, const char *name, double got, double want)
{
	checks++;
	if (ok) {
		printf("ok %s (%.6g)\n", name, got);
	} else {
		failed++;
		printf("not ok %s: %.6g, the table says %.6g\n", name, got, want);
	}
}

/* A quantile @got against the table's @want, printed to four decimals. */
static void table(const char *name, double got, double want)
{
	double tol = fabs(want) > 100 ? 0.00051 * fabs(want) / 100 : 0.00051;

	result(fabs(got - want) <= tol, name, got, want);
}

/* The t quantile as mstat leaks had it: two Cornish-Fisher terms. */
static double old_t_q(double p, double nu)
{
	double z = mstat_norm_q(p), z3 = z * z * z, z5 = z3 * z * z;

	return z + (z3 + z) / (4.0 * nu) +
	       (5 * z5 + 16 * z3 + 3 * z) / (96.0 * nu * nu);
}

static double t_q(double p, double nu)
{
	return broken ? old_t_q(p, nu) : mstat_t_q(p, nu);
}

/*
 * The variance mstat_ht_add() gives a sample, or with -b the one mstat
 * memory had before: est^2 / n, as if every object were far below the
 * rate.
 */
static double ht_var(const struct mstat_ht *h, int n)
{
	return broken ? (n ? h->est * h->est / n : 0) : h->var;
}

/*
 * Every outcome of sampling four objects of 4 KiB, 8 KiB, 64 KiB and
 * 3 MiB at rate 64 KiB, each drawn on its own with p = 1 - e^(-s/R): the
 * estimate's mean must be the total, the variance estimate's mean the
 * estimate's true variance, sum (1 - p) s^2 / p (Horvitz and Thompson).
 */
static void ht_enumerate(void)
{
	static const double s[] = { 4096, 8192, 65536, 3 << 20 };
	double p[4], mean = 0, var_mean = 0, var_true = 0, sq = 0, total = 0;
	unsigned int m, i;
	int n;

	for (i = 0; i < 4; i++) {
		p[i] = 1 - exp(-s[i] / 65536);
		total += s[i];
		var_true += (1 - p[i]) * s[i] * s[i] / p[i];
	}
	for (m = 0; m < 16; m++) {
		struct mstat_ht h = { 0, 0 };
		double pr = 1;

		for (i = 0, n = 0; i < 4; i++) {
			if (!(m & 1u << i)) {
				pr *= 1 - p[i];
				continue;
			}
			pr *= p[i];
			n++;
			mstat_ht_add(&h, s[i], 1,
				     mstat_sample_prob(s[i], 65536));
		}
		mean += pr * h.est;
		sq += pr * (h.est - total) * (h.est - total);
		var_mean += pr * ht_var(&h, n);
	}
	result(fabs(mean / total - 1) < 1e-12, "ht-est-unbiased", mean, total);
	result(fabs(sq / var_true - 1) < 1e-9, "ht-var-true", sq, var_true);
	result(fabs(var_mean / var_true - 1) < 1e-9, "ht-var-unbiased",
	       var_mean, var_true);
}

/*
 * Two objects of 3 MiB at rate 64 KiB are sure to be sampled (p = 1 -
 * e^-48): their estimate is exact, its variance 0; n objects of @s at a
 * p of 1 count as n s; at rate 1 every object is sampled.
 */
static void ht_sure(void)
{
	struct mstat_ht h = { 0, 0 };
	double p = mstat_sample_prob(3 << 20, 65536);

	mstat_ht_add(&h, 3 << 20, 2, p);
	result(h.est == 2 * (3 << 20) && ht_var(&h, 2) < 1e-6, "ht-sure",
	       sqrt(ht_var(&h, 2)), 0);
	result(mstat_sample_prob(1, 1) == 1 && mstat_sample_prob(0, 65536) == 0,
	       "ht-prob-ends", mstat_sample_prob(1, 1), 1);
}

/*
 * mstat_cmp_double() sorts infinities and signs; the sampling chance at
 * one rate's worth of bytes is 1 - 1/e, and keeps its precision far below
 * the rate (-expm1(), where 1 - exp() would lose it); the scale that
 * unsamples is its inverse, 1 where nothing is drawn by chance (no bytes,
 * or every object sampled at rate 1).
 */
static void sample_helpers(void)
{
	double v[] = { 3, -1, INFINITY, 0, -INFINITY, 2.5 };
	double want[] = { -INFINITY, -1, 0, 2.5, 3, INFINITY };
	double tiny = mstat_sample_prob(1, 1 << 30);
	bool sorted = true;
	unsigned int i;

	qsort(v, ARRAY_SIZE(v), sizeof(*v), mstat_cmp_double);
	for (i = 0; i < ARRAY_SIZE(v); i++)
		sorted = sorted && v[i] == want[i];
	result(sorted, "cmp-double-sorts", v[0], want[0]);
	result(fabs(mstat_sample_prob(65536, 65536) - (1 - exp(-1))) < 1e-15,
	       "sample-prob-one-rate", mstat_sample_prob(65536, 65536),
	       1 - exp(-1));
	result(fabs(tiny * (1 << 30) - 1) < 1e-9, "sample-prob-tiny",
	       tiny * (1 << 30), 1);
	result(fabs(mstat_sample_scale(65536, 65536) * (1 - exp(-1)) - 1) < 1e-15 &&
	       mstat_sample_scale(0, 65536) == 1 &&
	       mstat_sample_scale(4096, 1) == 1, "sample-scale",
	       mstat_sample_scale(65536, 65536), 1 / (1 - exp(-1)));
}

/*
 * The string map: 3000 strings (the table grown six times) each at the
 * index of its first adding, found again, added again at the same one;
 * a string never added not found; empty after mstat_strmap_free().
 */
static void strmap(void)
{
	struct mstat_strmap m = { 0 };
	bool good = mstat_strmap_find(&m, "") == -1;
	char k[32];
	long i;

	for (i = 0; i < 3000; i++) {
		snprintf(k, sizeof(k), "key %ld", i * 7919 % 3001);
		good = good && mstat_strmap_add(&m, k) == i;
	}
	for (i = 0; i < 3000; i++) {
		snprintf(k, sizeof(k), "key %ld", i * 7919 % 3001);
		good = good && mstat_strmap_find(&m, k) == i &&
		       mstat_strmap_add(&m, k) == i && !strcmp(m.str[i], k);
	}
	result(good && m.n == 3000, "strmap-indices", (double)m.n, 3000);
	result(mstat_strmap_find(&m, "key 3001") == -1 &&
	       mstat_strmap_find(&m, "key") == -1, "strmap-absent",
	       (double)mstat_strmap_find(&m, "key 3001"), -1);
	mstat_strmap_free(&m);
	result(!m.n && mstat_strmap_find(&m, "key 1") == -1, "strmap-free",
	       (double)m.n, 0);
}

/* A cgroup's label: its path, "id:N" without one, or what the value says. */
static void cgroup_labels(void)
{
	char buf[32];
	const char *l;

	l = mstat_cgroup_label_of(7, "/a/b", buf, sizeof(buf));
	result(!strcmp(l, "/a/b"), "cgroup-label-path", 0, 0);
	l = mstat_cgroup_label_of(7, NULL, buf, sizeof(buf));
	result(!strcmp(l, "id:7"), "cgroup-label-id", 0, 0);
	l = mstat_cgroup_label_of(MSTAT_CGROUP_SOFTIRQ, "/x", buf, sizeof(buf));
	result(l && !strcmp(l, "softirq"), "cgroup-label-softirq", 0, 0);
	l = mstat_cgroup_label_of(MSTAT_CGROUP_HARDIRQ, NULL, buf, sizeof(buf));
	result(l && !strcmp(l, "hardirq"), "cgroup-label-hardirq", 0, 0);
	result(!mstat_cgroup_label_of(MSTAT_CGROUP_UNKNOWN, "/x", buf,
				      sizeof(buf)), "cgroup-label-unknown", 0, 0);
}

int main(int argc, char **argv)
{
	static const struct { double p, want; } norm[] = {
		{ 0.95, 1.6449 }, { 0.975, 1.9600 }, { 0.99, 2.3263 },
		{ 0.995, 2.5758 }, { 0.999, 3.0902 }, { 0.9995, 3.2905 },
		{ 0.5, 0 }, { 0.025, -1.9600 },
	};
	static const struct { double p; int nu; double want; } t[] = {
		{ 0.975, 1, 12.7062 }, { 0.995, 1, 63.6567 },
		{ 0.975, 2, 4.3027 }, { 0.99, 2, 6.9646 },
		{ 0.95, 3, 2.3534 }, { 0.975, 3, 3.1824 }, { 0.99, 3, 4.5407 },
		{ 0.995, 3, 5.8409 }, { 0.999, 3, 10.2145 },
		{ 0.99, 4, 3.7469 }, { 0.999, 4, 7.1732 },
		{ 0.99, 5, 3.3649 }, { 0.995, 5, 4.0321 }, { 0.999, 5, 5.8934 },
		{ 0.95, 10, 1.8125 }, { 0.975, 10, 2.2281 }, { 0.999, 10, 4.1437 },
		{ 0.975, 20, 2.0860 }, { 0.999, 30, 3.3852 },
	};
	static const struct { double p; int k; double want; } chi2[] = {
		{ 0.95, 1, 3.8415 }, { 0.99, 1, 6.6349 },
		{ 0.025, 2, 0.0506 }, { 0.95, 2, 5.9915 }, { 0.975, 2, 7.3778 },
		{ 0.995, 4, 14.8603 }, { 0.05, 5, 1.1455 },
		{ 0.05, 10, 3.9403 }, { 0.99, 10, 23.2093 },
		{ 0.005, 20, 7.4338 }, { 0.975, 20, 34.1696 },
	};
	double v[] = { 5, 1, 4, 2, 3 }, w[] = { 4, 1, 3, 2 };
	double st[] = { 0, 1, 2, 3, 4 }, sx[] = { 0, 2, 4, 100, 8 };
	char name[64];
	unsigned int i;
	double sum;
	int j;

	broken = argc > 1 && !strcmp(argv[1], "-b");
	for (i = 0; i < ARRAY_SIZE(norm); i++) {
		snprintf(name, sizeof(name), "norm-q-%g", norm[i].p);
		table(name, mstat_norm_q(norm[i].p), norm[i].want);
	}
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		snprintf(name, sizeof(name), "t-q-%g-%d", t[i].p, t[i].nu);
		table(name, t_q(t[i].p, t[i].nu), t[i].want);
	}
	for (i = 0; i < ARRAY_SIZE(chi2); i++) {
		snprintf(name, sizeof(name), "chi2-q-%g-%d", chi2[i].p, chi2[i].k);
		table(name, mstat_chi2_q(chi2[i].p, chi2[i].k), chi2[i].want);
	}
	/* The cumulative functions at the tables' points, both ways. */
	result(fabs(mstat_t_cdf(-3.1824, 3) - 0.025) < 1e-5, "t-cdf-lower-tail",
	       mstat_t_cdf(-3.1824, 3), 0.025);
	result(fabs(mstat_chi2_cdf(18.3070, 10) - 0.95) < 1e-5, "chi2-cdf",
	       mstat_chi2_cdf(18.3070, 10), 0.95);
	/* Binomial(10, 1/3): P(X <= 2) summed from its terms. */
	for (sum = 0, j = 0; j <= 2; j++)
		sum += exp(lgamma(11.0) - lgamma(j + 1.0) - lgamma(11.0 - j) +
			   j * log(1 / 3.0) + (10 - j) * log(2 / 3.0));
	result(fabs(mstat_binom_cdf(10, 2, 1 / 3.0) - sum) < 1e-12,
	       "binom-cdf-10-2", mstat_binom_cdf(10, 2, 1 / 3.0), sum);
	result(mstat_binom_cdf(10, 10, 0.5) == 1 && mstat_binom_cdf(10, -1, 0.5) == 0,
	       "binom-cdf-ends", mstat_binom_cdf(10, 10, 0.5), 1);
	result(mstat_median(v, 5) == 3, "median-odd", v[2], 3);
	result(mstat_median(w, 4) == 2.5, "median-even", mstat_median(w, 4), 2.5);
	/* Slope 2 with one outlier among 10 pairs: Theil-Sen keeps 2. */
	result(mstat_sen(st, sx, 5) == 2, "sen-outlier", mstat_sen(st, sx, 5), 2);
	result(isnan(mstat_sen(st, sx, 1)), "sen-one-point", mstat_sen(st, sx, 1), NAN);
	/*
	 * Fay and Feuer's interval with ten weights of one is Garwood's 95%
	 * interval for a count of 10, (4.7954, 18.3904) in the tables; with
	 * ten weights of 3, three times it.
	 */
	{
		double lo, hi;

		mstat_weighted_poisson(10, 10, 1, 0.95, &lo, &hi);
		result(fabs(lo - 4.7954) < 0.00051, "weighted-poisson-low", lo, 4.7954);
		result(fabs(hi - 18.3904) < 0.00051, "weighted-poisson-high", hi, 18.3904);
		mstat_weighted_poisson(30, 90, 3, 0.95, &lo, &hi);
		result(fabs(lo - 3 * 4.7954) < 0.0016 && fabs(hi - 3 * 18.3904) < 0.0016,
		       "weighted-poisson-scaled", lo, 3 * 4.7954);
	}
	/*
	 * The slope of (0,0) (1,1) (2,1) (3,3) (4,3), worked by hand: 0.8,
	 * its standard error sqrt(0.8 / 3 / 10); an exact line: 2, 0.
	 */
	{
		double lt[] = { 0, 1, 2, 3, 4 }, lx[] = { 0, 1, 1, 3, 3 };
		double ex[] = { 1, 3, 5, 7, 9 }, sl, se;
		bool got;

		got = mstat_slope(lt, lx, 5, &sl, &se);
		result(got && fabs(sl - 0.8) < 1e-12 && fabs(se - sqrt(0.8 / 30)) < 1e-12,
		       "slope-se", se, sqrt(0.8 / 30));
		got = mstat_slope(lt, ex, 5, &sl, &se);
		result(got && fabs(sl - 2) < 1e-12 && se < 1e-9, "slope-exact", sl, 2);
		result(!mstat_slope(lt, ex, 2, &sl, &se), "slope-two-points", 2, 3);
	}
	/*
	 * A fill, x = 1000 - 800 exp(-t / 300) at 13 times over 600 s: its
	 * time constant and plateau found to 0.1%, the line rejected (F far
	 * above any table's); a line, 5 + 2t: no fill beats it (F <= 0); a
	 * fill with noise of 1% of its rise: tau within 20%.
	 */
	{
		double ft[13], fx[13], gx[13], hx[13];
		struct mstat_fill fit;
		bool got;

		for (j = 0; j < 13; j++) {
			ft[j] = 50.0 * j;
			fx[j] = 1000 - 800 * exp(-ft[j] / 300);
			gx[j] = 5 + 2 * ft[j];
			hx[j] = fx[j] + (j % 2 ? 8 : -8);
		}
		got = mstat_fill_fit(ft, fx, 13, &fit);
		result(got && fabs(fit.tau / 300 - 1) < 1e-3, "fill-tau", fit.tau, 300);
		result(got && fabs(fit.plateau / 1000 - 1) < 1e-3, "fill-plateau",
		       fit.plateau, 1000);
		result(got && fit.f > 1e4, "fill-beats-line", fit.f, 1e4);
		got = mstat_fill_fit(ft, gx, 13, &fit);
		result(got && fit.f <= 0, "line-not-fill", fit.f, 0);
		got = mstat_fill_fit(ft, hx, 13, &fit);
		result(got && fabs(fit.tau / 300 - 1) < 0.2, "fill-noisy-tau", fit.tau, 300);
		result(!mstat_fill_fit(ft, fx, 4, &fit), "fill-four-points", 4, 5);
	}
	ht_enumerate();
	ht_sure();
	sample_helpers();
	strmap();
	cgroup_labels();
	printf("# checks=%d failed=%d\n", checks, failed);
	return failed ? 1 : 0;
}
