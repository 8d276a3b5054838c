/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics mstat leaks judges by (stats.c): the quantiles of the
 * normal, Student's t and chi-square distributions, exact to the
 * precision of a double (their cumulative functions computed from the
 * regularized incomplete beta and gamma functions, inverted by
 * bisection), the binomial's cumulative function, the median, the
 * Theil-Sen slope and the fit of a fill toward a plateau, and from them
 * the trend of a cache's series that mstat leaks judges by; and, for
 * mstat memory, the estimate of a total from objects sampled each with
 * its own chance, and its variance. It calls nothing of the tool but
 * util.h's allocator.
 * Its test is tools/mstat/stats_selftest.c, against published tables.
 * Built with -DMSTAT_LEAKS_WEAK (the test build's mstat-leaks-weak), the
 * trend is the naive one the tests show fail: the difference of the
 * first and last points.
 */
#ifndef MSTAT_STATS_H
#define MSTAT_STATS_H

#include <stdbool.h>

/* P(Z <= z) for Z standard normal. */
double mstat_norm_cdf(double z);
/* The @p quantile of the standard normal, 0 < @p < 1. */
double mstat_norm_q(double p);
/* P(T <= t) for T Student's t with @nu > 0 degrees of freedom. */
double mstat_t_cdf(double t, double nu);
/* The @p quantile of Student's t with @nu > 0 degrees of freedom. */
double mstat_t_q(double p, double nu);
/* P(X <= x) for X chi-square with @k > 0 degrees of freedom. */
double mstat_chi2_cdf(double x, double k);
/* The @p quantile of chi-square with @k > 0 degrees of freedom. */
double mstat_chi2_q(double p, double k);
/* P(X <= @j) for X binomial(@n, @p). */
double mstat_binom_cdf(int n, int j, double p);
/* qsort()'s comparison of doubles, ascending. */
int mstat_cmp_double(const void *a, const void *b);
/* The median of @n >= 1 values; sorts @v in place. */
double mstat_median(double *v, int n);
/* The Theil-Sen slope of (@t, @x), @n points; NAN without a pair. */
double mstat_sen(const double *t, const double *x, int n);

/*
 * The interval at confidence @conf of the mean of a sum of Poisson counts
 * of weights (@y their sum, @v the sum of their squares, @wm the
 * largest), into *@low and *@high: Fay and Feuer's gamma interval
 * (Statistics in Medicine 16, 1997), which is Garwood's exact Poisson
 * interval times the weight when every weight is one, wider when they
 * differ (a compound Poisson's variance is the sum of the squared
 * weights, not the count times the squared mean).
 */
void mstat_weighted_poisson(double y, double v, double wm, double conf,
			    double *low, double *high);

/*
 * The least-squares slope of @x against @t, @n >= 3 points, into
 * *@slope, and its standard error into *@se (0 for an exact line); false
 * if @t does not vary.
 */
bool mstat_slope(const double *t, const double *x, int n, double *slope,
		 double *se);

/**
 * struct mstat_fill - a fill toward a plateau, fitted
 * @plateau: P of x(t) = P - C exp(-(t - t0) / tau), t0 the first time
 * @c: C (above 0: rising toward P)
 * @tau: the time constant, seconds
 * @sse: the fit's sum of squared residuals
 * @sse_line: the straight line's, fitted by least squares
 * @f: (@sse_line - @sse) / (@sse / (n - 3)): F with 1 and n - 3 degrees
 *	of freedom when the line is the truth (+INFINITY for an exact fit)
 */
struct mstat_fill {
	double plateau, c, tau, sse, sse_line, f;
};

/*
 * Fit x(t) = P - C exp(-(t - t0) / tau) to @n >= 5 points (@t rising) by
 * least squares, tau from 1/100 of the span to 100 spans, and a line
 * beside it; false if there are too few points or no span.
 */
bool mstat_fill_fit(const double *t, const double *x, int n,
		    struct mstat_fill *fit);

/**
 * struct mstat_ht - the Horvitz-Thompson estimate of a total from a sample
 * @est: the sum of each sampled object's bytes over its chance p: unbiased
 * @var: the sum of (1 - p) / p^2 times its bytes squared: the unbiased
 *	estimate of @est's variance when the objects were drawn each on its
 *	own (Poisson sampling; Horvitz and Thompson, JASA 47, 1952). An
 *	object sure to be drawn (p = 1) adds nothing to it.
 */
struct mstat_ht {
	double est, var;
};

/*
 * The chance that an object of @bytes is sampled at one sample per @rate
 * bytes on average (the module's: one sample where an exponential
 * countdown of bytes runs out): 1 - e^(-bytes / rate), 1 if @rate <= 1.
 */
double mstat_sample_prob(double bytes, double rate);

/*
 * What a sampled object of @bytes stands for, in objects like it: 1 /
 * mstat_sample_prob() (the module's est_ columns scale by it, mstat
 * pprof and mstat leaks unsample by it); 1 where that chance is 0.
 */
double mstat_sample_scale(double bytes, double rate);

/* Add to @h @n sampled objects of @bytes each, each drawn with chance @p. */
void mstat_ht_add(struct mstat_ht *h, double bytes, double n, double p);

/**
 * struct mstat_trend - a cache's growth, from its lower envelope
 * @rate: the Theil-Sen slope of the block minima, bytes/s
 * @low: the low end of Sen's interval at the confidence asked
 *	(-INFINITY when too few blocks bound it)
 * @high: its high end (+INFINITY likewise)
 * @late: the slope of the later half of the minima
 * @late_high: the high end of the later half's rate: the mean of its
 *	steps (the rates between consecutive minima, from the middle one)
 *	plus Student's t at the confidence asked times their standard
 *	error; +INFINITY with fewer than 3 steps
 * @blocks: how many blocks (0: too few reads for any)
 * @judged: enough blocks for a verdict: Sen's interval at the
 *	confidence asked has a low end
 * @suspect: the verdict
 * @filling: it rises, but toward a plateau: the steps between the
 *	minima fall with time, by Student's t at the confidence asked
 *	(mstat_trend_fill()); not a suspect
 * @plateau: P, when filling
 * @tau: tau, when filling
 */
struct mstat_trend {
	double rate, low, high, late, late_high, plateau, tau;
	int blocks;
	bool judged, suspect, filling;
};

/*
 * The trend of the series @x (NAN where the cache was absent) at times
 * @t, @n reads; the verdict at confidence @conf above @min_rate.
 */
void mstat_trend(const double *t, const double *x, int n, double conf,
		 double min_rate, struct mstat_trend *tr);
/*
 * The fewest reads over which mstat_trend() can judge at confidence
 * @conf (Sen's interval bounded below), 0 if none can.
 */
int mstat_leak_min_reads(double conf);

#endif /* MSTAT_STATS_H */
