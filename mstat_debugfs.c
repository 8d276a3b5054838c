// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs face (layer 5), /sys/kernel/debug/mstat/: the core's
 * internals, the reader's history, a file per control of mstat_ctl.c's
 * table (parsed and set there, as the module parameters are), and
 * (created by mstat_stream.c) the alloc/free event stream. Every write is
 * parsed strictly: bad input gets -EINVAL, one rate-limited log line, and
 * changes nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "mstat_caches.h"
#include "mstat_ctl.h"
#include "mstat_faces.h"
#include "mstat_kprobes.h"
#include "mstat_profile.h"
#include "mstat_slab.h"
#include "mstat_sources.h"
#include "mstat_stats.h"
#include "mstat_stream.h"
#include "mstat_watch.h"

static struct dentry *mstat_dir;

/* A control's file: reads print its value; writes go to mstat_ctl_store(). */
static ssize_t mstat_ctl_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	const struct mstat_ctl *c = file_inode(file)->i_private;
	char buf[MSTAT_CTL_MAX];
	int len;

	len = mstat_ctl_show(c, buf, sizeof(buf));
	if (len < 0)
		return len;
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t mstat_ctl_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	const struct mstat_ctl *c = file_inode(file)->i_private;
	char buf[MSTAT_CTL_MAX + 1] = "";
	int err;

	/* Longer or empty writes are refused unread. */
	if (count && count <= MSTAT_CTL_MAX) {
		if (copy_from_user(buf, ubuf, count))
			return -EFAULT;
		buf[count] = '\0';
	}
	err = mstat_ctl_store(c, "debugfs", buf, count);
	return err ?: count;
}

static const struct file_operations mstat_ctl_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= mstat_ctl_read,
	.write	= mstat_ctl_write,
	.llseek	= default_llseek,
};

/*
 * internals: the generation and the probes' and caches' state, the cache
 * index, then each possible CPU's sequence word and raw slots: a
 * seq_file that streams records of a page at most (a line, an index
 * entry, 64 words of a slot), so that its buffer is the first page it
 * allocates and a read never fails halfway for want of a larger one.
 * A record's position: 0 the head, 1 + W index entry W, then
 * MSTAT_INTERNALS_CPU + CPU x mstat_internals_per_cpu() + R record R of
 * CPU (0: its line; then each slot's chunks in turn).
 */
#define MSTAT_INTERNALS_WORDS	64
#define MSTAT_INTERNALS_CPU	(1 + MSTAT_CACHE_INDEX)

static unsigned int mstat_internals_chunks(void)
{
	return DIV_ROUND_UP(mstat_nr_words(&mstat_core), MSTAT_INTERNALS_WORDS);
}

static unsigned int mstat_internals_per_cpu(void)
{
	return 1 + 2 * mstat_internals_chunks();
}

static void mstat_internals_head(struct seq_file *m)
{
	struct mstat_core *c = &mstat_core;
	struct mstat_kprobe_view alloc = { }, free = { }, pages = { };

	seq_printf(m, "generation %llu\n", mstat_generation(c));
	seq_printf(m, "sync_mode %s\n", mstat_sync_name[mstat_get_sync(c)]);
	seq_printf(m, "current_slot %u\n", mstat_cur_slot(c));
	seq_printf(m, "words_per_slot %u\n", mstat_nr_words(c));
	mstat_kprobe_state(MSTAT_KPROBE_ALLOC, &alloc);
	mstat_kprobe_state(MSTAT_KPROBE_FREE, &free);
	mstat_kprobe_state(MSTAT_KPROBE_PAGES, &pages);
	seq_printf(m, "kmalloc_twice_sites %u\n", mstat_twice_sites());
	seq_printf(m, "page_watch_full %lu\n", mstat_page_watch_full());
	seq_printf(m, "bulk_alloc_counted %d\n", alloc.on);
	seq_printf(m, "bulk_alloc_missed %lu\n", alloc.missed);
	seq_printf(m, "bulk_free_counted %d\n", free.on);
	seq_printf(m, "bulk_pages_counted %d\n", pages.on);
	seq_printf(m, "bulk_pages_unsampled %lu\n", mstat_bulk_pages_unsampled());
	seq_printf(m, "events_ring_records %lu\n", mstat_stream_records());
	seq_printf(m, "slab_layout %s\n", mstat_slab_state());
	seq_printf(m, "cache_name_offset %d\n", READ_ONCE(mstat_caches.name_off));
	seq_printf(m, "cache_gone_marks %d\n", !!mstat_caches.kmem_cache);
	seq_printf(m, "cache_rows_used %d of %u\n",
		   atomic_read(&mstat_caches.used), mstat_caches.nr_rows);
}

/* Index entry @w: where its row's cache hashes; nothing if it is free. */
static void mstat_internals_index(struct seq_file *m, unsigned int w)
{
	u32 e = READ_ONCE(mstat_cache_index[w]);
	unsigned long key;

	if (e == MSTAT_CACHE_EMPTY)
		return;
	key = READ_ONCE(mstat_cache_key[e]);
	seq_printf(m, "cache_index %u row %u hash %u gone %lu\n", w, e + 1,
		   mstat_cache_hash((void *)(key & ~MSTAT_CACHE_GONE)),
		   key & MSTAT_CACHE_GONE);
}

/* Record @r of @cpu: its line, or a chunk of one of its slots' line. */
static void mstat_internals_cpu(struct seq_file *m, int cpu, unsigned int r)
{
	struct mstat_core *c = &mstat_core;
	unsigned int nwords = mstat_nr_words(c);
	unsigned int k = mstat_internals_chunks();
	unsigned int slot, chunk, w, end;
	unsigned long seq;

	if (!r) {
		seq = mstat_cpu_seq(c, cpu);
		seq_printf(m, "cpu %d online %d seq %#lx sections %lu depth %lu\n",
			   cpu, cpu_online(cpu), seq,
			   seq >> MSTAT_SEQ_DEPTH_BITS,
			   seq & MSTAT_SEQ_DEPTH_MASK);
		return;
	}
	slot = (r - 1) / k;
	chunk = (r - 1) % k;
	if (!chunk)
		seq_printf(m, "cpu %d slot %u:", cpu, slot);
	end = min(nwords, (chunk + 1) * MSTAT_INTERNALS_WORDS);
	for (w = chunk * MSTAT_INTERNALS_WORDS; w < end; w++)
		seq_printf(m, " %llu", mstat_cpu_slot_word(c, cpu, slot, w));
	if (chunk == k - 1)
		seq_putc(m, '\n');
}

/* The record at *@pos, moved past impossible CPUs; NULL past the end. */
static void *mstat_internals_at(loff_t *pos)
{
	unsigned int per_cpu = mstat_internals_per_cpu();
	int cpu;

	if (*pos >= MSTAT_INTERNALS_CPU) {
		if (*pos - MSTAT_INTERNALS_CPU >= (loff_t)nr_cpu_ids * per_cpu)
			return NULL;
		/* Bounded above: no 64-bit division. */
		cpu = (unsigned int)(*pos - MSTAT_INTERNALS_CPU) / per_cpu;
		if (!cpu_possible(cpu)) {
			cpu = cpumask_next(cpu, cpu_possible_mask);
			if (cpu >= nr_cpu_ids)
				return NULL;
			*pos = MSTAT_INTERNALS_CPU + (loff_t)cpu * per_cpu;
		}
	}
	/* Never SEQ_START_TOKEN (1): every record is its position + 2. */
	return (void *)(unsigned long)(*pos + 2);
}

static void *mstat_internals_start(struct seq_file *m, loff_t *pos)
{
	return mstat_internals_at(pos);
}

static void *mstat_internals_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return mstat_internals_at(pos);
}

static void mstat_internals_stop(struct seq_file *m, void *v)
{
}

static int mstat_internals_show(struct seq_file *m, void *v)
{
	unsigned long pos = (unsigned long)v - 2;
	unsigned int per_cpu, rel;

	if (!pos) {
		mstat_internals_head(m);
	} else if (pos < MSTAT_INTERNALS_CPU) {
		mstat_internals_index(m, pos - 1);
	} else {
		per_cpu = mstat_internals_per_cpu();
		rel = pos - MSTAT_INTERNALS_CPU;
		mstat_internals_cpu(m, rel / per_cpu, rel % per_cpu);
	}
	return 0;
}

static const struct seq_operations mstat_internals_sops = {
	.start	= mstat_internals_start,
	.next	= mstat_internals_next,
	.stop	= mstat_internals_stop,
	.show	= mstat_internals_show,
};
DEFINE_SEQ_ATTRIBUTE(mstat_internals);

/* history: Go's PauseNs/PauseEnd, oldest first. */
static int mstat_history_show(struct seq_file *m, void *v)
{
	struct mstat_history *h;
	u64 i, first;
	int err;

	h = kmalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	err = mstat_history_get(&mstat_core, h);
	if (err)
		goto out;
	seq_printf(m, "snapshots %llu\n", h->nr_reads);
	seq_printf(m, "wait_total_ns %llu\n", h->wait_total_ns);
	seq_printf(m, "wait_max_ns %llu\n", h->wait_max_ns);
	seq_printf(m, "waited_cpus_total %llu\n", h->waited_cpus_total);
	seq_puts(m, "# snapshot latency_ns end_ns\n");
	first = h->nr_reads > MSTAT_HISTORY ? h->nr_reads - MSTAT_HISTORY : 0;
	for (i = first; i < h->nr_reads; i++)
		seq_printf(m, "%llu %llu %llu\n", i + 1,
			   h->lat_ns[i % MSTAT_HISTORY],
			   h->end_ns[i % MSTAT_HISTORY]);
out:
	kfree(h);
	return err;
}
DEFINE_SHOW_ATTRIBUTE(mstat_history);

/* Count what debugfs could not create. */
static void mstat_debugfs_made(struct dentry *d, unsigned int *missing)
{
	if (IS_ERR(d))
		(*missing)++;
}

/**
 * mstat_debugfs_init() - create /sys/kernel/debug/mstat/
 *
 * debugfs is optional: failures leave the module working without it, or
 * without some of its files, and say so in the log.
 */
void mstat_debugfs_init(void)
{
	unsigned int i, missing = 0;

	mstat_dir = debugfs_create_dir("mstat", NULL);
	if (IS_ERR(mstat_dir)) {
		/* Without debugfs (or locked down) there is nothing to say. */
		if (PTR_ERR(mstat_dir) != -ENODEV && PTR_ERR(mstat_dir) != -EPERM)
			pr_warn("debugfs: no mstat directory (%ld): no controls, internals or events\n",
				PTR_ERR(mstat_dir));
		return;
	}
	mstat_debugfs_made(debugfs_create_file("internals", 0400, mstat_dir,
					       NULL, &mstat_internals_fops),
			   &missing);
	mstat_debugfs_made(debugfs_create_file("history", 0400, mstat_dir,
					       NULL, &mstat_history_fops),
			   &missing);
	for (i = 0; i < MSTAT_NR_CTLS; i++)
		mstat_debugfs_made(debugfs_create_file(mstat_ctls[i].name,
						       mstat_ctls[i].mode,
						       mstat_dir,
						       (void *)&mstat_ctls[i],
						       &mstat_ctl_fops),
				   &missing);
	mstat_debugfs_made(mstat_stream_debugfs(mstat_dir), &missing);
	if (missing)
		pr_warn("debugfs: %u of mstat's files not created (no memory)\n",
			missing);
}

/**
 * mstat_debugfs_exit() - remove it; waits for calls in progress
 */
void mstat_debugfs_exit(void)
{
	debugfs_remove_recursive(mstat_dir);
	mstat_dir = NULL;
}
