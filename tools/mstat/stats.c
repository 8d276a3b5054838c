// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of mstat leaks (stats.h): distributions, quantiles and
 * robust slopes, and the per-cache rule's trend of a series (the method
 * is stated at the top of leaks.c); and mstat memory's estimates from
 * sampled objects; with nothing of the tool in them.
 *
 * The cumulative functions are those of the textbooks: Student's t and
 * the binomial through the regularized incomplete beta function I_x(a,
 * b), chi-square through the regularized lower incomplete gamma P(a, x),
 * each by its continued fraction (modified Lentz) or its series where
 * that converges faster. A quantile is its cumulative function inverted
 * by bisection: slow (a few hundred evaluations) but exact to a double's
 * precision wherever the function is monotone, which these are, and
 * mstat leaks asks for a handful per verdict.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

#define MSTAT_STATS_EPS		1e-15
#define MSTAT_STATS_TINY	1e-300
#define MSTAT_STATS_ITERS	1000
#define MSTAT_TREND_MAX_BLOCKS	12

/*
 * One step of the modified Lentz method for a continued fraction
 * b0 + a1 / (b1 + a2 / (b2 + ...)): the term @a / @b, with the method's
 * @c and @d (the reciprocal of its D) carried from the step before.
 * Returns the factor the fraction's value is multiplied by; near 1, it
 * has converged.
 */
static double mstat_lentz(double a, double b, double *c, double *d)
{
	*d = b + a * *d;
	if (fabs(*d) < MSTAT_STATS_TINY)
		*d = MSTAT_STATS_TINY;
	*c = b + a / *c;
	if (fabs(*c) < MSTAT_STATS_TINY)
		*c = MSTAT_STATS_TINY;
	*d = 1 / *d;
	return *d * *c;
}

/*
 * The continued fraction of I_x(a, b) (x < (a + 1) / (a + b + 2), where
 * it converges fast): 1 / (1 + d_1 / (1 + d_2 / (1 + ...))), the terms
 * d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) and d_2m =
 * m (b - m) x / ((a + 2m - 1)(a + 2m)).
 */
static double mstat_beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), f, step;
	int m, m2;

	if (fabs(d) < MSTAT_STATS_TINY)
		d = MSTAT_STATS_TINY;
	d = 1 / d;
	f = d;
	for (m = 1; m <= MSTAT_STATS_ITERS; m++) {
		m2 = 2 * m;
		f *= mstat_lentz(m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
				 1, &c, &d);
		step = mstat_lentz(-(a + m) * (a + b + m) * x /
				   ((a + m2) * (a + m2 + 1)), 1, &c, &d);
		f *= step;
		if (fabs(step - 1) < MSTAT_STATS_EPS)
			break;
	}
	return f;
}

/* The regularized incomplete beta function I_x(a, b), a, b > 0. */
static double mstat_ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * mstat_beta_cf(a, b, x) / a;
	return 1 - front * mstat_beta_cf(b, a, 1 - x) / b;
}

/* The regularized lower incomplete gamma function P(a, x), a > 0. */
static double mstat_igamma(double a, double x)
{
	double front, sum, term, b, c, d, f, step;
	int n;

	if (x <= 0)
		return 0;
	front = exp(-x + a * log(x) - lgamma(a));
	if (x < a + 1) {
		/* The series: x^a e^-x / Gamma(a + 1) sum x^n / (a+1)...(a+n). */
		sum = term = 1 / a;
		for (n = 1; n <= MSTAT_STATS_ITERS; n++) {
			term *= x / (a + n);
			sum += term;
			if (fabs(term) < fabs(sum) * MSTAT_STATS_EPS)
				break;
		}
		return front * sum;
	}
	/*
	 * Q(a, x)'s continued fraction, 1 / (x + 1 - a - 1 (1 - a) /
	 * (x + 3 - a - 2 (2 - a) / (x + 5 - a - ...))).
	 */
	b = x + 1 - a;
	c = 1 / MSTAT_STATS_TINY;
	d = 1 / b;
	f = d;
	for (n = 1; n <= MSTAT_STATS_ITERS; n++) {
		b += 2;
		step = mstat_lentz(-n * (n - a), b, &c, &d);
		f *= step;
		if (fabs(step - 1) < MSTAT_STATS_EPS)
			break;
	}
	return 1 - front * f;
}

/*
 * The @p quantile of a continuous increasing @cdf with its parameter
 * @k, by bisection between @lo and an @hi doubled until it bounds it.
 */
static double mstat_invert(double (*cdf)(double, double), double k,
			   double p, double lo, double hi)
{
	double mid;
	int i;

	if (!(p > 0 && p < 1))
		return NAN;
	while (cdf(hi, k) < p)
		hi *= 2;
	while (cdf(lo, k) > p)
		lo *= 2;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (mid == lo || mid == hi)
			break;
		if (cdf(mid, k) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double mstat_norm_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

static double mstat_norm_cdf_k(double z, double k)
{
	(void)k;
	return mstat_norm_cdf(z);
}

double mstat_norm_q(double p)
{
	return mstat_invert(mstat_norm_cdf_k, 0, p, -1, 1);
}

double mstat_t_cdf(double t, double nu)
{
	double tail = 0.5 * mstat_ibeta(nu / 2, 0.5, nu / (nu + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double mstat_t_q(double p, double nu)
{
	return mstat_invert(mstat_t_cdf, nu, p, -1, 1);
}

double mstat_chi2_cdf(double x, double k)
{
	return mstat_igamma(k / 2, x / 2);
}

double mstat_chi2_q(double p, double k)
{
	return mstat_invert(mstat_chi2_cdf, k, p, 0, k + 1);
}

double mstat_binom_cdf(int n, int j, double p)
{
	if (j < 0)
		return 0;
	if (j >= n)
		return 1;
	/* P(X <= j) = I_{1-p}(n - j, j + 1). */
	return mstat_ibeta(n - j, j + 1, 1 - p);
}

int mstat_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double mstat_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), mstat_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double mstat_sen(const double *t, const double *x, int n)
{
	double *s, r = NAN;
	int i, j, m = 0;

	if (n < 2)
		return NAN;
	s = mstat_alloc(NULL, (size_t)n * (size_t)(n - 1) / 2 * sizeof(*s));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (t[j] > t[i])
				s[m++] = (x[j] - x[i]) / (t[j] - t[i]);
	if (m)
		r = mstat_median(s, m);
	free(s);
	return r;
}

/*
 * The least-squares fit of x = a + b u to (@u, @x), @n points: the sum
 * of squared residuals, @a and @b; @b is 0 when @u does not vary.
 */
static double mstat_lsq(const double *u, const double *x, int n, double *a,
			double *b)
{
	double mu = 0, mx = 0, suu = 0, sux = 0, r, sse = 0;
	int i;

	for (i = 0; i < n; i++) {
		mu += u[i] / n;
		mx += x[i] / n;
	}
	for (i = 0; i < n; i++) {
		suu += (u[i] - mu) * (u[i] - mu);
		sux += (u[i] - mu) * (x[i] - mx);
	}
	*b = suu > 0 ? sux / suu : 0;
	*a = mx - *b * mu;
	for (i = 0; i < n; i++) {
		r = x[i] - *a - *b * u[i];
		sse += r * r;
	}
	return sse;
}

void mstat_weighted_poisson(double y, double v, double wm, double conf,
			    double *low, double *high)
{
	*low = v / (2 * y) * mstat_chi2_q((1 - conf) / 2, 2 * y * y / v);
	*high = (v + wm * wm) / (2 * (y + wm)) *
		mstat_chi2_q((1 + conf) / 2, 2 * (y + wm) * (y + wm) /
			     (v + wm * wm));
}

bool mstat_slope(const double *t, const double *x, int n, double *slope,
		 double *se)
{
	double a, mt = 0, stt = 0, sse;
	int i;

	for (i = 0; i < n; i++)
		mt += t[i] / n;
	for (i = 0; i < n; i++)
		stt += (t[i] - mt) * (t[i] - mt);
	if (n < 3 || !(stt > 0))
		return false;
	sse = mstat_lsq(t, x, n, &a, slope);
	*se = sqrt(sse / (n - 2) / stt);
	return true;
}

/* The fill's residuals at time constant @tau; @u is scratch, @n long. */
static double mstat_fill_sse(const double *t, const double *x, int n,
			     double tau, double *u, double *p, double *c)
{
	double a, b, sse;
	int i;

	for (i = 0; i < n; i++)
		u[i] = exp(-(t[i] - t[0]) / tau);
	sse = mstat_lsq(u, x, n, &a, &b);
	*p = a;
	*c = -b;
	return sse;
}

bool mstat_fill_fit(const double *t, const double *x, int n,
		    struct mstat_fill *fit)
{
	double span, lo, hi, tau, best = INFINITY, bt = 0, sse, p, c, a, b;
	double *u;
	int i, k, steps = 200;

	memset(fit, 0, sizeof(*fit));
	if (n < 5 || !(t[n - 1] > t[0]))
		return false;
	span = t[n - 1] - t[0];
	u = mstat_alloc(NULL, (size_t)n * sizeof(*u));
	/* A grid, log-spaced, then golden sections around its best. */
	lo = log(span / 100);
	hi = log(span * 100);
	for (k = 0; k <= steps; k++) {
		tau = exp(lo + (hi - lo) * k / steps);
		sse = mstat_fill_sse(t, x, n, tau, u, &p, &c);
		if (sse < best) {
			best = sse;
			bt = k;
		}
	}
	lo = lo + (hi - lo) * (bt > 0 ? bt - 1 : 0) / steps;
	hi = lo + (log(span * 100) - log(span / 100)) * 2 / steps;
	for (k = 0; k < 60; k++) {
		double m1 = hi - (hi - lo) * 0.6180339887498949;
		double m2 = lo + (hi - lo) * 0.6180339887498949;

		if (mstat_fill_sse(t, x, n, exp(m1), u, &p, &c) <
		    mstat_fill_sse(t, x, n, exp(m2), u, &p, &c))
			hi = m2;
		else
			lo = m1;
	}
	fit->tau = exp((lo + hi) / 2);
	fit->sse = mstat_fill_sse(t, x, n, fit->tau, u, &fit->plateau, &fit->c);
	for (i = 0; i < n; i++)
		u[i] = t[i] - t[0];
	fit->sse_line = mstat_lsq(u, x, n, &a, &b);
	free(u);
	if (fit->sse > 0)
		fit->f = (fit->sse_line - fit->sse) / (fit->sse / (n - 3));
	else
		fit->f = fit->sse_line > 0 ? INFINITY : 0;
	return true;
}

double mstat_sample_prob(double bytes, double rate)
{
	if (rate <= 1)
		return 1;
	return bytes > 0 ? -expm1(-bytes / rate) : 0;
}

double mstat_sample_scale(double bytes, double rate)
{
	double p = mstat_sample_prob(bytes, rate);

	return p > 0 ? 1 / p : 1;
}

void mstat_ht_add(struct mstat_ht *h, double bytes, double n, double p)
{
	if (!(p > 0) || !(n > 0))
		return;
	if (p > 1)
		p = 1;
	h->est += n * bytes / p;
	h->var += n * (1 - p) / (p * p) * bytes * bytes;
}

/* The trend of a cache's series (mstat leaks' per-cache rule) */

/*
 * The steps of the @nb block minima (the rates between consecutive
 * ones), their mean into *@m and its standard error into *@se; false
 * with fewer than 3.
 */
static bool mstat_steps(const double *bt, const double *bx, int nb,
			double *m, double *se, int *n)
{
	double d[MSTAT_TREND_MAX_BLOCKS], v = 0;
	int i;

	*n = 0;
	*m = 0;
	for (i = 1; i < nb; i++)
		if (bt[i] > bt[i - 1])
			d[(*n)++] = (bx[i] - bx[i - 1]) / (bt[i] - bt[i - 1]);
	if (*n < 3)
		return false;
	for (i = 0; i < *n; i++)
		*m += d[i] / *n;
	for (i = 0; i < *n; i++)
		v += (d[i] - *m) * (d[i] - *m) / (*n - 1);
	*se = sqrt(v / *n);
	return true;
}

/*
 * Do the @nb block minima rise by steps whose mean is above 0 at
 * confidence @conf (Student's t)? Against a count that wanders, a random
 * walk without a level it returns to, whose steps are independent with
 * mean 0: Mann-Kendall takes its runs for trends, this test does not.
 */
static bool mstat_steps_rise(const double *bt, const double *bx, int nb,
			     double conf)
{
	double m, se;
	int n;

	if (!mstat_steps(bt, bx, nb, &m, &se, &n))
		return false;
	return m > 0 && (se <= 0 || m / se > mstat_t_q(conf, n - 1));
}

/*
 * The ranks, from 1, of the low (@lo) and high (@hi) ends of Sen's
 * interval at confidence @conf among @m ordered slopes of @nb points:
 * out of 1..@m when the interval is unbounded on that side.
 */
static void mstat_sen_ranks(int nb, int m, double conf, int *lo, int *hi)
{
	double var = nb * (nb - 1.0) * (2.0 * nb + 5) / 18;
	double c = mstat_norm_q((1 + conf) / 2) * sqrt(var);

	*lo = (int)floor((m - c) / 2);
	*hi = (int)ceil((m + c) / 2) + 1;
}

int mstat_leak_min_reads(double conf)
{
	int nb, lo, hi;

	for (nb = 2; nb <= MSTAT_TREND_MAX_BLOCKS; nb++) {
		mstat_sen_ranks(nb, nb * (nb - 1) / 2, conf, &lo, &hi);
		if (lo >= 1)
			return 2 * nb;
	}
	return 0;
}

/*
 * A rise whose rate falls as it goes, toward a plateau (a cache warming
 * up, 1 - exp(-t / tau)), told from a leak's steady one by the steps
 * between the @nb block minima (the rates between consecutive ones):
 * a leak's are independent, with one mean (a compound Poisson's
 * increments); a fill's fall with time. Filling when the least-squares
 * slope of the steps against their times is below 0 by Student's t at
 * @conf (n - 2 degrees of freedom), and the minima fit P - C exp(-t/tau)
 * rising (C > 0) toward a plateau above the last (mstat_fill_fit(), for
 * P and tau). The later-half test alone lets a fill pass while the watch
 * is shorter than about 2.2 tau. Not an F test of the fit against a
 * line: the minima of a leak of a few large objects stray from their
 * line as a random walk does, not as independent errors, and such a
 * test took 4 leaks of 30 for fills (by hand: leaks_mixed's replays,
 * seeds 1 to 30 of 600 s).
 */
#ifndef MSTAT_LEAKS_WEAK
static void mstat_trend_fill(const double *bt, const double *bx, int nb,
			     double conf, struct mstat_trend *tr)
{
	double d[MSTAT_TREND_MAX_BLOCKS], m[MSTAT_TREND_MAX_BLOCKS], slope, se;
	struct mstat_fill fit;
	int n = 0, i;

	for (i = 1; i < nb; i++) {
		if (bt[i] <= bt[i - 1])
			continue;
		d[n] = (bx[i] - bx[i - 1]) / (bt[i] - bt[i - 1]);
		m[n++] = (bt[i] + bt[i - 1]) / 2;
	}
	if (n < 4 || !mstat_slope(m, d, n, &slope, &se) || !(slope < 0) ||
	    (se > 0 && slope / se > -mstat_t_q(conf, n - 2)))
		return;
	/* Falling: where to, the fit says (P and tau, and C > 0). */
	if (mstat_fill_fit(bt, bx, nb, &fit) && fit.c > 0 &&
	    fit.plateau > bx[nb - 1]) {
		tr->filling = true;
		tr->suspect = false;
		tr->plateau = fit.plateau;
		tr->tau = fit.tau;
	}
}
#endif

/* The trend of @np >= 2 points (@pt, @px); see mstat_trend(). */
static void mstat_trend_points(const double *pt, const double *px, int np,
			       double conf, double min_rate,
			       struct mstat_trend *tr)
{
#ifdef MSTAT_LEAKS_WEAK
	/* The naive detector: the difference of two snapshots. */
	tr->rate = (px[np - 1] - px[0]) / (pt[np - 1] - pt[0]);
	tr->low = tr->high = tr->late = tr->late_high = tr->rate;
	tr->blocks = 2;
	tr->judged = true;
	tr->suspect = tr->rate > min_rate && tr->rate > 0;
	(void)conf;
	(void)mstat_steps_rise;
#else
	double bt[MSTAT_TREND_MAX_BLOCKS], bx[MSTAT_TREND_MAX_BLOCKS];
	double *sl, m1, m2;
	int nb, b, i, j, m = 0, lo, hi, half;

	nb = np / 2 < MSTAT_TREND_MAX_BLOCKS ? np / 2 : MSTAT_TREND_MAX_BLOCKS;
	if (nb < 2)
		return;
	/* Block b holds points [b np / nb, (b + 1) np / nb). */
	for (b = 0; b < nb; b++) {
		int first = b * np / nb, end = (b + 1) * np / nb, at = first;

		for (i = first + 1; i < end; i++)
			if (px[i] < px[at])
				at = i;
		bt[b] = pt[at];
		bx[b] = px[at];
	}
	tr->blocks = nb;
	tr->rate = mstat_sen(bt, bx, nb);
	half = nb / 2;
	tr->late = mstat_sen(bt + half, bx + half, nb - half);
	if (mstat_steps(bt + half - 1, bx + half - 1, nb - half + 1, &m1, &m2, &i))
		tr->late_high = m1 + mstat_t_q(conf, i - 1) * m2;
	/* Sen's interval: the ordered pairwise slopes around the median. */
	sl = mstat_alloc(NULL, (size_t)(nb * nb) * sizeof(*sl));
	for (i = 0; i < nb; i++)
		for (j = i + 1; j < nb; j++)
			if (bt[j] > bt[i])
				sl[m++] = (bx[j] - bx[i]) / (bt[j] - bt[i]);
	qsort(sl, m, sizeof(*sl), mstat_cmp_double);
	mstat_sen_ranks(nb, m, conf, &lo, &hi);
	if (lo >= 1)
		tr->low = sl[lo - 1];
	if (hi <= m)
		tr->high = sl[hi - 1];
	free(sl);
	tr->judged = lo >= 1;
	tr->suspect = tr->judged && tr->low > min_rate && tr->low > 0 &&
		      tr->late >= tr->rate / 2 && mstat_steps_rise(bt, bx, nb, conf);
	if (tr->suspect)
		mstat_trend_fill(bt, bx, nb, conf, tr);
#endif
}

/*
 * The trend of the series @x (NAN where the cache was absent) at times
 * @t, @n reads; the verdict at confidence @conf above @min_rate.
 */
void mstat_trend(const double *t, const double *x, int n, double conf,
		 double min_rate, struct mstat_trend *tr)
{
	double *pt, *px;
	int np = 0, i;

	memset(tr, 0, sizeof(*tr));
	tr->rate = tr->late = NAN;
	tr->low = -INFINITY;
	tr->high = tr->late_high = INFINITY;
	pt = mstat_alloc(NULL, (n + 1) * sizeof(*pt));
	px = mstat_alloc(NULL, (n + 1) * sizeof(*px));
	for (i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		pt[np] = t[i];
		px[np++] = x[i];
	}
	if (np >= 2)
		mstat_trend_points(pt, px, np, conf, min_rate, tr);
	free(pt);
	free(px);
}
