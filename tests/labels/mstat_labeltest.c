// SPDX-License-Identifier: GPL-2.0
/*
 * mstat_labeltest - allocations of known labels, for the heap profile's
 * labels truth test and its phantom-entry test (scripts/guest/labels.sh,
 * judged by tests/helpers/labels.c). It uses nothing of mstat's and may
 * be loaded before or after it.
 *
 * Its control, /sys/kernel/debug/mstat_labeltest/ctl, takes one command
 * a write, run in the writer's context (so that the allocating task's
 * cgroup is the writer's):
 *
 *	alloc TAG BYTES SIZE NODE	BYTES in objects of SIZE, each
 *					kmalloc_node(SIZE, GFP_KERNEL |
 *					__GFP_THISNODE, NODE), kept
 *	churn TAG BYTES SIZE NODE	the same, each freed at once
 *	softirq TAG BYTES SIZE NODE	alloc, run by a tasklet (GFP_ATOMIC):
 *					the allocations of a softirq
 *	hardirq TAG BYTES SIZE NODE	alloc, run by a hard-irq hrtimer
 *					(GFP_ATOMIC): those of a hard irq
 *	free TAG			kfree() every object TAG keeps
 *	kpfree TAG			kfree_bulk() of them from the
 *					pre-handler of a kprobe of this module's
 *					own: a kprobe on kfree_bulk()'s
 *					function then hits inside a kprobe
 *					handler, and kprobes count it missed
 *
 * TAG is 0 to LT_NR_TAGS - 1, and each tag allocates from a leaf function
 * of its own, lt_leafTAG(), called through lt_alloc_one(): a tag is a
 * stack (the softirq's a different one, from the same leaf). BYTES is a
 * multiple of SIZE, at most LT_MAX_BYTES; SIZE 8 to 8192; NODE an online
 * node. Bad input: EINVAL and a log line.
 *
 * /sys/kernel/debug/mstat_labeltest/truth reads back what it did, the
 * truth to judge /proc/mstat_sites by:
 *
 *	now_ns NS
 *	batch ID tag TAG leaf lt_leafTAG ctx task|softirq|hardirq
 *	      cgroup ID|softirq|hardirq
 *	      node N size S count C kept K churn 0|1 misplaced M
 *	      first_ns NS last_ns NS
 *
 * (one line a batch, a command that allocated), with now_ns, first_ns
 * and last_ns on the boot clock (ktime_get_boottime_ns()): when the file
 * was read, when the batch's first and last objects were allocated.
 * cgroup: the cgroup v2 id of the writer (its directory's inode number),
 * or "softirq" or "hardirq"; count: objects allocated; kept: objects it holds now;
 * misplaced: objects whose memory is not on NODE (page_to_nid()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/nodemask.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "tests/mstat_test_compat.h"

#define LT_NR_TAGS	9
#define LT_MAX_BYTES	(256UL << 20)
#define LT_MAX_BATCHES	64
#define LT_CMD_MAX	80

enum lt_ctx { LT_TASK, LT_SOFTIRQ, LT_HARDIRQ };

static const char *const lt_ctx_name[] = {
	[LT_TASK] = "task", [LT_SOFTIRQ] = "softirq", [LT_HARDIRQ] = "hardirq",
};

/**
 * struct lt_batch - what one command allocated
 * @tag: its tag (its leaf function)
 * @ctx: LT_TASK, LT_SOFTIRQ or LT_HARDIRQ
 * @cgroup: the writer's cgroup v2 id (LT_TASK)
 * @node: the node asked for
 * @size: the objects' size
 * @count: objects allocated
 * @kept: objects in @objs, held now
 * @churn: each object was freed right after its allocation
 * @misplaced: objects whose memory is not on @node
 * @first_ns: when the first object was allocated (boot clock)
 * @last_ns: when the last one was
 * @objs: the objects held (@count of them until freed)
 */
struct lt_batch {
	unsigned int tag;
	enum lt_ctx ctx;
	u64 cgroup;
	int node;
	size_t size;
	unsigned long count, kept;
	bool churn;
	unsigned long misplaced;
	u64 first_ns, last_ns;
	void **objs;
};

static struct lt_batch lt_batches[LT_MAX_BATCHES];
static unsigned int lt_nbatches;
static DEFINE_MUTEX(lt_lock);
static struct dentry *lt_dir;

/* The leaves: one stack a tag. */
#define LT_LEAF(n)							\
static noinline void *lt_leaf##n(size_t size, gfp_t gfp, int node)	\
{									\
	void *p = kmalloc_node(size, gfp, node);			\
									\
	OPTIMIZER_HIDE_VAR(p);						\
	return p;							\
}

LT_LEAF(0)
LT_LEAF(1)
LT_LEAF(2)
LT_LEAF(3)
LT_LEAF(4)
LT_LEAF(5)
LT_LEAF(6)
LT_LEAF(7)
LT_LEAF(8)

static void *(*const lt_leaves[LT_NR_TAGS])(size_t, gfp_t, int) = {
	lt_leaf0, lt_leaf1, lt_leaf2, lt_leaf3,
	lt_leaf4, lt_leaf5, lt_leaf6, lt_leaf7, lt_leaf8,
};

static noinline void *lt_alloc_one(struct lt_batch *b, gfp_t gfp)
{
	void *p = lt_leaves[b->tag](b->size, gfp | __GFP_THISNODE |
				    __GFP_NOWARN, b->node);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

/* Allocate @b's objects; 0 or -ENOMEM (then @b keeps what it got). */
static int lt_fill(struct lt_batch *b, gfp_t gfp)
{
	unsigned long i, n = b->count;

	b->count = 0;
	b->first_ns = ktime_get_boottime_ns();
	for (i = 0; i < n; i++) {
		void *p = lt_alloc_one(b, gfp);

		if (!p)
			return -ENOMEM;
		b->last_ns = ktime_get_boottime_ns();
		b->count++;
		if (page_to_nid(virt_to_page(p)) != b->node)
			b->misplaced++;
		if (b->churn)
			kfree(p);
		else
			b->objs[b->kept++] = p;
		if (gfp == GFP_KERNEL && !(i & 255))
			cond_resched();
	}
	return 0;
}

/* The softirq's batch, and the writer's wait for it. */
static struct lt_batch *lt_sirq_batch;
static int lt_sirq_err;
static DECLARE_COMPLETION(lt_sirq_done);

static void lt_sirq_fn(struct tasklet_struct *t)
{
	lt_sirq_err = lt_fill(lt_sirq_batch, GFP_ATOMIC);
	complete(&lt_sirq_done);
}

static DECLARE_TASKLET(lt_tasklet, lt_sirq_fn);

/* The hard irq's: an hrtimer that expires in hard-irq context. */
static struct hrtimer lt_hirq_timer;

static enum hrtimer_restart lt_hirq_fn(struct hrtimer *t)
{
	lt_sirq_err = lt_fill(lt_sirq_batch, GFP_ATOMIC);
	complete(&lt_sirq_done);
	return HRTIMER_NORESTART;
}

static u64 lt_task_cgroup(void)
{
	u64 id = 0;

#ifdef CONFIG_CGROUPS
	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(current));
	rcu_read_unlock();
#endif
	return id;
}

static void lt_free_kept(struct lt_batch *b)
{
	while (b->kept)
		kfree(b->objs[--b->kept]);
}

/* kpfree: the objects to free, and the kprobe whose handler frees them. */
static struct lt_batch *lt_kp_batch;

/* Not pure (barrier()): the compiler may drop a call to a pure function. */
static noinline void lt_kp_target(struct lt_batch *b)
{
	OPTIMIZER_HIDE_VAR(b);
	barrier();
}

static int lt_kp_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct lt_batch *b = READ_ONCE(lt_kp_batch);

	if (b && b->kept) {
		kfree_bulk(b->kept, b->objs);
		b->kept = 0;
	}
	return 0;
}

static int lt_kpfree(struct lt_batch *b)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)lt_kp_target,
		.pre_handler = lt_kp_pre,
	};
	int err = register_kprobe(&kp);

	if (err) {
		pr_warn("kpfree: register_kprobe: %d\n", err);
		return err;
	}
	WRITE_ONCE(lt_kp_batch, b);
	lt_kp_target(b);
	WRITE_ONCE(lt_kp_batch, NULL);
	unregister_kprobe(&kp);
	if (b->kept) {
		pr_warn("kpfree: the kprobe did not run\n");
		return -EIO;
	}
	return 0;
}

static int lt_cmd_alloc(const char *cmd, unsigned int tag,
			unsigned long bytes, size_t size, int node)
{
	struct lt_batch *b;
	int err;

	if (size < 8 || size > 8192 || !bytes || bytes > LT_MAX_BYTES ||
	    bytes % size) {
		pr_warn("%s: BYTES %lu, SIZE %zu: SIZE 8 to 8192, BYTES a multiple, at most %lu\n",
			cmd, bytes, size, LT_MAX_BYTES);
		return -EINVAL;
	}
	if (node < 0 || node >= MAX_NUMNODES || !node_online(node)) {
		pr_warn("%s: node %d is not online\n", cmd, node);
		return -EINVAL;
	}
	if (lt_nbatches == LT_MAX_BATCHES) {
		pr_warn("%s: %d batches already\n", cmd, LT_MAX_BATCHES);
		return -ENOSPC;
	}
	b = &lt_batches[lt_nbatches];
	memset(b, 0, sizeof(*b));
	b->tag = tag;
	b->node = node;
	b->size = size;
	b->count = bytes / size;
	b->churn = !strcmp(cmd, "churn");
	b->ctx = !strcmp(cmd, "softirq") ? LT_SOFTIRQ :
		 !strcmp(cmd, "hardirq") ? LT_HARDIRQ : LT_TASK;
	if (!b->churn) {
		b->objs = kvcalloc(b->count, sizeof(void *), GFP_KERNEL);
		if (!b->objs)
			return -ENOMEM;
	}
	lt_nbatches++;
	if (b->ctx != LT_TASK) {
		reinit_completion(&lt_sirq_done);
		lt_sirq_batch = b;
		if (b->ctx == LT_SOFTIRQ)
			tasklet_schedule(&lt_tasklet);
		else
			hrtimer_start(&lt_hirq_timer, ns_to_ktime(1000),
				      HRTIMER_MODE_REL_HARD);
		wait_for_completion(&lt_sirq_done);
		err = lt_sirq_err;
	} else {
		b->cgroup = lt_task_cgroup();
		err = lt_fill(b, GFP_KERNEL);
	}
	if (err)
		pr_warn("%s: tag %u: out of memory after %lu objects\n",
			cmd, tag, b->count);
	return err;
}

static int lt_cmd(char *line)
{
	char cmd[16];
	unsigned int tag, i;
	unsigned long bytes;
	size_t size;
	int node, n, err = 0;

	n = sscanf(line, "%15s %u %lu %zu %d", cmd, &tag, &bytes, &size, &node);
	if (n < 2 || tag >= LT_NR_TAGS) {
		pr_warn("bad command \"%s\": want CMD TAG [BYTES SIZE NODE], TAG below %d\n",
			line, LT_NR_TAGS);
		return -EINVAL;
	}
	if (!strcmp(cmd, "alloc") || !strcmp(cmd, "churn") ||
	    !strcmp(cmd, "softirq") || !strcmp(cmd, "hardirq")) {
		if (n != 5) {
			pr_warn("%s: want %s TAG BYTES SIZE NODE\n", cmd, cmd);
			return -EINVAL;
		}
		return lt_cmd_alloc(cmd, tag, bytes, size, node);
	}
	if (n != 2 || (strcmp(cmd, "free") && strcmp(cmd, "kpfree"))) {
		pr_warn("bad command \"%s\"\n", line);
		return -EINVAL;
	}
	for (i = 0; i < lt_nbatches && !err; i++) {
		struct lt_batch *b = &lt_batches[i];

		if (b->tag != tag || !b->kept)
			continue;
		if (cmd[0] == 'k')
			err = lt_kpfree(b);
		else
			lt_free_kept(b);
	}
	return err;
}

static ssize_t lt_ctl_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	char buf[LT_CMD_MAX];
	int err;

	if (!len || len >= sizeof(buf)) {
		pr_warn("a command is 1 to %zu bytes, not %zu\n",
			sizeof(buf) - 1, len);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	mutex_lock(&lt_lock);
	err = lt_cmd(buf);
	mutex_unlock(&lt_lock);
	return err ? err : len;
}

static const struct file_operations lt_ctl_fops = {
	.owner = THIS_MODULE,
	.write = lt_ctl_write,
	.llseek = noop_llseek,
};

static int lt_truth_show(struct seq_file *m, void *v)
{
	unsigned int i;

	mutex_lock(&lt_lock);
	seq_printf(m, "now_ns %llu\n", ktime_get_boottime_ns());
	for (i = 0; i < lt_nbatches; i++) {
		struct lt_batch *b = &lt_batches[i];

		seq_printf(m, "batch %u tag %u leaf lt_leaf%u ctx %s cgroup ",
			   i, b->tag, b->tag, lt_ctx_name[b->ctx]);
		if (b->ctx == LT_TASK)
			seq_printf(m, "%llu", b->cgroup);
		else
			seq_puts(m, lt_ctx_name[b->ctx]);
		seq_printf(m, " node %d size %zu count %lu kept %lu churn %d misplaced %lu first_ns %llu last_ns %llu\n",
			   b->node, b->size, b->count, b->kept, b->churn,
			   b->misplaced, b->first_ns, b->last_ns);
	}
	mutex_unlock(&lt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lt_truth);

static int __init lt_init(void)
{
	mstat_hrtimer_setup(&lt_hirq_timer, lt_hirq_fn, CLOCK_MONOTONIC,
			    HRTIMER_MODE_REL_HARD);
	lt_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("ctl", 0200, lt_dir, NULL, &lt_ctl_fops);
	debugfs_create_file("truth", 0400, lt_dir, NULL, &lt_truth_fops);
	return 0;
}

static void __exit lt_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(lt_dir);
	tasklet_kill(&lt_tasklet);
	hrtimer_cancel(&lt_hirq_timer);
	for (i = 0; i < lt_nbatches; i++) {
		lt_free_kept(&lt_batches[i]);
		kvfree(lt_batches[i].objs);
	}
}

module_init(lt_init);
module_exit(lt_exit);
MODULE_DESCRIPTION("mstat test: allocations of known cgroups, nodes and ages");
MODULE_LICENSE("GPL");
