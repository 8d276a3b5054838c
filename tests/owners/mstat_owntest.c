// SPDX-License-Identifier: GPL-2.0
/*
 * mstat test: kernel memory of known owners, for /proc/mstat_owners and
 * `mstat memory --by caller` / `--cgroup` (scripts/guest/owners.sh). A
 * shell in a cgroup writes a command to debugfs's mstat_owntest/ctl and
 * the module allocates, in that shell's task, from a function of its
 * own that is the allocation's caller:
 *
 *	vmalloc TAG N KIB	N areas of vmalloc(KIB KiB), by ot_vmalloc
 *				(KIB at most 2048: its page array is then
 *				one page of slab, not an area of its own)
 *	percpu TAG N SIZE	N __alloc_percpu(SIZE, 8), by ot_percpu
 *	pool TAG PAGES		a page_pool, PAGES of its pages taken
 *				(page_pool_alloc_pages()), by ot_pool
 *				(-EOPNOTSUPP without CONFIG_PAGE_POOL)
 *	softpages TAG PAGES	PAGES order-0 pages from a timer (softirq),
 *				by ot_softpages
 *	free TAG		free the tag's memory, in the writer's task
 *	freelater TAG		free it from a work item (a kworker, in the
 *				root cgroup), and wait for that
 *
 * TAG is 0 to 7, a tag used once until freed. debugfs's
 * mstat_owntest/truth says, a line a tag in use:
 *
 *	tag TAG kind KIND caller FUNC cgroup ID|softirq objects N bytes B
 *
 * B the bytes mstat counts them with: a vm area's size, a percpu
 * object's size on every possible CPU, the pages' bytes (a page_pool's
 * pages taken; the pool may hold up to 64 more in its cache, which
 * `pool_cache` on the same line says).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/page_pool/helpers.h>

#define OT_TAGS		8
#define OT_MAX		4096	/* objects a tag */
#define OT_CMD_MAX	64

enum ot_kind { OT_NONE, OT_VMALLOC, OT_PERCPU, OT_POOL, OT_SOFTPAGES };

static const char *const ot_kind_name[] = {
	[OT_NONE] = "none", [OT_VMALLOC] = "vmalloc",
	[OT_PERCPU] = "percpu", [OT_POOL] = "page_pool",
	[OT_SOFTPAGES] = "pages",
};

static const char *const ot_caller[] = {
	[OT_NONE] = "-", [OT_VMALLOC] = "ot_vmalloc",
	[OT_PERCPU] = "ot_percpu", [OT_POOL] = "ot_pool",
	[OT_SOFTPAGES] = "ot_softpages",
};

/**
 * struct ot_tag - one tag's memory
 * @kind: what it holds
 * @cgroup: the allocating task's cgroup v2 id; 0 for a softirq
 * @n: objects held
 * @bytes: their bytes as mstat counts them
 * @obj: the objects (vm areas, pages)
 * @pcpu: the percpu objects
 * @pool: the tag's page_pool
 */
struct ot_tag {
	enum ot_kind kind;
	u64 cgroup;
	unsigned long n;
	u64 bytes;
	void **obj;
	void __percpu **pcpu;
	struct page_pool *pool;
};

static struct ot_tag ot_tags[OT_TAGS];
static DEFINE_MUTEX(ot_lock);
static struct dentry *ot_dir;

static u64 ot_task_cgroup(void)
{
	u64 id = 0;

#ifdef CONFIG_CGROUPS
	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(current));
	rcu_read_unlock();
#endif
	return id;
}

static noinline int ot_vmalloc(struct ot_tag *t, unsigned long n,
			       unsigned long kib)
{
	for (t->n = 0; t->n < n; t->n++) {
		t->obj[t->n] = vmalloc(kib * SZ_1K);
		if (!t->obj[t->n])
			return -ENOMEM;
		t->bytes += kib * SZ_1K;
	}
	return 0;
}

static noinline int ot_percpu(struct ot_tag *t, unsigned long n,
			      unsigned long size)
{
	for (t->n = 0; t->n < n; t->n++) {
		t->pcpu[t->n] = __alloc_percpu(size, 8);
		if (!t->pcpu[t->n])
			return -ENOMEM;
		t->bytes += (u64)size * num_possible_cpus();
	}
	return 0;
}

#if IS_ENABLED(CONFIG_PAGE_POOL)
static noinline int ot_pool(struct ot_tag *t, unsigned long n)
{
	struct page_pool_params pp = {
		.pool_size = 256,
		.nid = NUMA_NO_NODE,
	};

	t->pool = page_pool_create(&pp);
	if (IS_ERR(t->pool)) {
		int err = PTR_ERR(t->pool);

		t->pool = NULL;
		return err;
	}
	for (t->n = 0; t->n < n; t->n++) {
		t->obj[t->n] = page_pool_alloc_pages(t->pool, GFP_KERNEL);
		if (!t->obj[t->n])
			return -ENOMEM;
		t->bytes += PAGE_SIZE;
	}
	return 0;
}

static void ot_pool_put(struct ot_tag *t, void *page)
{
	page_pool_put_full_page(t->pool, page, false);
}

static void ot_pool_destroy(struct ot_tag *t)
{
	page_pool_destroy(t->pool);
}
#else
/* A kernel without page_pool (the debug test kernel's config). */
static int ot_pool(struct ot_tag *t, unsigned long n)
{
	pr_warn("pool: this kernel has no page_pool (CONFIG_PAGE_POOL)\n");
	return -EOPNOTSUPP;
}

static void ot_pool_put(struct ot_tag *t, void *page)
{
}

static void ot_pool_destroy(struct ot_tag *t)
{
}
#endif

/* The softirq's tag and its outcome, under ot_lock. */
static struct ot_tag *ot_soft_tag;
static unsigned long ot_soft_n;
static int ot_soft_err;
static DECLARE_COMPLETION(ot_soft_done);

static noinline void ot_softpages(struct timer_list *unused)
{
	struct ot_tag *t = ot_soft_tag;

	ot_soft_err = 0;
	for (t->n = 0; t->n < ot_soft_n; t->n++) {
		t->obj[t->n] = alloc_page(GFP_ATOMIC | __GFP_NOWARN);
		if (!t->obj[t->n]) {
			ot_soft_err = -ENOMEM;
			break;
		}
		t->bytes += PAGE_SIZE;
	}
	complete(&ot_soft_done);
}

static DEFINE_TIMER(ot_timer, ot_softpages);

static void ot_free(struct ot_tag *t)
{
	while (t->n) {
		void *o = t->obj[--t->n];

		switch (t->kind) {
		case OT_VMALLOC:
			vfree(o);
			break;
		case OT_PERCPU:
			free_percpu(t->pcpu[t->n]);
			break;
		case OT_POOL:
			ot_pool_put(t, o);
			break;
		default:
			__free_page(o);
		}
	}
	if (t->pool)
		ot_pool_destroy(t);
	t->pool = NULL;
	kvfree(t->obj);
	kvfree(t->pcpu);
	t->obj = NULL;
	t->pcpu = NULL;
	t->kind = OT_NONE;
	t->bytes = 0;
}

struct ot_work {
	struct work_struct work;
	struct ot_tag *t;
};

static void ot_free_work(struct work_struct *work)
{
	ot_free(container_of(work, struct ot_work, work)->t);
}

static int ot_alloc(struct ot_tag *t, enum ot_kind kind, unsigned long n,
		    unsigned long arg)
{
	int err;

	t->obj = kvcalloc(n, sizeof(*t->obj), GFP_KERNEL);
	t->pcpu = kvcalloc(n, sizeof(*t->pcpu), GFP_KERNEL);
	if (!t->obj || !t->pcpu) {
		ot_free(t);
		return -ENOMEM;
	}
	t->kind = kind;
	t->cgroup = ot_task_cgroup();
	switch (kind) {
	case OT_VMALLOC:
		err = ot_vmalloc(t, n, arg);
		break;
	case OT_PERCPU:
		err = ot_percpu(t, n, arg);
		break;
	case OT_POOL:
		err = ot_pool(t, n);
		break;
	default:
		t->cgroup = 0;
		ot_soft_tag = t;
		ot_soft_n = n;
		reinit_completion(&ot_soft_done);
		mod_timer(&ot_timer, jiffies + 1);
		wait_for_completion(&ot_soft_done);
		err = ot_soft_err;
	}
	if (err)
		ot_free(t);
	return err;
}

static int ot_cmd(char *buf)
{
	static const struct {
		const char *name;
		enum ot_kind kind;
		unsigned int args;	/* after TAG */
		unsigned long max[2];
	} cmds[] = {
		{ "vmalloc", OT_VMALLOC, 2, { OT_MAX, 2048 } },
		{ "percpu", OT_PERCPU, 2, { OT_MAX, 1024 } },
		{ "pool", OT_POOL, 1, { OT_MAX } },
		{ "softpages", OT_SOFTPAGES, 1, { OT_MAX } },
		{ "free", OT_NONE, 0 },
		{ "freelater", OT_NONE, 0 },
	};
	unsigned long tag, a[2] = { 0, 0 };
	char *word[4] = { NULL };
	unsigned int i, nw = 0;
	struct ot_work w;

	while (nw < ARRAY_SIZE(word) && (word[nw] = strsep(&buf, " ")))
		if (*word[nw])
			nw++;
	if (!nw || buf)
		goto bad;
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(word[0], cmds[i].name))
			break;
	if (i == ARRAY_SIZE(cmds) || nw != 2 + cmds[i].args ||
	    kstrtoul(word[1], 0, &tag) || tag >= OT_TAGS)
		goto bad;
	for (nw = 0; nw < cmds[i].args; nw++)
		if (kstrtoul(word[2 + nw], 0, &a[nw]) || !a[nw] ||
		    a[nw] > cmds[i].max[nw])
			goto bad;
	if (cmds[i].kind != OT_NONE) {
		if (ot_tags[tag].kind != OT_NONE)
			return -EBUSY;
		return ot_alloc(&ot_tags[tag], cmds[i].kind, a[0], a[1]);
	}
	if (!strcmp(word[0], "free")) {
		ot_free(&ot_tags[tag]);
		return 0;
	}
	w.t = &ot_tags[tag];
	INIT_WORK_ONSTACK(&w.work, ot_free_work);
	schedule_work(&w.work);
	flush_work(&w.work);
	destroy_work_on_stack(&w.work);
	return 0;
bad:
	pr_warn("bad command: see the file's comment for the commands\n");
	return -EINVAL;
}

static ssize_t ot_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[OT_CMD_MAX];
	int err;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	mutex_lock(&ot_lock);
	err = ot_cmd(strim(buf));
	mutex_unlock(&ot_lock);
	return err ? err : len;
}

static const struct file_operations ot_ctl_fops = {
	.owner = THIS_MODULE,
	.write = ot_ctl_write,
	.llseek = noop_llseek,
};

static int ot_truth_show(struct seq_file *m, void *v)
{
	unsigned int i;

	mutex_lock(&ot_lock);
	for (i = 0; i < OT_TAGS; i++) {
		const struct ot_tag *t = &ot_tags[i];

		if (t->kind == OT_NONE)
			continue;
		seq_printf(m, "tag %u kind %s caller %s cgroup ", i,
			   ot_kind_name[t->kind], ot_caller[t->kind]);
		if (t->kind == OT_SOFTPAGES)
			seq_puts(m, "softirq");
		else
			seq_printf(m, "%llu", t->cgroup);
		seq_printf(m, " objects %lu bytes %llu", t->n, t->bytes);
		if (t->pool)
			seq_printf(m, " pool_cache %u", t->pool->alloc.count);
		seq_putc(m, '\n');
	}
	mutex_unlock(&ot_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ot_truth);

static int __init ot_init(void)
{
	ot_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("ctl", 0200, ot_dir, NULL, &ot_ctl_fops);
	debugfs_create_file("truth", 0400, ot_dir, NULL, &ot_truth_fops);
	return 0;
}

static void __exit ot_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(ot_dir);
	timer_delete_sync(&ot_timer);
	for (i = 0; i < OT_TAGS; i++)
		ot_free(&ot_tags[i]);
}

module_init(ot_init);
module_exit(ot_exit);
MODULE_DESCRIPTION("mstat test: kernel memory of known callers and cgroups");
MODULE_LICENSE("GPL");
