// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_chains - allocations from known call chains, for the heap
 * profile's known-chains accuracy test (scripts/guest/chains.sh). It does
 * not depend on mstat: the judge loads mstat first, then this module,
 * whose init runs three chains of different depths and sizes:
 *
 *	A: chains_run -> chains_a_top -> chains_a_leaf -> kmalloc(256)
 *	B: chains_run -> chains_b_top -> chains_b_2 -> chains_b_3
 *	   -> chains_b_leaf -> kmalloc(2048)
 *	C: chains_run -> chains_c_top -> chains_c_mid -> chains_c_leaf
 *	   -> kmem_cache_alloc() of a cache of its own, 1024-byte objects
 *	D: chains_run -> chains_d_top -> chains_d_leaf -> alloc_pages() of
 *	   order 2 (16 KiB): raw pages, sampled with mstat's profile_pages=1
 *	   (its stack starts past the page allocator's frames)
 *
 * Each chain allocates its objects one by one and frees every other one
 * at once, keeping the rest live until "1" is written to the release
 * parameter (or the module is removed). It logs what it did, one line a
 * chain, which is the judge's truth:
 *
 *	mstat_chains: chain A size 256 allocs N frees M live_bytes L
 *		frames chains_a_leaf chains_a_top chains_run
 *
 * (one line), the frames innermost first, as the profile's stack must
 * hold them from its call site out. The functions are noinline and use
 * their callee's result after the call, so that none is inlined or left
 * by a tail call, and each frame stays on the stack.
 *
 * tamper=1, the test's own test: the truth it logs is false (allocs,
 * frees and live bytes doubled, chain B's frames in the wrong order),
 * which the judge must catch.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compiler.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define CHAINS_A_SIZE	256
#define CHAINS_B_SIZE	2048
#define CHAINS_C_SIZE	1024
#define CHAINS_D_ORDER	2
#define CHAINS_D_SIZE	(PAGE_SIZE << CHAINS_D_ORDER)

/* Allocations per chain: 192 MiB each, half of it kept live. */
#define CHAINS_BYTES	(192UL << 20)

static bool tamper;
module_param(tamper, bool, 0444);
MODULE_PARM_DESC(tamper, "Log a false truth, for the judge to catch (default 0)");

struct chains_chain {
	const char *name;
	size_t size;
	unsigned long n;	/* objects allocated */
	void **live;		/* the kept half */
	unsigned long nlive;
	unsigned long frees;
};

static struct chains_chain chains[4] = {
	{ "A", CHAINS_A_SIZE }, { "B", CHAINS_B_SIZE }, { "C", CHAINS_C_SIZE },
	{ "D", CHAINS_D_SIZE },
};

static struct kmem_cache *chains_cache;
static DEFINE_MUTEX(chains_lock);

static void chains_ctor(void *obj)
{
}

static noinline void *chains_a_leaf(void)
{
	void *p = kmalloc(CHAINS_A_SIZE, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_a_top(void)
{
	void *p = chains_a_leaf();

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_b_leaf(void)
{
	void *p = kmalloc(CHAINS_B_SIZE, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_b_3(void)
{
	void *p = chains_b_leaf();

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_b_2(void)
{
	void *p = chains_b_3();

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_b_top(void)
{
	void *p = chains_b_2();

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_c_leaf(void)
{
	void *p = kmem_cache_alloc(chains_cache, GFP_KERNEL);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_c_mid(void)
{
	void *p = chains_c_leaf();

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_c_top(void)
{
	void *p = chains_c_mid();

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_d_leaf(void)
{
	void *p = alloc_pages(GFP_KERNEL, CHAINS_D_ORDER);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline void *chains_d_top(void)
{
	void *p = chains_d_leaf();

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline int chains_run(void);

/* Chain @i's object @p freed; D's is a struct page. */
static void chains_free(int i, void *p)
{
	if (i == 3)
		__free_pages(p, CHAINS_D_ORDER);
	else if (i == 2)
		kmem_cache_free(chains_cache, p);
	else
		kfree(p);
}

/* Release the live halves; under chains_lock. */
static void chains_release_all(void)
{
	unsigned long j;
	int i;

	for (i = 0; i < ARRAY_SIZE(chains); i++) {
		for (j = 0; j < chains[i].nlive; j++)
			chains_free(i, chains[i].live[j]);
		chains[i].frees += chains[i].nlive;
		chains[i].nlive = 0;
	}
}

/* The chains' frames, innermost first, as %ps names them. */
static void chains_frames(int i, void **f, int *n)
{
	static void *const a[] = { chains_a_leaf, chains_a_top, chains_run };
	static void *const b[] = { chains_b_leaf, chains_b_3, chains_b_2,
				   chains_b_top, chains_run };
	static void *const c[] = { chains_c_leaf, chains_c_mid, chains_c_top,
				   chains_run };
	static void *const d[] = { chains_d_leaf, chains_d_top, chains_run };
	void *const *src = i == 0 ? a : i == 1 ? b : i == 2 ? c : d;

	*n = i == 0 ? ARRAY_SIZE(a) : i == 1 ? ARRAY_SIZE(b) :
	     i == 2 ? ARRAY_SIZE(c) : ARRAY_SIZE(d);
	memcpy(f, src, *n * sizeof(*f));
	if (tamper && i == 1)
		swap(f[1], f[2]);
}

static noinline int chains_run(void)
{
	unsigned long j, m = tamper ? 2 : 1;
	char names[256];
	void *f[5];
	int i, k, n, len;

	for (i = 0; i < ARRAY_SIZE(chains); i++) {
		struct chains_chain *c = &chains[i];
		unsigned long nobj = CHAINS_BYTES / c->size;

		c->live = kvcalloc(nobj / 2 + 1, sizeof(void *), GFP_KERNEL);
		if (!c->live)
			return -ENOMEM;
		for (j = 0; j < nobj; j++) {
			void *p = i == 0 ? chains_a_top() :
				  i == 1 ? chains_b_top() :
				  i == 2 ? chains_c_top() : chains_d_top();

			if (!p)
				return -ENOMEM;
			c->n++;
			if (j & 1) {
				chains_free(i, p);
				c->frees++;
			} else {
				c->live[c->nlive++] = p;
			}
			cond_resched();
		}
		chains_frames(i, f, &n);
		for (k = 0, len = 0; k < n; k++)
			len += scnprintf(names + len, sizeof(names) - len,
					 " %ps", f[k]);
		pr_info("chain %s size %zu allocs %lu frees %lu live_bytes %lu frames%s\n",
			c->name, c->size, c->n * m, c->frees * m,
			c->nlive * c->size * m, names);
	}
	return 0;
}

static int chains_release_set(const char *val, const struct kernel_param *kp)
{
	bool v;
	int err = kstrtobool(val, &v);

	if (err) {
		pr_warn("release: %s is not a boolean\n", val);
		return err;
	}
	if (!v)
		return 0;
	mutex_lock(&chains_lock);
	chains_release_all();
	mutex_unlock(&chains_lock);
	pr_info("released\n");
	return 0;
}

static const struct kernel_param_ops chains_release_ops = {
	.set = chains_release_set,
};
module_param_cb(release, &chains_release_ops, NULL, 0200);
MODULE_PARM_DESC(release, "Write 1: free the objects kept live");

static void chains_cleanup(void)
{
	int i;

	mutex_lock(&chains_lock);
	chains_release_all();
	mutex_unlock(&chains_lock);
	for (i = 0; i < ARRAY_SIZE(chains); i++)
		kvfree(chains[i].live);
	kmem_cache_destroy(chains_cache);
}

static int __init chains_init(void)
{
	int err;

	/* A constructor: SLUB merges no cache that has one. */
	chains_cache = kmem_cache_create("mstat_chains_c", CHAINS_C_SIZE, 0,
					 SLAB_HWCACHE_ALIGN, chains_ctor);
	if (!chains_cache)
		return -ENOMEM;
	mutex_lock(&chains_lock);
	err = chains_run();
	mutex_unlock(&chains_lock);
	if (err) {
		chains_cleanup();
		return err;
	}
	return 0;
}

static void __exit chains_exit(void)
{
	chains_cleanup();
}

module_init(chains_init);
module_exit(chains_exit);
MODULE_DESCRIPTION("mstat test: allocations from known call chains");
MODULE_LICENSE("GPL");
