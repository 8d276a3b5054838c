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

/* Per-source enable files; the inode's private data is the source. */
static ssize_t mstat_enable_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	enum mstat_source src = (uintptr_t)file_inode(file)->i_private;
	char buf[3];

	snprintf(buf, sizeof(buf), "%d\n", mstat_source_enabled(src));
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t mstat_enable_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	enum mstat_source src = (uintptr_t)file_inode(file)->i_private;
	u64 val;
	int err;

	err = mstat_ctl_parse(file, ubuf, count, 1, &val);
	if (!err)
		err = mstat_source_set(src, val);
	return err ?: count;
}

static const struct file_operations mstat_enable_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= mstat_enable_read,
	.write	= mstat_enable_write,
	.llseek	= default_llseek,
};

static ssize_t mstat_reset_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	u64 val;
	int err;

	err = mstat_ctl_parse(file, ubuf, count, 1, &val);
	if (err)
		return err;
	if (val != 1) {
		pr_warn_ratelimited("debugfs %pD: write 1 to reset\n", file);
		return -EINVAL;
	}
	err = mstat_reset(&mstat_core);
	return err ?: count;
}

static const struct file_operations mstat_reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= mstat_reset_write,
	.llseek	= noop_llseek,
};

/* u64 controls of the event stream. */
static int mstat_ev_sources_get(void *data, u64 *val)
{
	*val = READ_ONCE(mstat_events_sources);
	return 0;
}

static int mstat_ev_sources_set(void *data, u64 val)
{
	if (val >= BIT(MSTAT_NR_SOURCES)) {
		pr_warn_ratelimited("debugfs events_sources: %llu is not a mask of %d sources\n",
				    val, MSTAT_NR_SOURCES);
		return -EINVAL;
	}
	WRITE_ONCE(mstat_events_sources, val);
	WRITE_ONCE(mstat_events_on, val != 0);
	return 0;
}

static ssize_t mstat_ev_sources_write(struct file *file,
				      const char __user *ubuf, size_t count,
				      loff_t *ppos)
{
	u64 val;
	int err;

	err = mstat_ctl_parse(file, ubuf, count, BIT(MSTAT_NR_SOURCES) - 1,
			      &val);
	if (!err)
		err = mstat_ev_sources_set(NULL, val);
	return err ?: count;
}

static ssize_t mstat_u64_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos,
			      int (*get)(void *, u64 *))
{
	char buf[MSTAT_CTL_MAX];
	u64 val;
	int len;

	get(NULL, &val);
	len = snprintf(buf, sizeof(buf), "%llu\n", val);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t mstat_ev_sources_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	return mstat_u64_read(file, ubuf, count, ppos, mstat_ev_sources_get);
}

static const struct file_operations mstat_ev_sources_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= mstat_ev_sources_read,
	.write	= mstat_ev_sources_write,
	.llseek	= default_llseek,
};

static int mstat_ev_min_get(void *data, u64 *val)
{
	*val = READ_ONCE(mstat_events_min_size);
	return 0;
}

static ssize_t mstat_ev_min_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	return mstat_u64_read(file, ubuf, count, ppos, mstat_ev_min_get);
}

static ssize_t mstat_ev_min_write(struct file *file, const char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	u64 val;
	int err;

	err = mstat_ctl_parse(file, ubuf, count, U64_MAX, &val);
	if (!err)
		WRITE_ONCE(mstat_events_min_size, val);
	return err ?: count;
}

static const struct file_operations mstat_ev_min_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= mstat_ev_min_read,
	.write	= mstat_ev_min_write,
	.llseek	= default_llseek,
};

static int mstat_ev_dropped_get(void *data, u64 *val)
{
	*val = mstat_events_dropped();
	return 0;
}

static ssize_t mstat_ev_dropped_read(struct file *file, char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	return mstat_u64_read(file, ubuf, count, ppos, mstat_ev_dropped_get);
}

static const struct file_operations mstat_ev_dropped_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= mstat_ev_dropped_read,
	.llseek	= default_llseek,
};

/* The heap profile's sampling rate: mean bytes between samples. */
#define MSTAT_PROFILE_RATE_MAX	BIT_ULL(40)

static int mstat_profile_rate_get(void *data, u64 *val)
{
	*val = READ_ONCE(mstat_profile_rate);
	return 0;
}

static ssize_t mstat_profile_rate_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	return mstat_u64_read(file, ubuf, count, ppos, mstat_profile_rate_get);
}

static ssize_t mstat_profile_rate_write(struct file *file,
					const char __user *ubuf, size_t count,
					loff_t *ppos)
{
	u64 val;
	int err;

	err = mstat_ctl_parse(file, ubuf, count, MSTAT_PROFILE_RATE_MAX, &val);
	if (!err)
		mstat_profile_set_rate(val);
	return err ?: count;
}

static const struct file_operations mstat_profile_rate_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= mstat_profile_rate_read,
	.write	= mstat_profile_rate_write,
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
				e.size, mstat_site_name(sym, sizeof(sym), e.site));
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
	char name[32];
	int i;

	mstat_dir = debugfs_create_dir("mstat", NULL);
	debugfs_create_file("internals", 0400, mstat_dir, NULL,
			    &mstat_internals_fops);
	debugfs_create_file("history", 0400, mstat_dir, NULL,
			    &mstat_history_fops);
	for (i = 0; i < MSTAT_NR_SOURCES; i++) {
		snprintf(name, sizeof(name), "enable_%s", mstat_source_name[i]);
		debugfs_create_file(name, 0600, mstat_dir,
				    (void *)(uintptr_t)i, &mstat_enable_fops);
	}
	debugfs_create_file("reset", 0200, mstat_dir, NULL, &mstat_reset_fops);
	debugfs_create_file("events", 0400, mstat_dir, NULL,
			    &mstat_events_fops);
	debugfs_create_file("events_sources", 0600, mstat_dir, NULL,
			    &mstat_ev_sources_fops);
	debugfs_create_file("events_min_size", 0600, mstat_dir, NULL,
			    &mstat_ev_min_fops);
	debugfs_create_file("events_dropped", 0400, mstat_dir, NULL,
			    &mstat_ev_dropped_fops);
	debugfs_create_file("profile_rate", 0600, mstat_dir, NULL,
			    &mstat_profile_rate_fops);
}

/**
 * mstat_debugfs_exit() - remove it; waits for calls in progress
 */
void mstat_debugfs_exit(void)
{
	debugfs_remove_recursive(mstat_dir);
	mstat_dir = NULL;
}
