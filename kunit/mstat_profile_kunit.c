// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mstat's heap profile: exact counts at a site with every
 * allocation sampled, the address table's cap, the estimate's accuracy
 * when sampling, and the sampling arithmetic.
 *
 * Needs mstat.ko loaded first, with the kmalloc source on (the default).
 * The cases change the sampling rate and restore the load-time one.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "mstat_compat.h"
#include "mstat_profile.h"
#include "mstat_stats.h"

static unsigned long saved_rate;

static int profile_init(struct kunit *test)
{
	saved_rate = READ_ONCE(mstat_profile_rate);
	return 0;
}

static void profile_exit(struct kunit *test)
{
	mstat_profile_set_rate(saved_rate);
}

/* The site every allocation of this test is attributed to. */
static noinline void profile_site_alloc(void **obj, int k, size_t size)
{
	int i;

	for (i = 0; i < k; i++)
		obj[i] = kmalloc(size, GFP_KERNEL);
}

static void mstat_profile_exact_at_rate_1(struct kunit *test)
{
	const int k = 40, j = 25;
	u64 a0, f0, a1, f1;
	void **obj;
	int i;

	obj = kunit_kcalloc(test, k, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a0, &f0), 0);

	mstat_profile_set_rate(1);
	profile_site_alloc(obj, k, 200);
	for (i = 0; i < j; i++)
		kfree(obj[i]);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a1, &f1), 0);
	for (i = j; i < k; i++)
		kfree(obj[i]);

	KUNIT_EXPECT_EQ(test, a1 - a0, (u64)k);
	KUNIT_EXPECT_EQ(test, f1 - f0, (u64)j);
}

static void mstat_profile_estimate_within_bound(struct kunit *test)
{
	const unsigned long rate = 4096;
	const int m = 20000;
	const size_t size = 256;
	u64 a0, f0, a1, f1, n, p, expect, sigma;
	void **obj;
	int i;

	obj = kvcalloc(m, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a0, &f0), 0);
	mstat_profile_set_rate(rate);
	profile_site_alloc(obj, m, size);
	mstat_profile_set_rate(0);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a1, &f1), 0);
	for (i = 0; i < m; i++)
		kfree(obj[i]);
	kvfree(obj);

	/*
	 * Each object is sampled with p = 1 - exp(-size/rate), independently
	 * (Poisson sampling by bytes): the count is binomial(m, p). Accept
	 * five standard deviations, so a correct sampler fails about once in
	 * 1.7 million runs.
	 */
	n = a1 - a0;
	p = mstat_sample_prob_q32(size, rate);
	expect = mul_u64_u64_div_u64(m, p, 1ULL << 32);
	sigma = int_sqrt64(mul_u64_u64_div_u64(expect, (1ULL << 32) - p,
					       1ULL << 32)) + 1;
	kunit_info(test, "sampled %llu of %d, expected %llu +- %llu", n, m,
		   expect, sigma);
	KUNIT_EXPECT_LE(test, n, expect + 5 * sigma);
	KUNIT_EXPECT_GE(test, n + 5 * sigma, expect);
}

static void mstat_profile_addr_cap_counts_drops(struct kunit *test)
{
	u64 sd0, ad0, sd1, ad1;
	const int k = 20000;	/* more than profile_addrs (16384 by default) */
	void **obj;
	int i;

	obj = kvcalloc(k, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	mstat_profile_drops(&sd0, &ad0);
	mstat_profile_set_rate(1);
	profile_site_alloc(obj, k, 16);
	mstat_profile_set_rate(0);
	mstat_profile_drops(&sd1, &ad1);
	for (i = 0; i < k; i++)
		kfree(obj[i]);
	kvfree(obj);
	KUNIT_EXPECT_GT(test, ad1, ad0);
}

static void mstat_sample_interval_mean(struct kunit *test)
{
	const unsigned long rate = 1 << 20;
	const int n = 20000;
	u64 sum = 0, lo = U64_MAX;
	int i;

	for (i = 0; i < n; i++) {
		u64 v = mstat_sample_interval(rate);

		sum += v;
		lo = min(lo, v);
	}
	/* Exponential: sd of the mean = rate / sqrt(n) = 0.7% of rate. */
	KUNIT_EXPECT_GE(test, sum / n, rate - rate / 25);
	KUNIT_EXPECT_LE(test, sum / n, rate + rate / 25);
	KUNIT_EXPECT_GE(test, lo, 1ULL);
}

static void mstat_sample_prob_values(struct kunit *test)
{
	/* 1 - exp(-x) at x = 1/16, 1/2, 1, 4; within 0.1%. */
	static const struct { u64 size, rate, p_ppm; } c[] = {
		{ 256, 4096, 60587 }, { 2048, 4096, 393469 },
		{ 4096, 4096, 632121 }, { 16384, 4096, 981684 },
		{ 8, 524288, 15 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		u64 ppm = mul_u64_u64_div_u64(mstat_sample_prob_q32(c[i].size, c[i].rate),
					      1000000, 1ULL << 32);

		KUNIT_EXPECT_LE_MSG(test, ppm, c[i].p_ppm + c[i].p_ppm / 1000 + 1,
				    "size %llu rate %llu", c[i].size, c[i].rate);
		KUNIT_EXPECT_GE_MSG(test, ppm + c[i].p_ppm / 1000 + 1, c[i].p_ppm,
				    "size %llu rate %llu", c[i].size, c[i].rate);
	}
	KUNIT_EXPECT_EQ(test, mstat_sample_prob_q32(100, 1), 1ULL << 32);
}

/*
 * Sizes far beyond the rate are sampled for certain, whatever their size:
 * an API report may give any. Past 2^48 times the rate, size * 2^16 /
 * rate does not fit 64 bits (x86_64's divq raises #DE); from 2^31.5,
 * x * log2(e) wraps (here to about 0, a chance of about 0).
 */
static void mstat_sample_prob_huge_size(struct kunit *test)
{
	static const struct { u64 size, rate; } c[] = {
		{ 23 * 4096, 4096 },		/* 2^32 by the table, not the guard */
		{ 195104540272767ULL, 65536 },	/* x * 94548 = 2^64 + 22700 */
		{ BIT_ULL(49), 2 },
		{ U64_MAX, 2 },
		{ U64_MAX, MSTAT_PROFILE_RATE_MAX },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		KUNIT_EXPECT_EQ_MSG(test, mstat_sample_prob_q32(c[i].size, c[i].rate),
				    1ULL << 32, "size %llu rate %llu",
				    c[i].size, c[i].rate);
}

static struct kunit_case mstat_profile_cases[] = {
	KUNIT_CASE(mstat_profile_exact_at_rate_1),
	MSTAT_KUNIT_CASE_SLOW(mstat_profile_addr_cap_counts_drops),
	MSTAT_KUNIT_CASE_SLOW(mstat_profile_estimate_within_bound),
	KUNIT_CASE(mstat_sample_interval_mean),
	KUNIT_CASE(mstat_sample_prob_values),
	KUNIT_CASE(mstat_sample_prob_huge_size),
	{}
};

static struct kunit_suite mstat_profile_suite = {
	.name = "mstat_profile",
	.init = profile_init,
	.exit = profile_exit,
	.test_cases = mstat_profile_cases,
};

kunit_test_suite(mstat_profile_suite);

MODULE_LICENSE("GPL");
MSTAT_IMPORT_KUNIT_NS();
MODULE_DESCRIPTION("KUnit tests for mstat's heap profile");
