// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/mstat/: the core's internals, the reader's history,
 * the controls, and the alloc/free event stream. Every write is parsed
 * strictly: bad input gets -EINVAL, one rate-limited log line, and
 * changes nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "mstat_events.h"
#include "mstat_internal.h"
#include "mstat_profile.h"

static struct dentry *mstat_dir;

/* Longest accepted control write: a u64 in decimal plus a newline. */
#define MSTAT_CTL_MAX	24

/*
 * Parse a control write into @val: a number as kstrtou64() reads it (base
 * prefix, one trailing newline), at most @max. 0, or -EINVAL with one
 * rate-limited log line for anything else (overflow included).
 */
static int mstat_ctl_parse(struct file *file, const char __user *ubuf,
			   size_t count, u64 max, u64 *val)
{
	char buf[MSTAT_CTL_MAX + 1];
	int err = -EINVAL;

	if (count && count <= MSTAT_CTL_MAX) {
		if (copy_from_user(buf, ubuf, count))
			return -EFAULT;
		buf[count] = '\0';
		/* An embedded NUL would end the string early: refuse it. */
		if (strlen(buf) == count && !kstrtou64(buf, 0, val) &&
		    *val <= max)
			err = 0;
	}
	if (err)
		pr_warn_ratelimited("debugfs %pD: invalid input (%zu bytes); expected 0 to %llu\n",
				    file, count, max);
	return err;
}

/*
 * A numeric control: reads print the value, writes parse one (as
 * mstat_ctl_parse()) and hand it to ->set(), which may refuse it too.
 * @arg tells the per-source files apart.
 */
struct mstat_ctl {
	const char *name;
	umode_t mode;
	u64 max;
	int arg;
	u64 (*get)(int arg);
	int (*set)(int arg, u64 val);
};

static u64 mstat_enable_get(int src)
{
	return mstat_source_enabled(src);
}

static int mstat_enable_set(int src, u64 val)
{
	return mstat_source_set(src, val);
}

static int mstat_reset_set(int arg, u64 val)
{
	if (val != 1) {
		pr_warn_ratelimited("debugfs reset: write 1 to reset\n");
		return -EINVAL;
	}
	return mstat_reset(&mstat_core);
}

static u64 mstat_ev_sources_get(int arg)
{
	return READ_ONCE(mstat_events_sources);
}

static int mstat_ev_sources_set(int arg, u64 val)
{
	mstat_events_set_sources(val);
	return 0;
}

static u64 mstat_ev_min_get(int arg)
{
	return READ_ONCE(mstat_events_min_size);
}

static int mstat_ev_min_set(int arg, u64 val)
{
	WRITE_ONCE(mstat_events_min_size, val);
	return 0;
}

static u64 mstat_ev_dropped_get(int arg)
{
	return mstat_events_dropped();
}

static u64 mstat_profile_rate_get(int arg)
{
	return READ_ONCE(mstat_profile_rate);
}

static int mstat_profile_rate_set(int arg, u64 val)
{
	mstat_profile_set_rate(val);
	return 0;
}

static u64 mstat_sync_get(int arg)
{
	return READ_ONCE(mstat_core.sync);
}

static int mstat_sync_set(int arg, u64 val)
{
	return mstat_set_sync(&mstat_core, val);
}

static const struct mstat_ctl mstat_ctls[] = {
	{ "enable_kmalloc", 0600, 1, MSTAT_SRC_KMALLOC, mstat_enable_get,
	  mstat_enable_set },
	{ "enable_cache", 0600, 1, MSTAT_SRC_CACHE, mstat_enable_get,
	  mstat_enable_set },
	{ "enable_page", 0600, 1, MSTAT_SRC_PAGE, mstat_enable_get,
	  mstat_enable_set },
	{ "enable_api", 0600, 1, MSTAT_SRC_API, mstat_enable_get,
	  mstat_enable_set },
	{ "reset", 0200, 1, 0, NULL, mstat_reset_set },
	{ "events_sources", 0600, BIT(MSTAT_NR_SOURCES) - 1, 0,
	  mstat_ev_sources_get, mstat_ev_sources_set },
	{ "events_min_size", 0600, U64_MAX, 0, mstat_ev_min_get,
	  mstat_ev_min_set },
	{ "events_dropped", 0400, 0, 0, mstat_ev_dropped_get, NULL },
	{ "profile_rate", 0600, MSTAT_PROFILE_RATE_MAX, 0,
	  mstat_profile_rate_get, mstat_profile_rate_set },
	{ "sync_mode", 0600, MSTAT_NR_SYNC - 1, 0, mstat_sync_get,
	  mstat_sync_set },
};

static ssize_t mstat_ctl_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct mstat_ctl *c = file_inode(file)->i_private;
	char buf[MSTAT_CTL_MAX];
	int len;

	if (!c->get)
		return -EINVAL;
	len = snprintf(buf, sizeof(buf), "%llu\n", c->get(c->arg));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t mstat_ctl_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	const struct mstat_ctl *c = file_inode(file)->i_private;
	u64 val;
	int err;

	if (!c->set)
		return -EINVAL;
	err = mstat_ctl_parse(file, ubuf, count, c->max, &val);
	if (!err)
		err = c->set(c->arg, val);
	return err ?: count;
}

static const struct file_operations mstat_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= mstat_ctl_read,
	.write	= mstat_ctl_write,
	.llseek	= default_llseek,
};

/* The stream: one line per event; blocks when empty unless O_NONBLOCK. */
static ssize_t mstat_events_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct mstat_event_rec e;
	char sym[KSYM_SYMBOL_LEN];
	char line[160 + KSYM_SYMBOL_LEN];
	size_t done = 0;
	int len, err;

	while (!mstat_events_pending()) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		err = wait_event_interruptible(*mstat_events_waitq(),
					       mstat_events_pending());
		if (err)
			return err;
	}
	/* Stop while a whole line still fits, so no record is lost. */
	while (count - done >= sizeof(line) && mstat_events_next(&e)) {
		len = scnprintf(line, sizeof(line),
				"%llu cpu=%u %s %s ptr=%p size=%llu site=%s\n",
				e.ts, e.cpu, mstat_source_name[e.src],
				e.alloc ? "alloc" : "free", (void *)e.ptr,
				e.size, e.site ? mstat_site_name(sym, sizeof(sym),
								 e.site) : "-");
		if (copy_to_user(ubuf + done, line, len))
			return done ?: -EFAULT;
		done += len;
	}
	if (!done && count < sizeof(line))
		return -EINVAL;
	return done;
}

static __poll_t mstat_events_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, mstat_events_waitq(), wait);
	return mstat_events_pending() ? EPOLLIN | EPOLLRDNORM : 0;
}

static const struct file_operations mstat_events_fops = {
	.owner	= THIS_MODULE,
	.open	= nonseekable_open,
	.read	= mstat_events_read,
	.poll	= mstat_events_poll,
};

/* internals: the generation, each CPU's sequence word and raw slots. */
static int mstat_internals_show(struct seq_file *m, void *v)
{
	struct mstat_core *c = &mstat_core;
	unsigned int slot, w;
	unsigned long seq;
	int cpu;

	seq_printf(m, "generation %llu\n", READ_ONCE(c->gen));
	seq_printf(m, "sync_mode %s\n", mstat_sync_name[READ_ONCE(c->sync)]);
	seq_printf(m, "current_slot %u\n", mstat_cur_slot(c));
	seq_printf(m, "words_per_slot %u\n", c->nwords);
	for_each_possible_cpu(cpu) {
		seq = mstat_cpu_seq(c, cpu);
		seq_printf(m, "cpu %d online %d seq %#lx sections %lu depth %lu\n",
			   cpu, cpu_online(cpu), seq,
			   seq >> MSTAT_SEQ_DEPTH_BITS,
			   seq & MSTAT_SEQ_DEPTH_MASK);
		for (slot = 0; slot < 2; slot++) {
			seq_printf(m, "cpu %d slot %u:", cpu, slot);
			for (w = 0; w < c->nwords; w++)
				seq_printf(m, " %llu",
					   mstat_cpu_slot_word(c, cpu, slot, w));
			seq_putc(m, '\n');
		}
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mstat_internals);

/* history: Go's PauseNs/PauseEnd, oldest first. */
static int mstat_history_show(struct seq_file *m, void *v)
{
	struct mstat_core *c = &mstat_core;
	u64 i, first;

	if (mutex_lock_interruptible(&c->lock))
		return -EINTR;
	seq_printf(m, "snapshots %llu\n", c->nr_reads);
	seq_printf(m, "wait_total_ns %llu\n", c->wait_total_ns);
	seq_printf(m, "wait_max_ns %llu\n", c->wait_max_ns);
	seq_printf(m, "waited_cpus_total %llu\n", c->waited_cpus_total);
	seq_puts(m, "# snapshot latency_ns end_ns\n");
	first = c->nr_reads > MSTAT_HISTORY ? c->nr_reads - MSTAT_HISTORY : 0;
	for (i = first; i < c->nr_reads; i++)
		seq_printf(m, "%llu %llu %llu\n", i + 1,
			   c->hist_lat_ns[i % MSTAT_HISTORY],
			   c->hist_end_ns[i % MSTAT_HISTORY]);
	mutex_unlock(&c->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mstat_history);

/**
 * mstat_debugfs_init() - create /sys/kernel/debug/mstat/
 *
 * debugfs is optional: failures leave the module working without it.
 */
void mstat_debugfs_init(void)
{
	unsigned int i;

	mstat_dir = debugfs_create_dir("mstat", NULL);
	debugfs_create_file("internals", 0400, mstat_dir, NULL,
			    &mstat_internals_fops);
	debugfs_create_file("history", 0400, mstat_dir, NULL,
			    &mstat_history_fops);
	for (i = 0; i < ARRAY_SIZE(mstat_ctls); i++)
		debugfs_create_file(mstat_ctls[i].name, mstat_ctls[i].mode,
				    mstat_dir, (void *)&mstat_ctls[i],
				    &mstat_ctl_fops);
	debugfs_create_file("events", 0400, mstat_dir, NULL,
			    &mstat_events_fops);
}

/**
 * mstat_debugfs_exit() - remove it; waits for calls in progress
 */
void mstat_debugfs_exit(void)
{
	debugfs_remove_recursive(mstat_dir);
	mstat_dir = NULL;
}
