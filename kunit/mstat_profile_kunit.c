// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of mstat's heap profile: exact counts at a site with every
 * allocation sampled, the address table's cap, what a reset and a drop of
 * the table (all of it, or one source's entries) leave, the labels, the
 * estimate's accuracy when sampling, a site's name kept when its text
 * goes, and the sampling arithmetic.
 *
 * Needs mstat.ko loaded first, with the kmalloc source on (the default).
 * The cases change the sampling rate and restore the load-time one.
 */
#include <kunit/test.h>
#include <linux/cgroup.h>
#include <linux/mm.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mstat_compat.h"
#include "mstat_profile.h"
#include "mstat_sites.h"
#include "mstat_stats.h"
#include "mstat_text.h"

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

/* The caller of the pages of mstat_profile_page_stack_no_symbols(). */
static noinline void profile_page_alloc(struct page **pg, int k)
{
	int i;

	for (i = 0; i < k; i++)
		pg[i] = alloc_pages(GFP_KERNEL, 4);
}

/* sprint_symbol_no_offset() calls by the test's task, while it counts. */
static struct task_struct *symbol_task;
static atomic_t symbol_calls;

static int profile_symbol_hit(struct kprobe *kp, struct pt_regs *regs)
{
	if (READ_ONCE(symbol_task) == current)
		atomic_inc(&symbol_calls);
	return 0;
}

/*
 * Sampled pages (profile_pages on; blocks of 64 KiB at a rate of 4 KiB,
 * each sampled with probability 1 - e^-16, and few of the machine's other
 * allocations meanwhile, whose stacks would take buckets the next cases
 * need) are named after their caller, past the page allocator's frames,
 * and no symbol is printed for it while they are sampled (interrupts may
 * be off there): the allocator's frames are told by their text, found
 * when page sampling was switched on. A probe on sprint_symbol_no_offset() counts
 * this task's calls while it allocates.
 */
static void mstat_profile_page_stack_no_symbols(struct kunit *test)
{
	struct kprobe kp = {
		.symbol_name = "sprint_symbol_no_offset",
		.pre_handler = profile_symbol_hit,
	};
	bool pages = static_key_enabled(&mstat_profile_pages_key);
	const int k = 16;
	struct page **pg;
	u64 a0, f0, a1, f1;
	int i, calls;

	pg = kunit_kcalloc(test, k, sizeof(*pg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pg);
	if (register_kprobe(&kp))
		kunit_skip(test, "no kprobe on sprint_symbol_no_offset()");
	mstat_profile_set_pages(true);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_page_alloc", &a0, &f0), 0);
	mstat_profile_set_rate(4096);
	atomic_set(&symbol_calls, 0);
	WRITE_ONCE(symbol_task, current);
	profile_page_alloc(pg, k);
	WRITE_ONCE(symbol_task, NULL);
	calls = atomic_read(&symbol_calls);
	mstat_profile_set_rate(0);
	unregister_kprobe(&kp);
	if (!pages)
		mstat_profile_set_pages(false);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_page_alloc", &a1, &f1), 0);
	for (i = 0; i < k; i++)
		if (pg[i])
			__free_pages(pg[i], 4);
	KUNIT_EXPECT_EQ_MSG(test, calls, 0,
			    "symbols printed while pages were sampled");
	KUNIT_EXPECT_EQ(test, a1 - a0, (u64)k);
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
	u64 sd0, ad0, ph0, sd1, ad1, ph1, a0, f0, a1, f1, a2, f2;
	const int k = 20000;	/* more than profile_addrs (16384 by default) */
	void **obj;
	int i;

	obj = kvcalloc(k, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	mstat_profile_drops(&sd0, &ad0, &ph0);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a0, &f0), 0);
	mstat_profile_set_rate(1);
	profile_site_alloc(obj, k, 16);
	mstat_profile_set_rate(0);
	mstat_profile_drops(&sd1, &ad1, &ph1);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a1, &f1), 0);
	for (i = 0; i < k; i++)
		kfree(obj[i]);
	kvfree(obj);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a2, &f2), 0);
	/*
	 * A sample without an entry is counted freed at once (every
	 * allocation of the machine is sampled meanwhile, so the drops are
	 * more than ours) ...
	 */
	KUNIT_EXPECT_GT(test, f1 - f0, 0ULL);
	KUNIT_EXPECT_GE(test, ad1 - ad0, f1 - f0);
	/* ... so that nothing of the site is left in use after its frees. */
	KUNIT_EXPECT_EQ(test, a2 - a0, (u64)k);
	KUNIT_EXPECT_EQ(test, f2 - f0, (u64)k);
}

/* A reset clears the site's figures; a free of an object sampled before it is not counted. */
static void mstat_profile_reset_clears(struct kunit *test)
{
	const int k = 30, j = 10, n = 7;
	u64 sd, ad, ph0, ph1, a, f;
	void *obj[30], *more[7];
	int i;

	mstat_profile_set_rate(1);
	profile_site_alloc(obj, k, 300);
	mstat_profile_drops(&sd, &ad, &ph0);
	KUNIT_ASSERT_EQ(test, mstat_reset(&mstat_core), 0);
	mstat_profile_drops(&sd, &ad, &ph1);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a, &f), 0);
	KUNIT_EXPECT_EQ(test, a, 0ULL);
	KUNIT_EXPECT_EQ(test, f, 0ULL);
	/* Every entry of the reset's past, ours among them, is dropped. */
	KUNIT_EXPECT_GE(test, ph1 - ph0, (u64)k);
	for (i = 0; i < j; i++)
		kfree(obj[i]);
	profile_site_alloc(more, n, 300);
	for (i = 0; i < n; i++)
		kfree(more[i]);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a, &f), 0);
	mstat_profile_set_rate(0);
	for (i = j; i < k; i++)
		kfree(obj[i]);
	KUNIT_EXPECT_EQ(test, a, (u64)n);
	KUNIT_EXPECT_EQ(test, f, (u64)n);
}

/* mstat_profile_forget() counts every remembered object freed, once. */
static void mstat_profile_forget_counts_freed(struct kunit *test)
{
	const int k = 25;
	u64 a0, f0, a1, f1, a2, f2, sd, ad, ph0, ph1;
	void *obj[25];
	int i;

	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a0, &f0), 0);
	mstat_profile_drops(&sd, &ad, &ph0);
	mstat_profile_set_rate(1);
	profile_site_alloc(obj, k, 100);
	mstat_profile_set_rate(0);
	mstat_profile_forget("a KUnit test");
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a1, &f1), 0);
	mstat_profile_drops(&sd, &ad, &ph1);
	for (i = 0; i < k; i++)
		kfree(obj[i]);
	KUNIT_ASSERT_EQ(test, mstat_profile_site("profile_site_alloc", &a2, &f2), 0);
	KUNIT_EXPECT_EQ(test, a1 - a0, (u64)k);
	KUNIT_EXPECT_EQ(test, f1 - f0, (u64)k);
	KUNIT_EXPECT_GE(test, ph1 - ph0, (u64)k);
	/* Their frees find no entry: not counted twice. */
	KUNIT_EXPECT_EQ(test, f2, f1);
}

/*
 * Sampled objects of two sources, by hand: keys of this module's data,
 * which no allocator frees, sampled and freed as the hot path does
 * (mstat_extras()), each in a write section of its own.
 */
#define PROFILE_KEYS	16
static char profile_keys[2][PROFILE_KEYS];

static noinline void profile_sample_key(unsigned long key,
					enum mstat_source src)
{
	struct mstat_section s;

	mstat_write_begin(&mstat_core, &s);
	/* The call site: the return address into profile_site_keys(). */
	__mstat_profile_sample(NULL, mstat_section_slot(&mstat_core, &s), 1,
			       key, 64, _RET_IP_, src, MSTAT_SAMPLE_KEY);
	mstat_write_end(&mstat_core, &s);
}

static noinline void profile_site_keys(const char *keys,
				       enum mstat_source src)
{
	int i;

	for (i = 0; i < PROFILE_KEYS; i++)
		profile_sample_key((unsigned long)&keys[i], src);
}

static void profile_free_keys(const char *keys)
{
	struct mstat_section s;
	int i;

	for (i = 0; i < PROFILE_KEYS; i++) {
		mstat_write_begin(&mstat_core, &s);
		__mstat_profile_free(mstat_section_slot(&mstat_core, &s),
				     (unsigned long)&keys[i]);
		mstat_write_end(&mstat_core, &s);
	}
}

/*
 * The published figures of profile_site_keys()'s rows of source @src:
 * sampled allocations, frees, and of those the entries dropped.
 */
static void profile_keys_counts(struct kunit *test, enum mstat_source src,
				u64 *allocs, u64 *frees, u64 *drops)
{
	struct mstat_snapshot snap;
	struct mstat_sites *ss = mstat_profile_read(&snap);
	char sym[KSYM_SYMBOL_LEN];
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ss));
	*allocs = *frees = *drops = 0;
	for (i = 0; i < ss->n; i++) {
		snprintf(sym, sizeof(sym), "%ps", (void *)ss->row[i].site);
		if (!str_has_prefix(sym, "profile_site_keys") ||
		    ss->row[i].src != src)
			continue;
		*allocs += ss->row[i].v[MSTAT_B_ALLOCS];
		*frees += ss->row[i].v[MSTAT_B_FREES];
		*drops += ss->row[i].v[MSTAT_B_DROPS];
	}
	mstat_sites_free(ss);
}

/*
 * mstat_profile_forget_sources() drops the entries of the sources given,
 * each counted freed once and in its row's drops, and keeps the others:
 * their frees, when they come, find them and count once, no drop.
 */
static void mstat_profile_forget_sources_keeps_others(struct kunit *test)
{
	const u64 k = PROFILE_KEYS;
	u64 ka0, kf0, pa0, pf0, ka1, kf1, pa1, pf1, ka2, kf2, pa2, pf2;
	u64 sd, ad0, ad1, ph0, ph1, kd0, pd0, kd1, pd1, kd2, pd2;

	profile_keys_counts(test, MSTAT_SRC_KMALLOC, &ka0, &kf0, &kd0);
	profile_keys_counts(test, MSTAT_SRC_PAGE, &pa0, &pf0, &pd0);
	mstat_profile_drops(&sd, &ad0, &ph0);
	profile_site_keys(profile_keys[0], MSTAT_SRC_KMALLOC);
	profile_site_keys(profile_keys[1], MSTAT_SRC_PAGE);
	mstat_profile_drops(&sd, &ad1, &ph1);
	/* Every sample has its entry (a full table counts it freed at once). */
	KUNIT_ASSERT_EQ(test, ad1, ad0);

	mstat_profile_forget_sources(BIT(MSTAT_SRC_PAGE), "a KUnit test");
	mstat_profile_drops(&sd, &ad1, &ph1);
	profile_keys_counts(test, MSTAT_SRC_KMALLOC, &ka1, &kf1, &kd1);
	profile_keys_counts(test, MSTAT_SRC_PAGE, &pa1, &pf1, &pd1);
	profile_free_keys(profile_keys[0]);
	profile_free_keys(profile_keys[1]);
	profile_keys_counts(test, MSTAT_SRC_KMALLOC, &ka2, &kf2, &kd2);
	profile_keys_counts(test, MSTAT_SRC_PAGE, &pa2, &pf2, &pd2);

	KUNIT_EXPECT_EQ(test, ka1 - ka0, k);
	KUNIT_EXPECT_EQ(test, pa1 - pa0, k);
	/* The page source's entries: dropped, counted freed once ... */
	KUNIT_EXPECT_EQ(test, pf1 - pf0, k);
	KUNIT_EXPECT_GE(test, ph1 - ph0, k);
	KUNIT_EXPECT_EQ(test, pd1 - pd0, k);
	/* ... their frees found none, so are not counted again. */
	KUNIT_EXPECT_EQ(test, pf2, pf1);
	KUNIT_EXPECT_EQ(test, pd2, pd1);
	/* The kmalloc source's: kept, not freed by the forget ... */
	KUNIT_EXPECT_EQ(test, kf1, kf0);
	/* ... and freed once, by their frees. */
	KUNIT_EXPECT_EQ(test, kf2 - kf0, k);
	KUNIT_EXPECT_EQ(test, kd2, kd0);
	KUNIT_EXPECT_EQ(test, kd1, kd0);
	KUNIT_EXPECT_EQ(test, ka2, ka1);
	KUNIT_EXPECT_EQ(test, pa2, pa1);
}

/* The labels of a sample taken here: this task's cgroup, the memory's node, its age. */
static void mstat_profile_labels_task(struct kunit *test)
{
	struct mstat_snapshot snap;
	struct mstat_sites *ss;
	void *obj[4];
	unsigned int i, rows = 0, live = 0;
	u64 cgroup;

#ifdef CONFIG_CGROUPS
	rcu_read_lock();
	cgroup = cgroup_id(task_dfl_cgroup(current));
	rcu_read_unlock();
#else
	cgroup = MSTAT_CGROUP_NONE;
#endif
	mstat_profile_set_rate(1);
	profile_site_alloc(obj, ARRAY_SIZE(obj), 1000);
	mstat_profile_set_rate(0);
	ss = mstat_profile_read(&snap);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ss));
	for (i = 0; i < ss->n; i++) {
		const struct mstat_site_row *r = &ss->row[i];
		char sym[KSYM_SYMBOL_LEN];
		unsigned int l;

		snprintf(sym, sizeof(sym), "%ps", (void *)r->site);
		if (!str_has_prefix(sym, "profile_site_alloc") ||
		    r->v[MSTAT_B_ALLOCS] == r->v[MSTAT_B_FREES])
			continue;
		rows++;
		KUNIT_EXPECT_EQ(test, r->cgroup, cgroup);
		KUNIT_EXPECT_EQ(test, r->node,
				page_to_nid(virt_to_page(obj[0])));
		for (l = 0; l < r->nlive; l++) {
			KUNIT_EXPECT_LE(test, r->live[l].time, ss->now);
			KUNIT_EXPECT_LT(test, ss->now - r->live[l].time,
					60 * NSEC_PER_SEC);
			KUNIT_EXPECT_EQ(test, r->live[l].size,
					(u64)ksize(obj[0]));
			live++;
		}
	}
	mstat_sites_free(ss);
	for (i = 0; i < ARRAY_SIZE(obj); i++)
		kfree(obj[i]);
	KUNIT_EXPECT_GE(test, rows, 1U);
	KUNIT_EXPECT_EQ(test, live, (unsigned int)ARRAY_SIZE(obj));
}

/*
 * The allocations of mstat_profile_keep_names_for_good(), at a site of
 * their own: kzalloc(), not profile_site_alloc()'s kmalloc(), or the two
 * bodies are one and GCC's identical code folding (-fipa-icf, on at -O2)
 * makes them one function, whose site is profile_site_alloc().
 */
static noinline void profile_site_kept(void **obj, int k, size_t size)
{
	int i;

	for (i = 0; i < k; i++)
		obj[i] = kzalloc(size, GFP_KERNEL);
}

/*
 * The rows of profile_site_kept(): their sampled allocations, in rows
 * whose site is that function's address (@at), and in rows whose site is
 * a kept name's token whose name is @name (@kept); @name set to the
 * first address row's name if empty.
 */
static void profile_kept_rows(struct kunit *test, char *name, u64 *at,
			      u64 *kept, unsigned long *site)
{
	struct mstat_snapshot snap;
	struct mstat_sites *ss = mstat_profile_read(&snap);
	char sym[KSYM_SYMBOL_LEN];
	unsigned int i;

	KUNIT_ASSERT_FALSE(test, IS_ERR(ss));
	*at = *kept = 0;
	for (i = 0; i < ss->n; i++) {
		const struct mstat_site_row *r = &ss->row[i];

		mstat_site_name(sym, sizeof(sym), r->site);
		if (!mstat_text_kept_token(r->site) &&
		    str_has_prefix(sym, "profile_site_kept")) {
			*at += r->v[MSTAT_B_ALLOCS];
			*site = r->site;
			if (!*name)
				strscpy(name, sym, KSYM_SYMBOL_LEN);
		} else if (mstat_text_kept_token(r->site) && *name &&
			   !strcmp(sym, name)) {
			*kept += r->v[MSTAT_B_ALLOCS];
		}
	}
	mstat_sites_free(ss);
}

/*
 * What the module notifier does to a module's text as it goes, done to
 * this test's site: the rows sampled there keep the name they had,
 * by a token rather than the address, and a later sample at the same
 * address makes a row of its own (its bucket's key changed with its
 * stack), not added to the kept one.
 */
static void mstat_profile_keep_names_for_good(struct kunit *test)
{
	u64 at0, kept0, at1, kept1, at2, kept2;
	unsigned long site = 0;
	void *obj[8] = {};
	char *name;
	int i;

	name = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, name);
	mstat_profile_set_rate(1);
	profile_site_kept(obj, 4, 300);
	mstat_profile_set_rate(0);
	profile_kept_rows(test, name, &at0, &kept0, &site);
	KUNIT_EXPECT_GE(test, at0, 4ULL);
	KUNIT_EXPECT_TRUE(test, site != 0);
	if (at0 < 4 || !site)
		goto out;

	/* The call's byte, before the return address. */
	KUNIT_EXPECT_GE(test, mstat_profile_keep_names(site - 1, 1), 1U);
	profile_kept_rows(test, name, &at1, &kept1, &site);
	KUNIT_EXPECT_EQ(test, at1, 0ULL);
	KUNIT_EXPECT_EQ(test, kept1, at0 + kept0);

	mstat_profile_set_rate(1);
	profile_site_kept(&obj[4], 4, 300);
	mstat_profile_set_rate(0);
	profile_kept_rows(test, name, &at2, &kept2, &site);
	KUNIT_EXPECT_EQ(test, at2, 4ULL);
	KUNIT_EXPECT_EQ(test, kept2, kept1);
out:
	/* NULL where the case ended early: kfree() takes it. */
	for (i = 0; i < ARRAY_SIZE(obj); i++)
		kfree(obj[i]);
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
	KUNIT_CASE(mstat_profile_page_stack_no_symbols),
	MSTAT_KUNIT_CASE_SLOW(mstat_profile_addr_cap_counts_drops),
	KUNIT_CASE(mstat_profile_reset_clears),
	KUNIT_CASE(mstat_profile_forget_counts_freed),
	KUNIT_CASE(mstat_profile_forget_sources_keeps_others),
	KUNIT_CASE(mstat_profile_labels_task),
	KUNIT_CASE(mstat_profile_keep_names_for_good),
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
MSTAT_IMPORT_INTERNAL_NS();
MODULE_DESCRIPTION("KUnit tests for mstat's heap profile");
