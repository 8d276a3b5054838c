// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_slabtest - one slab cache, "mstat_slabtest", whose live objects
 * are known at every step, to hold /proc/slabinfo's active-objects
 * figure (what slabtop shows) and mstat's per-cache row against the
 * truth (scripts/guest/slabinfo.sh, make bench). It does not depend on
 * mstat.
 *
 *	/sys/kernel/debug/mstat_slabtest/ctl	(write) one command:
 *		"alloc N"	N more objects, kept;
 *		"free N"	N of the kept objects freed, every other
 *				one from the oldest, so that slabs are left
 *				partly used, as a real workload leaves them
 *				(then the rest in order, if N is larger);
 *		"free_all"	every kept object freed.
 *	(read) "live N": the objects kept, the truth.
 *
 * The cache has a constructor, so that SLUB never merges it with another
 * one, and an object size no kmalloc class has.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#define ST_SIZE		200
#define ST_MAX		131072U

static struct kmem_cache *st_cache;
static void **st_obj;		/* ST_MAX slots, NULL where freed */
static unsigned int st_used;	/* slots handed out, in order */
static unsigned int st_live;
static DEFINE_MUTEX(st_lock);
static struct dentry *st_dir;

static void st_ctor(void *obj)
{
}

static int st_alloc(unsigned int n)
{
	if (n > ST_MAX - st_used)
		return -ENOSPC;
	while (n--) {
		void *p = kmem_cache_alloc(st_cache, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		st_obj[st_used++] = p;
		st_live++;
	}
	return 0;
}

static void st_free_one(unsigned int i)
{
	kmem_cache_free(st_cache, st_obj[i]);
	st_obj[i] = NULL;
	st_live--;
}

/* Every other kept object first, oldest first; then the rest. */
static void st_free(unsigned int n)
{
	unsigned int pass, i;

	for (pass = 0; pass < 2; pass++)
		for (i = pass; i < st_used && n; i += 2)
			if (st_obj[i]) {
				st_free_one(i);
				n--;
			}
}

static void st_free_all(void)
{
	unsigned int i;

	for (i = 0; i < st_used; i++)
		if (st_obj[i])
			st_free_one(i);
	st_used = 0;
}

static ssize_t st_write(struct file *file, const char __user *ubuf,
			size_t count, loff_t *ppos)
{
	char buf[32], *arg;
	unsigned int n = 0;
	int err = 0;

	if (count == 0 || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	strim(buf);
	arg = strchr(buf, ' ');
	if (arg) {
		*arg++ = '\0';
		err = kstrtouint(arg, 0, &n);
		if (err)
			return err;
	}

	mutex_lock(&st_lock);
	if (!strcmp(buf, "alloc") && arg)
		err = st_alloc(n);
	else if (!strcmp(buf, "free") && arg)
		st_free(n);
	else if (!strcmp(buf, "free_all") && !arg)
		st_free_all();
	else
		err = -EINVAL;
	mutex_unlock(&st_lock);
	if (err)
		pr_err("ctl \"%s\": %d\n", buf, err);
	return err ?: count;
}

static ssize_t st_read(struct file *file, char __user *ubuf, size_t count,
		       loff_t *ppos)
{
	char buf[32];
	int len;

	mutex_lock(&st_lock);
	len = scnprintf(buf, sizeof(buf), "live %u\n", st_live);
	mutex_unlock(&st_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations st_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= st_read,
	.write	= st_write,
	.llseek	= default_llseek,
};

static int __init st_init(void)
{
	st_obj = vzalloc(array_size(ST_MAX, sizeof(*st_obj)));
	if (!st_obj)
		return -ENOMEM;
	st_cache = kmem_cache_create("mstat_slabtest", ST_SIZE, 0, 0, st_ctor);
	if (!st_cache) {
		vfree(st_obj);
		return -ENOMEM;
	}
	st_dir = debugfs_create_dir("mstat_slabtest", NULL);
	debugfs_create_file("ctl", 0600, st_dir, NULL, &st_fops);
	return 0;
}

static void __exit st_exit(void)
{
	debugfs_remove_recursive(st_dir);
	st_free_all();
	kmem_cache_destroy(st_cache);
	vfree(st_obj);
}

module_init(st_init);
module_exit(st_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("One slab cache with known live objects, for /proc/slabinfo against the truth");
