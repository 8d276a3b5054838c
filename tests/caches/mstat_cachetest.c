// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_cachetest - slab caches with known names and known traffic, to
 * count mstat's per-cache table against. It does not depend on mstat, so
 * that it can be loaded first: its init allocates objects that mstat,
 * loaded after, will only see freed.
 *
 *	/sys/kernel/debug/mstat_cachetest/run	(write) "1": run the
 *		scenario once, then return; (read) what it did, one line
 *		each, for the judge (tests/helpers/caches.c):
 *		"expect NAME SIZE ALLOCS FREES STATE" per row the table
 *		must have (STATE live or gone; NAME escaped as /proc/mstat
 *		escapes it), "merged 0|1" (SLUB merged two caches made to
 *		match), "same_addr 0|1" (the re-created cache got the
 *		destroyed one's address), "many N" (caches made to fill
 *		the table, "mstat_ct_many_NNN", 1 allocation and 1 free
 *		each, sizes from TEST_MANY_SIZE by 2).
 *
 * Every cache but the merged ones has a constructor, so that SLUB never
 * merges it, and an odd object size of its own, so that the judge can
 * find its row by size when mstat has no names.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#define TEST_PRE	100	/* objects allocated before mstat is loaded */
#define TEST_NAMED	8
#define TEST_MANY	120
#define TEST_MANY_SIZE	3601
#define TEST_MAX_OBJS	128

static char *test_out;
static size_t test_len;
static DEFINE_MUTEX(test_lock);
static struct dentry *test_dir;

static struct kmem_cache *test_pre;
static void *test_pre_obj[TEST_PRE];
static struct kmem_cache *test_named[TEST_NAMED];
static struct kmem_cache *test_re;
static struct kmem_cache *test_dup[2];
static struct kmem_cache *test_esc;
static struct kmem_cache *test_merge[2];

static void test_ctor(void *obj)
{
}

static __printf(1, 2) void test_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	test_len += vscnprintf(test_out + test_len, PAGE_SIZE * 4 - test_len,
			       fmt, ap);
	va_end(ap);
}

static struct kmem_cache *test_create(const char *name, unsigned int size,
				      bool ctor)
{
	return kmem_cache_create(name, size, 0, 0, ctor ? test_ctor : NULL);
}

/*
 * @allocs objects from @s, @frees of them freed at once; the rest stay
 * allocated until test_drain(). Return: 0, -ENOMEM or -ENOSPC.
 */
static struct {
	struct kmem_cache *s;
	void *p;
} test_objs[TEST_MAX_OBJS];
static unsigned int test_nobjs;

static int test_traffic(struct kmem_cache *s, unsigned int allocs,
			unsigned int frees)
{
	unsigned int i;

	for (i = 0; i < allocs; i++) {
		void *p = kmem_cache_alloc(s, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		if (i < frees) {
			kmem_cache_free(s, p);
			continue;
		}
		if (test_nobjs == TEST_MAX_OBJS) {
			kmem_cache_free(s, p);
			return -ENOSPC;
		}
		test_objs[test_nobjs].s = s;
		test_objs[test_nobjs++].p = p;
	}
	return 0;
}

/* Free what test_traffic() kept, before its caches are destroyed. */
static void test_drain(void)
{
	while (test_nobjs) {
		test_nobjs--;
		kmem_cache_free(test_objs[test_nobjs].s, test_objs[test_nobjs].p);
	}
}

/*
 * Live at the end: the named caches, the re-created one, the two of one
 * name, the escaped one and the merged ones keep their objects; the
 * judge reads /proc/mstat before the module is removed.
 */
static int test_run(void)
{
	struct kmem_cache *old, *many;
	char name[32];
	unsigned int i;
	int err;

	test_len = 0;
	test_drain();

	/* Allocated before mstat was loaded, freed now. */
	for (i = 0; i < TEST_PRE; i++)
		kmem_cache_free(test_pre, test_pre_obj[i]);
	kmem_cache_destroy(test_pre);
	test_pre = NULL;
	test_say("expect mstat_ct_pre 3001 0 %u gone\n", TEST_PRE);

	for (i = 0; i < TEST_NAMED; i++) {
		snprintf(name, sizeof(name), "mstat_ct_%02u", i);
		/* kmem_cache_create() keeps a copy of the name. */
		test_named[i] = test_create(name, 3003 + 2 * i, true);
		if (!test_named[i])
			return -ENOMEM;
		err = test_traffic(test_named[i], 5 + i, 2 + i / 2);
		if (err)
			return err;
		test_say("expect %s %u %u %u live\n", name, 3003 + 2 * i,
			 5 + i, 2 + i / 2);
	}

	/* Destroyed, then made again: the same name, size and, likely, address. */
	old = test_create("mstat_ct_re", 3101, true);
	if (!old)
		return -ENOMEM;
	err = test_traffic(old, 30, 30);
	kmem_cache_destroy(old);
	if (err)
		return err;
	test_re = test_create("mstat_ct_re", 3101, true);
	if (!test_re)
		return -ENOMEM;
	err = test_traffic(test_re, 20, 15);
	if (err)
		return err;
	test_say("expect mstat_ct_re 3101 30 30 gone\n");
	test_say("expect mstat_ct_re 3101 20 15 live\n");
	test_say("same_addr %d\n", test_re == old);

	/* One name, two caches. */
	for (i = 0; i < 2; i++) {
		test_dup[i] = test_create("mstat_ct_dup", 3201 + 2 * i, true);
		if (!test_dup[i])
			return -ENOMEM;
		err = test_traffic(test_dup[i], 7 + 2 * i, 3 + i);
		if (err)
			return err;
		test_say("expect mstat_ct_dup %u %u %u live\n", 3201 + 2 * i,
			 7 + 2 * i, 3 + i);
	}

	/* A name that /proc/mstat, JSON and Prometheus must escape. */
	test_esc = test_create("mstat ct\"q\\x\t", 3301, true);
	if (!test_esc)
		return -ENOMEM;
	err = test_traffic(test_esc, 3, 1);
	if (err)
		return err;
	test_say("expect mstat\\040ct\"q\\134x\\011 3301 3 1 live\n");

	/* Two caches made to match: SLUB hands the second the first. */
	test_merge[0] = test_create("mstat_ct_merge_a", 3401, false);
	test_merge[1] = test_create("mstat_ct_merge_b", 3401, false);
	if (!test_merge[0] || !test_merge[1])
		return -ENOMEM;
	err = test_traffic(test_merge[0], 11, 5);
	if (!err)
		err = test_traffic(test_merge[1], 13, 6);
	if (err)
		return err;
	if (test_merge[0] == test_merge[1]) {
		test_say("expect mstat_ct_merge_a 3401 24 11 live\n");
	} else {
		test_say("expect mstat_ct_merge_a 3401 11 5 live\n");
		test_say("expect mstat_ct_merge_b 3401 13 6 live\n");
	}
	test_say("merged %d\n", test_merge[0] == test_merge[1]);

	/* More caches than the table holds: the rest is the overflow's. */
	for (i = 0; i < TEST_MANY; i++) {
		snprintf(name, sizeof(name), "mstat_ct_many_%03u", i);
		many = test_create(name, TEST_MANY_SIZE + 2 * i, true);
		if (!many)
			return -ENOMEM;
		err = test_traffic(many, 1, 1);
		kmem_cache_destroy(many);
		if (err)
			return err;
	}
	test_say("many %u\n", TEST_MANY);
	return 0;
}

static ssize_t test_run_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char c;
	int err;

	if (count < 1 || count > 2 || get_user(c, ubuf) || c != '1')
		return -EINVAL;
	mutex_lock(&test_lock);
	err = test_pre ? test_run() : -EALREADY;
	if (err)
		pr_err("run: %d\n", err);
	mutex_unlock(&test_lock);
	return err ?: count;
}

static ssize_t test_run_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	ssize_t n;

	mutex_lock(&test_lock);
	n = simple_read_from_buffer(ubuf, count, ppos, test_out, test_len);
	mutex_unlock(&test_lock);
	return n;
}

static const struct file_operations test_run_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= test_run_read,
	.write	= test_run_write,
	.llseek	= default_llseek,
};

static void test_destroy_all(void)
{
	unsigned int i;

	test_drain();
	if (test_pre) {
		for (i = 0; i < TEST_PRE; i++)
			kmem_cache_free(test_pre, test_pre_obj[i]);
		kmem_cache_destroy(test_pre);
	}
	for (i = 0; i < TEST_NAMED; i++)
		kmem_cache_destroy(test_named[i]);
	kmem_cache_destroy(test_re);
	kmem_cache_destroy(test_dup[0]);
	kmem_cache_destroy(test_dup[1]);
	kmem_cache_destroy(test_esc);
	kmem_cache_destroy(test_merge[1]);
	kmem_cache_destroy(test_merge[0]);
	kfree(test_out);
}

static int __init test_init(void)
{
	unsigned int i;

	test_out = kzalloc(PAGE_SIZE * 4, GFP_KERNEL);
	test_pre = test_create("mstat_ct_pre", 3001, true);
	if (!test_out || !test_pre)
		goto nomem;
	for (i = 0; i < TEST_PRE; i++) {
		test_pre_obj[i] = kmem_cache_alloc(test_pre, GFP_KERNEL);
		if (!test_pre_obj[i]) {
			while (i--)
				kmem_cache_free(test_pre, test_pre_obj[i]);
			kmem_cache_destroy(test_pre);
			test_pre = NULL;
			goto nomem;
		}
	}
	/*
	 * Its per-CPU slabs flushed: /proc/slabinfo, which mstat reads at
	 * its load, then counts exactly the objects held (format 1.8).
	 */
	kmem_cache_shrink(test_pre);
	test_dir = debugfs_create_dir("mstat_cachetest", NULL);
	debugfs_create_file("run", 0600, test_dir, NULL, &test_run_fops);
	return 0;

nomem:
	test_destroy_all();
	return -ENOMEM;
}

static void __exit test_exit(void)
{
	debugfs_remove_recursive(test_dir);
	test_destroy_all();
}

module_init(test_init);
module_exit(test_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Slab caches of known names and traffic, for mstat's per-cache test");
